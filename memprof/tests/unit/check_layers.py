#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layers of memprof/ (memprof/README.md), checked from the includes.

The folders, bottom up: platform, engines, results, writers, adapter; a
folder inside one (results/advice/) is part of its layer.  A file may
include headers of its own layer and of the layers below, never of one
above; only the platform's mp_platform.h and mp_vgcompat.h and the
adapter may include a Valgrind header (the engines, results and writers
are compiled on the host for the unit tests); and no two modules
(x.c with x.h) include each other, directly or round a longer circle.

And the writers only write: no file of writers/ calls (or names) a
function of the engines, a prototype or a static inline function of an
engines/*.h; everything they print the results hold as values
(results/mp_results_types.h).  Reading a field of a type an engine
header defines is fine; a macro is not a function.

Prints one PASS line per rule or a FAIL line per offence; exits 1 on
any offence.  MP_SRCDIR names the memprof/ folder (default: ../.. from
here).
"""
import os
import re
import sys

LAYERS = ["platform", "engines", "results", "writers", "adapter"]
# Headers outside the layers: the client's header (for the adapter's
# client requests and the preload).
PUBLIC = {"memprof.h": len(LAYERS) - 1}
VALGRIND = re.compile(r'(pub_tool_|pub_core_|libvex|valgrind\.h)')
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)
# The platform header maps Valgrind's library for the layers above; the
# version-compatibility header is where any core detail is isolated.
MAY_INCLUDE_VALGRIND = {"mp_platform.h", "mp_vgcompat.h"}


def shown(src, p):
    """p as the messages name it: "results/advice/mp_advisor.h"."""
    return os.path.relpath(p, src)


def layer_files(src, d):
    """The .c and .h files of layer d, as (file name, path), sorted: those
    of its folder and of the folders inside it, which are part of it."""
    found = []
    for root, dirs, files in os.walk(os.path.join(src, d)):
        dirs.sort()
        found += [(f, os.path.join(root, f)) for f in sorted(files)
                  if f.endswith((".c", ".h"))]
    return found


def sources(src):
    """{file name: layer index}, and {file name: path}.  The includes
    name a file without its folder: a name is one file of the tree."""
    layer, path = {}, {}
    for i, d in enumerate(LAYERS):
        folder = os.path.join(src, d)
        if not os.path.isdir(folder):
            print(f"FAIL: {folder} is missing")
            sys.exit(1)
        for f, p in layer_files(src, d):
            if f in layer:
                print(f"FAIL: two files are named {f}: "
                      f"{shown(src, path[f])} and {shown(src, p)}")
                sys.exit(1)
            layer[f] = i
            path[f] = p
    return layer, path


def includes(p):
    with open(p, encoding="utf-8") as fh:
        return INCLUDE.findall(fh.read())


def module(f):
    return f.rsplit(".", 1)[0]


def find_circle(graph):
    """A circle of graph (module -> set of modules), as a list, or None."""
    colour = {m: 0 for m in graph}
    stack = []

    def visit(m):
        colour[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if colour.get(n, 2) == 1:
                return stack[stack.index(n):] + [n]
            if colour.get(n) == 0:
                c = visit(n)
                if c:
                    return c
        stack.pop()
        colour[m] = 2
        return None

    for m in sorted(graph):
        if colour[m] == 0:
            c = visit(m)
            if c:
                return c
    return None


COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
PREPROC = re.compile(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', re.M)
IDENT = re.compile(r'[A-Za-z_]\w*')
FUNC_NAME = re.compile(r'([A-Za-z_]\w*)\s*\($')


def code_of(p):
    """The C text of p without comments, strings or preprocessor lines."""
    with open(p, encoding="utf-8") as fh:
        text = COMMENT.sub(" ", fh.read())
    return PREPROC.sub(" ", STRING.sub('""', text))


def declared_functions(p):
    """The functions header p declares or defines at file scope: each
    prototype and static inline function, the identifier before the
    first "(" of a declaration that is not a typedef (a typedef of a
    function pointer is a type; "void (*f)(...)" names no function)."""
    names = set()
    depth = 0
    decl = ""           # the declaration so far, at file scope
    for ch in code_of(p):
        if depth == 0:
            if ch == "(" and "(" not in decl and not re.match(r'\s*typedef\b', decl):
                m = FUNC_NAME.search(decl + "(")
                if m and decl[:m.start()].strip():    # a type before the name
                    names.add(m.group(1))
            if ch == ";":
                decl = ""
                continue
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth == 0 and ch == "}":    # a function's body, a struct's
                decl = ""
                continue
        if depth == 0 or (depth == 1 and ch in "({["):
            decl += ch
    return names


def writers_call_engines(src):
    """Offences against "the writers call no engine function": one line
    per writer file and engine function it names."""
    engines = {}
    for f, p in layer_files(src, "engines"):
        if f.endswith(".h"):
            for name in declared_functions(p):
                engines[name] = shown(src, p)
    found = []
    for f, p in layer_files(src, "writers"):
        used = set(IDENT.findall(code_of(p)))
        for name in sorted(used & set(engines)):
            found.append(f"{shown(src, p)} calls {name} ({engines[name]})")
    return found


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.environ.get("MP_SRCDIR") or os.path.join(here, "..", "..")
    layer, path = sources(src)
    bad = 0
    graph = {module(f): set() for f in layer}
    for f, p in sorted(path.items()):
        mine = layer[f]
        for inc in includes(p):
            name = os.path.basename(inc)
            if VALGRIND.match(name):
                if LAYERS[mine] != "adapter" and f not in MAY_INCLUDE_VALGRIND:
                    print(f"FAIL: {shown(src, p)} includes the Valgrind "
                          f"header {inc}")
                    bad += 1
                continue
            if name in PUBLIC:
                theirs = PUBLIC[name]
            elif name in layer:
                theirs = layer[name]
                if module(name) != module(f):
                    graph[module(f)].add(module(name))
            else:
                continue        # the C library's, or the unit tests' own
            if theirs > mine:
                print(f"FAIL: {shown(src, p)} includes {inc}, of the "
                      f"layer above ({LAYERS[theirs]}/)")
                bad += 1
    if bad == 0:
        print("PASS: each file includes its own layer and those below")
        print("PASS: only the platform and the adapter include Valgrind")
    calls = writers_call_engines(src)
    for c in calls:
        print("FAIL: " + c)
    if calls:
        bad += len(calls)
    else:
        print("PASS: the writers call no engine function")
    circle = find_circle(graph)
    if circle:
        print("FAIL: include circle: " + " -> ".join(circle))
        bad += 1
    else:
        print("PASS: no include circle between modules")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
