# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_metrics.py -- the numbers memprof_annotate ranks by: a
# variable's accesses, bytes, cycles, misses, mean reuse distance,
# sharing and NUMA counts, the sort keys built on them, and the run's
# totals (accesses, cycles) that shares and thresholds are taken of.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

from annotate_common import REUSE_KINDS, half_width, hist_total
from annotate_text import clean, fmt_mean, num


def accesses(v):
    return v["reads"] + v["writes"]


def total_bytes(v):
    if v.get("read_bytes") is None and v.get("write_bytes") is None:
        return None
    return (v.get("read_bytes") or 0) + (v.get("write_bytes") or 0)


def var_cycles(v):
    c = v.get("cache")
    return c["cycles"] if c is not None else None


def var_stall(v):
    """The memory stall cycles beyond an L1 hit: what a change of layout
    can save."""
    c = v.get("cache")
    return c.get("stall_cycles") if c is not None else None


def var_shown_name(v):
    """The name a table shows: a C++ frame without its parameter list."""
    return v.get("label") or v["name"]


def var_cpa(v):
    cycles, n = var_cycles(v), accesses(v)
    return cycles / n if cycles is not None and n else None


def var_misses(v, level):
    c = v.get("cache")
    lv = c["levels"].get(level) if c is not None else None
    return lv.get("misses") if lv is not None else None


def var_estimable(v):
    """False when too few of the variable's lines were in the sample
    (--sample=lines) for its misses, cycles and stall cycles to mean
    anything; its accesses are exact all the same."""
    s = v.get("sample")
    return s is None or s["estimable"]


def cache_key(key, levels):
    """Whether a sort key's metric is of the cache simulation (what
    --sample=lines estimates): stall, cycles, cpa, misses of a level."""
    return bool(levels) and (key in ("stall", "cycles", "cpa", "misses",
                                     "ll-misses") or key in levels)


def ranked_interval(v, key, levels):
    """(estimate, (lo, hi)) of the sort key's metric of v, the 95%
    interval of --sample=lines, or None (no sample, no interval, or a
    key that is no estimate).  cpa, cycles over exact accesses, is as
    uncertain as the cycles."""
    s = v.get("sample")
    if s is None or not cache_key(key, levels):
        return None
    if key in ("stall", "cycles", "cpa"):
        ci = s["ci"]["stall_cycles" if key == "stall" else "cycles"]
        est = var_stall(v) if key == "stall" else var_cycles(v)
    else:
        level = {"misses": levels[0], "ll-misses": levels[-1]}.get(key, key)
        ci, est = s["ci"]["misses"].get(level), var_misses(v, level)
    return (est, ci) if ci is not None and est is not None else None


def estimate_error(v, key, levels):
    """The sampling error of the metric of a sort key of v (stall,
    cycles, the misses of a level): the larger side of its 95% interval
    (--sample=lines), 0 for a variable of an exact run; None for another
    key or when the file gives no interval.  cpa has none of its own."""
    if key == "cpa" or not cache_key(key, levels):
        return None
    if v.get("sample") is None:
        return 0
    r = ranked_interval(v, key, levels)
    return half_width(*r) if r is not None else None


def var_mean_reuse(v):
    """The mean distance of all of a variable's reuses, private and
    shared together (the two means weighted by their counts), or None."""
    ru = v.get("reuse")
    if ru is None:
        return None
    n, total = 0, 0.0
    for kind in REUSE_KINDS:
        k = hist_total(ru["hists"][kind])
        if not k:
            continue
        if ru["mean"][kind] is None:
            return None
        n += k
        total += ru["mean"][kind] * k
    return total / n if n else None


def var_shared_lines(v, tracked=False):
    """True plus false shared lines (memprof's shared_lines when the
    split is absent); without sharing data 0 if the file tracked sharing
    (see sharing_tracked), else None."""
    sh = v.get("sharing")
    if sh is None:
        return 0 if tracked else None
    if sh["true_lines"] is None and sh["false_lines"] is None:
        return sh["shared_lines"]
    return (sh["true_lines"] or 0) + (sh["false_lines"] or 0)


def var_transfers(v, tracked=False):
    sh = v.get("sharing")
    return sh["transfers"] if sh is not None else 0 if tracked else None


def sharing_tracked(data):
    """Whether the file tracked sharing: then a variable without
    "sharing" had no line accessed by two threads (0, not unknown)."""
    return data["config"].get("sharing") is True


def var_remote(v):
    nu = v.get("numa")
    return nu["remote"] if nu is not None else None


def numa_hit_ratio(nu):
    """local / (local + remote), from the counts when there are both
    (so that merged files get it right), else the file's own."""
    if nu["local"] is not None and nu["remote"] is not None:
        n = nu["local"] + nu["remote"]
        return nu["local"] / n if n else None
    return nu["hit_ratio"]


def metric_fn(key, levels, tracked=False):
    """The function v -> number (None: not measured) of a sort key other
    than "name"; tracked: whether the file tracked sharing."""
    simple = {"accesses": accesses, "bytes": total_bytes,
              "cycles": var_cycles, "stall": var_stall, "cpa": var_cpa,
              "reuse": var_mean_reuse, "remote": var_remote}
    if key in simple:
        return simple[key]
    if key == "sharing":
        return lambda v: var_shared_lines(v, tracked)
    level = {"misses": levels[0] if levels else None,
             "ll-misses": levels[-1] if levels else None}.get(key, key)
    if levels and level in levels:
        return lambda v: var_misses(v, level)
    return lambda v: v[key]


def sort_variables(variables, key, levels=None, tracked=False):
    """Largest first by the key's metric (unmeasured last); "sharing"
    breaks ties by the transfers; then by accesses and name.  By a
    metric of the cache simulation, the variables too few of whose
    lines were in the sample (--sample=lines) come after all others:
    their numbers are noise."""
    def tie(v):
        return (-accesses(v), v["name"], v["kind"], v["where"] or "")
    if key == "name":
        return sorted(variables, key=lambda v: (v["name"], v["kind"],
                                                v["where"] or "",
                                                -accesses(v)))
    metric = metric_fn(key, levels, tracked)
    second = ((lambda v: var_transfers(v, tracked)) if key == "sharing"
              else var_cycles if key == "stall" else (lambda v: None))

    late = ((lambda v: not var_estimable(v)) if cache_key(key, levels)
            else (lambda v: False))

    def k(v):
        m, s = metric(v), second(v)
        return (late(v), -(m if m is not None else -1),
                -(s if s is not None else -1)) + tie(v)
    return sorted(variables, key=k)


def sort_columns(key, levels, tracked):
    """Leading columns of the variables table for a sort key whose
    metric the table does not show otherwise: [(header, v -> text)]."""
    if key == "reuse":
        return [("mean reuse", lambda v: fmt_mean(var_mean_reuse(v)))]
    if key == "sharing":
        return [("shared lines",
                 lambda v: num(var_shared_lines(v, tracked))),
                ("transfers", lambda v: num(var_transfers(v, tracked)))]
    if key == "remote":
        return [("remote", lambda v: num(var_remote(v)))]
    if levels and key in levels[1:-1]:
        return [("%s misses" % clean(key),
                 lambda v: num(var_misses(v, key) if var_estimable(v)
                               else None))]
    return []


def pct(part, whole):
    if not whole:
        return 0.0
    return 100.0 * part / whole


def report_totals(data):
    """The accesses and the cycles (None without a cache simulation) of
    the whole run, from the totals or else summed over the variables."""
    t = data["totals"]
    tot_acc = t["accesses"]
    if tot_acc is None:
        if t["reads"] is not None or t["writes"] is not None:
            tot_acc = (t["reads"] or 0) + (t["writes"] or 0)
        else:
            tot_acc = sum(accesses(v) for v in data["variables"])
    tot_cycles = None
    if data.get("levels"):
        tot_cycles = t.get("cycles")
        if tot_cycles is None:
            known = [var_cycles(v) for v in data["variables"]
                     if var_cycles(v) is not None]
            tot_cycles = sum(known) if known else None
    return tot_acc, tot_cycles


def above_loops(loops, tot_acc, threshold):
    """The loops with at least threshold % of all accesses."""
    if not tot_acc:
        return list(loops)
    return [l for l in loops if pct(l["accesses"] or 0, tot_acc) >= threshold]
