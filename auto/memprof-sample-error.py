#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""memprof-sample-error.py FULL SAMPLED: the error of a sampled memprof
run against a full one of the same program, the error the manual
states for the sampled modes.  Prints one line of

  level MPKI     per cache level, the relative error of the sampled
                 run's misses per thousand instructions (of the analysed
                 instructions: totals.cache.<level>.mpki) against the full
                 run's: the sampled estimate of the level's misses, which
                 multiplied by the run's instructions (config.sampling)
                 gives the whole run's;
                 in parentheses the same with the sampled run's cold
                 misses counted once instead of scaled (right when the
                 misses are the program's first touches, wrong when the
                 windows see for the first time lines the whole run had
                 long cached);
  miss ratio     per level, the difference of misses / accesses in
                 percentage points;
  top-10         how many of the full run's ten variables with the most
                 cycles (accesses without a cache model) are among the
                 sampled run's ten, and the largest shift of rank among
                 them;
  reuse          the total variation distance (0 = identical, 1 =
                 disjoint) between the two runs' private reuse-distance
                 histograms, summed over all variables and normalised.

With a SAMPLED file of --sample=lines (config.sampling.mode "lines",
every count an estimate with its 95% interval), it prints instead, for
each of the full run's ten program variables with the most stall
cycles that have at least 1,000 misses at some level: per level the
full run's misses, the estimate's relative error and whether the full
value lies in the estimate's interval; then the summary line:

  top-10         how many of those ten are among the sampled run's ten
                 (its variables too few to estimate left out);
  within         how many (variable, level) pairs with >= 1,000 misses
                 are within 5% at L1 and 10% at the deeper levels;
  covered        how many of them have the full value in the interval;
  lines          how many of the ten's estimates of the lines they
                 touch (their footprint) are within 10% of the full
                 run's (each variable's error is printed on its line);
  cycles         how many of the ten's estimates of their cycles are
                 within 10% of the full run's, and how many intervals
                 hold the full value (printed last on its line);
  advice         whether the two runs give the same advice items (kind
                 and variable).

--all ranks every variable, not only the program's.

Numbers are printed, never asserted.  The files are read by
memprof_reader (memprof/annotate/), those of --sample=lines as JSON.
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "memprof", "annotate"))
from memprof_reader import read_file  # noqa: E402


def load(path):
    return read_file(path, program="memprof-sample-error.py")


def top(doc, n):
    """The names of the n variables with the most cycles (accesses
    without a cache model)."""
    if doc.totals.cache is not None:
        vs = [v for v in doc.variables if v.cycles is not None]
        vs.sort(key=lambda v: (-v.cycles, v.name))
    else:
        vs = sorted(doc.variables, key=lambda v: (-(v.reads + v.writes), v.name))
    return [v.name for v in vs[:n]]


def reuse_hist(doc):
    h = {}
    for v in doc.variables:
        r = v.reuse
        if not r:
            continue
        for lo, _hi, n in r.private:
            h[lo] = h.get(lo, 0) + n
    return h


def tvd(a, b):
    ta, tb = sum(a.values()), sum(b.values())
    if ta == 0 or tb == 0:
        return None
    keys = set(a) | set(b)
    return 0.5 * sum(abs(a.get(k, 0) / ta - b.get(k, 0) / tb) for k in keys)


def var_misses(v, level):
    """A variable's misses at level, from a full entry or a summary."""
    if "misses" in v:
        return v["misses"].get(level)
    c = v.get("cache", {}).get(level)
    return c["misses"] if c else None


def ranked(doc, everyone):
    vs = [v for v in doc["variables"]
          if (everyone or v.get("class") == "program") and "stall_cycles" in v
          and v.get("estimable", True)]
    vs.sort(key=lambda v: (-v["stall_cycles"], v["name"]))
    return vs


def lines_mode(full_path, samp_path, everyone):
    with open(full_path) as f:
        full = json.load(f)
    with open(samp_path) as f:
        samp = json.load(f)
    levels = [lv["name"] for lv in full["config"]["levels"]]
    by_name = {v["name"]: v for v in samp["variables"]}
    top_full = [v for v in ranked(full, everyone)
                if any((var_misses(v, lv) or 0) >= 1000 for lv in levels)][:10]
    top_samp = [v["name"] for v in ranked(samp, everyone)][:10]
    within = covered = pairs = lines_within = lines_pairs = 0
    cyc_within = cyc_covered = cyc_pairs = 0
    for v in top_full:
        s = by_name.get(v["name"])
        cols = []
        for k, lv in enumerate(levels):
            fm = var_misses(v, lv) or 0
            if s is None or not s.get("estimable", True):
                cols.append("%s %9d  not estimated" % (lv, fm))
                if fm >= 1000:
                    pairs += 1
                continue
            sm = var_misses(s, lv) or 0
            ci = s["ci"]["misses"][lv]
            inside = ci[0] <= fm <= ci[1]
            err = (sm - fm) / fm * 100 if fm else 0.0
            if fm >= 1000:
                pairs += 1
                covered += inside
                within += abs(err) <= (5 if k == 0 else 10)
            cols.append("%s %9d %+6.1f%% %s" % (lv, fm, err, "in " if inside else "OUT"))
        if s is not None and s.get("estimable", True) and v.get("lines"):
            lerr = (s.get("lines", 0) - v["lines"]) / v["lines"] * 100
            lines_pairs += 1
            lines_within += abs(lerr) <= 10
            cols.append("lines %8d %+6.1f%%" % (v["lines"], lerr))
        if s is not None and s.get("estimable", True) and v.get("cycles"):
            cerr = (s["cycles"] - v["cycles"]) / v["cycles"] * 100
            ci = s["ci"]["cycles"]
            inside = ci[0] <= v["cycles"] <= ci[1]
            cyc_pairs += 1
            cyc_within += abs(cerr) <= 10
            cyc_covered += inside
            cols.append("cycles %+6.1f%% %s" % (cerr, "in" if inside else "OUT"))
        print("  %-32s %s" % (v["name"][:32], "  ".join(cols)))
    names = [v["name"] for v in top_full]
    common = len([n for n in names if n in top_samp])

    def items(doc):
        return sorted((a.get("kind"), a.get("variable")) for a in doc.get("advice", []))
    same = items(full) == items(samp)
    print("top-10 %d/%d; within 5%%/10%% %d/%d; covered %d/%d; lines within 10%% %d/%d; "
          "cycles within 10%% %d/%d, covered %d/%d; advice %s (%d items, %d)"
          % (common, len(names), within, pairs, covered, pairs, lines_within, lines_pairs,
             cyc_within, cyc_pairs, cyc_covered, cyc_pairs,
             "same" if same else "differs", len(full.get("advice", [])),
             len(samp.get("advice", []))))


def main():
    args = [a for a in sys.argv[1:] if a != "--all"]
    if len(args) != 2:
        sys.exit("usage: memprof-sample-error.py [--all] FULL.json SAMPLED.json")
    with open(args[1]) as f:
        mode = (json.load(f).get("config", {}).get("sampling") or {}).get("mode")
    if mode == "lines":
        lines_mode(args[0], args[1], "--all" in sys.argv)
        return
    full, samp = load(args[0]), load(args[1])
    parts = []
    fc, sc = full.totals.cache or {}, samp.totals.cache or {}
    for lv in sorted(fc):
        if sc.get(lv) is None or fc[lv] is None:
            continue
        f, s = fc[lv], sc[lv]
        fk, sk = f.mpki, s.mpki
        fa, sa = f.accesses, s.accesses
        dr = ((s.misses / sa if sa else 0) -
              (f.misses / fa if fa else 0)) * 100
        err = "n/a" if not fk or sk is None else "%+.1f%%" % ((sk - fk) / fk * 100)
        s_cfg = samp.config.sampling
        cold = "n/a"
        if s_cfg and f.misses:
            c = s.cold or 0
            est = c + (s.misses - c) * s_cfg.scale
            cold = "%+.1f%%" % ((est - f.misses) / f.misses * 100)
        parts.append("%s MPKI %s (cold once %s, ratio %+.2f pt)" % (lv, err, cold, dr))
    ft, st = top(full, 10), top(samp, 10)
    common = [n for n in ft if n in st]
    shift = max([abs(ft.index(n) - st.index(n)) for n in common] or [0])
    parts.append("top-10 %d/10 (rank shift <= %d)" % (len(common), shift))
    d = tvd(reuse_hist(full), reuse_hist(samp))
    parts.append("reuse TVD %s" % ("n/a" if d is None else "%.3f" % d))
    print("; ".join(parts))


if __name__ == "__main__":
    main()
