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

Numbers are printed, never asserted.  The files are read by
memprof_reader (memprof/annotate/).
"""
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


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: memprof-sample-error.py FULL.json SAMPLED.json")
    full, samp = load(sys.argv[1]), load(sys.argv[2])
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
