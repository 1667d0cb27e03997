#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""memprof-detail-error.py EXACT DEFAULT: what the default's sampling of
the detail analyses (--sample=detail: strides and loops in windows)
changes against a run of the same program with --exact=yes.  Prints one
line of

  exact          how many variables (by name and kind) have every count
                 that the default keeps exact (reads, writes, lines, cache, served,
                 cycles, reuse) identical in both files, of the
                 variables of the exact run; a program whose run varies
                 from run to run (the loader's stack frames, a hash
                 seed) differs there by itself;
  top-10         whether the ten variables with the most cycles are the
                 same, in the same order;
  strides        over the ten variables with the most accesses that have
                 stride histograms in both files, the largest total
                 variation distance (0 = identical, 1 = disjoint)
                 between their first load and first store histograms,
                 and the median of those distances;
  advice         whether the advice items (kind and variable) are the
                 same.

Numbers are printed, never asserted.  The program must run the same in
both (PYTHONHASHSEED=0 for python3).  The files are read by
memprof_reader (memprof/annotate/).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "memprof", "annotate"))
from memprof_reader import read_file  # noqa: E402

EXACT_FIELDS = ("reads", "writes", "lines", "cache", "served", "cycles", "reuse")


def key(v):
    return (v.name, v.kind)


def first_histogram(v, kind):
    s = v.strides
    if not s or not s.hists(kind):
        return None
    h = {(lo, hi): n for lo, hi, n in s.hists(kind)[0]}
    total = sum(h.values())
    return {k: n / total for k, n in h.items()} if total else None


def tvd(p, q):
    return 0.5 * sum(abs(p.get(k, 0) - q.get(k, 0)) for k in set(p) | set(q))


def main():
    exact = read_file(sys.argv[1], program="memprof-detail-error.py")
    sampled = read_file(sys.argv[2], program="memprof-detail-error.py")
    # by name and kind: names that repeat (stack frames without a
    # symbol) are compared as the last of them
    mine = {key(v): v for v in exact.variables}
    other = {key(v): v for v in sampled.variables}
    same = sum(1 for k, v in mine.items() if k in other
               and all(getattr(v, f) == getattr(other[k], f) for f in EXACT_FIELDS))

    def top(doc):
        return [key(v) for v in sorted(doc.variables,
                                       key=lambda v: -(v.cycles or 0))[:10]]

    dists = []
    busiest = sorted(exact.variables, key=lambda v: -(v.reads + v.writes))
    n = 0
    for v in busiest:
        w = other.get(key(v))
        pairs = [(first_histogram(v, k), first_histogram(w, k) if w else None)
                 for k in ("load", "store")]
        pairs = [(p, q) for p, q in pairs if p and q]
        if not pairs:
            continue
        dists.extend(tvd(p, q) for p, q in pairs)
        n += 1
        if n == 10:
            break
    dists.sort()

    def advice(doc):
        return [(a.kind, a.variable) for a in doc.advice or []]

    print("exact %d/%d variables; top-10 %s; strides TVD max %.3f median %.3f; "
          "advice %s" % (same, len(mine),
                         "same" if top(exact) == top(sampled) else "differs",
                         dists[-1] if dists else 0.0,
                         dists[len(dists) // 2] if dists else 0.0,
                         "same" if advice(exact) == advice(sampled) else "differs"))


if __name__ == "__main__":
    main()
