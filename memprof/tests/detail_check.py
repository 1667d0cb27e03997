#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# detail_check.py FILE VAR: prints what the tests of --sample=detail and
# --exact=yes assert of a memprof file: config.detail (the schedule, and
# whether the instructions analysed fit the schedule: a first window of
# 10m, the last one maybe cut short, each up to a superblock (200
# instructions) long), then VAR's exact counts (reads, writes, L1
# misses, reuse cold) and its first stride histograms per kind: their
# total (not printed for sampled reads: it depends on where the windows
# fall), its share of the accesses (the sampled reads' strides count
# config.detail.weight each: about all of them), and how many strides
# are 8 bytes (the sampled reads: all but at most the 7 jumps back
# between passes, which a window may hold, weight each; a stride
# spanning a gap would be one more per window).
import os
import sys

sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402

doc = read_file(sys.argv[1])
d = doc.config.detail
print("detail analyses=%s sample=%s" % (",".join(d.analyses), d.sample))
if d.sample == "windows":
    print("window=%d period=%d weight=%d windows above 10: %s" %
          (d.window, d.period, d.weight, d.windows > 10))
    # the first window is 10m long; the last may be cut by the run's end
    first = 10000000
    low = first + d.window * (d.windows - 2)
    high = first + d.window * (d.windows - 1) + 200 * d.windows
    print("analysed within the windows' bounds: %s" %
          (low <= d.instructions_analysed <= high))
    print("scale consistent: %s" % (abs(d.scale * d.instructions_analysed
                                        - d.instructions) < 1e-6 * d.instructions))
v = next(v for v in doc.variables if v.name == sys.argv[2])
print("%s reads=%d writes=%d L1.misses=%d reuse.cold=%d" %
      (v.name, v.reads, v.writes, v.cache["L1"].misses, v.reuse.cold))
for kind, n in (("load", v.reads), ("store", v.writes)):
    bins = v.strides.load[0] if kind == "load" else v.strides.store[0]
    total = sum(c for _, _, c in bins)
    eight = sum(c for lo, _, c in bins if lo == 8)
    print("%s strides=%s share of accesses=%s of 8 bytes=%s" %
          (kind, total if d.sample != "windows" or kind == "store" else "-",
           "all but one" if total == n - 1 else
           "80-120%" if 0.8 * n <= total <= 1.2 * n else "other",
           ("all but at most 7 jumps" if total - eight <= 7 * d.weight else "fewer")
           if d.sample == "windows" and kind == "load" else
           "all" if eight == total else
           "all but 7" if eight == total - 7 else
           ">= 99%" if eight >= 0.99 * total else "fewer"))
