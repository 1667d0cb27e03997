# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_callgrind.py -- --callgrind: the file(s) in the Callgrind
# profile format, by function (the code view) or by variable (the data
# view), for callgrind_annotate and KCachegrind.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

from annotate_common import PROG
from annotate_text import clean, config_lines, split_where, var_where_text
from annotate_metrics import accesses, var_cycles, var_misses

CALLGRIND_VIEWS = ("code", "data")
CALLGRIND_EVENTS_HELP = ("Acc accesses, Rd reads, Wr writes, then with a "
                         "cache simulation L1miss, L2miss, ... the misses "
                         "of each level and Cyc the estimated cycles")
UNKNOWN = "???"             # Callgrind's name for an unknown file or function


def callgrind_events(levels):
    """[(event, long name)] in the order of the cost columns: accesses,
    reads, writes, then with a cache simulation the misses of each level
    and the estimated cycles."""
    events = [("Acc", "Memory accesses"), ("Rd", "Reads (loads)"),
              ("Wr", "Writes (stores)")]
    for i, name in enumerate(levels or []):
        events.append((level_event(name, i), "%s misses" % clean(name)))
    if levels:
        events.append(("Cyc", "Estimated memory cycles"))
    return events


def level_event(name, index):
    """The event of a level's misses, its name and 'miss' (L1miss): not
    L1m, L2m, which KCachegrind predefines as sums of Cachegrind's
    events (and derives its CEst from).  An event name is a letter then
    letters and digits: a level named otherwise gets its rank instead."""
    if name[:1].isalpha() and name.isalnum() and name.isascii():
        return name + "miss"
    return "L%dmiss" % (index + 1)


def row_cost(r, levels):
    """The cost columns of a per_line row (a count it lacks is 0)."""
    cost = [accesses(r), r["reads"], r["writes"]]
    if levels:
        misses = r.get("misses") or {}
        cost += [misses.get(name) or 0 for name in levels]
        cost.append(r.get("cycles") or 0)
    return cost


def var_cost(v, levels):
    """The cost columns of a whole variable."""
    cost = [accesses(v), v["reads"], v["writes"]]
    if levels:
        cost += [var_misses(v, name) or 0 for name in levels]
        cost.append(var_cycles(v) or 0)
    return cost


def add_cost(total, cost):
    for i, n in enumerate(cost):
        total[i] += n


def var_label(v):
    """A variable as a function of the data view: its name and where it
    is, 'A (mvt.c:105)', 'i (in main)'; the name alone when unknown."""
    name = clean(v["name"]) or UNKNOWN
    if v.get("folded"):
        return "%s (folded)" % name
    where = var_where_text(v)
    # A frame's name, stack:main, already says where it is.
    if where == UNKNOWN or v["name"] == "stack:%s" % v.get("function"):
        return name
    return "%s (%s)" % (name, where)


def callgrind_functions(data, view):
    """{(object, function): {file: {line: cost}}}.  The code view's
    functions are those of the per_line rows (object None); the data
    view's are the variables, their kind as the object, so that
    KCachegrind can group them by kind.  A variable's accesses that its
    rows do not cover (a file without per_line) go to line 0 of '???',
    so that the costs add up to the totals."""
    levels = data.get("levels")
    ncost = len(callgrind_events(levels))
    functions = {}
    for v in data["variables"]:
        var_key = (clean(v["kind"]), var_label(v))
        covered = [0] * ncost
        for r in v["per_line"] or []:
            key = var_key if view == "data" else \
                (None, clean(r["fn"] or "") or UNKNOWN)
            loc = split_where(r["where"]) or (UNKNOWN, 0)
            cost = row_cost(r, levels)
            add_line_cost(functions, key, clean(loc[0]), loc[1], cost)
            add_cost(covered, cost)
        rest = [max(0, n - c) for n, c in zip(var_cost(v, levels), covered)]
        if any(rest):
            key = var_key if view == "data" else (None, UNKNOWN)
            add_line_cost(functions, key, UNKNOWN, 0, rest)
    return functions


def add_line_cost(functions, key, fname, line, cost):
    lines = functions.setdefault(key, {}).setdefault(fname, {})
    if line not in lines:
        lines[line] = [0] * len(cost)
    add_cost(lines[line], cost)


def home_file(files):
    """The file a function is listed under: the one with most accesses
    (then the first by name).  Its other files are given with fi=, as
    Callgrind does for inlined code, so that it stays one function."""
    def acc(fname):
        return sum(c[0] for c in files[fname].values())
    return min(files, key=lambda fname: (-acc(fname), fname))


class NameTable:
    """Callgrind's name compression: the first use of a name in a
    context (fl, fn, ob) defines '(id) name', later uses give '(id)'.  It
    also keeps a name starting with '(' and a digit from being read as an
    id."""

    def __init__(self):
        self.ids = {}       # {context: {name: id}}

    def ref(self, context, name):
        ids = self.ids.setdefault(context, {})
        if name in ids:
            return "(%d)" % ids[name]
        ids[name] = len(ids) + 1
        return "(%d) %s" % (ids[name], name)


def callgrind_header(data, view, events, summary):
    out = ["# callgrind format", "version: 1", "creator: %s" % PROG]
    commands = [clean(c) for c in data["commands"] if c is not None]
    if commands:
        out.append("cmd: %s" % "; ".join(dict.fromkeys(commands)))
    label = "Data file" if len(data["paths"]) == 1 else "Data files"
    out.append("desc: %s: %s" % (label, ", ".join(clean(p)
                                                    for p in data["paths"])))
    out.append("desc: View: %s" % (
        "code (functions and their source lines)" if view == "code" else
        "data (each variable is a function; its lines are the source "
        "lines that accessed it)"))
    out.extend("desc: " + l
               for l in config_lines(data["config"], data.get("levels")))
    out.append("positions: line")
    # The long names come before "events:": callgrind_annotate reads the
    # header up to "events:" only.
    out.extend("event: %s : %s" % e for e in events)
    out.append("events: %s" % " ".join(e for e, _ in events))
    out.append("summary: %s" % " ".join(str(n) for n in summary))
    return out


def callgrind_body(functions):
    """The cost lines, one block per function, in the order of (file,
    function, object); lines in ascending order, one file after the
    other, the home file first."""
    names = NameTable()
    blocks = []
    for (obj, fn), files in functions.items():
        home = home_file(files)
        blocks.append((home, fn, obj or "", obj, files))
    out = []
    for home, fn, _, obj, files in sorted(blocks, key=lambda b: b[:3]):
        out.append("")
        if obj is not None:
            out.append("ob=" + names.ref("ob", obj))
        out.append("fl=" + names.ref("fl", home))
        out.append("fn=" + names.ref("fn", fn))
        for fname in [home] + sorted(f for f in files if f != home):
            if fname != home:
                out.append("fi=" + names.ref("fl", fname))
            for line, cost in sorted(files[fname].items()):
                out.append("%d %s" % (line, " ".join(str(n) for n in cost)))
    return out


def callgrind_report(data, view):
    """The whole profile as a list of lines.  The summary is the sum of
    the cost lines, which is the totals of the file(s): the per_line rows
    sum to their variable, the variables to the totals."""
    levels = data.get("levels")
    events = callgrind_events(levels)
    functions = callgrind_functions(data, view)
    summary = [0] * len(events)
    for files in functions.values():
        for lines in files.values():
            for cost in lines.values():
                add_cost(summary, cost)
    return callgrind_header(data, view, events, summary) \
        + callgrind_body(functions)
