# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_common.py -- the vocabulary that memprof_annotate's modules
# share: the keys of the format they read and sum, the error of bad
# input, and the small helpers several of them use (sums of optional
# counts, a histogram's total and median, the keys that match variables
# and loops across files, a setting that differs between merged files).
# It imports no other module of the annotator.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

PROG = "memprof_annotate"
RULE = "-" * 80
COUNTERS = ("reads", "writes", "read_bytes", "write_bytes")
STRIDE_KINDS = (("load", "Loads"), ("store", "Stores"))
STRIDE_CLASSES = (("zero", "zero"), ("unit", "unit"),
                  ("within_line", "within line"),
                  ("beyond_line", "beyond line"))
REUSE_KINDS = ("private", "shared")
# The miss causes, in a file's totals and in a variable's levels.
CAUSES = ("cold", "capacity", "conflict", "coherence")
# variables[].sharing: its counts, and the per_line rows' sharing counts.
# The predicted_* counts are those of a parallel run (see the manual,
# THREADS); the others are what Valgrind's serial run saw.
SHARING_KEYS = ("shared_lines", "true_lines", "false_lines",
                "predicted_transfers", "predicted_true_transfers",
                "predicted_false_transfers", "predicted_invalidations",
                "transfers", "true_transfers", "false_transfers",
                "invalidations", "invalidations_suffered", "coherence_misses")
LINE_SHARING_KEYS = ("transfers", "invalidations", "coherence_misses")
NUMA_KEYS = ("local", "remote", "pages", "remote_memory")


class InputError(Exception):
    """Bad input: reported as one line on stderr, exit status 1."""


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def add_opt(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def max_opt(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def half_width(est, ci):
    """The larger side of the 95% interval ci = (lo, hi) around the
    estimate est (--sample=lines): the error a reader should allow it,
    0 when est lies outside."""
    return max(est - ci[0], ci[1] - est, 0)


def hist_total(bins):
    return sum(n for _, n in bins.values())


def hist_median(bins):
    """The bin (lo, hi) holding the median of a histogram {lo: [hi,
    count]}, as memprof finds it: the first bin, in increasing order,
    where the running count reaches half of the total; None when empty."""
    total = hist_total(bins)
    if not total:
        return None
    seen = 0
    for lo in sorted(bins):
        hi, n = bins[lo]
        seen += n
        if 2 * seen >= total:
            return (lo, hi)
    return None


def var_key(v):
    """Variables are the same when kind, name and where (and a stack
    variable's function) are, and their owner: in two files, or two
    sites of one file that reach one allocation line through different
    call chains."""
    return (v["kind"], v["name"], v["where"], v["function"], v["object"],
            v["class"])


def loop_key(l):
    """Loops of several files are the same when their function, file and
    lines are (ids are per file)."""
    return (l["function"], l["file"], l["first_line"], l["last_line"])


def formula_key(f):
    return tuple(f[k] for k in ("where", "variable", "formula", "base",
                                "in_block"))


class Differs:
    """A config value that is not the same in all merged files."""

    def __init__(self, pairs):
        self.pairs = pairs
