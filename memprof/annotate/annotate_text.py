# SPDX-License-Identifier: GPL-2.0-or-later
#
# annotate_text.py -- how memprof_annotate writes things: names cleaned
# of control characters, display widths, numbers, places (file:line,
# function, a loop's lines), tables, wrapped and cut lines, section
# titles, and the header's lines of the settings (config).
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

import textwrap
import unicodedata

from annotate_common import Differs, RULE, half_width, is_int, is_number


def clean(s):
    """s with control characters made visible, for one-line output."""
    out = []
    for ch in s:
        if ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            code = ord(ch)
            out.append("\\x%02x" % code if code < 0x100 else
                       "\\u%04x" % code if code < 0x10000 else
                       "\\U%08x" % code)
        else:
            out.append(ch)
    return "".join(out)


def width(s):
    """Display width of s in a terminal (wide East Asian characters take
    two columns, combining marks none)."""
    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def num(n):
    return "-" if n is None else "{:,}".format(n)


def where_text(w):
    return "???" if w is None else clean(w)


def var_where_text(v):
    """A variable's place: its file:line, or for a stack variable its
    function."""
    if v["where"] is None and v.get("function"):
        return "in " + clean(v["function"])
    return where_text(v["where"])


def render_table(headers, rows, right):
    """headers: list of str; rows: list of lists of str; right: set of
    column indexes aligned right.  The last column is not padded."""
    ncol = len(headers)
    widths = [width(h) for h in headers]
    for r in rows:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], width(cell))
    lines = []
    for r in [headers] + rows:
        cells = []
        for i, cell in enumerate(r):
            pad = " " * (widths[i] - width(cell))
            if i in right:
                cells.append(pad + cell)
            elif i == ncol - 1:
                cells.append(cell)
            else:
                cells.append(cell + pad)
        lines.append("  ".join(cells).rstrip())
    return lines


# The header's lines of the settings (config), as the file writes them
# or as they differ between merged files.

def config_value(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "(none)"
    if isinstance(v, str):
        return clean(v)
    if isinstance(v, list):
        if not v:
            return "(none)"
        return ", ".join(config_value(x) for x in v)
    if isinstance(v, dict):
        if not v:
            return "(none)"
        return " ".join("%s=%s" % (clean(k), config_value(x))
                        for k, x in v.items())
    return str(v)


CONFIG_LABELS = {
    "line": "Cache line size",
    "collect_atstart": "Collect at start",
    "toggle_collect": "Toggle collect",
    "levels": "Levels",
    "min_var_size": "Min variable size",
    "strides": "Stride histograms",
    "reuse": "Reuse distances",
    "sampling": "Sampled",
    "detail": "Strides and loops",
    "sockets": "Sockets",
    "page_size": "Page size",
    "sharing": "Sharing tracking",
}


CACHE_CONFIG_LABELS = {
    "memory_latency": "Memory latency",
    "cores": "Cores",
    "cores_per_socket": "Cores per socket",
    "levels_source": "Cache geometry from",
    "levels_fallback_reason": "Cache geometry fallback",
    "miss_causes": "Miss causes",
    "prefetch": "Prefetcher",
}


def level_text(lv):
    """One simulated level of config.levels, as a header line's value."""
    if not isinstance(lv, dict):
        return config_value(lv)
    parts = []
    if is_int(lv.get("size")):
        parts.append("%s B" % num(lv["size"]))
    if is_int(lv.get("assoc")):
        parts.append("%d-way" % lv["assoc"])
    if is_int(lv.get("line")):
        parts.append("%d B lines" % lv["line"])
    if is_int(lv.get("shared_by")):
        parts.append("shared by %d" % lv["shared_by"])
    if is_int(lv.get("latency")):
        parts.append("latency %d" % lv["latency"])
    rate = lv.get("cause_sample_rate")
    if isinstance(rate, (int, float)) and not isinstance(rate, bool) and 0 < rate < 1:
        parts.append("capacity/conflict estimated from 1/%d of the lines"
                     % round(1 / rate))
    return ", ".join(parts) or "(unknown)"


def levels_lines(value, levels):
    """The header lines of config.levels with a cache simulation: one per
    level, giving the value of each file for a level that differs."""
    out = []
    for i, name in enumerate(levels):
        if isinstance(value, Differs):
            texts = [(p, level_text(v[i])) for p, v in value.pairs]
            if all(t == texts[0][1] for _, t in texts):
                text = texts[0][1]
            else:
                text = short_list(["%s: %s" % (clean(p), t)
                                   for p, t in texts], "; ")
        else:
            text = level_text(value[i])
        out.append("%s: %s" % (clean(name), text))
    return out


LIST_MOST = 4              # files named in full in one line


def short_list(items, sep=", "):
    """The items joined, or, when there are more than LIST_MOST (an MPI
    job's rank files), the first two, the last and how many."""
    if len(items) <= LIST_MOST:
        return sep.join(items)
    return "%s%s...%s%s (%d in all)" % (sep.join(items[:2]), sep, sep,
                                       items[-1], len(items))


def config_lines(config, levels=None):
    out = []
    for key, value in config.items():
        if levels and key == "levels":
            out.extend(levels_lines(value, levels))
            continue
        label = CONFIG_LABELS.get(key, clean(key))
        if levels:
            label = CACHE_CONFIG_LABELS.get(key, label)
        if key == "sampling" and any_lines_sampling(value):
            label = "Sampled lines"
        if key == "sampling" and isinstance(value, Differs) \
                and any_lines_sampling(value):
            text = sampled_files_text(value)
        elif isinstance(value, Differs):
            text = short_list(["%s: %s" % (clean(p), one_config(key, v))
                               for p, v in value.pairs], "; ")
        else:
            text = one_config(key, value)
            # With a sample of the lines no other count is exact.
            if key == "detail" \
                    and any_lines_sampling(config.get("sampling")):
                text = text.replace("; the other counts are exact", "")
        out.append("%s: %s" % (label, text))
    return out


def lines_sampling(value):
    """Whether config.sampling is --sample=lines' (with the keys its
    header line gives)."""
    return isinstance(value, dict) and value.get("mode") == "lines" \
        and is_number(value.get("rate")) and value["rate"] > 0 \
        and is_int(value.get("sets")) and is_int(value.get("l1_sets"))


def any_lines_sampling(value):
    """Whether config.sampling, or one of the files' when they differ,
    is --sample=lines'."""
    if isinstance(value, Differs):
        return any(lines_sampling(v) for _, v in value.pairs)
    return lines_sampling(value)


def sampled_files_text(value):
    """config.sampling differing between files of which one at least
    sampled the lines (the runs of --diff): which file sampled what,
    'before 1 in 32, after exact', so that a reader knows whose counts
    are estimates."""
    def one(v):
        if lines_sampling(v):
            return "1 in %s" % num(round(1 / v["rate"]))
        return "exact" if v is None else one_config("sampling", v)
    return (short_list(["%s %s" % (clean(p), one(v))
                        for p, v in value.pairs])
            + " (the sampled counts are whole-run estimates with their "
            "95% intervals)")


def one_config(key, value):
    if key in ("line", "min_var_size", "page_size") and is_int(value):
        return "%s B" % num(value)
    if key == "sampling" and lines_sampling(value):
        return ("1 in %s of the cache lines (%s of the L1's %s sets), "
                "followed from start to exit; counts are whole-run "
                "estimates with their 95%% intervals"
                % (num(round(1 / value["rate"])), num(value["sets"]),
                   num(value["l1_sets"])))
    if key == "strides" and isinstance(value, dict) \
            and is_int(value.get("history")) and "mode" in value:
        text = "%d per kind, %s" % (value["history"],
                                    config_value(value["mode"]))
        if value["mode"] == "filtered" and is_int(value.get("threshold")):
            text += " (threshold %d B)" % value["threshold"]
        return text
    if key == "sampling" and isinstance(value, dict) \
            and all(is_int(value.get(k)) for k in
                    ("window", "windows", "instructions", "instructions_analysed")):
        every = ("every %s" % num(value["period"]) if is_int(value.get("period"))
                 else "Fibonacci gaps up to %s" % num(value.get("max_gap") or 0))
        share = (100.0 * value["instructions_analysed"] / value["instructions"]
                 if value["instructions"] else 0.0)
        return ("%s windows of %s instructions, %s: %s of %s instructions "
                "analysed (%.1f%%); the counts are of the windows" %
                (num(value["windows"]), num(value["window"]), every,
                 num(value["instructions_analysed"]), num(value["instructions"]),
                 share))
    if key == "detail" and isinstance(value, dict) \
            and isinstance(value.get("sample"), str):
        if value["sample"] != "windows" or not all(
                is_int(value.get(k)) for k in
                ("window", "period", "windows", "instructions",
                 "instructions_analysed")):
            return "every access"
        share = (100.0 * value["instructions_analysed"] / value["instructions"]
                 if value["instructions"] else 0.0)
        return ("sampled: %s windows of %s instructions, every %s: %s of %s "
                "instructions (%.1f%%); the other counts are exact" %
                (num(value["windows"]), num(value["window"]),
                 num(value["period"]), num(value["instructions_analysed"]),
                 num(value["instructions"]), share))
    if key == "prefetch" and isinstance(value, dict) \
            and isinstance(value.get("kind"), str):
        text = clean(value["kind"])
        if is_int(value.get("streams")):
            text += ", %d streams per core" % value["streams"]
        if isinstance(value.get("level"), str):
            text += ", into %s" % clean(value["level"])
        return text
    if key == "reuse" and isinstance(value, dict) \
            and isinstance(value.get("sample"), str):
        if value["sample"] == "off":
            text = "exact"
        else:
            text = "sampled (%s)" % clean(value["sample"])
            if is_number(value.get("weight")):
                text += ", weight %s" % fmt_number(value["weight"])
        if value.get("estimated") is True:
            text += ", estimated"
        return text
    return config_value(value)


# Titles, places, numbers, lines cut or wrapped to the width.

def section_title(title):
    return [RULE, "-- " + title, RULE]


def located(where, fn):
    """'file:line (function)', '???' for an unknown line."""
    text = where_text(where)
    return text if fn is None else "%s (%s)" % (text, clean(fn))


def loop_place(l):
    """A loop's 'file:first-last' (not cleaned): '???' for an unknown
    file, the file alone for unknown lines, one line as 'file:N'."""
    name = "???" if l["file"] is None else l["file"]
    first, last = l["first_line"], l["last_line"]
    if not first:
        return name
    if last <= first:
        return "%s:%d" % (name, first)
    return "%s:%d-%d" % (name, first, last)


def plural(n, what, many=None):
    """'1 line', '2 lines'; many: the plural when not what + 's'."""
    return "%s %s" % (num(n), what if n == 1 else many or what + "s")


def wrap(text, text_width, first, rest):
    """text as lines of at most text_width columns, the first indented
    by first, the others by rest; a word longer than a line is not
    broken."""
    return textwrap.wrap(text, max(text_width, 20), initial_indent=first,
                         subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False) or [first.rstrip()]


def fmt_plus_minus(est, ci):
    """'±3.2%': the larger side of the interval ci = (lo, hi) around the
    estimate est, in percent, with one decimal below 10%; '±>100%' when
    wider than est.  As memprof's own summary writes it."""
    d = half_width(est, ci)
    if est == 0:
        return "\u00b1?" if d > 0 else "\u00b10%"
    if d > est:
        return "\u00b1>100%"
    return "\u00b1%.*f%%" % (1 if d < 0.1 * est else 0, 100.0 * d / est)


def fmt_mean(x):
    return "-" if x is None else "{:,.1f}".format(x)


def signed(n):
    return "+%s" % num(n) if n > 0 else "-%s" % num(-n) if n < 0 else "0"


def fmt_number(x):
    """x with up to 4 decimals, no trailing zeros: 0.125, -4, 1.25."""
    text = ("%.4f" % x).rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def fmt_threshold(t):
    text = ("%f" % t).rstrip("0").rstrip(".")
    return text or "0"


def split_where(where):
    """('file', line) of a 'file:line' text, or None."""
    if where is None:
        return None
    name, _, line = where.rpartition(":")
    if not name or not line.isdigit() or int(line) < 1:
        return None
    return name, int(line)


def fit(s, room):
    """s cut to room display columns, '...' marking the cut."""
    if width(s) <= room:
        return s
    out, used = [], 0
    for ch in s:
        w = width(ch)
        if used + w > max(room - 3, 0):
            break
        out.append(ch)
        used += w
    return "".join(out) + "..."[:room]
