# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_source.py -- --auto=yes: the source files annotated line by
# line with the costs of the per-line rows, as cg_annotate does.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

import os

from annotate_common import RULE, add_opt
from annotate_text import clean, fit, num, plural, split_where, width, wrap
from annotate_metrics import above_loops, accesses, report_totals

CONTEXT = 4                 # source lines around annotated lines (--auto)


def line_costs(data):
    """{file: {line: cost}} over every variable's per_line rows, where a
    cost is {"accesses", "first", "last" (misses of the first and last
    level), "cycles", "transfers", "vars": {name: cycles, or accesses
    without a cache simulation}}; rows of one line are summed."""
    levels = data.get("levels")
    files = {}
    for v in data["variables"]:
        for r in v["per_line"] or []:
            loc = split_where(r["where"])
            if loc is None:
                continue
            per_file = files.setdefault(loc[0], {})
            c = per_file.get(loc[1])
            if c is None:
                c = per_file[loc[1]] = {"accesses": 0, "first": None,
                                        "last": None, "cycles": None,
                                        "transfers": None, "vars": {}}
            c["accesses"] += accesses(r)
            weight = accesses(r)
            if levels:
                misses = r.get("misses") or {}
                c["first"] = add_opt(c["first"], misses.get(levels[0]))
                c["last"] = add_opt(c["last"], misses.get(levels[-1]))
                c["cycles"] = add_opt(c["cycles"], r.get("cycles"))
                weight = r.get("cycles") or 0
            c["transfers"] = add_opt(c["transfers"], r.get("transfers"))
            name = clean(v["name"])
            c["vars"][name] = c["vars"].get(name, 0) + weight
    return files


def find_source(name, include):
    """The path of a source file: as given (relative to the current
    directory), else under one of the --include directories."""
    for path in [name] + [os.path.join(d, name) for d in include]:
        if os.path.isfile(path):
            return path
    return None


def auto_section(data, opts):
    """Every source file of the per-line data that can be found, with
    each line's costs on its left; most costly file first; then one line
    naming the files not found.  The loops of the Loops section (at or
    above the threshold) are marked at their first line."""
    levels = data.get("levels")
    files = line_costs(data)
    loops = {}
    tot_acc = report_totals(data)[0]
    for l in above_loops(data.get("loops") or [], tot_acc, opts.threshold):
        if l["file"] is not None and l["first_line"]:
            loops.setdefault(l["file"], []).append(l)

    def weight(name):
        costs = files[name].values()
        if levels:
            return sum(c["cycles"] or 0 for c in costs)
        return sum(c["accesses"] for c in costs)
    out = []
    missing = []
    for name in sorted(files, key=lambda n: (-weight(n), n)):
        path = find_source(name, opts.include)
        if path is None:
            missing.append(name)
            continue
        rule = "-" * min(len(RULE), opts.width)
        out += ["", rule, fit("-- Auto-annotated source: %s" % clean(path),
                              opts.width), rule]
        out += annotate_file(path, files[name], levels, opts.width,
                             loops.get(name, []))
    if missing:
        out += ["", "Source files not found (try --include=DIR): %s"
                % ", ".join(clean(n) for n in missing)]
    return out


def read_source(path):
    """The lines of a source file, or an error text."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        return None, "(cannot read %s: %s)" % (clean(path),
                                               e.strerror or e)
    text = raw.decode("utf-8", errors="backslashreplace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l[:-1] if l.endswith("\r") else l for l in lines], None


VARS_WIDTH = 24     # the widest "variables" column of an annotated file


def loop_mark(l):
    """The line that marks a loop's first line in an annotated file."""
    text = "-- loop %d-%d" % (l["first_line"], l["last_line"])
    if l["function"] is not None:
        text += " (%s)" % clean(l["function"])
    facts = []
    if l["entries"] is not None:
        facts.append(plural(l["entries"], "entry", "entries"))
    if l["iterations"] is not None:
        facts.append(plural(l["iterations"], "iteration"))
    if l["streams"] is not None:
        facts.append(plural(l["streams"], "stream")
                     + (" (too many)" if l["flagged"] else ""))
    return text + (": " + ", ".join(facts) if facts else "")


def annotate_file(path, costs, levels, text_width, loops=()):
    """One annotated file: a column per metric and the variables, then
    the source; only the lines within CONTEXT of a line with data or of
    a loop's first line, each region after the first line headed '-- line
    N ----'; a loop's first line preceded by '-- loop first-last ...'."""
    lines, error = read_source(path)
    if error:
        return [error]
    headers, cells = cost_columns(costs, levels)
    var_text = dict((n, names_text(c["vars"])) for n, c in costs.items())
    vw = max([len("variables")] + [width(t) for t in var_text.values()])
    widths = [max([len(h)] + [len(col[n]) for n in col])
              for h, col in zip(headers, cells)]
    blank = [".".rjust(w) for w in widths]

    def prefix(n):
        metric = ([col[n].rjust(w) for col, w in zip(cells, widths)]
                  if n in costs else blank)
        names = var_text.get(n, "")
        return "  ".join(metric) + "  " + names + " " * (vw - width(names))
    out = ["  ".join(h.rjust(w) for h, w in zip(headers, widths))
           + "  variables", ""]
    room = max(text_width - len(prefix(0)) - 2, 0)
    marks = {}
    for l in sorted(loops, key=lambda l: (l["depth"] or 0, l["last_line"])):
        if l["first_line"] <= len(lines):
            marks.setdefault(l["first_line"], []).append(loop_mark(l))
    shown = regions(sorted(set(n for n in costs if n <= len(lines))
                           | set(marks)), len(lines))
    tab = tab_size([lines[n - 1] for first, last in shown
                    for n in range(first, last + 1)], room)
    for first, last in shown:
        if first > 1:
            out.append("-- line %d %s" % (first, "-" * 40))
        for n in range(first, last + 1):
            out += [fit(m, text_width) for m in marks.get(n, [])]
            src = fit(clean(lines[n - 1].expandtabs(tab)), room)
            out.append((prefix(n) + "  " + src).rstrip())
    past = sorted(n for n in costs if n > len(lines))
    if past:
        out.append("")
        out += wrap("(data for line%s %s, past the end of the file's %s: "
                    "is it the source that was compiled?)"
                    % ("" if len(past) == 1 else "s",
                       ", ".join(str(n) for n in past),
                       plural(len(lines), "line")), text_width, "", " ")
    return out


def tab_size(lines, room):
    """Tabs are 8 columns, or 4 or 2 when that is what makes the shown
    lines fit beside the metrics: deeply indented code would otherwise
    be cut to nothing.  One size for a whole file keeps its shape."""
    for tab in (8, 4):
        if all(width(clean(l.expandtabs(tab))) <= room for l in lines):
            return tab
    return 2


def cost_columns(costs, levels):
    """The metric columns of an annotated file: headers, and per column
    {line: text}.  Accesses; with a cache simulation the first and last
    level's misses and the cycles; with sharing data the transfers."""
    cols = [("accesses", lambda c: num(c["accesses"]))]
    if levels:
        cols.append(("%s misses" % clean(levels[0]),
                     lambda c: num(c["first"])))
        if len(levels) > 1:
            cols.append(("%s misses" % clean(levels[-1]),
                         lambda c: num(c["last"])))
        cols.append(("cycles", lambda c: num(c["cycles"])))
    if any(c["transfers"] is not None for c in costs.values()):
        cols.append(("transfers", lambda c: num(c["transfers"])))
    return ([h for h, _ in cols],
            [dict((n, f(c)) for n, c in costs.items()) for _, f in cols])


def names_text(weights):
    """The variables of a line, most cycles (accesses) first, as many as
    fit in VARS_WIDTH columns, then '+N' for the others."""
    names = sorted(weights, key=lambda n: (-weights[n], n))
    text = fit(names[0], VARS_WIDTH)
    for i, name in enumerate(names[1:], 1):
        rest = len(names) - i - 1
        more = ", +%d" % rest if rest else ""
        if width(text) + 2 + width(name) + len(more) > VARS_WIDTH:
            return text + ", +%d" % (len(names) - i)
        text += ", " + name
    return text


def regions(data_lines, nlines):
    """The (first, last) line ranges within CONTEXT of a line with data,
    overlapping or adjacent ranges joined."""
    out = []
    for n in data_lines:
        first, last = max(1, n - CONTEXT), min(nlines, n + CONTEXT)
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out
