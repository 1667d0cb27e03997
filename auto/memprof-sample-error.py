#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""memprof-sample-error.py FULL SAMPLED: the error of a sampled memprof
run against a full one of the same program (issue 9: "with the error
against full mode stated").  Prints one line of

  level misses   per cache level, the relative error of the sampled
                 run's misses scaled to the whole run: for
                 --sample=periodic|windows, the cold misses as counted
                 (a line is cold once, whatever the sampling) plus the
                 others times config.sampling.scale; as written for
                 shards/bursty, which sample the reuse analysis only;
  miss ratio     per level, the difference of misses / accesses in
                 percentage points (a ratio needs no scaling);
  top-10         how many of the full run's ten variables with the most
                 cycles (accesses without a cache model) are among the
                 sampled run's ten, and the largest shift of rank among
                 them;
  reuse          the total variation distance (0 = identical, 1 =
                 disjoint) between the two runs' private reuse-distance
                 histograms, summed over all variables and normalised.

Numbers are printed, never asserted.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def scale_of(doc):
    s = doc["config"].get("sampling")
    return s["scale"] if s else 1.0


def rank_key(doc):
    return "cycles" if "cache" in doc["totals"] else "accesses"


def top(doc, n):
    key = rank_key(doc)
    vs = [v for v in doc["variables"] if v.get(key) is not None]
    vs.sort(key=lambda v: (-v[key] if key == "cycles" else -(v["reads"] + v["writes"]),
                           v["name"]))
    return [v["name"] for v in vs[:n]]


def reuse_hist(doc):
    h = {}
    for v in doc["variables"]:
        r = v.get("reuse")
        if not r:
            continue
        for lo, _hi, n in r["private"]:
            h[lo] = h.get(lo, 0) + n
    return h


def tvd(a, b):
    ta, tb = sum(a.values()), sum(b.values())
    if ta == 0 or tb == 0:
        return None
    keys = set(a) | set(b)
    return 0.5 * sum(abs(a.get(k, 0) / ta - b.get(k, 0) / tb) for k in keys)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: memprof-sample-error.py FULL.json SAMPLED.json")
    full, samp = load(sys.argv[1]), load(sys.argv[2])
    scale = scale_of(samp)
    parts = []
    fc, sc = full["totals"].get("cache", {}), samp["totals"].get("cache", {})
    for lv in sorted(fc):
        if lv not in sc:
            continue
        cold = sc[lv].get("cold", 0)
        fm, sm = fc[lv]["misses"], cold + (sc[lv]["misses"] - cold) * scale
        fa, sa = fc[lv]["accesses"], sc[lv]["accesses"]
        err = (sm - fm) / fm * 100 if fm else 0.0
        dr = ((sc[lv]["misses"] / sa if sa else 0) - (fm / fa if fa else 0)) * 100
        parts.append("%s misses %+.1f%% (ratio %+.2f pt)" % (lv, err, dr))
    ft, st = top(full, 10), top(samp, 10)
    common = [n for n in ft if n in st]
    shift = max([abs(ft.index(n) - st.index(n)) for n in common] or [0])
    parts.append("top-10 %d/10 (rank shift <= %d)" % (len(common), shift))
    d = tvd(reuse_hist(full), reuse_hist(samp))
    parts.append("reuse TVD %s" % ("n/a" if d is None else "%.3f" % d))
    print("; ".join(parts))


if __name__ == "__main__":
    main()
