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
from memprof_reader import no_cycle_collection
from annotate_metrics import metric_fn

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
    m["sample"] = empty_sample(v.get("sample"))
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
    m["sample"] = add_samples(m["sample"], v.get("sample"))
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


def empty_sample(s):
    """A merge's sample (see annotate_model.sample_model) before its
    first variable: no lines, [0, 0] for each interval s has; None (no
    sample) when s is None."""
    if s is None:
        return None

    def zero(x):
        return (0, 0) if x is not None else None
    ci = s["ci"]
    return {"lines": 0, "estimable": True, "min_lines": None,
            "ci": {"accesses": zero(ci["accesses"]),
                   "cycles": zero(ci["cycles"]),
                   "stall_cycles": zero(ci["stall_cycles"]),
                   "misses": dict((n, zero(x))
                                  for n, x in ci["misses"].items())}}


def add_samples(a, b):
    """The sample of two variables merged: their sampled lines summed,
    estimable when the sum is enough (when no file says how many are,
    when both are), and their intervals' bounds summed: wider than the
    interval of independent errors, it holds when they are correlated,
    as those of one run's variables are (they share the sampled sets).
    None when one of them has no sample: a sum with a part of unknown
    error has no interval."""
    if a is None or b is None:
        return None
    lines = (a["lines"] + b["lines"]
             if a["lines"] is not None and b["lines"] is not None else None)
    least = max_opt(a["min_lines"], b["min_lines"])
    estimable = (lines >= least if lines is not None and least is not None
                 else a["estimable"] and b["estimable"])
    ca, cb = a["ci"], b["ci"]
    ci = dict((k, add_intervals(ca[k], cb[k]))
              for k in ("accesses", "cycles", "stall_cycles"))
    ci["misses"] = dict((n, add_intervals(x, cb["misses"].get(n)))
                        for n, x in ca["misses"].items())
    return {"lines": lines, "estimable": estimable, "min_lines": least,
            "ci": ci}


def add_intervals(x, y):
    if x is None or y is None:
        return None
    return (x[0] + y[0], x[1] + y[1])


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


def merge(files, rank_key=None):
    """The working models of several files (or one) merged: see
    merge_paths, which reads them one at a time."""
    acc = merge_start(len(files), [f["path"] for f in files], rank_key)
    for f in files:
        merge_add(acc, f)
    return merge_finish(acc)


def merge_paths(paths, load, rank_key=None):
    """The files at paths merged in one pass: each is loaded, added to
    the merge and dropped before the next is read, so that the memory
    held is that of the merged data and of one file, however many files
    (an MPI job's ranks) there are."""
    acc = merge_start(len(paths), paths, rank_key)
    # The merge holds no cycle either (see no_cycle_collection); the
    # collector, back on after each file, would scan it each time.
    with no_cycle_collection():
        for path in paths:
            merge_add(acc, load(path))
        return merge_finish(acc)


def merge_start(n_files, paths, rank_key):
    """An empty merge of n_files files.  rank_key: the sort key whose
    metric the per-rank view gives (None: the default sort key)."""
    return {"n": n_files, "paths": list(paths), "rank_key": rank_key,
            "first": None, "levels": None, "version": 0, "commands": [],
            "config": {}, "config_pairs": {}, "config_order": [],
            "totals": None,
            "vars": {}, "order": [], "one_file": None,
            "loops": None, "communication": None, "matrix": None,
            "advice": None, "rejected": None, "ranks": None}


def check_mergeable(first, f):
    """Refuses a file whose cache lines or levels are not the first
    file's: their counts do not add up."""
    lines = {first["config"].get("line"), f["config"].get("line")} - {None}
    if len(lines) > 1:
        raise InputError("cannot merge files with different cache line "
                         "sizes (%s)" % ", ".join(str(l)
                                                  for l in sorted(lines)))
    levels = first["levels"]
    if (f["levels"] is None) != (levels is None):
        raise InputError("cannot merge files with and without a cache "
                         "simulation (%s has none)"
                         % (f["path"] if f["levels"] is None
                            else first["path"]))
    if f["levels"] != levels:
        raise InputError("cannot merge files with different cache "
                         "levels (%s; %s)"
                         % (", ".join(levels), ", ".join(f["levels"])))


def merge_add(acc, f):
    """Adds the working model of one file to the merge acc."""
    if acc["first"] is None:
        acc["first"] = {"path": f["path"], "config": f["config"],
                        "levels": f["levels"]}
        acc["levels"] = f["levels"]
        if acc["n"] > 1:
            acc["ranks"] = rank_start(acc, f)
    else:
        check_mergeable(acc["first"], f)
    index = len(acc["commands"])
    acc["version"] = max(acc["version"], f["version"])
    acc["commands"].append(f["command"])
    add_config(acc, f, index)
    acc["totals"] = add_totals(acc["totals"], f["totals"], acc["levels"])
    if acc["n"] == 1:
        # One file keeps its variables that have no twin as they are.
        acc["one_file"] = f["variables"]
    else:
        add_variables(acc, f["variables"], index)
    if f["loops"] is not None:
        acc["loops"] = add_loops(acc["loops"], f["loops"])
    if f["communication"] is not None:
        acc["communication"] = add_communication(acc["communication"],
                                                 f["communication"])
    if f["matrix"] is not None:
        acc["matrix"] = add_matrix(acc["matrix"], f["matrix"])
    if f["advice"] is not None:
        acc["advice"] = add_advice(acc["advice"], f["advice"])
    if f.get("rejected") is not None:
        acc["rejected"] = add_advice(acc["rejected"], f["rejected"])


def add_config(acc, f, index):
    """The config values of the files: one value while all files agree,
    the (path, value) of each file once one differs."""
    config, pairs = acc["config"], acc["config_pairs"]
    for k in f["config"]:
        if k not in config and k not in pairs:
            acc["config_order"].append(k)
            if index == 0 or f["config"][k] is None:
                config[k] = f["config"][k]
            else:
                # A key the earlier files lack: theirs were None.
                pairs[k] = [(p, None) for p in acc["paths"][:index]]
    for k in list(config):
        v = f["config"].get(k)
        if v != config[k]:
            pairs[k] = [(p, config[k]) for p in acc["paths"][:index]]
            del config[k]
    for k, kp in pairs.items():
        if len(kp) == index:
            kp.append((f["path"], f["config"].get(k)))


def add_totals(t, ft, levels):
    """Adds a file's totals ft to the merged t (None at first)."""
    if t is None:
        t = dict((k, None) for k in COUNTERS + ("accesses", "threads"))
        if levels:
            t.update(cycles=None, cache=None, prefetch=None)
    for k in COUNTERS + ("accesses",):
        t[k] = add_opt(t[k], ft[k])
    t["threads"] = max_opt(t["threads"], ft["threads"])
    if levels:
        t["cycles"] = add_opt(t["cycles"], ft["cycles"])
        t["prefetch"] = add_dicts(t["prefetch"], ft.get("prefetch"))
        tc = ft["cache"]
        if tc is not None:
            if t["cache"] is None:
                t["cache"] = dict((n, None) for n in levels)
            for n in levels:
                t["cache"][n] = add_dicts(t["cache"][n], tc[n])
    return t


def add_variables(acc, variables, index):
    """Adds a file's variables to the merge (several files), and their
    values of the rank metric to the per-rank view."""
    groups, order, levels = acc["vars"], acc["order"], acc["levels"]
    ranks = acc["ranks"]
    metric, labels, here = ranks["metric"], ranks["labels"], {}
    for v in variables:
        key = var_key(v)
        m = groups.get(key)
        if m is None:
            m = groups[key] = merged_variable(v)
            order.append(key)
        absorb(m, v, levels, False)
        here[key] = here.get(key, 0) + (metric(v) or 0)
    for key, x in here.items():
        st = groups[key].get("_rank")
        if st is None:
            groups[key]["_rank"] = [1, x, x, x, index]
            continue
        st[0] += 1
        st[1] += x
        st[2] = min(st[2], x)
        # Of equals, the lowest rank, whatever the order of the files.
        if x > st[3] or x == st[3] and labels[index] < labels[st[4]]:
            st[3], st[4] = x, index
    ranks["totals"].append(sum(here.values()))


def merge_finish(acc):
    levels = acc["levels"]
    if acc["n"] == 1:
        variables = merge_variables([acc["one_file"]], levels)
    else:
        variables = [finish_merged(acc["vars"][key])
                     for key in acc["order"]]
        for m in variables:
            m["ranks"] = rank_stats(m.pop("_rank", None), acc["n"])
    totals = acc["totals"]
    totals["variables"] = len(variables)
    config = dict(acc["config"])
    for k, pairs in acc["config_pairs"].items():
        config[k] = Differs(pairs)
    config = dict((k, config[k]) for k in acc["config_order"])
    ranks = acc["ranks"]
    if ranks is not None:
        del ranks["metric"]
    return {
        "paths": acc["paths"],
        "levels": levels,
        "version": acc["version"],
        "commands": acc["commands"],
        "config": config,
        "totals": totals,
        "variables": variables,
        "communication": finish_communication(acc["communication"]),
        "matrix": acc["matrix"],
        "advice": acc["advice"],
        "rejected": acc["rejected"],
        "loops": finish_loops(acc["loops"]),
        "ranks": ranks,
    }


# Sort keys whose metric is no sum over a rank's variables: the
# per-rank view gives the default's instead.
NOT_SUMMED = ("name", "cpa", "reuse")


def rank_start(acc, f):
    """The per-rank view of a merge, begun with its first file: the
    metric (the sort key's, or the default sort key's: cycles with a
    cache simulation, else accesses), each file's rank label and, once
    added, each file's total of the metric over its variables."""
    key = acc["rank_key"]
    if key is None or key in NOT_SUMMED:
        key = "cycles" if f["levels"] else "accesses"
    labels, by_name = rank_labels(acc["paths"])
    return {"key": key,
            "metric": metric_fn(key, f["levels"],
                                f["config"].get("sharing") is True),
            "labels": labels, "by_name": by_name, "totals": []}


def rank_labels(paths):
    """Each file's rank: the number that ends its name when every name
    ends in a different one (%q{OMPI_COMM_WORLD_RANK} in
    --memprof-out-file), else its position among the files, from 0.
    Also whether the names gave them."""
    numbers = []
    for p in paths:
        digits = len(p) - len(p.rstrip("0123456789"))
        if not digits:
            break
        numbers.append(int(p[len(p) - digits:]))
    if len(numbers) == len(paths) and len(set(numbers)) == len(numbers):
        return numbers, True
    return list(range(len(paths))), False


def rank_stats(st, n_files):
    """A merged variable's metric over the ranks: min, mean, max and the
    index of the file of the max (the lowest rank of equals).  A rank where
    the variable does not occur counts as 0."""
    if st is None:
        return None
    present, total, low, high, at = st
    if present < n_files:
        low = min(low, 0)
    return {"min": low, "mean": total / n_files, "max": high, "at": at}


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


def add_loops(acc, ls):
    """Adds a file's loops to acc ({key: loop}, None at first), matched
    by loop_key: entries, iterations, accesses and the streams' sums
    added, the most streams and iterations in one execution the largest,
    flagged if in any file; formulas united by (where, variable,
    formula, base, in_block), their accesses summed and their fits
    weighted by them."""
    loops = {} if acc is None else acc
    for l in ls:
        key = loop_key(l)
        m = loops.get(key)
        if m is None:
            m = dict(l, formulas=[], _formulas={})
            loops[key] = m
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
    return loops


def finish_loops(loops):
    """The merged loops, most accesses first (then as first seen); None
    when no file has loops (--loops=no)."""
    if loops is None:
        return None
    out = []
    for i, m in enumerate(loops.values()):
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


def add_communication(pairs, comm):
    """Adds a file's communication pairs to pairs (None at first), summed
    by (from, from_fn, to, to_fn, variable)."""
    pairs = {} if pairs is None else pairs
    for c in comm:
        key = tuple(c[k] for k in ("from", "from_fn", "to", "to_fn",
                                   "variable"))
        m = pairs.get(key)
        if m is None:
            pairs[key] = dict(c)
            continue
        for k in ("count", "true", "false"):
            m[k] = add_opt(m[k], c[k])
    return pairs


def finish_communication(pairs):
    """The merged pairs, most transfers first; None when no file has any
    (sharing tracking was off)."""
    if pairs is None:
        return None
    return sorted(pairs.values(), key=lambda c: (-c["count"],) + tuple(
        c[k] or "" for k in ("from", "to", "variable", "from_fn", "to_fn")))


def add_matrix(m, mx):
    """Adds a file's thread x thread matrix to m (None at first), cells
    summed by (from, to)."""
    if m is None:
        m = {"threads": [], "cells": {}}
    m["threads"] = sorted(set(m["threads"]) | set(mx["threads"]))
    for key, c in mx["cells"].items():
        m["cells"][key] = add_dicts(m["cells"].get(key), c)
    return m


def add_advice(out, advice):
    """Adds a file's advice to out (None at first): one entry per (kind,
    variable, where), the first file's text, with the files that gave
    it.  Order: the first file's, then the entries new in the second,
    and so on."""
    if out is None:
        out = []
    seen = dict(((a["kind"], a["variable"], tuple(a["where"])), a)
                for a in out)
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
             "stall_cycles": None, "invalidations": None}
    for name, lv in c["levels"].items():
        m["levels"][name] = add_dicts(m["levels"].get(name), lv)
    m["served"] = add_dicts(m["served"], c["served"])
    for k in ("cycles", "stall_cycles", "invalidations"):
        m[k] = add_opt(m[k], c.get(k))
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
