#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# sample_lines_show.py FILE VAR... (or --accesses PATTERN VAR...,
# --reuse FILE VAR... or --cycles FILE VAR..., below): prints what the tests of
# --sample=lines assert of a memprof file: the sample (config.sampling),
# then per named variable its reads and writes, its misses per level,
# its lines in the sample, whether it could be estimated, and the 95%
# intervals of its accesses and misses.  Read with the json module
# alone: the numbers are checked against the derivation in
# sample_lines.c, not against memprof's own reader.
import glob
import json
import sys


def variables_by_name(path):
    """The variables of memprof JSON file path, by name."""
    with open(path) as f:
        return {v["name"]: v for v in json.load(f)["variables"]}


if sys.argv[1] == "--accesses":
    # --accesses PATTERN VAR...: each file's reads and writes of the named
    # variables ("absent" if not there), the files sorted by that text:
    # the exact counts, whatever lines the sample holds.
    texts = []
    for path in glob.glob(sys.argv[2]):
        byname = variables_by_name(path)
        texts.append("\n".join(
            "%s reads=%d writes=%d" % (n, byname[n]["reads"], byname[n]["writes"])
            if n in byname else "%s absent" % n for n in sys.argv[3:]))
    for i, t in enumerate(sorted(texts)):
        print("file %d of %d:\n%s" % (i + 1, len(texts), t))
    sys.exit(0)

if sys.argv[1] == "--reuse":
    # --reuse FILE VAR...: each named variable's lines touched, its
    # lines in the sample, its cold lines and its reuses at a distance
    # of 2,048 lines or more, scaled as reported.
    byname = variables_by_name(sys.argv[2])
    for name in sys.argv[3:]:
        v = byname[name]
        r = v["reuse"]
        far = sum(n for lo, hi, n in r["private"] + r["shared"] if lo >= 2048)
        print("%s lines=%d sampled_lines=%d cold=%d far_reuses=%d"
              % (name, v["lines"], v["sampled_lines"], r["cold"], far))
    sys.exit(0)

if sys.argv[1] == "--cycles":
    # --cycles FILE VAR...: each named variable's accesses, stall and
    # cycles, and the intervals of the stall and the cycles.
    byname = variables_by_name(sys.argv[2])
    for name in sys.argv[3:]:
        v = byname[name]
        ci = v["ci"]
        print("%s reads=%d writes=%d stall=%d cycles=%d" % (
            name, v["reads"], v["writes"], v["stall_cycles"], v["cycles"]))
        print("  ci stall=[%d, %d] cycles=[%d, %d]"
              % (tuple(ci["stall_cycles"]) + tuple(ci["cycles"])))
    sys.exit(0)

with open(sys.argv[1]) as f:
    doc = json.load(f)
s = doc["config"]["sampling"]
print("sampling mode=%s rate=%g sets=%d of %d scale=%d min_lines=%d"
      % (s["mode"], s["rate"], s["sets"], s["l1_sets"], s["scale"], s["min_lines"]))
levels = [lv["name"] for lv in doc["config"]["levels"]]
byname = {v["name"]: v for v in doc["variables"]}


def misses(v, level):
    if "misses" in v:
        return v["misses"][level]
    return v["cache"][level]["misses"]


for name in sys.argv[2:]:
    v = byname.get(name)
    if v is None:
        print("%s absent" % name)
        continue
    if not v["estimable"]:
        # whether its one line is in the sample depends on where the
        # linker put it: only that it is fewer than min_lines
        print("%s reads=%d writes=%d sampled_lines<%d estimable=False"
              % (name, v["reads"], v["writes"], s["min_lines"]))
        continue
    print("%s reads=%d writes=%d sampled_lines=%d estimable=True"
          % (name, v["reads"], v["writes"], v["sampled_lines"]))
    print("  misses " + " ".join("%s=%d" % (lv, misses(v, lv)) for lv in levels))
    ci = v["ci"]
    print("  ci accesses=[%d, %d] " % tuple(ci["accesses"])
          + " ".join("%s=[%d, %d]" % ((lv,) + tuple(ci["misses"][lv])) for lv in levels))
