#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# prefetch_show.py FILE VAR[:prefetch]...: what the prefetch tests
# compare (the derivations are in prefetch.c): the prefetcher's
# configuration and totals, each level's prefetched hits, every cache
# count of the named variables at each level with where they were served
# and their cycles, and the advice on them.  VAR:prefetch prints the
# prefetched and covered counts of VAR only (a random walk's other
# counts depend on where the stack lies, which the environment moves).
# The counts of the prefetcher (prefetched, covered, totals.prefetch)
# are printed as "-" when absent, as they must be without one.
import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402

def shown(x):
    return "-" if x is None else x


doc = read_file(sys.argv[1])
names = [a.split(":")[0] for a in sys.argv[2:]]
only = {a.split(":")[0] for a in sys.argv[2:] if a.endswith(":prefetch")}
cfg = doc.config
pf = cfg.prefetch
print("prefetch", " ".join("%s=%s" % (k, getattr(pf, k))
                           for k in ("kind", "streams", "level")
                           if getattr(pf, k) is not None))
tp = doc.totals.prefetch
print("totals prefetch",
      " ".join("%s=%d" % (k, getattr(tp, k))
               for k in ("requests", "issued", "useful", "useless"))
      if tp else "-")
for lv, t in doc.totals.cache.items():
    print("totals %s prefetched=%s" % (lv, shown(t.prefetched)))
byname = {v.name: v for v in doc.variables}
keys = ("hits", "misses", "prefetched", "covered", "cold", "capacity", "conflict")
for name in names:
    v = byname[name]
    for lv in doc.level_names:
        c = v.cache[lv]
        print(name, lv, " ".join("%s=%s" % (k, shown(getattr(c, k))) for k in keys
                                 if name not in only or k in keys[2:4]))
    if name not in only:
        print(name, "served", " ".join("%s=%d" % (k, n) for k, n in v.served.items()),
              "cycles=%d" % v.cycles)
    else:   # what makes its zeros mean something
        l1 = v.cache[doc.level_names[0]]
        print(name, "L1 misses >= 99% of accesses:",
              l1.misses >= 0.99 * (v.reads + v.writes))
for a in doc.advice:
    if a.variable in names:
        print("advice", a.kind, a.variable)
