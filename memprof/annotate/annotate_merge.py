# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_merge.py -- merging: the working models of several files made
# one (variables, per-line rows, loops, sharing, NUMA, communication,
# advice, the analyses' histograms), and the identical sites of one file
# made one row.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

from annotate_common import (COUNTERS, Differs, InputError, LINE_SHARING_KEYS,
                             NUMA_KEYS, REUSE_KINDS, SHARING_KEYS,
                             STRIDE_CLASSES, STRIDE_KINDS, add_opt, formula_key,
                             hist_median, hist_total, loop_key, max_opt, var_key)

WORST_LINES = 5             # worst lines kept per variable, as memprof does
WHERE_PER_THREAD = 4        # source lines kept per thread of a worst line


def naming_frames(v):
    """A heap site's allocation stack from the allocating frame to the
    one its where names ("... (file:line)"), all of it if none does:
    its code, before who called it."""
    stack = v.get("alloc_stack") or []
    if v["where"] is not None:
        tag = "(%s)" % v["where"]
        for k, frame in enumerate(stack):
            if tag in frame:
                return tuple(stack[:k + 1])
    return tuple(stack)


def site_key(v):
    """Within one file, the variables a user takes for one: var_key's,
    and for heap sites the same code up to the line that names them.
    Two call chains reaching one allocation line are one row; two
    allocations named after a line further out (past code without line
    information, as zlib's after the thread's start) are two."""
    return var_key(v) + ((naming_frames(v),) if v["kind"] == "heap" else ())


def merged_variable(v):
    """An empty merge of variables like v."""
    m = dict(v)
    m["per_line"] = None
    m["alloc_stack"] = None
    m["alloc_stacks"] = []
    m["reads"] = m["writes"] = 0
    for k in ("read_bytes", "write_bytes", "blocks",
              "alloc_bytes", "size", "threads", "lines"):
        m[k] = None
    m["_rows"] = {}
    m["strides"] = None
    m["cache"] = None
    m["reuse"] = None
    m["sharing"] = None
    m["numa"] = None
    m["struct"] = None
    m["folded"] = False
    m["named_by"] = None
    return m


def absorb(m, v, levels, one_file):
    """Adds v to the merge m.  The allocation stacks of the sites of one
    file are all kept (they are what tells them apart); of several
    files, the first file's."""
    m["reads"] += v["reads"]
    m["writes"] += v["writes"]
    for k in ("read_bytes", "write_bytes", "blocks", "alloc_bytes"):
        m[k] = add_opt(m[k], v[k])
    m["folded"] = m["folded"] or v["folded"]
    if m["named_by"] is None:
        m["named_by"] = v["named_by"]
    for k in ("size", "threads", "lines"):
        m[k] = max_opt(m[k], v[k])
    stacks = v.get("alloc_stacks") or ([v["alloc_stack"]]
                                       if v["alloc_stack"] else [])
    if one_file:
        m["alloc_stacks"] += [st for st in stacks
                              if st not in m["alloc_stacks"]]
    elif not m["alloc_stacks"]:
        m["alloc_stacks"] = list(stacks)
    if m["alloc_stack"] is None:
        m["alloc_stack"] = v["alloc_stack"]
    if v["strides"] is not None:
        m["strides"] = merge_strides(m["strides"], v["strides"])
    if v["cache"] is not None:
        m["cache"] = merge_var_cache(m["cache"], v["cache"])
    if v.get("reuse") is not None:
        m["reuse"] = merge_reuse(m["reuse"], v["reuse"])
    if v["sharing"] is not None:
        m["sharing"] = merge_sharing(m["sharing"], v["sharing"])
    if v["numa"] is not None:
        m["numa"] = merge_numa(m["numa"], v["numa"])
    if m["struct"] is None:
        # A structure is not summed: the first file's that has
        # one is kept (its "from" names that file).
        m["struct"] = v.get("struct")
    if v["per_line"] is not None:
        if m["per_line"] is None:
            m["per_line"] = []
        for r in v["per_line"]:
            rkey = (r["where"], r["fn"])
            mr = m["_rows"].get(rkey)
            if mr is None:
                mr = dict(r)
                if r.get("misses") is not None:
                    mr["misses"] = dict(r["misses"])
                if r.get("reuse") is not None:
                    mr["reuse"] = merge_line_reuse(None, r["reuse"])
                m["_rows"][rkey] = mr
                m["per_line"].append(mr)
            else:
                mr["reads"] += r["reads"]
                mr["writes"] += r["writes"]
                for k in ("read_bytes", "write_bytes"):
                    mr[k] = add_opt(mr[k], r[k])
                if levels:
                    mr["cycles"] = add_opt(mr["cycles"], r["cycles"])
                    mr["misses"] = add_dicts(mr["misses"],
                                             r["misses"])
                if r.get("reuse") is not None:
                    mr["reuse"] = merge_line_reuse(mr.get("reuse"),
                                                   r["reuse"])
                for k in LINE_SHARING_KEYS:
                    mr[k] = add_opt(mr[k], r[k])


def finish_merged(m):
    del m["_rows"]
    if m["strides"] is not None:
        m["strides"] = finish_strides(m["strides"])
    if m["reuse"] is not None:
        m["reuse"] = finish_reuse(m["reuse"])
    if m["sharing"] is not None:
        m["sharing"] = finish_sharing(m["sharing"])
    if m["numa"] is not None:
        m["numa"] = finish_numa(m["numa"])
    return m


def merge_variables(lists, levels, key_of=var_key):
    """The variables of one file or of several (one list each), those
    with the same key combined, in the order first seen.  Within one
    file, a variable that has no twin is kept as it is."""
    one_file = len(lists) == 1
    groups = {}
    order = []
    for variables in lists:
        for v in variables:
            key = key_of(v)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(v)
    out = []
    for key in order:
        group = groups[key]
        if one_file and len(group) == 1:
            out.append(group[0])
            continue
        m = merged_variable(group[0])
        for v in group:
            absorb(m, v, levels, one_file)
        out.append(finish_merged(m))
    return out


def merge(files):
    lines = {f["config"].get("line") for f in files} - {None}
    if len(lines) > 1:
        raise InputError("cannot merge files with different cache line "
                         "sizes (%s)" % ", ".join(str(l)
                                                  for l in sorted(lines)))
    levels = files[0]["levels"]
    for f in files[1:]:
        if (f["levels"] is None) != (levels is None):
            raise InputError("cannot merge files with and without a cache "
                             "simulation (%s has none)"
                             % (f["path"] if f["levels"] is None
                                else files[0]["path"]))
        if f["levels"] != levels:
            raise InputError("cannot merge files with different cache "
                             "levels (%s; %s)"
                             % (", ".join(levels), ", ".join(f["levels"])))
    variables = merge_variables([f["variables"] for f in files], levels)
    totals = {}
    for k in COUNTERS + ("accesses",):
        val = None
        for f in files:
            val = add_opt(val, f["totals"][k])
        totals[k] = val
    totals["threads"] = None
    for f in files:
        totals["threads"] = max_opt(totals["threads"], f["totals"]["threads"])
    totals["variables"] = len(variables)
    if levels:
        totals["cycles"] = None
        totals["cache"] = None
        totals["prefetch"] = None
        for f in files:
            totals["cycles"] = add_opt(totals["cycles"],
                                       f["totals"]["cycles"])
            totals["prefetch"] = add_dicts(totals["prefetch"],
                                           f["totals"].get("prefetch"))
            tc = f["totals"]["cache"]
            if tc is not None:
                if totals["cache"] is None:
                    totals["cache"] = dict((n, None) for n in levels)
                for n in levels:
                    totals["cache"][n] = add_dicts(totals["cache"][n], tc[n])

    config = {}
    for f in files:
        for k in f["config"]:
            if k not in config:
                config[k] = None
    for k in config:
        values = [f["config"].get(k) for f in files]
        if all(v == values[0] for v in values):
            config[k] = values[0]
        else:
            config[k] = Differs([(f["path"], f["config"].get(k))
                                  for f in files])
    return {
        "paths": [f["path"] for f in files],
        "levels": levels,
        "version": max(f["version"] for f in files),
        "commands": [f["command"] for f in files],
        "config": config,
        "totals": totals,
        "variables": variables,
        "communication": merge_communication(files),
        "matrix": merge_matrix(files),
        "advice": merge_advice(files),
        "rejected": merge_advice(files, "rejected"),
        "loops": merge_loops(files),
    }


def file_data(f):
    """The report's data of one file (what merge returns for several),
    its identical variables merged: two sites that reach one allocation
    line through different call chains are one row, as a user reads
    the line; its allocation stacks tell them apart."""
    variables = merge_variables([f["variables"]], f["levels"], site_key)
    totals = f["totals"]
    if len(variables) != len(f["variables"]):
        totals = dict(totals, variables=len(variables))
    return {"paths": [f["path"]], "version": f["version"],
            "levels": f["levels"], "commands": [f["command"]],
            "config": f["config"], "totals": totals,
            "variables": variables,
            "communication": f["communication"], "matrix": f["matrix"],
            "advice": f["advice"], "rejected": f.get("rejected"),
            "loops": f["loops"]}


def merge_loops(files):
    """The loops of all files, matched by loop_key: entries, iterations,
    accesses and the streams' sums added, the most streams and iterations
    in one execution the largest, flagged if in any file; formulas united
    by (where, variable, formula, base, in_block), their accesses summed
    and their fits weighted by them.  Most accesses first.  None when no
    file has loops (--loops=no)."""
    lists = [f["loops"] for f in files if f["loops"] is not None]
    if not lists:
        return None
    loops, order = {}, []
    for ls in lists:
        for l in ls:
            key = loop_key(l)
            m = loops.get(key)
            if m is None:
                m = dict(l, formulas=[], _formulas={})
                loops[key] = m
                order.append(key)
            else:
                for k in ("entries", "iterations", "accesses",
                          "streams_sum"):
                    m[k] = add_opt(m[k], l[k])
                for k in ("max_iterations", "streams", "depth"):
                    m[k] = max_opt(m[k], l[k])
                if l["flagged"] is not None:
                    m["flagged"] = bool(m["flagged"]) or l["flagged"]
            for f in l["formulas"]:
                mf = m["_formulas"].get(formula_key(f))
                if mf is None:
                    mf = dict(f, _fits=None)
                    m["_formulas"][formula_key(f)] = mf
                    m["formulas"].append(mf)
                else:
                    mf["accesses"] = add_opt(mf["accesses"], f["accesses"])
                    mf["instructions"] = max(mf["instructions"],
                                             f["instructions"])
                if f["fit"] is not None and f["accesses"] is not None:
                    mf["_fits"] = (mf["_fits"] or 0) + f["fit"] * f["accesses"]
    out = []
    for i, key in enumerate(order):
        m = loops[key]
        del m["_formulas"]
        if m["entries"]:
            if m["iterations"] is not None:
                m["mean_iterations"] = m["iterations"] / m["entries"]
            if m["streams_sum"] is not None:
                m["mean_streams"] = m["streams_sum"] / m["entries"]
        for mf in m["formulas"]:
            fits = mf.pop("_fits")
            if fits is not None and mf["accesses"]:
                mf["fit"] = fits / mf["accesses"]
        m["formulas"].sort(key=lambda f: -(f["accesses"] or 0))
        out.append((-(m["accesses"] or 0), i, m))
    return [m for _, _, m in sorted(out, key=lambda x: x[:2])]


def merge_sharing(m, s):
    """Adds a variable's sharing data s of one file into m (None at
    first): counts summed; worst lines united by line address (see
    merge_worst_line); finish_sharing keeps the worst."""
    if m is None:
        m = dict((k, None) for k in SHARING_KEYS)
        m["worst"] = {}
    for k in SHARING_KEYS:
        m[k] = add_opt(m[k], s[k])
    m["placements"] = merge_placements(m.get("placements"),
                                       s.get("placements"))
    for wl in s["worst_lines"]:
        m["worst"][wl["line"]] = merge_worst_line(m["worst"].get(wl["line"]),
                                                  wl)
    return m


def merge_placements(m, p):
    """The placements of two files: a placement shares falsely if it
    does in either run (the union); the current one is the first run's.
    Runs that evaluated different steps keep the first's."""
    if m is None or p is None:
        return m if p is None else dict(p, false_at=list(p["false_at"]))
    if (m["step"], m["evaluated"]) == (p["step"], p["evaluated"]):
        m["false_at"] = sorted(set(m["false_at"]) | set(p["false_at"]))
    return m


def merge_worst_line(m, wl):
    """One worst line of two files: transfers and per-thread counts
    summed, byte ranges and source lines united.  The line is true
    sharing if it was in any file: one run where the threads touched a
    common byte is enough."""
    if m is None:
        m = {"line": wl["line"], "offset": wl["offset"], "kind": wl["kind"],
             "transfers": None, "predicted_transfers": None, "threads": []}
    elif wl["kind"] == "true":
        m["kind"] = "true"
    if m["offset"] is None:
        m["offset"] = wl["offset"]
    m["transfers"] = add_opt(m["transfers"], wl["transfers"])
    m["predicted_transfers"] = add_opt(m["predicted_transfers"],
                                       wl["predicted_transfers"])
    by_thread = dict((t["thread"], t) for t in m["threads"])
    for t in wl["threads"]:
        mt = by_thread.get(t["thread"])
        if mt is None:
            mt = {"thread": t["thread"], "reads": None, "writes": None,
                  "read_bytes": [], "write_bytes": [], "where": []}
            by_thread[t["thread"]] = mt
            m["threads"].append(mt)
        for k in ("reads", "writes"):
            mt[k] = add_opt(mt[k], t[k])
        for k in ("read_bytes", "write_bytes"):
            mt[k] = union_ranges(mt[k], t[k])
        for x in t["where"]:
            if x not in mt["where"] and len(mt["where"]) < WHERE_PER_THREAD:
                mt["where"].append(x)
    m["threads"].sort(key=lambda t: t["thread"])
    return m


def union_ranges(a, b):
    """The union of two lists of inclusive [lo, hi] ranges, sorted, with
    overlapping and adjacent ranges joined."""
    out = []
    for lo, hi in sorted(a + b):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def finish_sharing(m):
    """The worst lines of merged sharing data: most predicted transfers
    first, then most seen, as many as memprof keeps."""
    worst = m.pop("worst").values()
    m["worst_lines"] = sorted(worst, key=lambda wl: (
        -(wl["predicted_transfers"] or 0), -(wl["transfers"] or 0),
        wl["line"]))[:WORST_LINES]
    return m


def merge_numa(m, nu):
    """Adds a variable's NUMA data of one file into m (None at first):
    counts summed, first touches summed by (thread, socket); the hit
    ratio is recomputed by finish_numa."""
    if m is None:
        m = dict((k, None) for k in NUMA_KEYS)
        m["ratios"] = []
        m["touch"] = {}
    for k in NUMA_KEYS:
        m[k] = add_opt(m[k], nu[k])
    m["ratios"].append(nu["hit_ratio"])
    for ft in nu["first_touch"]:
        key = (ft["thread"], ft["socket"])
        m["touch"][key] = m["touch"].get(key, 0) + ft["pages"]
    return m


def finish_numa(m):
    ratios = m.pop("ratios")
    touch = m.pop("touch")
    m["first_touch"] = [{"thread": t, "socket": s, "pages": n}
                        for (t, s), n in sorted(touch.items())]
    # Without the counts a ratio cannot be weighted; one file's is kept.
    m["hit_ratio"] = ratios[0] if len(ratios) == 1 else None
    return m


def merge_communication(files):
    """The communication pairs of all files, summed by (from, from_fn,
    to, to_fn, variable); most transfers first.  None when no file has
    any (sharing tracking was off)."""
    lists = [f["communication"] for f in files
             if f["communication"] is not None]
    if not lists:
        return None
    pairs = {}
    for comm in lists:
        for c in comm:
            key = tuple(c[k] for k in ("from", "from_fn", "to", "to_fn",
                                       "variable"))
            m = pairs.get(key)
            if m is None:
                pairs[key] = dict(c)
                continue
            for k in ("count", "true", "false"):
                m[k] = add_opt(m[k], c[k])
    return sorted(pairs.values(), key=lambda c: (-c["count"],) + tuple(
        c[k] or "" for k in ("from", "to", "variable", "from_fn", "to_fn")))


def merge_matrix(files):
    """The thread x thread matrices of all files, cells summed by (from,
    to); None when no file has one."""
    mats = [f["matrix"] for f in files if f["matrix"] is not None]
    if not mats:
        return None
    threads = set()
    cells = {}
    for mx in mats:
        threads.update(mx["threads"])
        for key, c in mx["cells"].items():
            cells[key] = add_dicts(cells.get(key), c)
    return {"threads": sorted(threads), "cells": cells}


def merge_advice(files, key="advice"):
    """The advice (or the rejected advice) of all files: one entry per
    (kind, variable, where), the first file's text, with the files that
    gave it.  Order: the first file's, then the entries new in the
    second, and so on."""
    lists = [f.get(key) for f in files if f.get(key) is not None]
    if not lists:
        return None
    out, seen = [], {}
    for advice in lists:
        for a in advice:
            key = (a["kind"], a["variable"], tuple(a["where"]))
            if key in seen:
                for p in a["files"]:
                    if p not in seen[key]["files"]:
                        seen[key]["files"].append(p)
                continue
            seen[key] = dict(a, files=list(a["files"]))
            out.append(seen[key])
    return out


def add_dicts(a, b):
    """Key-wise sum of two {key: number or None} dicts (None: absent)."""
    if a is None:
        return None if b is None else dict(b)
    if b is None:
        return a
    out = dict(a)
    for k, v in b.items():
        out[k] = add_opt(out.get(k), v)
    return out


def merge_var_cache(m, c):
    """Adds a variable's cache data c of one file into m (None at first):
    every count summed, level by level."""
    if m is None:
        m = {"levels": {}, "served": {}, "cycles": None,
             "invalidations": None}
    for name, lv in c["levels"].items():
        m["levels"][name] = add_dicts(m["levels"].get(name), lv)
    m["served"] = add_dicts(m["served"], c["served"])
    for k in ("cycles", "invalidations"):
        m[k] = add_opt(m[k], c[k])
    return m


def add_lists(a, b):
    """Element-wise sum; the shorter list counts as zeros."""
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0)
            for i in range(n)]


def merge_strides(m, s):
    """Adds the stride data s of one file into m (None at first): bins
    summed by (kind, k, lo); negatives and classes summed; the dominant
    strides' counts summed by stride (see finish_strides)."""
    if m is None:
        m = {"hists": {kind: [] for kind, _ in STRIDE_KINDS},
             "negative": {kind: [] for kind, _ in STRIDE_KINDS},
             "classes": dict((c, 0) for c, _ in STRIDE_CLASSES),
             "dominants": {}}
    for kind, _ in STRIDE_KINDS:
        hists = m["hists"][kind]
        for k, bins in enumerate(s["hists"][kind]):
            if k >= len(hists):
                hists.append({})
            for lo, (hi, count) in bins.items():
                if lo in hists[k]:
                    hists[k][lo][1] += count
                else:
                    hists[k][lo] = [hi, count]
        m["negative"][kind] = add_lists(m["negative"][kind],
                                        s["negative"][kind])
    for c, _ in STRIDE_CLASSES:
        m["classes"][c] += s["classes"][c]
    if s["dominant"] is not None:
        b = s["dominant"]["bytes"]
        m["dominants"][b] = m["dominants"].get(b, 0) + s["dominant"]["count"]
    return m


def finish_strides(m):
    doms = m.pop("dominants")
    m["dominant"] = None
    if doms:
        best = max(doms.items(), key=lambda x: (x[1], -abs(x[0]), x[0]))
        m["dominant"] = {"bytes": best[0], "count": best[1]}
    return m


def merge_reuse(m, r):
    """Adds a variable's reuse data r of one file into m (None at
    first): bins summed by (kind, lo), cold summed, and per kind the
    sum of the distances (the file's mean times its count) for the
    means; see finish_reuse."""
    if m is None:
        m = {"hists": dict((k, {}) for k in REUSE_KINDS), "cold": None,
             "sum": dict((k, 0) for k in REUSE_KINDS)}
    for kind in REUSE_KINDS:
        bins = m["hists"][kind]
        for lo, (hi, n) in r["hists"][kind].items():
            if lo in bins:
                bins[lo][1] += n
            else:
                bins[lo] = [hi, n]
        n = hist_total(r["hists"][kind])
        if n:
            mean = r["mean"][kind]
            m["sum"][kind] = (m["sum"][kind] + mean * n
                              if m["sum"][kind] is not None
                              and mean is not None else None)
    m["cold"] = add_opt(m["cold"], r["cold"])
    return m


def finish_reuse(m):
    """The means (weighted by the counts) and the medians (of the merged
    histograms) of merged reuse data."""
    sums = m.pop("sum")
    m["mean"], m["median"] = {}, {}
    for kind in REUSE_KINDS:
        n = hist_total(m["hists"][kind])
        m["mean"][kind] = (sums[kind] / n
                           if n and sums[kind] is not None else None)
        m["median"][kind] = hist_median(m["hists"][kind])
    return m


def merge_line_reuse(m, r):
    """Adds a per_line row's reuse data r into m (None at first): counts
    summed, and the sums of the distances for the means."""
    if m is None:
        return {"n": dict(r["n"]), "sum": dict(r["sum"]), "cold": r["cold"]}
    for kind in REUSE_KINDS:
        a, b = m["n"][kind], r["n"][kind]
        if b:
            m["sum"][kind] = (r["sum"][kind] if not a
                              else m["sum"][kind] + r["sum"][kind]
                              if m["sum"][kind] is not None
                              and r["sum"][kind] is not None else None)
        m["n"][kind] = add_opt(a, b)
    m["cold"] = add_opt(m["cold"], r["cold"])
    return m
