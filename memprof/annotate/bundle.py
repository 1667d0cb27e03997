#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bundle.py -- makes the installed memprof_annotate, one file as Valgrind's
# cg_annotate is, from the modules of this folder: the command line,
# memprof_annotate.py, and every module it imports from here, directly or
# not, each once, those it imports before it.  A module's imports of the
# others ("from annotate_text import (clean, num)") are dropped: in one
# file the names are already there.  The build runs it (see the top
# Makefile.am); the tests check that the bundle prints what the modules
# print (memprof/tests/unit/test_annotate.sh).
#
#    bundle.py [--version=V] [--check] ENTRY.py    the bundle on stdout
#
# --version substitutes V for the @-delimited VERSION token; --check
# prints nothing, only checks.  The bundle behaves as the modules do only
# when these hold, so it refuses (exit 1, one line per fault on stderr)
# modules that break them:
#   - a module imports another only as "from MODULE import NAME, ...", at
#     its top level (not in a function, not "import MODULE", not "*"),
#     and MODULE has NAME (defines it, or imports it from another module);
#   - no import circle;
#   - no top-level name is defined by two modules, and a name a module
#     imports from the standard library is not defined by another;
#   - no "global" statement (a module's global would be everyone's), no
#     "if __name__ == '__main__'" but in the entry module, and no
#     "from __future__".
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

import ast
import os
import sys


class BundleError(Exception):
    pass


class Module:
    def __init__(self, name, path):
        self.name = name
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.tree = ast.parse(self.text, path)
        # [(module, [names], node)] of the imports of sibling modules.
        self.local_imports = []
        # {name: node} defined at top level; {name: source} imported from
        # elsewhere ("json", "typing.Any").
        self.defined = {}
        self.foreign = {}


def is_main_guard(node):
    return isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)


def bound_names(target):
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in bound_names(t)]
    return []


def scan(mod, folder, faults):
    """Fills mod's imports and names; appends faults."""
    where = os.path.basename(mod.path)

    def local(name):
        return os.path.isfile(os.path.join(folder, name + ".py"))

    top = set(map(id, mod.tree.body))
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Global):
            faults.append("%s:%d: a global statement" % (where, node.lineno))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if local(a.name):
                    faults.append("%s:%d: 'import %s': import names from it "
                                  "('from %s import ...')"
                                  % (where, node.lineno, a.name, a.name))
        elif isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                faults.append("%s:%d: from __future__" % (where, node.lineno))
            elif node.level == 0 and local(node.module):
                if id(node) not in top:
                    faults.append("%s:%d: an import of %s not at the top "
                                  "level" % (where, node.lineno, node.module))
                elif any(a.name == "*" for a in node.names):
                    faults.append("%s:%d: 'from %s import *'"
                                  % (where, node.lineno, node.module))
                elif any(a.asname and a.asname != a.name for a in node.names):
                    faults.append("%s:%d: an import of %s renames a name"
                                  % (where, node.lineno, node.module))
                else:
                    mod.local_imports.append(
                        (node.module, [a.name for a in node.names], node))
    for node in mod.tree.body:
        names = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [n for t in node.targets for n in bound_names(t)]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            names = bound_names(node.target)
        elif isinstance(node, (ast.For, ast.With)):
            faults.append("%s:%d: a top-level %s binds names the bundle "
                          "cannot check" % (where, node.lineno,
                                            type(node).__name__.lower()))
        elif isinstance(node, ast.Import):
            for a in node.names:
                mod.foreign[a.asname or a.name.split(".")[0]] = a.name
        elif isinstance(node, ast.ImportFrom):
            if not (node.level == 0 and local(node.module)):
                for a in node.names:
                    mod.foreign[a.asname or a.name] = "%s.%s" % (node.module,
                                                                 a.name)
        elif is_main_guard(node):
            names = ["__main__ guard"]
        for n in names:
            mod.defined.setdefault(n, node)


def load_all(entry, faults):
    """The modules entry needs, dependencies first."""
    folder = os.path.dirname(os.path.abspath(entry))
    mods, order, state = {}, [], {}

    def visit(name, path, chain):
        if state.get(name) == "done":
            return
        if state.get(name) == "open":
            circle = chain[chain.index(name):] + [name]
            faults.append("import circle: %s" % " -> ".join(circle))
            return
        state[name] = "open"
        mod = Module(name, path)
        scan(mod, folder, faults)
        mods[name] = mod
        for dep, _, _ in mod.local_imports:
            visit(dep, os.path.join(folder, dep + ".py"), chain + [name])
        state[name] = "done"
        order.append(mod)

    name = os.path.splitext(os.path.basename(entry))[0]
    visit(name, entry, [])
    return order, mods


def check(order, mods, faults):
    entry = order[-1]
    owner = {}
    for mod in order:
        for n in mod.defined:
            if n == "__main__ guard":
                if mod is not entry:
                    faults.append("%s: an \"if __name__ == '__main__'\" "
                                  "outside the entry module" % mod.name)
                continue
            if n.startswith("__") and n.endswith("__"):
                continue        # __all__, __doc__: harmless in one file
            if n in owner:
                faults.append("%s is defined by both %s and %s"
                              % (n, owner[n], mod.name))
            owner[n] = mod.name
    for mod in order:
        for n, source in mod.foreign.items():
            if n in owner:
                faults.append("%s imports %s as %s, which %s defines"
                              % (mod.name, source, n, owner[n]))
        for dep, names, node in mod.local_imports:
            have = set(mods[dep].defined) | {
                n for _, ns, _ in mods[dep].local_imports for n in ns}
            for n in names:
                if n not in have:
                    faults.append("%s:%d: %s has no %s"
                                  % (mod.name, node.lineno, dep, n))
    seen = {}
    for mod in order:
        for n, source in mod.foreign.items():
            if seen.setdefault(n, source) != source:
                faults.append("%s is %s in one module and %s in another"
                              % (n, seen[n], source))


def bundle(order, version):
    out = ["#!/usr/bin/env python3\n",
           "# SPDX-License-Identifier: GPL-2.0-or-later\n",
           "#\n",
           "# memprof_annotate -- prints memprof's JSON output "
           "(memprof.out.<pid>) as\n",
           "# text in the manner of cg_annotate / callgrind_annotate.\n",
           "#\n",
           "# Made by memprof/annotate/bundle.py from the modules of "
           "memprof/annotate/,\n",
           "# each below its name, their imports of one another dropped: "
           "edit those,\n",
           "# not this file.\n"]
    for mod in order:
        lines = mod.text.splitlines(keepends=True)
        drop = set()
        for _, _, node in mod.local_imports:
            drop.update(range(node.lineno - 1, node.end_lineno))
        if lines and lines[0].startswith("#!"):
            drop.add(0)
        out.append("\n\n# %s\n# %s\n# %s\n\n"
                   % ("=" * 75, mod.name + ".py", "=" * 75))
        out.extend(l for i, l in enumerate(lines) if i not in drop)
    text = "".join(out)
    if version is not None:
        text = text.replace("@" + "VERSION@", version)
    compile(text, "memprof_annotate", "exec")
    return text


def main(argv):
    version, only_check, entry = None, False, None
    for a in argv:
        if a.startswith("--version="):
            version = a.split("=", 1)[1]
        elif a == "--check":
            only_check = True
        elif entry is None and not a.startswith("-"):
            entry = a
        else:
            sys.stderr.write("usage: bundle.py [--version=V] [--check] "
                             "ENTRY.py\n")
            return 2
    if entry is None:
        sys.stderr.write("usage: bundle.py [--version=V] [--check] ENTRY.py\n")
        return 2
    faults = []
    try:
        order, mods = load_all(entry, faults)
        if not faults:
            check(order, mods, faults)
    except (OSError, SyntaxError) as e:
        faults.append(str(e))
    if faults:
        for f in faults:
            sys.stderr.write("bundle.py: %s\n" % f)
        return 1
    text = bundle(order, version)
    if not only_check:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
