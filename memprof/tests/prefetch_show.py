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
import json
import sys

doc = json.load(open(sys.argv[1]))
names = [a.split(":")[0] for a in sys.argv[2:]]
only = {a.split(":")[0] for a in sys.argv[2:] if a.endswith(":prefetch")}
cfg = doc["config"]
pf = cfg["prefetch"]
print("prefetch", " ".join("%s=%s" % (k, pf[k]) for k in ("kind", "streams", "level")
                           if k in pf))
tp = doc["totals"].get("prefetch")
print("totals prefetch",
      " ".join("%s=%d" % (k, tp[k]) for k in ("requests", "issued", "useful", "useless"))
      if tp else "-")
for lv, t in doc["totals"]["cache"].items():
    print("totals %s prefetched=%s" % (lv, t.get("prefetched", "-")))
byname = {v["name"]: v for v in doc["variables"]}
keys = ("hits", "misses", "prefetched", "covered", "cold", "capacity", "conflict")
for name in names:
    v = byname[name]
    for lv in cfg["levels"]:
        c = v["cache"][lv["name"]]
        print(name, lv["name"], " ".join("%s=%s" % (k, c.get(k, "-")) for k in keys
                                         if name not in only or k in keys[2:4]))
    if name not in only:
        print(name, "served", " ".join("%s=%d" % (k, n) for k, n in v["served"].items()),
              "cycles=%d" % v["cycles"])
    else:   # what makes its zeros mean something
        l1 = v["cache"][cfg["levels"][0]["name"]]
        print(name, "L1 misses >= 99% of accesses:",
              l1["misses"] >= 0.99 * (v["reads"] + v["writes"]))
for a in doc["advice"]:
    if a["variable"] in names:
        print("advice", a["kind"], a["variable"])
