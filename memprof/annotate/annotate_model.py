# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_model.py -- loading: memprof_reader reads and checks a file
# and gives typed records; this module turns them into the working model
# that the rest of memprof_annotate reads and merges (see below).
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

from memprof_reader import FormatError, no_cycle_collection, read_file
from annotate_common import (CAUSES, COUNTERS, InputError, LINE_SHARING_KEYS,
                             NUMA_KEYS, PROG, REUSE_KINDS, SHARING_KEYS,
                             STRIDE_CLASSES, STRIDE_KINDS, add_opt, formula_key,
                             hist_median, loop_key)
from annotate_text import located, loop_place

TOTAL_LEVEL_KEYS = ("accesses", "hits", "misses") + CAUSES \
    + ("writebacks", "invalidations", "prefetched")
VAR_LEVEL_KEYS = ("hits", "misses") + CAUSES \
    + ("writebacks", "fills", "reused_fills", "prefetched", "covered")
# totals.prefetch, with a prefetcher (--prefetch).
PREFETCH_KEYS = ("requests", "issued", "useful", "useless")


# ---------------------------------------------------------------------------
# Loading: the reader (memprof_reader) checks the file and gives typed
# objects; these functions turn them into the report's working model,
# dictionaries that merge() can sum.  Where a file gives a rate, the
# model keeps the counts it comes from (fill_hits for hits_per_fill, the
# sum of the distances for a mean), so that merged files get it right.

def load(path):
    """Reads and checks one file; returns its working model."""
    try:
        f = read_file(path, program=PROG)
    except FormatError as e:
        raise InputError(str(e))
    with no_cycle_collection():
        return file_model(f)


def file_model(f):
    levels = f.level_names
    out = {"path": f.path, "version": f.version, "command": f.command,
           # The settings as written: the header prints them all.
           "config": f.config.settings, "levels": levels}
    t = f.totals
    totals = fields_of(t, COUNTERS + ("accesses", "variables", "threads"))
    if levels:
        totals["cycles"] = t.cycles
        totals["cache"] = (dict((name, fields_of(lv, TOTAL_LEVEL_KEYS))
                                for name, lv in t.cache.items())
                           if t.cache is not None else None)
        totals["prefetch"] = fields_of(t.prefetch, PREFETCH_KEYS)
    out["totals"] = totals
    l1 = f.config.levels[0].latency if levels else None
    sm = f.config.sampling
    min_lines = sm.min_lines if sm is not None else None
    out["variables"] = [variable_model(v, levels, l1, min_lines)
                        for v in f.variables]
    out["communication"] = ([dict(pair_fields(c)) for c in f.communication]
                            if f.communication is not None else None)
    out["matrix"] = matrix_model(f.communication_matrix)
    out["advice"] = ([advice_model(a, f.path) for a in f.advice]
                     if f.advice is not None else None)
    out["rejected"] = ([advice_model(a, f.path) for a in f.rejected]
                       if f.rejected is not None else None)
    out["loops"] = ([loop_model(l) for l in f.loops]
                    if f.loops is not None else None)
    resolve_loops(out, f.path)
    return out


def fields_of(obj, keys):
    """{key: obj.key} for the given keys; None for no object."""
    if obj is None:
        return None
    return dict((k, getattr(obj, k)) for k in keys)


def pair_fields(c):
    return (("from", c.from_), ("from_fn", c.from_fn), ("to", c.to),
            ("to_fn", c.to_fn), ("variable", c.variable),
            ("count", c.count), ("true", c.true), ("false", c.false))


def resolve_loops(out, path):
    """Gives the loop ids of a file (struct fields' loops, the advice's
    loop) their loop's place, so that they survive a merge, where ids
    mean nothing: a field's "loop_places" (None for a loop missing from
    the list), an advice item's "loop_key" and "loop_place"."""
    by_id = dict((l["id"], l) for l in out["loops"] or [])
    for v in out["variables"]:
        st = v.get("struct")
        if st is None:
            continue
        st["from"] = path
        for f in st["fields"]:
            f["loop_places"] = [loop_place(by_id[i]) if i in by_id else None
                                for i in f["loops"]]
    for a in out["advice"] or []:
        lp = by_id.get(a["loop"])
        a["loop_key"] = loop_key(lp) if lp is not None else None
        a["loop_place"] = located(loop_place(lp), lp["function"]) \
            if lp is not None else None


VAR_FIELDS = ("name", "kind", "where", "reads", "writes", "read_bytes",
              "write_bytes", "size", "threads", "lines", "blocks",
              "alloc_bytes", "named_by", "function", "folded", "label")


def variable_model(v, levels, l1_latency=None, min_lines=None):
    var = fields_of(v, VAR_FIELDS)
    var["alloc_stack"] = (list(v.alloc_stack) if v.alloc_stack is not None
                          else None)
    # A file without classes (an older memprof's) is all the program's.
    var["class"] = v.class_ or "program"
    var["object"] = v.object
    var["per_line"] = ([row_model(r, levels) for r in v.per_line]
                       if v.per_line is not None else None)
    var["cache"] = var_cache_model(v, levels, l1_latency) if levels else None
    var["sample"] = sample_model(v, levels, min_lines)
    var["strides"] = strides_model(v.strides) if v.strides else None
    var["reuse"] = reuse_model(v.reuse) if v.reuse else None
    var["sharing"] = sharing_model(v.sharing) if v.sharing else None
    var["numa"] = numa_model(v.numa) if v.numa else None
    var["struct"] = struct_model(v.struct) if v.struct else None
    return var


def row_model(r, levels):
    """A per_line row: {"where", "fn", counts, ["cycles", "misses": {level:
    n}] with a cache simulation, ["reuse"] (see line_reuse_model), the
    sharing counts}."""
    # Spelt out rather than by fields_of: a file has hundreds of
    # thousands of rows (COUNTERS and LINE_SHARING_KEYS, in order).
    row = {"where": r.where, "fn": r.fn, "reads": r.reads,
           "writes": r.writes, "read_bytes": r.read_bytes,
           "write_bytes": r.write_bytes}
    if levels:
        row["cycles"] = r.cycles
        row["misses"] = dict(r.misses) if r.misses is not None else None
    if r.reuse is not None:
        row["reuse"] = line_reuse_model(r.reuse)
    row["transfers"] = r.transfers
    row["invalidations"] = r.invalidations
    row["coherence_misses"] = r.coherence_misses
    row["stride"] = ({"bytes": r.stride.bytes, "share": r.stride.share,
                      "loop_where": r.stride.loop_where}
                     if r.stride is not None else None)
    return row


def stall_of(v, l1_latency):
    """A variable's stall cycles: the file's, or for a file without them
    (an older memprof's) its cycles less the L1 latency of each access
    that reached L1 (all of them when the levels' counts are absent)."""
    if v.stall_cycles is not None or v.cycles is None or l1_latency is None:
        return v.stall_cycles
    l1 = v.cache.get(next(iter(v.cache))) if v.cache else None
    if l1 is not None and l1.hits is not None and l1.misses is not None:
        n = l1.hits + l1.misses
    else:
        n = v.reads + v.writes
    return max(v.cycles - l1_latency * n, 0)


def var_cache_model(v, levels, l1_latency=None):
    """A variable's cache simulation data, or None: {"levels": {name:
    {count key: n, "fill_hits": x}}, "served": {name or "mem": n},
    "invalidations": n, "cycles": n}.  Rates are recomputed from the
    counts (so that merged files get them right)."""
    if v.cache is None:
        return None
    out = {"levels": {}, "served": {}, "cycles": v.cycles,
           "stall_cycles": stall_of(v, l1_latency),
           "invalidations": v.invalidations}
    for name in levels:
        lv = v.cache[name]
        c = fields_of(lv, VAR_LEVEL_KEYS)
        if c is not None:
            c["fill_hits"] = (lv.hits_per_fill * c["fills"]
                              if lv.hits_per_fill is not None
                              and c["fills"] is not None else None)
        out["levels"][name] = c
    if v.served is not None:
        out["served"] = dict(v.served)
    return out


def sample_model(v, levels, min_lines):
    """With --sample=lines, what a variable's estimates stand on, or
    None: {"lines": its sampled lines, "estimable": whether they are
    enough for its cache estimates, "min_lines": how many are (the
    file's config.sampling, None when absent), "ci": {"accesses",
    "cycles", "stall_cycles": (lo, hi) or None, "misses": {level:
    (lo, hi) or None}}}.  The lines are kept so that merged variables
    are estimable by their sum."""
    if v.sampled_lines is None and v.ci is None:
        return None
    ci = v.ci
    misses = (ci.misses if ci is not None else None) or {}
    return {"lines": v.sampled_lines, "estimable": v.estimable is not False,
            "min_lines": min_lines,
            "ci": {"accesses": interval_of(ci, "accesses"),
                   "cycles": interval_of(ci, "cycles"),
                   "stall_cycles": interval_of(ci, "stall_cycles"),
                   "misses": dict((n, tuple(misses[n])
                                   if misses.get(n) is not None else None)
                                  for n in levels or [])}}


def interval_of(ci, key):
    """ci.key as a (lo, hi) tuple, or None."""
    x = getattr(ci, key) if ci is not None else None
    return tuple(x) if x is not None else None


def hist_bins(h):
    """A histogram as {lo: [hi, count]}."""
    return {lo: [hi, n] for lo, hi, n in h}


def reuse_model(ru):
    """A variable's reuse distances: {"hists": {kind: {lo: [hi, count]}},
    "cold": n or None, "mean": {kind: x or None}, "median": {kind: (lo,
    hi) or None}} for kind "private", "shared"."""
    out = {"hists": {}, "mean": {}, "median": {}, "cold": ru.cold}
    for kind in REUSE_KINDS:
        bins = hist_bins(getattr(ru, kind))
        out["hists"][kind] = bins
        out["mean"][kind] = getattr(ru, "mean_" + kind)
        med = getattr(ru, "median_" + kind)
        out["median"][kind] = (tuple(med) if med is not None
                               else hist_median(bins))
    return out


def line_reuse_model(ru):
    """A per_line row's reuse distances: {"n": {kind: count or None},
    "sum": {kind: mean * count or None}, "cold": n or None}: the row's
    histograms are only counted (its table shows the mean private
    distance)."""
    out = {"n": {}, "sum": {}, "cold": ru.cold}
    for kind in REUSE_KINDS:
        h = getattr(ru, kind)
        n = sum(b.count for b in h) if h is not None else None
        mean = getattr(ru, "mean_" + kind)
        out["n"][kind] = n
        out["sum"][kind] = (mean * n if mean is not None and n is not None
                            else 0 if n == 0 else None)
    return out


def strides_model(st):
    """A variable's strides: {"hists": {kind: [{lo: [hi, count]} per k]},
    "negative": {kind: [n per k]}, "classes": {class: n}, "dominant":
    {"bytes", "count"} or None}."""
    out = {"hists": {}, "negative": {}, "classes": {}, "dominant": None}
    for kind, _ in STRIDE_KINDS:
        out["hists"][kind] = [hist_bins(h) for h in st.hists(kind)]
        out["negative"][kind] = list(st.negative[kind])
    for c, _ in STRIDE_CLASSES:
        out["classes"][c] = getattr(st.classes, c) or 0
    if st.dominant is not None:
        out["dominant"] = {"bytes": st.dominant.bytes,
                           "count": st.dominant.count}
    return out


def sharing_model(sh):
    """A variable's sharing: {count key: n or None, "worst_lines": [{"line":
    address text, "offset": n or None, "kind": "true"/"false",
    "transfers", "predicted_transfers", "threads": [{"thread", "reads",
    "writes", "where", "read_bytes", "write_bytes"}]}]}, byte ranges as
    [[lo, hi], ...], "placements": {"step", "evaluated", "current",
    "false_at": [offset, ...]} or None."""
    out = fields_of(sh, SHARING_KEYS)
    pl = sh.placements
    out["placements"] = None if pl is None else {
        "step": pl.step, "evaluated": pl.evaluated, "current": pl.current,
        "false_at": list(pl.false_at)}
    out["worst_lines"] = []
    for wl in sh.worst_lines:
        w = fields_of(wl, ("line", "offset", "kind", "transfers",
                           "predicted_transfers"))
        w["threads"] = [
            {"thread": t.thread, "reads": t.reads, "writes": t.writes,
             "where": list(t.where),
             "read_bytes": [list(r) for r in t.read_bytes],
             "write_bytes": [list(r) for r in t.write_bytes]}
            for t in wl.threads]
        out["worst_lines"].append(w)
    return out


def numa_model(nu):
    """A variable's NUMA placement: {count key: n or None, "hit_ratio": x
    or None, "first_touch": [{"thread", "socket", "pages"}]}."""
    out = fields_of(nu, NUMA_KEYS)
    out["hit_ratio"] = nu.hit_ratio
    out["first_touch"] = [fields_of(ft, ("thread", "socket", "pages"))
                          for ft in nu.first_touch]
    return out


def matrix_model(mx):
    """{"threads": [t...], "cells": {(from, to): {"true_lines",
    "false_lines", "bytes"}}}, or None.  A thread of a cell missing from
    "threads" is added to it."""
    if mx is None:
        return None
    cells = dict(((c.from_, c.to),
                  fields_of(c, ("true_lines", "false_lines", "bytes")))
                 for c in mx.cells)
    ts = set(mx.threads) | set(t for key in cells for t in key)
    return {"threads": sorted(ts), "cells": cells}


def advice_model(a, path):
    """{"kind", "text", "where" (list), "files" (the files that gave
    it), "variable", "evidence", "fix", "loop", "score", "reason" (of
    a rejected item, else None), "replayed" (None in older files),
    "holds" (how the fix holds as the problem grows, or None),
    "alternatives": [{"fix", "evidence", "holds"}] (the other fixes
    replayed)}."""
    item = {"kind": a.kind, "text": a.text, "where": list(a.where),
            "files": [path]}
    item.update(fields_of(a, ("variable", "evidence", "fix", "loop",
                              "score", "reason", "replayed", "holds")))
    item["alternatives"] = [{"fix": x.fix, "evidence": x.evidence, "holds": x.holds}
                            for x in a.alternatives]
    return item


def loop_model(l):
    """{"id", "function", "file", "first_line", "last_line", "depth",
    "entries", "iterations", "max_iterations", "accesses", "streams",
    "mean_iterations", "mean_streams", "flagged", "object", "class"
    ("program" in files without it), "streams_sum" (mean_streams times
    entries, for merging), "formulas": [formula]} (see formula_model)."""
    item = fields_of(l, ("id", "function", "file", "first_line",
                         "last_line", "depth", "entries", "iterations",
                         "max_iterations", "accesses", "streams",
                         "mean_iterations", "mean_streams", "flagged",
                         "object"))
    item["class"] = l.class_ or "program"
    item["streams_sum"] = (l.mean_streams * l.entries
                           if l.mean_streams is not None
                           and l.entries is not None else None)
    item["formulas"] = same_formulas([formula_model(f) for f in l.formulas])
    return item


def same_formulas(formulas):
    """The formulas of a loop with those of several instructions that
    are the same (where, variable, formula, base: gcc -O0 loads x twice
    for x * x) made one, its "instructions" counting them and its
    accesses summed; the first one's place in the list."""
    out, seen = [], {}
    for f in formulas:
        m = seen.get(formula_key(f))
        if m is None:
            seen[formula_key(f)] = f
            out.append(f)
            continue
        m["instructions"] += 1
        if f["fit"] is not None and m["fit"] is not None \
                and f["accesses"] and m["accesses"]:
            m["fit"] = ((m["fit"] * m["accesses"] + f["fit"] * f["accesses"])
                        / (m["accesses"] + f["accesses"]))
        m["accesses"] = add_opt(m["accesses"], f["accesses"])
    return out


def formula_model(f):
    """One access formula of a loop: {"where", "variable", "formula",
    "base", "in_block", "fit", "accesses", "instructions"}."""
    out = fields_of(f, ("where", "variable", "formula", "base", "in_block",
                        "fit", "accesses"))
    out["instructions"] = 1
    return out


def struct_model(st):
    """{"size", "overlapping", "covered", "by_count", "split", "fields":
    [{"offset", "name", "size", "accesses", "share", "loops"}],
    "affinity": [(i, j, w)], "groups": [[offset]]}."""
    out = fields_of(st, ("size", "overlapping", "covered", "by_count",
                         "split"))
    out["fields"] = [dict(fields_of(f, ("offset", "name", "size", "accesses",
                                        "share")), loops=list(f.loops))
                     for f in st.fields]
    out["affinity"] = [tuple(a) for a in st.affinity]
    out["groups"] = [list(g) for g in st.groups]
    return out
