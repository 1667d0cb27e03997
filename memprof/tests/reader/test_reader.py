#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of memprof_reader, the reader of memprof's JSON output.

sample.json, beside this file, is written by hand (not by memprof): two
threads, two cache levels, a heap site read in a loop and a global
counter that both threads write, with every section of the format.  The
values expected below are read off it.  The bad inputs are made from it
one change at a time, so that each error has one cause.

Prints one line per test ("PASS: ..." / "FAIL: ...") and a last line
"N passed, N failed"; exits 1 when a test failed.
"""
import ast
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
MEMPROF = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.dont_write_bytecode = True         # nothing written into the tree
sys.path.insert(0, os.path.join(MEMPROF, "annotate"))

from memprof_reader import (  # noqa: E402  (after the path)
    Bin, ByteRange, FormatError, Interval, Median, parse_document, read_file)

SAMPLE = os.path.join(HERE, "sample.json")


def sample_doc():
    with open(SAMPLE) as f:
        return json.load(f)


class Sample(unittest.TestCase):
    """What the reader makes of a good file."""

    @classmethod
    def setUpClass(cls):
        cls.f = read_file(SAMPLE)

    def test_top_level(self):
        f = self.f
        self.assertEqual((f.path, f.version, f.tool_version, f.command,
                          f.pid), (SAMPLE, 1, "0.1.0", "./pairs 2", 4242))
        self.assertEqual((f.end.by, f.end.status, f.partial),
                         ("exit", 0, False))
        self.assertEqual(f.missing, [])

    def test_config(self):
        c = self.f.config
        self.assertEqual((c.line, c.collect_atstart, c.toggle_collect,
                          c.min_var_size), (64, True, [], 0))
        self.assertEqual(self.f.level_names, ["L1", "L2"])
        l2 = c.levels[1]
        self.assertEqual((l2.size, l2.assoc, l2.shared_by, l2.latency,
                          l2.cause_sample_rate),
                         (1048576, 16, 2, 14, 0.0625))
        self.assertEqual((c.prefetch.kind, c.prefetch.streams), ("none", None))
        self.assertEqual((c.reuse.sample, c.reuse.weight, c.reuse.estimated),
                         ("off", 1, False))
        self.assertEqual((c.strides.history, c.strides.mode,
                          c.strides.threshold), (5, "filtered", 128))
        self.assertIs(c.sharing, True)
        # Not written for one socket: None, not 0.
        self.assertIsNone(c.page_size)
        # Every setting as written, the unknown one too, in file order.
        self.assertEqual(list(c.settings)[-1], "a_future_setting")
        self.assertEqual(list(c.settings)[:2], ["line", "collect_atstart"])

    def test_totals(self):
        t = self.f.totals
        # 30 reads of pairs + 10 writes of counter.
        self.assertEqual((t.reads, t.writes, t.accesses), (30, 10, 40))
        self.assertEqual(list(t.cache), ["L1", "L2"])
        self.assertEqual((t.cache["L1"].misses, t.cache["L1"].coherence,
                          t.cache["L1"].mpki), (4, 1, 2.5))
        # L2 has no mpki in the file: not measured.
        self.assertIsNone(t.cache["L2"].mpki)
        self.assertEqual((t.cycles, t.cpa, t.instructions),
                         (758, 18.95, 1600))
        self.assertIsNone(t.prefetch)

    def test_heap_variable(self):
        v = self.f.variables[0]
        self.assertEqual((v.name, v.kind, v.where, v.size, v.blocks),
                         ("pairs", "heap", "pairs.c:12", 64, 1))
        self.assertEqual(v.alloc_stack, ["0x1091E3: main (pairs.c:12)"])
        self.assertFalse(v.folded)
        self.assertEqual((v.cache["L1"].hits, v.cache["L1"].hits_per_fill),
                         (29, 29))
        self.assertEqual(v.served, {"L1": 29, "L2": 0, "mem": 1})
        self.assertEqual(v.reuse.private, [Bin(0, 0, 22), Bin(1, 1, 7)])
        self.assertEqual(v.reuse.median_private, Median(0, 0))
        self.assertIsNone(v.reuse.median_shared)
        self.assertIsNone(v.reuse.mean_shared)
        self.assertEqual(v.strides.hists("load")[0], [Bin(8, 8, 29)])
        self.assertEqual(len(v.strides.store), 5)
        self.assertEqual(v.strides.negative["store"], [0] * 5)
        self.assertEqual((v.strides.classes.unit, v.strides.dominant.bytes,
                          v.strides.dominant.lines), (29, 8, 0.125))
        self.assertIsNone(v.sharing)
        self.assertIsNone(v.numa)

    def test_per_line(self):
        r = self.f.variables[0].per_line[0]
        self.assertEqual((r.where, r.fn, r.reads, r.writes),
                         ("pairs.c:20", "sum", 30, 0))
        self.assertEqual(r.misses, {"L1": 1, "L2": 1})
        self.assertEqual((r.reuse.cold, r.reuse.private[1].count), (1, 7))
        self.assertEqual(r.strides.unit, 29)
        # The per_line rows of a variable sum to its counts.
        v = self.f.variables[0]
        self.assertEqual(sum(x.reads for x in v.per_line), v.reads)

    def test_sharing(self):
        v = self.f.variables[1]
        self.assertIsNone(v.where)
        # counter has no L2 object: that level is None, the others read.
        self.assertEqual(list(v.cache), ["L1", "L2"])
        self.assertIsNone(v.cache["L2"])
        sh = v.sharing
        self.assertEqual((sh.shared_lines, sh.true_lines,
                          sh.predicted_transfers), (1, 1, 10))
        wl = sh.worst_lines[0]
        self.assertEqual((wl.line, wl.offset, wl.kind), ("0x10c080", -8,
                                                         "true"))
        self.assertEqual([t.thread for t in wl.threads], [1, 2])
        self.assertEqual(wl.threads[0].write_bytes, [ByteRange(8, 11)])
        self.assertEqual(wl.threads[1].where, [None])

    def test_communication(self):
        p = self.f.communication[0]
        self.assertEqual((p.from_, p.to_fn, p.variable, p.count, p.true),
                         ("pairs.c:30", "bump", "counter", 1, 1))
        m = self.f.communication_matrix
        self.assertEqual(m.threads, [1, 2])
        self.assertEqual((m.cells[0].from_, m.cells[0].to,
                          m.cells[0].bytes), (1, 2, 4))

    def test_loops_struct_advice(self):
        loop = self.f.loops[0]
        self.assertEqual((loop.id, loop.function, loop.parent,
                          loop.formulas[0].formula), (3, "sum", None, "8*i1"))
        self.assertEqual((loop.class_, loop.object), ("program", "pairs"))
        st = self.f.variables[0].struct
        self.assertEqual((st.size, [x.offset for x in st.fields],
                          st.fields[0].loops, st.groups),
                         (16, [0, 8], [3], [[0, 8]]))
        self.assertEqual((st.affinity[0].i, st.affinity[0].j,
                          st.affinity[0].w), (0, 1, 1))
        a = self.f.advice[0]
        self.assertEqual((a.kind, a.variable, a.loop, a.where, a.score),
                         ("too-many-streams", None, 3, ["pairs.c:19"], 0.75))


def parsed(doc, strict=False):
    return parse_document(doc, "F", strict)


class Lenient(unittest.TestCase):
    """What the reader must accept: the format's rules for readers, and
    the files cut down by hand that memprof_annotate reads."""

    def test_minimal(self):
        f = parsed({"memprof": 1, "totals": {}, "variables": [
            {"name": "v", "kind": "global", "reads": 1, "writes": 0}]})
        v = f.variables[0]
        self.assertEqual((v.name, v.size, v.per_line, v.strides),
                         ("v", None, None, None))
        self.assertIsNone(f.level_names)
        self.assertIsNone(f.loops)
        self.assertIn("command", f.missing)
        self.assertIn("variables[0].size", f.missing)

    def test_integer_for_number(self):
        d = sample_doc()
        d["variables"][0]["cpa"] = 10
        self.assertEqual(parsed(d).variables[0].cpa, 10)

    def test_unknown_keys(self):
        d = sample_doc()
        d["variables"][0]["a_new_metric"] = {"x": [1, 2]}
        d["a_new_section"] = []
        self.assertEqual(parsed(d).variables[0].name, "pairs")

    def test_tlb(self):
        # --TLB: the geometry, the run's counts and each variable's
        # (mp_show.py --tlb prints them); none without the option.
        d = sample_doc()
        self.assertIsNone(parsed(d).config.tlb)
        d["config"]["tlb"] = {"entries": 64, "assoc": 4, "page": 4096}
        d["totals"]["tlb"] = {"accesses": 40, "misses": 3, "mpki": 0.5}
        d["variables"][0]["tlb"] = {"hits": 28, "misses": 2}
        f = parsed(d)
        c, t, v = f.config.tlb, f.totals.tlb, f.variables[0].tlb
        self.assertEqual((c.entries, c.assoc, c.page), (64, 4, 4096))
        self.assertEqual((t.accesses, t.misses, t.mpki), (40, 3, 0.5))
        self.assertEqual((v.hits, v.misses), (28, 2))
        self.assertIsNone(f.variables[1].tlb)
        d["variables"][0]["tlb"]["misses"] = -2
        with self.assertRaises(FormatError) as cm:
            parsed(d)
        self.assertEqual(str(cm.exception), "F: variables[0].tlb.misses: "
                         "expected a non-negative integer, got -2")

    def test_end(self):
        # How the run ended (mp_show.py --end prints it).
        d = sample_doc()
        d["end"] = {"by": "signal"}
        d["partial"] = True
        f = parsed(d)
        self.assertEqual((f.end.by, f.end.status, f.partial),
                         ("signal", None, True))
        del d["end"], d["partial"]
        f = parsed(d)
        self.assertEqual((f.end, f.partial), (None, None))

    def test_no_simulation(self):
        # config.levels without a simulation in the totals is a setting
        # only: the variables' cache data is not read.
        d = sample_doc()
        del d["totals"]["cache"], d["totals"]["cycles"]
        d["variables"][0]["cache"] = "not read"
        f = parsed(d)
        self.assertIsNone(f.level_names)
        self.assertIsNone(f.variables[0].cache)
        self.assertEqual(len(f.config.settings["levels"]), 2)


class Bad(unittest.TestCase):
    """What the reader must refuse, with a message naming the key."""

    def refused(self, doc, message, strict=False):
        with self.assertRaises(FormatError) as cm:
            parsed(doc, strict)
        self.assertEqual(str(cm.exception), message)

    def test_not_json(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as t:
            t.write('{"memprof": 1, "totals": {')
            t.flush()
            with self.assertRaises(FormatError) as cm:
                read_file(t.name)
        self.assertIn("invalid JSON (the file ends early: truncated?)",
                      str(cm.exception))

    def test_not_memprof(self):
        self.refused([1, 2], "F: not a memprof output file (top level is "
                     "not an object)")
        self.refused({"totals": {}}, "F: not a memprof output file "
                     "(missing required key 'memprof')")

    def test_newer_version(self):
        d = sample_doc()
        d["memprof"] = 2
        self.refused(d, "F: format version 2 is newer than this reader "
                     "understands (1)")
        d["memprof"] = 1
        parsed(d)

    def test_bad_version(self):
        d = sample_doc()
        d["memprof"] = "1"
        self.refused(d, 'F: bad format version "1"')

    def test_wrong_type(self):
        d = sample_doc()
        d["variables"][1]["per_line"][0]["writes"] = -10
        self.refused(d, "F: variables[1].per_line[0].writes: expected a "
                     "non-negative integer, got -10")

    def test_missing_required(self):
        d = sample_doc()
        del d["variables"][0]["kind"]
        self.refused(d, "F: variables[0]: missing required key 'kind'")

    def test_histogram(self):
        d = sample_doc()
        d["variables"][0]["reuse"]["private"].append([1, 3, 2])
        self.refused(d, "F: variables[0].reuse.private[2]: bin 1 given "
                     "twice")

    def test_fraction(self):
        d = sample_doc()
        d["variables"][0]["cache"]["L1"]["reused_share"] = 1.5
        self.refused(d, "F: variables[0].cache.L1.reused_share: expected "
                     "a number from 0 to 1, got 1.5")

    def test_strict(self):
        d = sample_doc()
        parsed(d, strict=True)
        del d["variables"][1]["lines"]
        self.assertEqual(parsed(d).missing, ["variables[1].lines"])
        self.refused(d, "F: variables[1]: missing required key 'lines'",
                     strict=True)


def lines_doc():
    """sample.json as --sample=lines writes it (1 in 32 of the lines, 2
    of L1's 64 sets): config.sampling, and per variable its sampled
    lines, whether they are enough, and the intervals of its estimates.
    counter, in one line, is not estimable."""
    d = sample_doc()
    d["config"]["sampling"] = {
        "mode": "lines", "rate": 0.03125, "sets": 2, "l1_sets": 64,
        "scale": 32, "min_lines": 2, "unattributed_accesses": 1964}
    d["variables"][0].update(sampled_lines=2, estimable=True, ci={
        "accesses": [25, 35], "misses": {"L1": [0, 3], "L2": [0, 3]},
        "cycles": [250, 380], "stall_cycles": [130, 260]})
    d["variables"][1].update(sampled_lines=1, estimable=False, ci={
        "accesses": [1, 40], "misses": {"L1": [1, 90], "L2": [0, 60]},
        "cycles": [20, 900], "stall_cycles": [10, 800]})
    return d


class Lines(unittest.TestCase):
    """--sample=lines: the sampling's settings and each variable's
    estimates' intervals."""

    def test_sampling(self):
        sm = parsed(lines_doc()).config.sampling
        self.assertEqual((sm.mode, sm.rate, sm.sets, sm.l1_sets, sm.scale,
                          sm.min_lines, sm.unattributed_accesses),
                         ("lines", 0.03125, 2, 64, 32, 2, 1964))
        # The other modes' keys are not written: None.
        self.assertIsNone(sm.window)

    def test_intervals(self):
        f = parsed(lines_doc(), strict=True)
        v, w = f.variables
        self.assertEqual((v.sampled_lines, v.estimable), (2, True))
        self.assertEqual(v.ci.accesses, Interval(25, 35))
        self.assertEqual((v.ci.accesses.lo, v.ci.accesses.hi), (25, 35))
        self.assertEqual(v.ci.misses, {"L1": Interval(0, 3),
                                       "L2": Interval(0, 3)})
        self.assertEqual((v.ci.cycles, v.ci.stall_cycles),
                         (Interval(250, 380), Interval(130, 260)))
        self.assertEqual((w.sampled_lines, w.estimable), (1, False))
        self.assertEqual(w.ci.misses["L2"], Interval(0, 60))

    def test_summary(self):
        # A summary (one line, its misses per level) has them too.
        d = lines_doc()
        v = d["variables"][1]
        for k in ("per_line", "cache", "served", "sharing"):
            v.pop(k, None)
        v.update(summary=True, misses={"L1": 3, "L2": 1})
        w = parsed(d, strict=True).variables[1]
        self.assertEqual((w.cache["L1"].misses, w.estimable,
                          w.ci.stall_cycles), (3, False, Interval(10, 800)))

    def test_other_modes(self):
        # Without --sample=lines: none of it.
        v = parsed(sample_doc()).variables[0]
        self.assertEqual((v.sampled_lines, v.estimable, v.ci),
                         (None, None, None))

    def test_no_simulation(self):
        # Without a simulation only the accesses' interval is read.
        d = lines_doc()
        del d["totals"]["cache"], d["totals"]["cycles"]
        d["variables"][0]["ci"]["cycles"] = "not read"
        ci = parsed(d).variables[0].ci
        self.assertEqual((ci.accesses, ci.misses, ci.cycles),
                         (Interval(25, 35), None, None))

    def refused(self, doc, message):
        with self.assertRaises(FormatError) as cm:
            parsed(doc)
        self.assertEqual(str(cm.exception), message)

    def test_bad_interval(self):
        d = lines_doc()
        d["variables"][0]["ci"]["cycles"] = [380, 250]
        self.refused(d, "F: variables[0].ci.cycles: lo 380 above hi 250")
        d["variables"][0]["ci"]["cycles"] = [250]
        self.refused(d, "F: variables[0].ci.cycles: expected an interval "
                     "[lo, hi], got [250]")
        d["variables"][0]["ci"]["cycles"] = {"lo": 250, "hi": 380}
        self.refused(d, "F: variables[0].ci.cycles: expected an interval "
                     '[lo, hi], got {"lo": 250, "hi": 380}')
        d = lines_doc()
        d["variables"][1]["ci"]["misses"]["L2"] = [0, -60]
        self.refused(d, "F: variables[1].ci.misses.L2[1]: expected a "
                     "non-negative integer, got -60")
        d["variables"][1]["ci"]["misses"] = [[1, 90], [0, 60]]
        self.refused(d, "F: variables[1].ci.misses: expected an object, "
                     "got [[1, 90], [0, 60]]")

    def test_bad_fields(self):
        d = lines_doc()
        d["variables"][1]["estimable"] = "no"
        self.refused(d, 'F: variables[1].estimable: expected true or false, '
                     'got "no"')
        d = lines_doc()
        d["variables"][0]["ci"] = [25, 35]
        self.refused(d, "F: variables[0].ci: expected an object, got "
                     "[25, 35]")
        d = lines_doc()
        d["config"]["sampling"]["rate"] = 32
        self.refused(d, "F: config.sampling.rate: expected a number from 0 "
                     "to 1, got 32")
        d = lines_doc()
        d["config"]["sampling"]["min_lines"] = 1.5
        self.refused(d, "F: config.sampling.min_lines: expected a "
                     "non-negative integer, got 1.5")


ANNOTATE = os.path.join(MEMPROF, "annotate")
BUNDLE = os.path.join(ANNOTATE, "bundle.py")


def annotator_modules():
    """{module name: path} of the annotator's modules, the reader's too
    (bundle.py, which makes the installed script of them, is not one)."""
    return dict((f[:-3], os.path.join(ANNOTATE, f))
                for f in sorted(os.listdir(ANNOTATE))
                if f.endswith(".py") and f != "bundle.py")


def top_level(path):
    """(the names a module defines at its top level, {sibling module it
    imports: the names it imports from it})."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names, imports = set(), {}
    siblings = annotator_modules()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets
                         if isinstance(t, ast.Name)
                         and not t.id.startswith("__"))
        elif isinstance(node, ast.ImportFrom) and node.module in siblings:
            imports.setdefault(node.module, set()).update(
                a.name for a in node.names)
    return names, imports


class Modules(unittest.TestCase):
    """The annotator is a package of modules (memprof/annotate/README.md)
    that the build bundles into the one installed memprof_annotate, as
    it inlined the reader before: in one file every module's names are
    everyone's, so no two modules may define the same name, and the
    reader, memprof_records and memprof_reader, is two of them."""

    def test_no_shared_name(self):
        owner = {}
        for mod, path in annotator_modules().items():
            for n in top_level(path)[0]:
                self.assertNotIn(n, owner, "%s defines %s, as %s does"
                                 % (mod, n, owner.get(n)))
                owner[n] = mod
        # The reader's entry points are the reader's; the annotator's
        # main is the command line's.
        self.assertEqual(owner["read_file"], "memprof_reader")
        self.assertEqual(owner["Variable"], "memprof_records")
        self.assertEqual(owner["main"], "memprof_annotate")

    def test_imported_names_exist(self):
        mods = annotator_modules()
        tops = dict((m, top_level(p)) for m, p in mods.items())
        for mod, (_, imports) in tops.items():
            for dep, names in imports.items():
                have = tops[dep][0].union(*tops[dep][1].values())
                self.assertEqual(names - have, set(),
                                 "%s imports from %s" % (mod, dep))

    def test_no_import_circle(self):
        deps = dict((m, set(top_level(p)[1]))
                    for m, p in annotator_modules().items())
        # A module's layer: one above the highest of those it imports.
        layer = {}

        def depth(m, chain):
            self.assertNotIn(m, chain, "import circle: %s"
                             % " -> ".join(chain + [m]))
            if m not in layer:
                layer[m] = 1 + max([depth(d, chain + [m])
                                    for d in deps[m]] or [-1])
            return layer[m]
        for m in deps:
            depth(m, [])
        self.assertEqual(layer["memprof_records"], 0)
        self.assertEqual(layer["memprof_reader"], 1)
        # The reader imports nothing of the annotator.
        self.assertEqual(deps["memprof_reader"], {"memprof_records"})
        self.assertEqual(deps["memprof_records"], set())

    def test_size_and_header(self):
        for mod, path in annotator_modules().items():
            with open(path) as f:
                lines = f.read().split("\n")
            self.assertLessEqual(len(lines), 1500, mod)
            head = [l for l in lines[:5] if l.startswith("# " + mod)]
            self.assertTrue(head and " -- " in head[0],
                            "%s: no '# %s -- what it owns' header"
                            % (mod, mod))

    def test_bundle_checks(self):
        r = subprocess.run([sys.executable, BUNDLE, "--check",
                            os.path.join(ANNOTATE, "memprof_annotate.py")],
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def bundle_faults(self, files):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name + ".py"), "w") as f:
                    f.write(text)
            r = subprocess.run([sys.executable, BUNDLE, "--check",
                                os.path.join(d, "main.py")],
                               capture_output=True, text=True)
        self.assertEqual(r.returncode, 1 if r.stderr else 0)
        return r.stderr

    def test_bundle_refuses(self):
        # What would make the one file behave otherwise than the modules.
        ok = {"main": "from a import f\nimport os\nf()\n",
              "a": "import os\n\n\ndef f():\n    return os.sep\n"}
        self.assertEqual(self.bundle_faults(ok), "")
        self.assertIn("f is defined by both a and main", self.bundle_faults(
            dict(ok, main="from a import f\n\n\ndef f():\n    pass\n")))
        self.assertIn("import circle: main -> a -> main",
                      self.bundle_faults(dict(ok, a="from main import g\n")))
        self.assertIn("a has no g", self.bundle_faults(
            dict(ok, main="from a import g\n")))
        self.assertIn("a global statement", self.bundle_faults(
            dict(ok, a="X = 1\n\n\ndef f():\n    global X\n")))
        self.assertIn("'import a'", self.bundle_faults(
            dict(ok, main="import a\na.f()\n")))
        self.assertIn("not at the top level", self.bundle_faults(
            dict(ok, main="def g():\n    from a import f\n")))
        self.assertIn("imports os.sep as sep, which a defines",
                      self.bundle_faults(dict(
                          ok, main="from a import f\nfrom os import sep\n",
                          a="sep = 1\n\n\ndef f():\n    pass\n")))
        self.assertIn("outside the entry module", self.bundle_faults(dict(
            ok, a="def f():\n    pass\n\n\nif __name__ == '__main__':\n"
            "    f()\n")))

    def test_bundle_drops_imports(self):
        # The version substituted, the modules in the order of their
        # imports, their imports of one another gone; it runs.
        r = subprocess.run([sys.executable, BUNDLE, "--version=9.9",
                            os.path.join(ANNOTATE, "memprof_annotate.py")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        order = [l[2:-3] for l in r.stdout.split("\n")
                 if l.startswith("# ") and l.endswith(".py")
                 and l[2:-3] in annotator_modules()]
        self.assertEqual(sorted(order), sorted(annotator_modules()))
        self.assertEqual(order[:2], ["memprof_records", "memprof_reader"])
        self.assertEqual(order[-1], "memprof_annotate")
        self.assertNotIn("from memprof_reader import", r.stdout)
        self.assertNotIn("from annotate_", r.stdout)
        with tempfile.NamedTemporaryFile("w", suffix=".py") as t:
            t.write(r.stdout)
            t.flush()
            v = subprocess.run([sys.executable, t.name, "--version"],
                               capture_output=True, text=True, cwd=HERE)
        self.assertEqual(v.stdout, "memprof_annotate 9.9 (JSON format "
                         "version 1)\n")


class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        print("PASS: %s" % test.id().split(".", 1)[1])

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print("FAIL: %s" % test.id().split(".", 1)[1])

    def addError(self, test, err):
        super().addError(test, err)
        print("FAIL: %s" % test.id().split(".", 1)[1])


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    runner = unittest.TextTestRunner(stream=sys.stderr, resultclass=Result,
                                     verbosity=0)
    sys.stdout.flush()
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
