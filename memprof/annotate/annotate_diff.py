# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_diff.py -- --diff BEFORE AFTER: the totals, the advice, the
# loops and the variables of two runs side by side, with the changes.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

from annotate_common import (Differs, REUSE_KINDS, RULE, SHARING_KEYS,
                             loop_key, var_key)
from annotate_text import (clean, config_lines, fmt_mean, fmt_threshold,
                           lines_sampling, located, loop_place, num,
                           render_table, section_title, signed,
                           var_where_text, wrap)
from annotate_metrics import (above_loops, accesses, cache_key,
                              estimate_error, metric_fn, numa_hit_ratio,
                              pct, report_totals, sharing_tracked,
                              total_bytes, var_cpa, var_cycles,
                              var_estimable, var_misses)
from annotate_report import (advice_head, advice_key, commands_line,
                             place_table, streams_text, unestimable_note)


# The mark of a change within the sampling error (see within_error), and
# what it means, under a table that has one.
NOISE = "~"
NOISE_LEGEND = ("(~: within the sampling error: |change| <= "
                "sqrt(h_before^2 + h_after^2), h a run's 95% half-width)")


def diff_report(before, after, opts):
    levels = before["levels"]
    out = diff_header(before, after, opts)
    out += diff_totals(before, after, levels)
    out += diff_advice(before["advice"], after["advice"], opts.width)
    pairs = match_variables(before, after)
    n_all = len(pairs)
    if not opts.show_runtime:
        pairs = [p for p in pairs if (p[1] or p[0])["class"] == "program"]
    key = diff_metric(opts.sort, levels)
    tracked = (sharing_tracked(before), sharing_tracked(after))
    metrics = (shown_metric(key, levels, tracked[0]),
               shown_metric(key, levels, tracked[1]))
    ordered = sort_pairs(pairs, metrics, opts.sort, levels)
    shown = pairs_above_threshold(ordered, before, after, opts.threshold)
    out += diff_table(ordered, shown, key, metrics, levels, opts,
                      n_all - len(pairs))
    out += diff_loops(before, after, opts)
    for rank, (b, a) in enumerate(shown[:opts.show], 1):
        out += diff_detail(rank, b, a, levels, tracked)
    return out


def diff_loops(before, after, opts):
    """The loops of both runs matched by function, file and lines (a
    loop whose lines moved is gone in one run and new in the other), at
    or above the threshold of accesses in either run, most accesses
    first: the streams (most in one execution, ! when flagged) and the
    accesses before and after."""
    lb, la = before.get("loops"), after.get("loops")
    if lb is None and la is None:
        return []
    out = [""] + section_title("Loops, before and after (matched by "
                               "function, file and lines)")
    for label, loops in (("before", lb), ("after", la)):
        if loops is None:
            out.append("(no loop data in the %s run: --loops=no?)" % label)
    bmap = dict((loop_key(l), l) for l in lb or [])
    amap = dict((loop_key(l), l) for l in la or [])
    keys = list(bmap) + [k for k in amap if k not in bmap]
    tb, ta = report_totals(before)[0], report_totals(after)[0]
    bshown = set(loop_key(l) for l in above_loops(lb or [], tb,
                                                   opts.threshold))
    ashown = set(loop_key(l) for l in above_loops(la or [], ta,
                                                   opts.threshold))
    pairs = [(bmap.get(k), amap.get(k)) for k in keys
             if k in bshown or k in ashown]
    pairs.sort(key=lambda p: -max((l["accesses"] or 0) for l in p if l))
    if not pairs:
        out.append("(no loop at or above the %s%% threshold of accesses)"
                   % fmt_threshold(opts.threshold))
        return out
    rows = []
    for b, a in pairs:
        change = ("new" if b is None else "gone" if a is None else
                  signed(a["streams"] - b["streams"])
                  if a["streams"] is not None and b["streams"] is not None
                  else "-")
        rows.append([streams_text(b) if b else "-  ",
                     streams_text(a) if a else "-  ", change,
                     num(b["accesses"]) if b else "-",
                     num(a["accesses"]) if a else "-"])
    out += place_table(["streams before", "after", "change",
                        "accesses before", "after"], rows,
                       [located(loop_place(a or b), (a or b)["function"])
                        for b, a in pairs], opts.width)
    hidden = len(keys) - len(pairs)
    if hidden:
        out.append("(%d loop%s below the %s%% threshold of accesses in both "
                   "runs not shown)" % (hidden, "" if hidden == 1 else "s",
                                        fmt_threshold(opts.threshold)))
    return out



def diff_metric(key, levels):
    """The metric of the diff's table: the sort key's; for "name" the
    default one."""
    if key == "name":
        return "cycles" if levels else "accesses"
    return key


def diff_header(before, after, opts):
    out = [RULE]
    w = out.append
    # One command is printed once, different ones beside their files.
    several = len(set(before["commands"] + after["commands"]) - {None}) > 1
    if not several:
        out.extend(commands_line(before["commands"] + after["commands"]))
    for label, data in (("Before", before), ("After", after)):
        text = "%s: %s" % (label, ", ".join(clean(p) for p in data["paths"]))
        commands = [c for c in data["commands"] if c is not None]
        if several and commands:
            text += " (%s)" % "; ".join(clean(c) for c in commands)
        w(text)
    w("Format version: %d" % max(before["version"], after["version"]))
    config = {}
    for k in list(before["config"]) + list(after["config"]):
        vb, va = before["config"].get(k), after["config"].get(k)
        # Whose counts are estimates is said run by run, even when both
        # runs sampled the lines alike.
        alike = vb == va and not (k == "sampling" and lines_sampling(vb))
        config[k] = (vb if alike
                     else Differs([("before", vb), ("after", va)]))
    out.extend(config_lines(config, before["levels"]))
    w("Sort order: %s, by the absolute change" % opts.sort)
    w("Threshold: %s%%" % fmt_threshold(opts.threshold))
    w(RULE)
    w("")
    return out


def change_cells(vb, va, kind):
    """[before, after, change, %] of one metric: kind "count", "float"
    (one decimal), "ratio" (0..1, shown in %, changed in points) or
    "text"."""
    if kind == "text":
        return [vb or "-", va or "-", "", ""]
    fmt = {"count": num, "float": fmt_mean,
           "ratio": lambda x: "-" if x is None else "%.1f%%" % (100 * x)
           }[kind]
    cells = [fmt(vb), fmt(va)]
    if vb is None or va is None:
        return cells + ["-", "-"]
    d = va - vb
    if kind == "count":
        change = signed(d)
    elif kind == "float":
        change = "%+.1f" % d if round(d, 1) else "0.0"
    else:
        return cells + ["%+.1f pt" % (100 * d) if round(100 * d, 1)
                        else "0.0 pt", ""]
    return cells + [change, pct_change(vb, va)]


def pct_change(vb, va):
    """The relative change from vb to va: '+12.5%', '0.0%'; '-' from 0."""
    if vb is None or va is None:
        return "-"
    if not vb:
        return "0.0%" if not va else "-"
    if va == vb:
        return "0.0%"
    return "%+.1f%%" % (100.0 * (va - vb) / vb)


def diff_totals(before, after, levels):
    """The totals of both runs: accesses, cycles, per level misses."""
    tb, ta = before["totals"], after["totals"]
    acc_b, cyc_b = report_totals(before)
    acc_a, cyc_a = report_totals(after)
    rows = [("accesses", acc_b, acc_a, "count")]
    for key, label in (("reads", "reads"), ("writes", "writes"),
                       ("read_bytes", "bytes read"),
                       ("write_bytes", "bytes written")):
        rows.append((label, tb[key], ta[key], "count"))
    if levels:
        rows.append(("cycles", cyc_b, cyc_a, "count"))
        rows.append(("cycles per access",
                     cyc_b / acc_b if cyc_b is not None and acc_b else None,
                     cyc_a / acc_a if cyc_a is not None and acc_a else None,
                     "float"))
        for name in levels:
            rows.append(("%s misses" % clean(name),
                         level_misses(tb, name), level_misses(ta, name),
                         "count"))
    rows.append(("variables", len(before["variables"]),
                 len(after["variables"]), "count"))
    rows.append(("threads", tb["threads"], ta["threads"], "count"))
    table = [[label] + change_cells(vb, va, kind)
             for label, vb, va, kind in rows
             if vb is not None or va is not None]
    return (["Totals:"]
            + render_table(["", "before", "after", "change", "%"], table,
                           {1, 2, 3, 4})
            + [""])


def level_misses(totals, name):
    lv = (totals.get("cache") or {}).get(name)
    return lv.get("misses") if lv is not None else None


def diff_advice(ab, aa, text_width):
    """The advice of both runs, matched by kind and variable (an
    optimisation moves the source lines): the after run's, each marked
    new or still given, in full; then the advice no longer given."""
    if ab is None and aa is None:
        return []
    out = section_title("Advice, before and after")
    ab, aa = ab or [], aa or []
    before_keys = set(advice_key(a) for a in ab)
    after_keys = set(advice_key(a) for a in aa)
    for a in aa:
        status = "still" if advice_key(a) in before_keys else "new"
        out += wrap("%s: %s" % (status, advice_head(a)), text_width, "",
                    "       ")
        out += wrap(clean(a["text"]), text_width, "       ", "       ")
        if a["evidence"] is not None:
            out += wrap("evidence: " + clean(a["evidence"]), text_width,
                        "       ", "         ")
    for a in ab:
        if advice_key(a) not in after_keys:
            out += wrap("gone: %s" % advice_head(a), text_width, "",
                        "       ")
    if not ab and not aa:
        out.append("(none in either run)")
    out.append("")
    return out


def match_variables(before, after):
    """(before variable or None, after variable or None) pairs."""
    bmap = dict((var_key(v), v) for v in before["variables"])
    amap = dict((var_key(v), v) for v in after["variables"])
    keys = list(bmap) + [k for k in amap if k not in bmap]
    return [(bmap.get(k), amap.get(k)) for k in keys]


def pair_change(pair, metrics):
    """after - before of a metric (metrics: its function for each run),
    a side without the variable or the metric counting as 0; None when
    neither side measured it."""
    b, a = pair
    mb = metrics[0](b) if b is not None else None
    ma = metrics[1](a) if a is not None else None
    if mb is None and ma is None:
        return None
    return (ma or 0) - (mb or 0)


def shown_metric(key, levels, tracked):
    """metric_fn's function of one run, but None (shown "-", as the
    report does) for a metric of the cache simulation of a variable too
    few of whose lines were in the sample (--sample=lines): its number
    is noise."""
    f = metric_fn(key, levels, tracked)
    if not cache_key(key, levels):
        return f
    return lambda v: f(v) if var_estimable(v) else None


def sort_pairs(pairs, metrics, key, levels):
    """Largest absolute change first (alphabetical for "name").  By a
    metric of the cache simulation, the pairs with a variable too few of
    whose lines were in a run's sample come after all others, as the
    report ranks them: their change is no estimate."""
    def name(pair):
        v = pair[1] or pair[0]
        return (v["name"], v["kind"], v["where"] or "", v["function"] or "")
    if key == "name":
        return sorted(pairs, key=name)

    def late(pair):
        return cache_key(key, levels) and not all(
            var_estimable(v) for v in pair if v is not None)

    def k(pair):
        d = pair_change(pair, metrics)
        return (late(pair), -abs(d) if d is not None else 1) + name(pair)
    return sorted(pairs, key=k)


def within_error(b, a, vb, va, key, levels):
    """Whether the change va - vb of the metric of key (b, a: the
    variable in each run) is within the sampling error: |va - vb| <=
    sqrt(hb^2 + ha^2), h the larger side of a run's 95% interval, 0 for
    an exact run's (see estimate_error).  False when neither run sampled
    the lines, a run lacks the variable or the metric, or an interval is
    unknown: only a change known to be noise is marked."""
    if b is None or a is None or vb is None or va is None:
        return False
    if b.get("sample") is None and a.get("sample") is None:
        return False
    hb, ha = estimate_error(b, key, levels), estimate_error(a, key, levels)
    if hb is None or ha is None:
        return False
    # Squared, the comparison of the integer counts is exact.
    d = va - vb
    return d * d <= hb * hb + ha * ha


def mark_noise(table, marks, col):
    """Appends NOISE to the change (column col) of the rows of table
    whose mark is true, a space to the others' so that the digits stay
    aligned; returns the legend, none when no row is marked (the table
    left as it was)."""
    if not any(marks):
        return []
    for row, noise in zip(table, marks):
        if row[col]:
            row[col] += NOISE if noise else " "
    return [NOISE_LEGEND]


def pairs_above_threshold(ordered, before, after, threshold):
    """The pairs whose variable has at least threshold % of all
    accesses (of all cycles with a cache simulation) in either run."""
    def share(v, data):
        if v is None:
            return 0.0
        acc, cyc = report_totals(data)
        if data["levels"] and cyc:
            return pct(var_cycles(v) or 0, cyc)
        return pct(accesses(v), acc) if acc else 100.0
    return [p for p in ordered
            if max(share(p[0], before), share(p[1], after)) >= threshold]


def diff_table(ordered, shown, key, metrics, levels, opts, others=0):
    """The variables of both runs, by the absolute change of the sort
    metric (by name for "name", with the default metric's change), a
    change within the sampling error marked; others: how many are not
    the program's, left out."""
    out = section_title("Variables, by the absolute change of %s" % key
                        if opts.sort != "name" else
                        "Variables, by name (change of %s)" % key)
    if not ordered:
        out.append("(no variables)")
        return out
    kind = "float" if key in ("cpa", "reuse") else "count"
    rows, marks = [], []
    for b, a in shown:
        v = a or b
        mb = metrics[0](b) if b else None
        ma = metrics[1](a) if a else None
        cells = change_cells(mb, ma, kind)
        marks.append(within_error(b, a, mb, ma, key, levels))
        if b is None or a is None:
            # Sorted by the change from (or to) nothing: show it.
            d = pair_change((b, a), metrics)
            if d is not None:
                cells[2] = signed(d) if kind == "count" else "%+.1f" % d
            cells[3] = "new" if b is None else "gone"
        rows.append(cells + [clean(v["kind"]), clean(v["name"]),
                             var_where_text(v)])
    legend = mark_noise(rows, marks, 2)
    out.extend(render_table(["before", "after", "change", "%", "kind",
                             "name", "where"], rows, {0, 1, 2, 3}))
    out += legend
    if cache_key(key, levels):
        # One variable of each pair, the one that is no estimate if any.
        out += unestimable_note([b if b is not None and not var_estimable(b)
                                 else a or b for b, a in shown])
    hidden = len(ordered) - len(shown)
    if hidden:
        out.append("(%d variable%s below the %s%% threshold in both runs "
                   "not shown)" % (hidden, "" if hidden == 1 else "s",
                                   fmt_threshold(opts.threshold)))
    if others:
        out.append("(%d variable%s of the C runtime, the dynamic linker, "
                   "Valgrind's preload or unattributed memory not shown: "
                   "--show-runtime=yes)" % (others, "" if others == 1
                                            else "s"))
    return out


def diff_rows(b, a, levels, tracked):
    """The metrics of one variable in both runs: (label, before, after,
    kind, within the sampling error) for every metric measured in at
    least one.  tracked: whether each run tracked sharing (see
    sharing_tracked)."""
    rows = []

    def add(label, f, kind="count", cache=False, key=None):
        """cache: a metric of the cache simulation, None in a run too
        few of whose lines were in the sample; key: the sort key whose
        sampling error it has."""
        vb = f(b) if b is not None else None
        va = f(a) if a is not None else None
        if vb is None and va is None:
            return
        if cache:
            vb = vb if b is None or var_estimable(b) else None
            va = va if a is None or var_estimable(a) else None
        rows.append((label, vb, va, kind,
                     key is not None
                     and within_error(b, a, vb, va, key, levels)))

    def part(section, key):
        return lambda v: (v[section][key] if v.get(section) is not None
                          else None)
    add("accesses", accesses)
    add("reads", lambda v: v["reads"])
    add("writes", lambda v: v["writes"])
    add("bytes", total_bytes)
    add("size", lambda v: v["size"])
    add("cache lines", lambda v: v["lines"])
    for name in levels or []:
        add("%s misses" % clean(name),
            lambda v, name=name: var_misses(v, name), cache=True, key=name)
    add("cycles", var_cycles, cache=True, key="cycles")
    add("cycles per access", var_cpa, "float", cache=True)
    add("dominant stride", dominant_text, "text")
    for kind in REUSE_KINDS:
        add("mean %s reuse distance" % kind,
            lambda v, kind=kind: (v["reuse"]["mean"][kind]
                                  if v.get("reuse") is not None else None),
            "float")
    if any(v is not None and v.get("sharing") is not None for v in (b, a)):
        for key in SHARING_KEYS:
            add(key.replace("_", " "),
                lambda v, key=key: (v["sharing"][key]
                                    if v.get("sharing") is not None
                                    else 0 if tracked[v is a] else None))
    add("NUMA local", part("numa", "local"))
    add("NUMA remote", part("numa", "remote"))
    add("NUMA hit ratio", lambda v: (numa_hit_ratio(v["numa"])
                                     if v.get("numa") is not None
                                     else None), "ratio")
    add("NUMA remote served by memory", part("numa", "remote_memory"))
    add("NUMA pages first touched", part("numa", "pages"))
    add("structure size", lambda v: (v["struct"]["size"]
                                     if v.get("struct") is not None
                                     else None))
    add("structure split", split_text, "text")
    return rows


def split_text(v):
    """A variable's suggested split for --diff: the split text, 'none'
    for a single group, '(overlapping fields)' for a plain array; None
    without a structure."""
    st = v.get("struct")
    if st is None:
        return None
    if st["overlapping"]:
        return "(overlapping fields)"
    if len(st["groups"]) < 2:
        return "none"
    return clean(st["split"] or "-")


def dominant_text(v):
    st = v.get("strides")
    if st is None or st["dominant"] is None:
        return None
    return "%s B" % signed(st["dominant"]["bytes"])


def diff_detail(rank, b, a, levels, tracked):
    v = a or b
    where = "" if v["where"] is None else ", " + clean(v["where"])
    if v["where"] is None and v["function"]:
        where = ", in " + clean(v["function"])
    status = (": new, only in the after run" if b is None else
              ": gone, only in the before run" if a is None else "")
    out = [""] + section_title("%d. %s (%s%s)%s"
                               % (rank, clean(v["name"]), clean(v["kind"]),
                                  where, status))
    rows = diff_rows(b, a, levels, tracked)
    table = [[label] + change_cells(vb, va, kind)
             for label, vb, va, kind, _ in rows]
    if a is None or b is None:
        # One run only: nothing to compare.
        table = [row[:3] for row in table]
    legend = mark_noise(table, [row[4] for row in rows], 3)
    out.extend(render_table(["", "before", "after", "change", "%"]
                            [:len(table[0]) if table else 5], table,
                            {1, 2, 3, 4}))
    out += legend
    out += unestimable_runs_note(b, a)
    return out


def unestimable_runs_note(b, a):
    """Under a variable's detail, why it has "-" for its misses and
    cycles in a run: too few of its lines were in that run's sample."""
    runs = [label for label, v in (("before", b), ("after", a))
            if v is not None and not var_estimable(v)]
    if not runs:
        return []
    return ["(too few of its lines in the sample of the %s run%s: \"-\" "
            "for its misses and cycles there; its accesses are exact)"
            % (" and ".join(runs), "s" if len(runs) > 1 else "")]
