#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# miss_causes_show.py FILE VAR...: what the miss_causes tests compare
# between --miss-causes=exact and =sampled: how the split was made
# (config.miss_causes, each level's cause_sample_rate), every count of
# the named variables at each level, and whether the totals' causes
# sum to their misses.
import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402

doc = read_file(sys.argv[1])
cfg = doc.config
print("miss_causes", cfg.miss_causes)
for lv in cfg.levels:
    print("%s cause_sample_rate %g" % (lv.name, lv.cause_sample_rate))
byname = {v.name: v for v in doc.variables}
keys = ("hits", "misses", "cold", "capacity", "conflict", "coherence")
for name in sys.argv[2:]:
    for lv in cfg.levels:
        c = byname[name].cache[lv.name]
        print(name, lv.name, " ".join("%s=%d" % (k, getattr(c, k)) for k in keys))
for lv, t in doc.totals.cache.items():
    print(lv, "causes sum to the misses:",
          t.cold + t.capacity + t.conflict + t.coherence == t.misses)
