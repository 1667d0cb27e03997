# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_report.py -- the text report of one file or of a merge: the
# header, the totals, the advice, the variables table, communication,
# loops, then each top variable's detail (per-line table, cache levels,
# reuse distances, strides, sharing, NUMA, structure).
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

from annotate_common import (CAUSES, Differs, LINE_SHARING_KEYS, REUSE_KINDS,
                             RULE, STRIDE_CLASSES, STRIDE_KINDS, add_opt, is_int)
from annotate_text import (clean, config_lines, fit, fmt_mean, fmt_number,
                           fmt_plus_minus, fmt_threshold, located, loop_place,
                           num, plural, render_table, section_title,
                           short_list, signed, var_where_text, where_text,
                           width, wrap)
from annotate_metrics import (above_loops, accesses, cache_key,
                              numa_hit_ratio, pct, ranked_interval,
                              report_totals, sharing_tracked, sort_columns,
                              sort_variables, total_bytes, var_cpa,
                              var_cycles, var_estimable, var_shown_name,
                              var_misses, var_shared_lines, var_stall)
from annotate_source import auto_section

BAR_WIDTH = 40             # the width of a histogram's bars
COMM_SHOWN = 20             # communication pairs printed
MATRIX_MAX = 16             # threads up to which the matrix is a table


def report(data, opts):
    """The report of one file or of a merge, as a list of lines.  The
    advice comes right after the totals: it is what to act on; the
    thread communication after the variables table, as it spans them."""
    levels = data.get("levels")
    tot_acc, tot_cycles = report_totals(data)
    out = header_section(data, opts)
    out += totals_section(data, tot_acc, tot_cycles)
    out += advice_section(data["advice"], opts.width,
                          len(data["paths"]) > 1)
    out += rejected_section(data.get("rejected"), opts.width,
                            len(data["paths"]) > 1)
    tracked = sharing_tracked(data)
    ranked, others = split_by_class(data["variables"], opts.show_runtime)
    ordered = sort_variables(ranked, opts.sort, levels, tracked)
    shown = above_threshold(ordered, levels, tot_acc, tot_cycles,
                            opts.threshold)
    out += variables_section(ordered, shown, levels, tot_acc, tot_cycles,
                             tracked, opts)
    out += folds_section(others, levels, tot_acc, tot_cycles)
    out += ranks_section(data.get("ranks"), data["paths"], shown)
    out += loops_section(data.get("loops"), loop_accesses(data, tot_acc),
                         opts, detail_sampled(data["config"]))
    out += communication_section(data["communication"])
    out += matrix_section(data["matrix"])
    for rank, v in enumerate(shown[:opts.show], 1):
        out += detail_section(rank, v, data, opts.width)
    if opts.auto:
        out += auto_section(data, opts)
    return out


def split_by_class(variables, show_runtime):
    """(the variables the table ranks, the others): the program's and
    the rest, or all of them and none with --show-runtime=yes."""
    if show_runtime:
        return list(variables), []
    return ([v for v in variables if v["class"] == "program"],
            [v for v in variables if v["class"] != "program"])


def fold_by_object(variables, levels):
    """One entry per (object, class) of variables: accesses, cycles and
    stall cycles (None without a cache simulation) and how many; most
    stall cycles, then cycles (or accesses) first, then by object."""
    folds = {}
    for v in variables:
        f = folds.setdefault((v["object"], v["class"]),
                             {"object": v["object"], "class": v["class"],
                              "accesses": 0, "cycles": None, "count": 0})
        f["accesses"] += accesses(v)
        f["count"] += 1
        if levels:
            f["cycles"] = add_opt(f["cycles"], var_cycles(v))
            f["stall"] = add_opt(f.get("stall"), var_stall(v))
    return sorted(folds.values(),
                  key=lambda f: (-(f.get("stall") or 0) if levels else 0,
                                 -(f["cycles"] or 0) if levels else 0,
                                 -f["accesses"], f["object"] or "",
                                 f["class"]))


def above_threshold(ordered, levels, tot_acc, tot_cycles, threshold):
    """The variables with at least threshold % of all accesses, or with
    a cache simulation of all estimated cycles."""
    if levels and tot_cycles:
        return [v for v in ordered
                if pct(var_cycles(v) or 0, tot_cycles) >= threshold]
    if tot_acc:
        return [v for v in ordered
                if pct(accesses(v), tot_acc) >= threshold]
    return list(ordered)


def events_text(data):
    """What the file(s) recorded, for the header."""
    levels = data.get("levels")
    variables = data["variables"]
    events = "reads, writes, bytes read, bytes written"
    if levels:
        events += ", cache hits and misses per level, estimated cycles"
    if any(v.get("reuse") is not None for v in variables):
        events += ", reuse distances"
    if data["config"].get("sharing") is True \
            or data["communication"] is not None \
            or any(v.get("sharing") is not None for v in variables):
        events += ", sharing between threads"
    if any(v.get("numa") is not None for v in variables):
        events += ", NUMA locality"
    return events


def commands_line(commands):
    distinct = []
    for c in commands:
        if c is not None and c not in distinct:
            distinct.append(c)
    if len(distinct) == 1:
        return ["Command: %s" % clean(distinct[0])]
    if distinct:
        return ["Commands: %s" % "; ".join(clean(c) for c in distinct)]
    return []


def header_section(data, opts):
    out = [RULE]
    w = out.append
    out.extend(commands_line(data["commands"]))
    if len(data["paths"]) == 1:
        w("Data file: %s" % clean(data["paths"][0]))
    else:
        w("Data files: %s" % short_list([clean(p) for p in data["paths"]]))
    w("Format version: %d" % data["version"])
    out.extend(config_lines(data["config"], data.get("levels")))
    w("Events recorded: " + events_text(data))
    w("Sort order: %s" % opts.sort)
    w("Threshold: %s%%" % fmt_threshold(opts.threshold))
    w(RULE)
    w("")
    return out


def totals_section(data, tot_acc, tot_cycles):
    t = data["totals"]
    levels = data.get("levels")
    out = ["Totals:"]
    items = [("accesses", tot_acc), ("reads", t["reads"]),
             ("writes", t["writes"]), ("bytes read", t["read_bytes"]),
             ("bytes written", t["write_bytes"]),
             ("variables", t["variables"]), ("threads", t["threads"])]
    items = [(label, num(v)) for label, v in items if v is not None]
    if levels and tot_cycles is not None:
        items.append(("cycles", num(tot_cycles)))
        if tot_acc:
            items.append(("cycles per access", fmt_cpa(tot_cycles / tot_acc)))
    lw = max(len(label) for label, _ in items) + 1
    vw = max(len(v) for _, v in items)
    for label, v in items:
        out.append("  %s %s" % ((label + ":").ljust(lw), v.rjust(vw)))
    out.append("")
    if levels and t.get("cache"):
        out.extend(totals_cache_table(t["cache"], levels))
        out.append("")
    pf = t.get("prefetch") if levels else None
    if pf:
        out.append("Prefetcher: %s lines asked, %s issued, %s useful (%s), "
                   "%s useless" % (num(pf.get("requests")), num(pf.get("issued")),
                                   num(pf.get("useful")),
                                   fmt_rate(pf.get("useful"), pf.get("issued")),
                                   num(pf.get("useless"))))
        out.append("")
    return out


def advice_section(advice, text_width, several):
    """The advice list, most important first as memprof gives it: per
    entry its kind, variable and source lines, then its text, evidence
    and fix, wrapped to the width; with several files, which gave it."""
    if advice is None:
        return []
    out = section_title("Advice, most important first")
    if not advice:
        out += ["(none)", ""]
        return out
    for i, a in enumerate(advice, 1):
        indent = " " * len("%d. " % i)
        out += wrap("%d. %s" % (i, advice_head(a)), text_width, "", indent)
        out += wrap(clean(a["text"]), text_width, indent, indent)
        for key in ("evidence", "fix", "holds"):
            if a.get(key) is not None:
                out += wrap("%s: %s" % (key, clean(a[key])), text_width,
                            indent, indent + "  ")
        out += alternatives_lines(a, text_width, indent)
        if several:
            files = short_list([clean(p) for p in a["files"]])
            out += wrap("in: %s" % files, text_width, indent, indent + "  ")
        out.append("")
    return out


def alternatives_lines(a, text_width, indent):
    """The other fixes of an item's accesses, replayed, each with its
    replay and how it holds as the problem grows."""
    out = []
    for alt in a.get("alternatives") or []:
        out += wrap("alternative: %s" % clean(alt["fix"]), text_width, indent,
                    indent + "  ")
        for key, label in (("evidence", "its replay"), ("holds", "holds")):
            if alt.get(key) is not None:
                out += wrap("%s: %s" % (label, clean(alt[key])), text_width,
                            indent + "  ", indent + "    ")
    return out


def rejected_section(rejected, text_width, several):
    """The advice a rule found but its what-if replay refuted, with the
    reason and the evidence (the replayed numbers in it); nothing when
    there is none."""
    if not rejected:
        return []
    out = section_title("Advice its replay refutes (not given)")
    for i, a in enumerate(rejected, 1):
        indent = " " * len("%d. " % i)
        out += wrap("%d. %s" % (i, advice_head(a)), text_width, "", indent)
        for key in ("reason", "evidence"):
            if a.get(key) is not None:
                out += wrap("%s: %s" % (key, clean(a[key])), text_width,
                            indent, indent + "  ")
        if several:
            out += wrap("in: %s" % ", ".join(clean(p) for p in a["files"]),
                        text_width, indent, indent + "  ")
        out.append("")
    return out


def advice_head(a):
    """'kind: variable (file:line, ...)'; for advice on a loop (no
    variable: too-many-streams), 'kind: loop at file:first-last
    (function)', or at its where when the loop is not in the file's
    list."""
    head = clean(a["kind"])
    if a["variable"] is not None:
        head += ": " + clean(a["variable"])
    elif a.get("loop_place") is not None:
        return head + ": loop at " + a["loop_place"]
    elif a["loop"] is not None or a["kind"] == "too-many-streams":
        head += ": loop"
        if a["where"]:
            head += " at " + ", ".join(where_text(x) for x in a["where"])
        return head
    if a["where"]:
        head += " (%s)" % ", ".join(where_text(x) for x in a["where"])
    if a.get("replayed") is False and a["kind"] in REPLAYABLE:
        head += " (not replayed)"
    return head


# The kinds whose fix a replay can check (memprof's
# mp_advice_kind_replayable): one without its replay is marked.
REPLAYABLE = ("loop-interchange", "long-stride", "conflict-sets", "blocking",
              "loop-fusion", "too-many-streams")


def advice_key(a):
    """What matches advice items of two runs: the kind and the variable
    (an optimisation moves the source lines); for advice on a loop, the
    loop (function, file, lines), else its source lines."""
    if a["variable"] is not None:
        return (a["kind"], a["variable"])
    return (a["kind"], a.get("loop_key") or tuple(a["where"]))


def variables_section(ordered, shown, levels, tot_acc, tot_cycles, tracked,
                      opts):
    """The variables table, by the sort key, down to the threshold."""
    out = section_title("Variables, by %s" % opts.sort)
    if not ordered:
        out.append("(no variables)")
        return out
    # The sort metric's own columns first (when the table has none),
    # then the share: of the cycles with a cache simulation, else of
    # the accesses.
    extra = sort_columns(opts.sort, levels, tracked)
    headers = [h for h, _ in extra]
    if levels:
        last = levels[-1]
        headers += ["stall", "cycles", "%", "cpa",
                    "%s misses" % clean(levels[0])]
        if len(levels) > 1:
            headers.append("%s misses" % clean(last))
        headers.append("accesses")
    else:
        headers += ["accesses", "%"]
    headers += ["reads", "writes", "bytes", "threads", "lines", "size",
                "kind"]
    if opts.show_runtime:
        headers.append("class")
    headers += ["name", "where"]
    rows = []
    for v in shown:
        row = [f(v) for _, f in extra]
        if levels:
            row += cache_cells(v, levels, tot_cycles)
            row.append(num(accesses(v)))
        else:
            row += [num(accesses(v)), "%.1f" % pct(accesses(v), tot_acc)]
        row += [num(v["reads"]), num(v["writes"]),
                num(total_bytes(v)), num(v["threads"]),
                num(v["lines"]), num(v["size"]), clean(v["kind"])]
        if opts.show_runtime:
            row.append(clean(v["class"]))
        row += [clean(var_shown_name(v)), var_where_text(v)]
        rows.append(row)
    add_interval_column(headers, rows, shown, opts.sort, levels)
    left = 4 if opts.show_runtime else 3
    out.extend(render_table(headers, rows, set(range(len(headers) - left))))
    out += unestimable_note(shown)
    hidden = len(ordered) - len(shown)
    if hidden:
        out.append("(%d variable%s below the %s%% threshold%s not shown)"
                   % (hidden, "" if hidden == 1 else "s",
                      fmt_threshold(opts.threshold),
                      " of cycles" if levels and tot_cycles else ""))
    return out


def cache_cells(v, levels, tot_cycles):
    """A variable's cells of the cache simulation: stall, cycles, % of
    all cycles, cpa, L1 misses and (with several levels) the last
    level's; "-" for all when too few of its lines were in the sample
    (--sample=lines) for them to mean anything."""
    if not var_estimable(v):
        return ["-"] * (6 if len(levels) > 1 else 5)
    cyc = var_cycles(v)
    cells = [num(var_stall(v)), num(cyc),
             "%.1f" % pct(cyc, tot_cycles) if cyc is not None else "-",
             fmt_cpa(var_cpa(v)), num(var_misses(v, levels[0]))]
    if len(levels) > 1:
        cells.append(num(var_misses(v, levels[-1])))
    return cells


def ranked_header(key, levels):
    """The header of the table's column of a cache sort key's metric."""
    level = {"misses": levels[0], "ll-misses": levels[-1]}.get(key, key)
    return {"stall": "stall", "cycles": "cycles",
            "cpa": "cpa"}.get(key, "%s misses" % clean(level))


def add_interval_column(headers, rows, shown, key, levels):
    """With --sample=lines, a column "\u00b1" right of the ranked
    metric's: its 95% interval, in percent of the estimate (see
    fmt_plus_minus), so that a reader sees which ranks the sample
    settles.  Nothing in other files."""
    if not any(v.get("sample") is not None for v in shown) \
            or not cache_key(key, levels):
        return
    at = headers.index(ranked_header(key, levels)) + 1
    headers.insert(at, "\u00b1")
    for v, row in zip(shown, rows):
        r = ranked_interval(v, key, levels) if var_estimable(v) else None
        row.insert(at, fmt_plus_minus(*r) if r is not None else "-")


def unestimable_note(shown):
    """Under the table, why some rows have "-" for their cache counts."""
    n = sum(1 for v in shown if not var_estimable(v))
    if not n:
        return []
    its = "its" if n == 1 else "their"
    return ["(%s with too few lines in the sample: \"-\" for %s stall, "
            "cycles and misses; %s accesses are exact)"
            % (plural(n, "variable"), its, its)]


def folds_section(others, levels, tot_acc, tot_cycles):
    """After the table, the variables it does not rank, one line per
    object: the C runtime's, the dynamic linker's, Valgrind's preload's
    and unattributed memory."""
    if not others:
        return []
    out = ["", "Not the program's data, by object (--show-runtime=yes ranks "
           "their variables):"]
    headers = []
    if levels:
        headers += ["cycles", "%"]
    headers += ["accesses", "%", "variables", "class", "object"]
    rows = []
    for f in fold_by_object(others, levels):
        row = []
        if levels:
            row += [num(f["cycles"]),
                    "%.1f" % pct(f["cycles"], tot_cycles)
                    if f["cycles"] is not None else "-"]
        row += [num(f["accesses"]), "%.1f" % pct(f["accesses"], tot_acc),
                num(f["count"]), clean(f["class"]),
                clean(f["object"]) if f["object"] is not None
                else "unattributed"]
        rows.append(row)
    out.extend(render_table(headers, rows, set(range(len(headers) - 2))))
    return out


def ranks_section(ranks, paths, shown):
    """With several files, each a rank of an MPI job (or any run of the
    same program): the rank metric per rank, then per variable of the
    table its min, mean and max over the ranks and the rank of the max,
    so that the ranks that do more than their share stand out."""
    if ranks is None:
        return []
    key, labels = ranks["key"], ranks["labels"]
    n = len(labels)
    out = [""] + section_title("Ranks, by %s" % key)
    if ranks["by_name"]:
        out.append("%d files, one per rank; a file's rank is the number "
                   "that ends its name." % n)
    else:
        out.append("%d files, one per rank; a file's rank is its position "
                   "among the files, from 0 (their names do not all end in "
                   "different numbers)." % n)
    totals = ranks["totals"]
    at = max(range(n), key=lambda i: (totals[i], -labels[i]))
    low = min(range(n), key=lambda i: (totals[i], labels[i]))
    mean = sum(totals) / n
    out.append("%s per rank (all its variables): min %s (rank %d), mean %s, "
               "max %s (rank %d, %s), max/mean %s"
               % (key.capitalize(), num(totals[low]), labels[low],
                  num(round(mean)), num(totals[at]), labels[at],
                  clean(paths[at]), ratio_text(totals[at], mean)))
    rows = []
    for v in shown:
        st = v.get("ranks")
        if st is None:
            continue
        rows.append([num(st["min"]), num(round(st["mean"])), num(st["max"]),
                     ratio_text(st["max"], st["mean"]),
                     # No rank stands out where all are 0.
                     str(labels[st["at"]]) if st["max"] else "-",
                     clean(v["kind"]),
                     clean(v["name"]), var_where_text(v)])
    if rows:
        out.append("")
        out.extend(render_table(["min", "mean", "max", "max/mean",
                                 "max rank", "kind", "name", "where"],
                                rows, set(range(5))))
    return out


def ratio_text(high, mean):
    return "%.2f" % (high / mean) if mean else "-"


def communication_section(comm):
    """The communication hot spots: the (writer line, next reader line)
    pairs with the most transfers, true and false sharing, variable."""
    if comm is None:
        return []
    out = [""] + section_title("Communication between threads, most "
                               "transfers first")
    if not comm:
        out.append("(no line written by one thread was accessed by "
                   "another)")
        return out
    rows = []
    for c in comm[:COMM_SHOWN]:
        rows.append([num(c["count"]), num(c["true"]), num(c["false"]),
                     "-" if c["variable"] is None else clean(c["variable"]),
                     located(c["from"], c["from_fn"]),
                     located(c["to"], c["to_fn"])])
    out.extend(render_table(["transfers", "true", "false", "variable",
                             "from (writer)", "to (next access by another "
                             "thread)"], rows, {0, 1, 2}))
    if len(comm) > COMM_SHOWN:
        out.append("(%d more pairs not shown)" % (len(comm) - COMM_SHOWN))
    return out


def streams_text(l):
    """A loop's streams, 'max/mean', with ' !' when flagged (more than
    the prefetcher follows), '  ' otherwise, so that they align."""
    text = "%s/%s" % (num(l["streams"]), fmt_mean(l["mean_streams"])) \
        if l["mean_streams"] is not None else num(l["streams"])
    return text + (" !" if l["flagged"] else "  ")


def loops_section(loops, tot_acc, opts, sampled=False):
    """The busiest loops, most accesses first (memprof lists the
    ancestors of its busiest loops after them), down to the threshold,
    each with its access formulas below it; every line fits in
    --width.  sampled: the loops were analysed in windows of the run
    (config.detail), their counts are of the windows, and tot_acc the
    windows' accesses (None: unknown, no share shown)."""
    if loops is None:
        return []
    out = [""] + section_title("Loops, most accesses first%s"
                               % (" (sampled: windows)" if sampled else ""))
    if not loops:
        out.append("(no loop ran)")
        return out
    loops = sorted(loops, key=lambda l: -(l["accesses"] or 0))
    others = 0
    if not opts.show_runtime:
        # The runtime's loops (the one in __libc_start_main that runs
        # main, the loader's) are not the program's to change: folded
        # as their variables are.
        mine = [l for l in loops if l.get("class", "program") == "program"]
        others = len(loops) - len(mine)
        loops = mine
    shown = above_loops(loops, tot_acc, opts.threshold)
    out += wrap("accesses: in the loop's own body; per entry: mean "
                "iterations per execution; streams: most concurrent strided "
                "streams in one execution / mean, ! above the prefetcher's "
                "limit. Under a loop, its instructions' offsets (addresses) "
                "in the counters of the loop, i1, and of its parents, i2...",
                opts.width, "", "")
    rows = []
    for l in shown:
        rows.append([num(l["accesses"]),
                     "%.1f" % pct(l["accesses"] or 0, tot_acc)
                     if tot_acc else "-",
                     streams_text(l), num(l["iterations"]),
                     fmt_mean(l["mean_iterations"]), num(l["entries"]),
                     num(l["depth"])])
    table = place_table(["accesses", "%", "streams", "iterations",
                         "per entry", "entries", "depth"], rows,
                        [located(loop_place(l), l["function"])
                         for l in shown], opts.width)
    out.append(table[0])
    for l, line in zip(shown, table[1:]):
        out.append(line)
        out += [fit(x, opts.width) for x in formula_lines(l["formulas"])]
    hidden = len(loops) - len(shown)
    if hidden:
        out.append("(%d loop%s below the %s%% threshold of accesses not "
                   "shown)" % (hidden, "" if hidden == 1 else "s",
                               fmt_threshold(opts.threshold)))
    if others:
        out.append("(%d loop%s in the runtime's or the loader's code not "
                   "shown: --show-runtime=yes)"
                   % (others, "" if others == 1 else "s"))
    return out


def place_table(headers, rows, places, text_width):
    """A table of loops: the place (file:lines (function)) first, cut to
    what the width leaves beside the numbers (20 columns at least), then
    the numbers, right-aligned, in the order of their importance; each
    line cut at the width, the last columns first."""
    numbers = render_table(headers, rows, set(range(len(headers))))
    room = max(20, text_width - max(width(x) for x in numbers) - 2)
    cells = [fit(p, room) for p in places]
    table = render_table(["loop (function)"] + headers,
                         [[c] + r for c, r in zip(cells, rows)],
                         set(range(1, len(headers) + 1)))
    return [fit(line, text_width) for line in table]


def formula_lines(formulas):
    """A loop's formulas, one per line, indented and aligned: 'where
    variable formula (base B)'; an address base (not an offset in a
    block) in hex, the fit when below 1."""
    rows = []
    for f in formulas:
        if f["base"] is None:
            base = ""
        elif f["in_block"] is False and f["base"] >= 0:
            base = "(address base %#x" % f["base"]
        else:
            base = "(base %s" % num(f["base"])
        if f["fit"] is not None and f["fit"] < 1:
            base += (", " if base else "(") + "fit %.1f%%" % (100 * f["fit"])
        if f["instructions"] > 1:
            base += ((", " if base else "(")
                     + "%d instructions" % f["instructions"])
        rows.append([where_text(f["where"]),
                     "-" if f["variable"] is None else clean(f["variable"]),
                     clean(f["formula"]), base + (")" if base else "")])
    if not rows:
        return []
    widths = [max(width(r[i]) for r in rows) for i in range(3)]
    return [("    " + "  ".join(c + " " * (w - width(c))
                                for c, w in zip(r, widths)) + "  " + r[3])
            .rstrip() for r in rows]


def matrix_section(mx):
    """The thread x thread communication matrix: a table (rows: the
    writing thread, columns: the thread that accessed the line next,
    cells: true/false shared lines) up to MATRIX_MAX threads, else the
    cells with the most lines as a list."""
    if mx is None:
        return []
    out = [""] + section_title("Thread-to-thread communication")
    cells = mx["cells"]
    if not cells:
        out.append("(no line written by one thread was accessed by "
                   "another)")
        return out
    if len(mx["threads"]) > MATRIX_MAX:
        return out + matrix_list(mx)
    out.append("Shared lines, true/false (row: writer, column: the "
               "thread that accessed them next):")
    threads = mx["threads"]
    rows = []
    for a in threads:
        row = [str(a)]
        for b in threads:
            c = cells.get((a, b))
            row.append("." if c is None else "%s/%s" % (
                num(c["true_lines"]), num(c["false_lines"])))
        rows.append(row)
    out.extend(render_table(["from\\to"] + [str(b) for b in threads], rows,
                            set(range(len(threads) + 1))))
    with_bytes = [(k, c["bytes"]) for k, c in sorted(cells.items())
                  if c["bytes"]]
    if with_bytes:
        out.append("Bytes a thread accessed that the other had written: "
                   + "; ".join("%d -> %d: %s" % (a, b, num(n))
                               for (a, b), n in with_bytes))
    return out


def matrix_list(mx):
    """The nonzero cells of a large matrix with the most shared lines."""
    def lines(c):
        return (c["true_lines"] or 0) + (c["false_lines"] or 0)
    cells = sorted(mx["cells"].items(),
                   key=lambda kc: (-lines(kc[1]), -(kc[1]["bytes"] or 0),
                                   kc[0]))
    out = ["%d threads; the %d cells with the most shared lines, of %d:"
           % (len(mx["threads"]), min(len(cells), COMM_SHOWN), len(cells))]
    rows = [[str(a), str(b), num(c["true_lines"]), num(c["false_lines"]),
             num(c["bytes"])] for (a, b), c in cells[:COMM_SHOWN]]
    out.extend(render_table(["from", "to", "true lines", "false lines",
                             "bytes"], rows, {0, 1, 2, 3, 4}))
    return out


def detail_section(rank, v, data, text_width):
    """One variable's detail: facts, allocation stack, cache, sharing and
    NUMA blocks, per-line table, reuse distances, stride histograms."""
    levels = data.get("levels")
    out = [""]
    w = out.append
    where = "" if v["where"] is None else ", " + clean(v["where"])
    out += section_title("%d. %s (%s%s)" % (rank, clean(v["name"]),
                                            clean(v["kind"]), where))
    facts = var_facts(v)
    if facts:
        w(", ".join(facts))
    stacks = v.get("alloc_stacks") or ([v["alloc_stack"]]
                                       if v["alloc_stack"] else [])
    for i, stack in enumerate(stacks, 1):
        # sites merged into one row: each call chain
        w("Allocated at:" if len(stacks) == 1 else
          "Allocated at (%d of %d call stacks):" % (i, len(stacks)))
        for frame in stack:
            w("   " + clean(frame))
    if facts or stacks:
        w("")
    if levels and v.get("cache") is not None:
        if var_estimable(v):
            out.extend(var_cache_report(v, levels))
            out += intervals_lines(v.get("sample"), levels, text_width)
        else:
            out += wrap(unestimable_text(v["sample"]), text_width, "", "  ")
        w("")
    if v.get("sharing") is not None:
        out.extend(sharing_report(v["sharing"], text_width))
        w("")
    if v.get("numa") is not None:
        out.extend(numa_report(v["numa"], text_width))
        w("")
    if v.get("struct") is not None:
        out.extend(struct_report(v["struct"], text_width,
                                 len(data["paths"]) > 1))
        w("")
    if not v["per_line"]:
        w("(no per-line data)")
    else:
        # Its lines' misses and cycles are as unsettled as its own.
        out.extend(per_line_table(v["per_line"],
                                  levels if var_estimable(v) else None))
    if v.get("reuse") is not None:
        w("")
        out.extend(reuse_report(v["reuse"], reuse_estimated(data["config"])))
    if v.get("strides") is not None:
        w("")
        out.extend(stride_report(v["strides"], data["config"]))
    return out


def intervals_lines(sample, levels, text_width):
    """With --sample=lines, the 95% intervals of a variable's estimates
    and how many of its lines they stand on."""
    if sample is None:
        return []
    ci = sample["ci"]
    parts = [("stall", ci["stall_cycles"]), ("cycles", ci["cycles"])] \
        + [("%s misses" % clean(n), ci["misses"].get(n)) for n in levels]
    text = ", ".join("%s %s to %s" % (label, num(x[0]), num(x[1]))
                     for label, x in parts if x is not None)
    head = ("Estimated from %s" % plural(sample["lines"], "sampled line")
            if sample["lines"] is not None else "Estimated")
    return wrap("%s; 95%% intervals: %s" % (head, text or "none"),
                text_width, "", "  ")


def unestimable_text(sample):
    """Why a variable's detail gives no cache counts."""
    lines = ""
    if sample["lines"] is not None:
        lines = " (%s of its lines" % num(sample["lines"])
        if sample["min_lines"] is not None:
            lines += ", %s needed" % num(sample["min_lines"])
        lines += ")"
    return ("Cache: too few lines in the sample%s to estimate its misses, "
            "cycles and stall cycles; its accesses are exact" % lines)


def var_facts(v):
    facts = []
    if v["size"] is not None:
        facts.append("size %s B" % num(v["size"]))
    if v["lines"] is not None:
        facts.append(plural(v["lines"], "cache line"))
    if v["threads"] is not None:
        facts.append(plural(v["threads"], "thread"))
    if v["blocks"] is not None:
        facts.append(plural(v["blocks"], "heap block"))
    if v["alloc_bytes"] is not None:
        facts.append("%s B allocated" % num(v["alloc_bytes"]))
    if v["named_by"] is not None:
        facts.append("named by %s" % clean(v["named_by"]))
    if v["folded"]:
        facts.append("folded (small or unnamed memory)")
    return facts


LINE_SHARING_LABELS = {"transfers": "transfers",
                       "invalidations": "invalidations",
                       "coherence_misses": "coherence misses"}


def per_line_table(per_line, levels):
    """A variable's source lines, most accesses first: accesses, reads,
    writes; with a cache simulation the first level's misses and the
    cpa; with reuse data the mean private distance; with sharing data
    the transfers, invalidations and coherence misses."""
    rows = sorted(per_line, key=lambda r: (-accesses(r), r["where"] or "",
                                           r["fn"] or ""))
    line_reuse = any(r.get("reuse") is not None for r in rows)
    sharing = [k for k in LINE_SHARING_KEYS
               if any(r.get(k) is not None for r in rows)]
    headers = ["accesses", "reads", "writes"]
    if levels:
        headers += ["%s misses" % clean(levels[0]), "cpa"]
    if line_reuse:
        headers.append("private dist")
    headers += [LINE_SHARING_LABELS[k] for k in sharing]
    strides = any(r.get("stride") is not None for r in rows)
    if strides:
        headers.append("stride")
    table = []
    for r in rows:
        n = accesses(r)
        row = [num(n), num(r["reads"]), num(r["writes"])]
        if levels:
            misses = r.get("misses")
            cpa = (r["cycles"] / n
                   if r.get("cycles") is not None and n else None)
            row += [num(misses.get(levels[0]) if misses else None),
                    fmt_cpa(cpa)]
        if line_reuse:
            row.append(fmt_mean(line_mean_private(r)))
        row += [num(r.get(k)) for k in sharing]
        if strides:
            row.append(fmt_line_stride(r.get("stride")))
        table.append(row + [located(r["where"], r["fn"])])
    return render_table(headers + ["where"], table, set(range(len(headers))))


def fmt_line_stride(st):
    """'4,000 B 100% (loop f.c:3-4)': the line's own dominant stride,
    its share and its loop; '-' when the line has none."""
    if st is None:
        return "-"
    text = "%s B" % num(st["bytes"])
    if st.get("share") is not None:
        text += " %.0f%%" % (100 * st["share"])
    if st.get("loop_where"):
        text += " (loop %s)" % clean(st["loop_where"])
    return text


def sharing_report(sh, text_width):
    """A variable's sharing block: its shared lines and transfers (true
    and false sharing), the invalidations and coherence misses, then its
    worst lines: per thread, the bytes it wrote and read and where."""
    out = []
    head = []
    lines = var_shared_lines({"sharing": sh})
    if lines is not None:
        head.append(split_phrase(lines, "shared line", sh["true_lines"],
                                 sh["false_lines"]))
    if sh["predicted_transfers"] is not None:
        head.append(split_phrase(sh["predicted_transfers"], "transfer",
                                 sh["predicted_true_transfers"],
                                 sh["predicted_false_transfers"])
                    + " predicted in parallel")
    if sh["transfers"] is not None:
        head.append(split_phrase(sh["transfers"], "transfer",
                                 sh["true_transfers"],
                                 sh["false_transfers"])
                    + " seen" * (sh["predicted_transfers"] is not None))
    out += wrap("Sharing: " + (", ".join(head) or "(no counts)"),
                text_width, "", "  ")
    if sh.get("placements") is not None:
        out += wrap(placements_phrase(sh["placements"]), text_width, "", "  ")
    inval = []
    if sh["predicted_invalidations"] is not None:
        inval.append("%s predicted in parallel"
                     % num(sh["predicted_invalidations"]))
    if sh["invalidations"] is not None:
        inval.append("%s caused by its writes" % num(sh["invalidations"]))
    if sh["invalidations_suffered"] is not None:
        inval.append("%s suffered from other cores' writes"
                     % num(sh["invalidations_suffered"]))
    text = "Invalidations: " + ", ".join(inval) if inval else ""
    if sh["coherence_misses"] is not None:
        text += "; " if text else ""
        text += plural(sh["coherence_misses"], "coherence miss",
                       "coherence misses")
    if text:
        out += wrap(text, text_width, "", "  ")
    if sh["worst_lines"]:
        out.append("Worst lines, most transfers first:"
                   if sh["predicted_transfers"] is None else
                   "Worst lines, most predicted transfers first:")
        for wl in sh["worst_lines"]:
            out += worst_line_report(wl, text_width)
    return out


def placements_phrase(pl):
    """'Placements: false sharing at 3 of 4 (+16, +32, +48), none at its
    own (+0)': where in a line its blocks could start and would share
    falsely."""
    k = len(pl["false_at"])
    text = "Placements: false sharing at %d of %d" % (k, pl["evaluated"])
    if k:
        text += " (%s)" % ", ".join("+%d" % x for x in pl["false_at"])
    if pl["current"] in pl["false_at"]:
        return text + ", its own (+%d) among them" % pl["current"]
    return text + ", none at its own (+%d)" % pl["current"]


def split_phrase(n, what, true, false):
    """'3 shared lines (1 true, 2 false)': a count and its split."""
    text = plural(n, what)
    if true is not None or false is not None:
        text += " (%s true, %s false)" % (num(true), num(false))
    return text


def worst_line_report(wl, text_width):
    """One worst line: its address, offset, kind and transfers, then one
    row per thread: its writes and reads, then in words the bytes it
    wrote and read and its source lines."""
    kind = {"true": "true sharing", "false": "false sharing"}.get(
        wl["kind"], clean(wl["kind"]))
    head = "  %s" % clean(wl["line"])
    if wl["offset"] is not None:
        head += " (offset %s)" % (num(wl["offset"]) if wl["offset"] >= 0
                                  else "-" + num(-wl["offset"]))
    head += ": " + kind
    if wl["predicted_transfers"] is not None:
        head += ", %s predicted" % plural(wl["predicted_transfers"],
                                          "transfer")
    if wl["transfers"] is not None:
        head += ", " + plural(wl["transfers"], "transfer") \
            + " seen" * (wl["predicted_transfers"] is not None)
    out = [head]
    if not wl["threads"]:
        return out
    counts = [("writes", [num(t["writes"]) for t in wl["threads"]]),
              ("reads", [num(t["reads"]) for t in wl["threads"]])]
    widths = [max(len(h), max(len(c) for c in cells)) for h, cells in counts]
    # The sentence is the last column, wrapped under itself.
    lead = " " * (4 + sum(widths) + 2 * len(widths))
    out.append("    " + "  ".join(h.rjust(n) for (h, _), n
                                  in zip(counts, widths)))
    for i, t in enumerate(wl["threads"]):
        cells = "  ".join(c[i].rjust(n) for (_, c), n in zip(counts, widths))
        out += wrap(thread_sentence(t), text_width,
                    "    " + cells + "  ", lead)
    return out


def thread_sentence(t):
    """'thread 1 writes bytes 0-7, reads 0-7 (x.c:40)'."""
    clauses = []
    for verb, count, ranges in (("writes", t["writes"], t["write_bytes"]),
                                ("reads", t["reads"], t["read_bytes"])):
        if not ranges and not count:
            continue
        text = verb
        if ranges:
            text += (" bytes " if not clauses else " ") + ranges_text(ranges)
        clauses.append(text)
    text = "thread %d" % t["thread"]
    if clauses:
        text += " " + ", ".join(clauses)
    if t["where"]:
        text += " (%s)" % ", ".join(where_text(x) for x in t["where"])
    return text


def ranges_text(ranges):
    """Byte ranges '0-7 & 16-23'; one byte as '3'."""
    return " & ".join("%d" % lo if lo == hi else "%d-%d" % (lo, hi)
                      for lo, hi in ranges)


def numa_report(nu, text_width):
    """A variable's NUMA block: local and remote accesses, the hit ratio
    and the remote accesses served by memory, then who placed its
    pages (first touch)."""
    out = []
    parts = []
    if nu["local"] is not None:
        parts.append("%s local" % num(nu["local"]))
    if nu["remote"] is not None:
        parts.append("%s remote accesses" % num(nu["remote"]))
    ratio = numa_hit_ratio(nu)
    if ratio is not None:
        parts.append("hit ratio %.1f%%" % (100.0 * ratio))
    if nu["remote_memory"] is not None:
        parts.append("%s remote served by memory" % num(nu["remote_memory"]))
    out += wrap("NUMA: " + (", ".join(parts) or "(no counts)"), text_width,
                "", "  ")
    if nu["pages"] is not None or nu["first_touch"]:
        parts = []
        if nu["pages"] is not None:
            parts.append(num(nu["pages"]))
        parts += ["thread %d on socket %d: %s"
                  % (ft["thread"], ft["socket"], num(ft["pages"]))
                  for ft in nu["first_touch"]]
        out += wrap("Pages placed by its first touches: " + "; ".join(parts),
                    text_width, "", "  ")
    return out


NBSP = "\u00a0"
STRUCT_BAR = 20        # the width of a field's share bar
AFFINITY_MATRIX = 8    # fields up to which the affinities are a matrix
AFFINITY_LISTED = 20   # pairs listed beyond that


def field_label(f):
    """A field's name, or '+offset' when the debug information has none."""
    return "+%d" % f["offset"] if f["name"] is None else clean(f["name"])


def struct_report(st, text_width, several):
    """A variable's structure block: size, coverage, the fields (offset,
    name, size, accesses, share of cycles as a bar, loops), the non-zero
    affinities, the suggested split or why there is none."""
    out = []
    fields = st["fields"]
    what = "accesses" if st["by_count"] else "cycles"
    head = "Structure%s: %s B elements, %s" % (
        " (from %s)" % clean(st["from"]) if several and st.get("from")
        else "", num(st["size"]), plural(len(fields), "field"))
    if st["covered"] is not None:
        head += "; %.1f%% of its %s fall on them" % (100 * st["covered"],
                                                     what)
    out += wrap(head, text_width, "", "  ")
    if st["overlapping"]:
        out += wrap("Note: its fields overlap (a field runs into the next, "
                    "or past the size): vector or unrolled accesses to a "
                    "plain array rather than a structure; its groups and "
                    "split are to be ignored.", text_width, "", "  ")
    rows = []
    for f in fields:
        share = f["share"]
        bar = "" if share is None else \
            "#" * max(1 if share > 0 else 0, int(STRUCT_BAR * share + 0.5))
        places = [clean(x) for x in f.get("loop_places", []) if x]
        more = len(f["loops"]) - len(places[:2])
        loops = ", ".join(places[:2] + (["+%d" % more] if more else []))
        rows.append([num(f["offset"]), field_label(f), num(f["size"]),
                     num(f["accesses"]), bar.ljust(STRUCT_BAR),
                     "-" if share is None else "%.1f%%" % (100 * share),
                     loops or "-"])
    table = render_table(["offset", "field", "size", "accesses",
                          "share of " + what, "", "loops"], rows,
                         {0, 2, 3, 5})
    out += ["  " + fit(line, text_width - 2) for line in table]
    if any(len(f["loops"]) > 2 or None in f.get("loop_places", [])
           for f in fields):
        out += wrap("(loops: +N, N more, or not among the busiest loops "
                    "the file lists)", text_width, "  ", "   ")
    out += affinity_report(st, text_width)
    if st["overlapping"]:
        return out
    if len(st["groups"]) > 1:
        out += wrap("Suggested split: " + clean(st["split"] or "-"),
                    text_width, "", "  ")
    elif st["split"] is not None:
        out += wrap("Suggested split: none, its fields are used together "
                    "(%s)" % clean(st["split"]), text_width, "", "  ")
    return out


def affinity_report(st, text_width):
    """The non-zero affinities of a structure's fields: up to
    AFFINITY_MATRIX fields an upper triangular matrix ('.' for 0), if it
    fits in the width; else a list, strongest first."""
    fields = st["fields"]
    pairs = [(i, j, w) for i, j, w in st["affinity"] if w > 0]
    title = "Affinity (0 to 1: how much of the two fields' %s is in " \
            "loops that use both)" % ("accesses" if st["by_count"]
                                     else "cycles")
    if not pairs:
        return [title + ": none above 0"]
    if len(fields) <= AFFINITY_MATRIX:
        weight = dict(((i, j), w) for i, j, w in st["affinity"])
        labels = [field_label(f) for f in fields]
        rows = []
        for i in range(len(fields) - 1):
            rows.append([labels[i]] + [
                "" if j <= i else "%.2f" % weight[(i, j)]
                if weight.get((i, j)) else "." for j in range(1, len(fields))])
        table = render_table([""] + labels[1:], rows,
                             set(range(1, len(fields))))
        if all(width(line) + 2 <= text_width for line in table):
            return [title + ":"] + ["  " + line for line in table]
    pairs.sort(key=lambda p: (-p[2], p[0], p[1]))
    # A pair is not broken across lines: no-break spaces until wrapped.
    text = ", ".join("%s & %s %.2f".replace(" ", NBSP)
                     % (field_label(fields[i]), field_label(fields[j]), w)
                     for i, j, w in pairs[:AFFINITY_LISTED])
    if len(pairs) > AFFINITY_LISTED:
        text += " (%d more)" % (len(pairs) - AFFINITY_LISTED)
    return [line.replace(NBSP, " ") for line in
            wrap("%s, non-zero, strongest first: %s" % (title, text),
                 text_width, "", "  ")]


def line_mean_private(r):
    """The mean private reuse distance of a per_line row, or None."""
    ru = r.get("reuse")
    if ru is None:
        return None
    n, total = ru["n"]["private"], ru["sum"]["private"]
    return total / n if n and total is not None else None


def file_values(config, key, n_files=1):
    """config[key] of each merged file: the files' values where they
    differ, else the one value n_files times."""
    v = config.get(key)
    return [x for _, x in v.pairs] if isinstance(v, Differs) else [v] * n_files


def reuse_estimated(config):
    """True if config.reuse (of any of the merged files) says that the
    reuse counts are estimates."""
    return any(isinstance(x, dict) and x.get("estimated") is True
               for x in file_values(config, "reuse"))


def detail_sampled(config):
    """True if config.detail (of any of the merged files) says that the
    strides and loops were analysed in windows of the run."""
    return any(isinstance(x, dict) and x.get("sample") == "windows"
               for x in file_values(config, "detail"))


def loop_accesses(data, tot_acc):
    """What a loop's accesses are a share of: every access, or with the
    loops analysed in windows (config.detail), the windows' accesses,
    summed over the merged files; None when a merged file lacks them."""
    if not detail_sampled(data["config"]):
        return tot_acc
    values = file_values(data["config"], "detail", len(data["paths"]))
    if not all(isinstance(x, dict) and is_int(x.get("accesses"))
               for x in values):
        return None
    return sum(x["accesses"] for x in values)


def reuse_report(ru, estimated):
    """The text of one variable's reuse distances (see DESCRIPTION)."""
    out = []
    w = out.append
    w("Reuse distances in cache lines%s (bars: share of each histogram):"
      % (" (estimated: sampled)" if estimated else ""))
    cells = [(bin_label(lo, hi), num(n)) for kind in REUSE_KINDS
             for lo, (hi, n) in ru["hists"][kind].items() if n]
    lw = max([len(l) for l, _ in cells] + [1])     # column widths, the
    cw = max([len(c) for _, c in cells] + [1])     # same in both
    for kind in REUSE_KINDS:
        rows = sorted((lo, hi, n) for lo, (hi, n)
                      in ru["hists"][kind].items() if n)
        total = sum(n for _, _, n in rows)
        title = kind.capitalize()
        if not total:
            w("%s: none" % title)
            continue
        facts = ["%s reuse%s" % (num(total), "" if total == 1 else "s")]
        if ru["mean"][kind] is not None:
            facts.append("mean %s" % fmt_mean(ru["mean"][kind]))
        if ru["median"][kind] is not None:
            facts.append("median in %s" % bin_label(*ru["median"][kind]))
        w("%s: %s" % (title, ", ".join(facts)))
        for lo, hi, n in rows:
            bar = "#" * max(1, int(BAR_WIDTH * n / total + 0.5))
            w("  %s  %s  %s %5.1f%%"
              % (bin_label(lo, hi).ljust(lw), bar.ljust(BAR_WIDTH),
                 num(n).rjust(cw), pct(n, total)))
    if ru["cold"] is not None:
        w("Cold (first touch in the sharing group): %s" % num(ru["cold"]))
    return out


def fmt_cpa(x):
    return "-" if x is None else "%.1f" % x


def fmt_rate(part, whole):
    """part/whole as a percentage with one decimal, '-' without a whole."""
    if part is None or not whole:
        return "-"
    return "%.1f%%" % pct(part, whole)


def totals_cache_table(cache, levels):
    """The per-level totals of the whole run, one row per level; with a
    prefetcher, its prefetched hits too."""
    rows = []
    pf = any(lv is not None and lv.get("prefetched") is not None
             for lv in cache.values())
    for name in levels:
        lv = cache.get(name)
        if lv is None:
            rows.append([clean(name)] + ["-"] * (10 if pf else 9))
            continue
        acc = lv.get("accesses")
        if acc is None and lv.get("hits") is not None \
                and lv.get("misses") is not None:
            acc = lv["hits"] + lv["misses"]
        rows.append([clean(name), num(acc), num(lv.get("misses")),
                     fmt_rate(lv.get("misses"), acc)]
                    + [num(lv.get(c)) for c in CAUSES]
                    + [num(lv.get("writebacks")),
                       num(lv.get("invalidations"))]
                    + ([num(lv.get("prefetched"))] if pf else []))
    return render_table(["level", "accesses", "misses", "miss rate", "cold",
                         "capacity", "conflict", "coherence", "write-backs",
                         "invalidations"] + (["prefetched"] if pf else []),
                        rows, set(range(1, 11)))


def var_cache_report(v, levels):
    """A variable's cache lines of its detail section: where its accesses
    were served and what they cost, then one row per level."""
    c = v["cache"]
    out = []
    n = accesses(v)
    head = []
    if c["cycles"] is not None:
        head.append("%s cycles, %s per access"
                    % (num(c["cycles"]), fmt_cpa(var_cpa(v))))
    if c["invalidations"] is not None:
        head.append("%s invalidation%s of other cores' copies"
                    % (num(c["invalidations"]),
                       "" if c["invalidations"] == 1 else "s"))
    if head:
        out.append(", ".join(head))
    served = c.get("served") or {}
    if n and any(served.get(k) is not None for k in levels + ["mem"]):
        out.append("served by " + ", ".join(
            "%s %s" % ("memory" if k == "mem" else clean(k),
                       fmt_rate(served.get(k), n))
            for k in levels + ["mem"]))
    rows = []
    # With a prefetcher: hits on prefetched lines, misses it covered.
    pf = any(lv is not None and lv.get("prefetched") is not None
             for lv in c["levels"].values())
    for name in levels:
        lv = c["levels"].get(name)
        if lv is None:
            rows.append([clean(name)] + ["-"] * (13 if pf else 11))
            continue
        hits, misses, fills = lv.get("hits"), lv.get("misses"), lv.get("fills")
        reached = (hits + misses
                   if hits is not None and misses is not None else None)
        hpf = (lv["fill_hits"] / fills
               if lv.get("fill_hits") is not None and fills else None)
        rows.append([clean(name), num(hits), num(misses),
                     fmt_rate(misses, reached)]
                    + [num(lv.get(k)) for k in CAUSES]
                    + [num(lv.get("writebacks")), num(fills),
                       "-" if hpf is None else "%.2f" % hpf,
                       fmt_rate(lv.get("reused_fills"), fills)]
                    + ([num(lv.get("prefetched")), num(lv.get("covered"))]
                       if pf else []))
    out.extend(render_table(["level", "hits", "misses", "miss rate", "cold",
                             "capacity", "conflict", "coherence",
                             "write-backs", "fills", "hits/fill", "reused"]
                            + (["prefetched", "covered"] if pf else []),
                            rows, set(range(1, 14))))
    return out


def ordinal_steps(k):
    return "1 step back" if k == 1 else "%d steps back" % k


def bin_label(lo, hi):
    if hi is None:
        return "%d+" % lo
    if hi == lo:
        return "%d" % lo
    return "%d-%d" % (lo, hi)


def stride_report(st, config):
    """The text of one variable's stride histograms (see DESCRIPTION)."""
    out = []
    w = out.append
    w("Stride histograms%s (bars: share of each histogram):"
      % (" (sampled: windows)" if detail_sampled(config) else ""))
    cells = [(bin_label(lo, hi), num(n)) for kind, _ in STRIDE_KINDS
             for bins in st["hists"][kind] for lo, (hi, n) in bins.items()
             if n]
    lw = max([len(l) for l, _ in cells] + [1])     # column widths, the
    cw = max([len(c) for _, c in cells] + [1])     # same in every histogram
    for kind, title in STRIDE_KINDS:
        negative = st["negative"][kind]
        hists = st["hists"][kind]
        empty_from = None
        for k, bins in enumerate(hists + [None], 1):
            rows = sorted((lo, hi, n) for lo, (hi, n) in bins.items()
                          if n) if bins is not None else []
            total = sum(n for _, _, n in rows)
            if bins is not None and not total:
                if empty_from is None:
                    empty_from = k
                continue
            if empty_from is not None:
                # A run of empty histograms, on one line.
                if empty_from == k - 1:
                    steps = ordinal_steps(empty_from)
                else:
                    steps = "%d-%d steps back" % (empty_from, k - 1)
                w("%s, %s: none" % (title, steps))
                empty_from = None
            if bins is None:
                break
            neg = negative[k - 1] if k - 1 < len(negative) else 0
            w("%s, %s: %s stride%s, %s negative"
              % (title, ordinal_steps(k), num(total),
                 "" if total == 1 else "s", num(neg)))
            for lo, hi, n in rows:
                bar = "#" * max(1, int(BAR_WIDTH * n / total + 0.5))
                w("  %s  %s  %s %5.1f%%"
                  % (bin_label(lo, hi).ljust(lw), bar.ljust(BAR_WIDTH),
                     num(n).rjust(cw), pct(n, total)))
    firsts = sum(st["classes"].values())
    if not firsts:
        w("No first strides (no access followed another of its kind).")
        return out
    neg1 = sum(st["negative"][kind][0] for kind, _ in STRIDE_KINDS
               if st["negative"][kind])
    w("Negative first strides: %s of %s (%.1f%%)"
      % (num(neg1), num(firsts), pct(neg1, firsts)))
    dom = st["dominant"]
    if dom is not None:
        line = config.get("line")
        lines = ""
        if is_int(line) and line > 0:
            lines = " = %s line%s" % (fmt_number(dom["bytes"] / line),
                                      "" if abs(dom["bytes"]) == line
                                      else "s")
        w("Dominant stride: %s B%s, %s of %s first strides (%.1f%%)"
          % (signed(dom["bytes"]), lines, num(dom["count"]), num(firsts),
             pct(dom["count"], firsts)))
    w("Classes: " + ", ".join("%s %.1f%%" % (label,
                                              pct(st["classes"][c], firsts))
                              for c, label in STRIDE_CLASSES))
    return out
