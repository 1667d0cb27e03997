#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mp_show.py -- prints selected variables of memprof JSON output files as
# stable text lines, for the `post:` step of the regression tests.
#
# Usage:
#   mp_show.py FILE_OR_GLOB... [--var NAME]... [--kind KIND]... [--per-line]
#              [--lines-in FILE[:LINE]]... [--fields F,F,...] [--stack]
#              [--totals F,F,...] [--config] [--command] [--strides]
#
# Every FILE_OR_GLOB that names no existing file is expanded as a glob
# pattern (so a test can pass 'memprof.out.fork.*' quoted).  Each file
# is parsed as JSON and checked to have the required keys: memprof,
# command, pid, config, totals, variables, and for each variable name,
# kind, where, size, reads, writes.  A file that fails these checks, or
# a pattern that matches nothing, makes mp_show exit 1 with a message on
# stderr (and a line "mp_show: error" on stdout, so a post.exp diff shows
# it too).
#
# For one file the output is its lines.  For several files each file's
# lines form a block, the blocks are sorted by their text (so the order
# does not depend on pids or directory order), and each block is
# preceded by "file I of N:".
#
# The lines of one file:
#   [command COMMAND]                        (--command)
#   [config collect_atstart=... toggle_collect=[...] min_var_size=...]
#   [totals F=V ...]
#   one line per selected variable:
#     NAME kind=K where=W size=S reads=R writes=W read_bytes=RB
#          write_bytes=WB threads=T lines=L
#          [blocks=B alloc_bytes=A]          (heap variables)
#          [named_by=N] [function=F] [folded=true]   (when present)
#     (all on one line; --fields keeps only the listed fields, in this
#     order; where=- when the file has null)
#   with --stack, for a heap variable, its allocation stack, one frame a
#     line, "    at FN (FILE:LINE)", code addresses removed;
#   with --strides, the variable's stride histograms, or
#     "    strides -" when it has none:
#     "    KIND K LO-HI COUNT"  one line per nonzero bin of histogram K
#                             (1-based) of KIND (load, then store), LO-inf
#                             for the last bin [32768,inf);
#     "    negative KIND N1 N2 ... NK"             (load, then store)
#     "    classes zero=Z unit=U within_line=W beyond_line=B"
#     "    dominant bytes=B lines=L count=C share=S"    (when present)
#   with --per-line, the variable's per_line rows, one a line, sorted by
#     where (numerically by line) then fn:
#     "    line WHERE fn=FN reads=R writes=W read_bytes=RB write_bytes=WB"
#     (--lines-in FILE keeps only the rows whose where is FILE:<line>,
#     --lines-in FILE:LINE only that row; may be given several times);
#     with --strides too, a row with stride classes is followed by
#     "      strides zero=Z unit=U within_line=W beyond_line=B".
#   With --strides, the file's lines begin with the stride configuration
#   "strides history=K mode=M threshold=T" (or "strides -" when the file
#   has none), after the --config line.
#
#   with --accessed NAME (may be given several times), after the rest, one
#     line per variable called NAME whose counts depend on code the test
#     does not own (the allocator's): "NAME read=yes|no written=yes|no",
#     or "NAME absent".
#
# Selection: --var NAME selects the variables called NAME, in the order
# the --var options are given; a NAME with no variable prints
# "NAME absent" (a variable with no access is not in the file).  Several
# variables with the same name are printed sorted by where (numerically
# by line), then allocation stack, then counts.  --kind KIND keeps only
# variables of that kind (with --var, a selected variable of another
# kind is treated as absent).  With neither, every variable is printed,
# sorted by name then where.

import glob
import json
import os
import re
import sys

REQUIRED_TOP = ("memprof", "command", "pid", "config", "totals", "variables")
REQUIRED_VAR = ("name", "kind", "where", "size", "reads", "writes")
COUNT_KEYS = ("size", "reads", "writes", "read_bytes", "write_bytes",
              "threads", "lines", "blocks", "alloc_bytes")
ALL_FIELDS = ("kind", "where", "size", "reads", "writes", "read_bytes",
              "write_bytes", "threads", "lines", "blocks", "alloc_bytes",
              "named_by", "function", "folded")
HEAP_ONLY = ("blocks", "alloc_bytes")
USAGE = ("usage: mp_show.py FILE_OR_GLOB... [--var NAME]... [--kind KIND]... "
         "[--per-line] [--lines-in FILE[:LINE]]... [--fields F,...] [--stack] "
         "[--totals F,...] [--config] [--command] [--strides] "
         "[--accessed NAME]...\n")


class Invalid(Exception):
    pass


def natural_key(s):
    """'a.c:10' sorts after 'a.c:9'."""
    if s is None:
        return ()
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"(\d+)", s) if p != "")


def is_count(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def validate(path, doc):
    if not isinstance(doc, dict):
        raise Invalid("%s: the document is not a JSON object" % path)
    for k in REQUIRED_TOP:
        if k not in doc:
            raise Invalid("%s: missing key '%s'" % (path, k))
    if not isinstance(doc["config"], dict):
        raise Invalid("%s: 'config' is not an object" % path)
    if not isinstance(doc["totals"], dict):
        raise Invalid("%s: 'totals' is not an object" % path)
    if not isinstance(doc["variables"], list):
        raise Invalid("%s: 'variables' is not an array" % path)
    for i, v in enumerate(doc["variables"]):
        if not isinstance(v, dict):
            raise Invalid("%s: variables[%d] is not an object" % (path, i))
        for k in REQUIRED_VAR:
            if k not in v:
                raise Invalid("%s: variables[%d] missing key '%s'"
                              % (path, i, k))
        if not isinstance(v["name"], str) or not isinstance(v["kind"], str):
            raise Invalid("%s: variables[%d]: name and kind must be strings"
                          % (path, i))
        if v["where"] is not None and not isinstance(v["where"], str):
            raise Invalid("%s: variables[%d]: where must be a string or null"
                          % (path, i))
        for k in COUNT_KEYS:
            if k in v and not is_count(v[k]):
                raise Invalid("%s: variables[%d] (%s): '%s' is not a count"
                              % (path, i, v["name"], k))
        for j, r in enumerate(v.get("per_line", [])):
            if not isinstance(r, dict):
                raise Invalid("%s: variables[%d].per_line[%d] is not an "
                              "object" % (path, i, j))


def load(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Invalid("%s: %s" % (path, e.strerror))
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Invalid("%s: not valid JSON: %s" % (path, e))
    validate(path, doc)
    return doc


def fmt(value):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ",".join(fmt(x) for x in value) + "]"
    return str(value)


def var_line(v, fields):
    parts = [v["name"]]
    for f in fields:
        if f in HEAP_ONLY and v["kind"] != "heap":
            continue
        if f in ("named_by", "function", "folded") and f not in v:
            continue
        parts.append("%s=%s" % (f, fmt(v.get(f))))
    return " ".join(parts)


IP_PREFIX = re.compile(r"^0x[0-9A-Fa-f]+: ")


def stack_lines(v):
    out = []
    for frame in v.get("alloc_stack", []):
        out.append("    at " + IP_PREFIX.sub("", str(frame)))
    return out


STRIDE_CLASSES = ("zero", "unit", "within_line", "beyond_line")


def classes_text(c):
    return " ".join("%s=%s" % (k, fmt(c.get(k))) for k in STRIDE_CLASSES)


def stride_lines(v):
    st = v.get("strides")
    if not isinstance(st, dict):
        return ["    strides -"]
    out = []
    for kind in ("load", "store"):
        for k, hist in enumerate(st.get(kind, []), 1):
            for lo, hi, count in hist:
                out.append("    %s %d %s-%s %s"
                           % (kind, k, lo, "inf" if hi is None else hi,
                              count))
    neg = st.get("negative", {})
    for kind in ("load", "store"):
        out.append("    negative %s %s"
                   % (kind, " ".join(str(n) for n in neg.get(kind, []))))
    out.append("    classes " + classes_text(st.get("classes", {})))
    dom = st.get("dominant")
    if isinstance(dom, dict):
        out.append("    dominant " + " ".join(
            "%s=%s" % (k, fmt(dom.get(k)))
            for k in ("bytes", "lines", "count", "share")))
    return out


def per_line_rows(v, lines_in, strides=False):
    rows = list(v.get("per_line", []))
    if lines_in:
        rows = [r for r in rows
                if isinstance(r.get("where"), str)
                and any(r["where"] == w or r["where"].startswith(w + ":")
                        for w in lines_in)]
    rows.sort(key=lambda r: (natural_key(r.get("where")), r.get("fn") or ""))
    out = []
    for r in rows:
        out.append("    line %s fn=%s reads=%s writes=%s read_bytes=%s "
                   "write_bytes=%s"
                   % (fmt(r.get("where")), fmt(r.get("fn")),
                      fmt(r.get("reads")), fmt(r.get("writes")),
                      fmt(r.get("read_bytes")), fmt(r.get("write_bytes"))))
        if strides and isinstance(r.get("strides"), dict):
            out.append("      strides " + classes_text(r["strides"]))
    return out


def same_name_key(v):
    return (natural_key(v.get("where")),
            tuple(IP_PREFIX.sub("", str(f)) for f in v.get("alloc_stack", [])),
            v.get("reads", 0), v.get("writes", 0))


def show(doc, opts):
    out = []
    if opts["command"]:
        out.append("command %s" % fmt(doc["command"]))
    if opts["config"]:
        c = doc["config"]
        out.append("config " + " ".join(
            "%s=%s" % (k, fmt(c.get(k)))
            for k in ("collect_atstart", "toggle_collect", "min_var_size")))
    if opts["strides"]:
        sc = doc["config"].get("strides")
        if isinstance(sc, dict):
            out.append("strides " + " ".join(
                "%s=%s" % (k, fmt(sc.get(k)))
                for k in ("history", "mode", "threshold")))
        else:
            out.append("strides -")
    if opts["totals"]:
        t = doc["totals"]
        out.append("totals " + " ".join("%s=%s" % (k, fmt(t.get(k)))
                                        for k in opts["totals"]))
    variables = doc["variables"]
    if opts["kinds"]:
        variables = [v for v in variables if v["kind"] in opts["kinds"]]
    if opts["vars"]:
        chosen = []
        for name in opts["vars"]:
            found = sorted((v for v in variables if v["name"] == name),
                           key=same_name_key)
            if not found:
                chosen.append(name)
            chosen.extend(found)
    else:
        chosen = sorted(variables, key=lambda v: (v["name"],)
                        + same_name_key(v))
    for v in chosen:
        if isinstance(v, str):
            out.append("%s absent" % v)
            continue
        out.append(var_line(v, opts["fields"]))
        if opts["stack"] and v["kind"] == "heap":
            out.extend(stack_lines(v))
        if opts["strides"]:
            out.extend(stride_lines(v))
        if opts["per_line"]:
            out.extend(per_line_rows(v, opts["lines_in"], opts["strides"]))
    for name in opts["accessed"]:
        found = [v for v in doc["variables"] if v["name"] == name]
        if not found:
            out.append("%s absent" % name)
        for v in found:
            out.append("%s read=%s written=%s"
                       % (name, "yes" if v["reads"] > 0 else "no",
                          "yes" if v["writes"] > 0 else "no"))
    return out


def parse_args(argv):
    opts = {"vars": [], "kinds": [], "per_line": False, "lines_in": [],
            "fields": list(ALL_FIELDS), "stack": False, "totals": None,
            "config": False, "command": False, "strides": False,
            "accessed": [], "files": []}
    i = 0

    def value():
        nonlocal i
        if i + 1 >= len(argv):
            raise Invalid("option %s needs a value" % argv[i])
        i += 1
        return argv[i]

    while i < len(argv):
        a = argv[i]
        if a == "--var":
            opts["vars"].append(value())
        elif a == "--kind":
            opts["kinds"].append(value())
        elif a == "--per-line":
            opts["per_line"] = True
        elif a == "--lines-in":
            opts["lines_in"].append(value())
        elif a == "--fields":
            fields = [f for f in value().split(",") if f]
            for f in fields:
                if f not in ALL_FIELDS:
                    raise Invalid("unknown field '%s' (known: %s)"
                                  % (f, ",".join(ALL_FIELDS)))
            opts["fields"] = [f for f in ALL_FIELDS if f in fields]
        elif a == "--stack":
            opts["stack"] = True
        elif a == "--totals":
            opts["totals"] = [f for f in value().split(",") if f]
        elif a == "--config":
            opts["config"] = True
        elif a == "--command":
            opts["command"] = True
        elif a == "--strides":
            opts["strides"] = True
        elif a == "--accessed":
            opts["accessed"].append(value())
        elif a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            sys.exit(0)
        elif a.startswith("--"):
            raise Invalid("unknown option %s" % a)
        else:
            opts["files"].append(a)
        i += 1
    if not opts["files"]:
        raise Invalid("no file given")
    return opts


def expand(patterns):
    files = []
    for p in patterns:
        if os.path.exists(p):
            files.append(p)
            continue
        matched = sorted(glob.glob(p))
        if not matched:
            raise Invalid("%s: no such file" % p)
        files.extend(matched)
    return files


def main(argv):
    try:
        opts = parse_args(argv)
        files = expand(opts["files"])
        blocks = ["".join(l + "\n" for l in show(load(f), opts))
                  for f in files]
    except Invalid as e:
        sys.stderr.write("mp_show: %s\n" % e)
        sys.stdout.write("mp_show: error\n")
        return 1
    if len(blocks) == 1:
        sys.stdout.write(blocks[0])
    else:
        blocks.sort()
        for k, b in enumerate(blocks, 1):
            sys.stdout.write("file %d of %d:\n" % (k, len(blocks)))
            sys.stdout.write(b)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
