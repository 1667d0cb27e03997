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
#              [--tlb] [--end]
#
# Every FILE_OR_GLOB that names no existing file is expanded as a glob
# pattern (so a test can pass 'memprof.out.fork.*' quoted).  Each file
# is read by memprof_reader, which checks the types of the keys, and
# checked to have the keys memprof, command, pid, config, totals,
# variables, and for each variable name, kind, where, size, reads,
# writes.  A file that fails these checks, or a pattern that matches
# nothing, makes mp_show exit 1 with a message on stderr (and a line
# "mp_show: error" on stdout, so a post.exp diff shows it too).
#
# For one file the output is its lines.  For several files each file's
# lines form a block, the blocks are sorted by their text (so the order
# does not depend on pids or directory order), and each block is
# preceded by "file I of N:".
#
# The lines of one file:
#   [command COMMAND]                        (--command)
#   [config collect_atstart=... toggle_collect=[...] min_var_size=...]
#   [tlb entries=E assoc=A page=P]           (--tlb; "tlb -" without)
#   [totals F=V ...]
#   one line per selected variable:
#     NAME kind=K where=W size=S reads=R writes=W read_bytes=RB
#          write_bytes=WB threads=T lines=L
#          [blocks=B alloc_bytes=A]          (heap variables)
#          [named_by=N] [function=F] [folded=true]   (when present)
#     (all on one line; --fields keeps only the listed fields, in this
#     order; where=- when the file has null)
#   with --tlb, "    tlb hits=H misses=M" (or "    tlb -"): its data-TLB
#     counts;
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
#     or "NAME absent";
#   with --end, last, how the run ended: "end by=B status=S partial=P"
#     (status - when not an exit; by - and partial - in an older file).
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
import os
import re
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import FormatError, read_file  # noqa: E402

# The keys checked besides those memprof_reader requires (memprof,
# totals, variables, each variable's name, kind, reads and writes).
REQUIRED = re.compile(r"(command|pid|config|variables\[\d+\]\.(where|size))$")
ALL_FIELDS = ("kind", "where", "size", "reads", "writes", "read_bytes",
              "write_bytes", "threads", "lines", "blocks", "alloc_bytes",
              "named_by", "function", "folded")
HEAP_ONLY = ("blocks", "alloc_bytes")
USAGE = ("usage: mp_show.py FILE_OR_GLOB... [--var NAME]... [--kind KIND]... "
         "[--per-line] [--lines-in FILE[:LINE]]... [--fields F,...] [--stack] "
         "[--totals F,...] [--config] [--command] [--strides] "
         "[--tlb] [--accessed NAME]... [--end]\n")


class Invalid(Exception):
    pass


def natural_key(s):
    """'a.c:10' sorts after 'a.c:9'."""
    if s is None:
        return ()
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"(\d+)", s) if p != "")


def load(path):
    try:
        f = read_file(path, program="mp_show")
    except FormatError as e:
        raise Invalid(str(e))
    missing = [k for k in f.missing if REQUIRED.match(k)]
    if missing:
        raise Invalid("%s: missing key '%s'" % (path, missing[0]))
    return f


def fmt(value):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ",".join(fmt(x) for x in value) + "]"
    return str(value)


def var_line(v, fields):
    parts = [v.name]
    for f in fields:
        if f in HEAP_ONLY and v.kind != "heap":
            continue
        # Written only on the variables they describe (folded: true).
        if f in ("named_by", "function") and getattr(v, f) is None \
                or f == "folded" and not v.folded:
            continue
        parts.append("%s=%s" % (f, fmt(getattr(v, f))))
    return " ".join(parts)


IP_PREFIX = re.compile(r"^0x[0-9A-Fa-f]+: ")


def stack_lines(v):
    out = []
    for frame in v.alloc_stack or []:
        out.append("    at " + IP_PREFIX.sub("", str(frame)))
    return out


STRIDE_CLASSES = ("zero", "unit", "within_line", "beyond_line")


def classes_text(c):
    return " ".join("%s=%s" % (k, fmt(getattr(c, k))) for k in STRIDE_CLASSES)


def stride_lines(v):
    st = v.strides
    if st is None:
        return ["    strides -"]
    out = []
    for kind in ("load", "store"):
        for k, hist in enumerate(st.hists(kind), 1):
            for lo, hi, count in hist:
                out.append("    %s %d %s-%s %s"
                           % (kind, k, lo, "inf" if hi is None else hi,
                              count))
    for kind in ("load", "store"):
        out.append("    negative %s %s"
                   % (kind, " ".join(str(n) for n in st.negative[kind])))
    out.append("    classes " + classes_text(st.classes))
    if st.dominant is not None:
        out.append("    dominant " + " ".join(
            "%s=%s" % (k, fmt(getattr(st.dominant, k)))
            for k in ("bytes", "lines", "count", "share")))
    return out


def per_line_rows(v, lines_in, strides=False):
    rows = list(v.per_line or [])
    if lines_in:
        rows = [r for r in rows
                if r.where is not None
                and any(r.where == w or r.where.startswith(w + ":")
                        for w in lines_in)]
    rows.sort(key=lambda r: (natural_key(r.where), r.fn or ""))
    out = []
    for r in rows:
        out.append("    line %s fn=%s reads=%s writes=%s read_bytes=%s "
                   "write_bytes=%s"
                   % (fmt(r.where), fmt(r.fn), fmt(r.reads), fmt(r.writes),
                      fmt(r.read_bytes), fmt(r.write_bytes)))
        if strides and r.strides is not None:
            out.append("      strides " + classes_text(r.strides))
    return out


def same_name_key(v):
    return (natural_key(v.where),
            tuple(IP_PREFIX.sub("", f) for f in v.alloc_stack or []),
            v.reads, v.writes)


def show(doc, opts):
    out = []
    if opts["command"]:
        out.append("command %s" % fmt(doc.command))
    if opts["config"]:
        c = doc.config
        out.append("config " + " ".join(
            "%s=%s" % (k, fmt(getattr(c, k)))
            for k in ("collect_atstart", "toggle_collect", "min_var_size")))
    if opts["tlb"]:
        out.append("tlb " + counts_text(doc.config.tlb,
                                        ("entries", "assoc", "page")))
    if opts["strides"]:
        sc = doc.config.strides
        if sc is not None:
            out.append("strides " + " ".join(
                "%s=%s" % (k, fmt(getattr(sc, k)))
                for k in ("history", "mode", "threshold")))
        else:
            out.append("strides -")
    if opts["totals"]:
        t = doc.totals
        out.append("totals " + " ".join("%s=%s" % (k, fmt(getattr(t, k, None)))
                                        for k in opts["totals"]))
    variables = doc.variables
    if opts["kinds"]:
        variables = [v for v in variables if v.kind in opts["kinds"]]
    if opts["vars"]:
        chosen = []
        for name in opts["vars"]:
            found = sorted((v for v in variables if v.name == name),
                           key=same_name_key)
            if not found:
                chosen.append(name)
            chosen.extend(found)
    else:
        chosen = sorted(variables, key=lambda v: (v.name,) + same_name_key(v))
    for v in chosen:
        if isinstance(v, str):
            out.append("%s absent" % v)
            continue
        out.append(var_line(v, opts["fields"]))
        if opts["tlb"]:
            out.append("    tlb " + counts_text(v.tlb, ("hits", "misses")))
        if opts["stack"] and v.kind == "heap":
            out.extend(stack_lines(v))
        if opts["strides"]:
            out.extend(stride_lines(v))
        if opts["per_line"]:
            out.extend(per_line_rows(v, opts["lines_in"], opts["strides"]))
    for name in opts["accessed"]:
        found = [v for v in doc.variables if v.name == name]
        if not found:
            out.append("%s absent" % name)
        for v in found:
            out.append("%s read=%s written=%s"
                       % (name, "yes" if v.reads > 0 else "no",
                          "yes" if v.writes > 0 else "no"))
    if opts["end"]:
        end = doc.end
        out.append("end by=%s status=%s partial=%s"
                   % (fmt(end and end.by), fmt(end and end.status),
                      fmt(doc.partial)))
    return out


def counts_text(obj, keys):
    """"k=v ..." of obj's keys; "-" for no object."""
    if obj is None:
        return "-"
    return " ".join("%s=%s" % (k, fmt(getattr(obj, k))) for k in keys)


def parse_args(argv):
    opts = {"vars": [], "kinds": [], "per_line": False, "lines_in": [],
            "fields": list(ALL_FIELDS), "stack": False, "totals": None,
            "config": False, "command": False, "strides": False,
            "accessed": [], "tlb": False, "end": False, "files": []}
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
        elif a == "--tlb":
            opts["tlb"] = True
        elif a == "--end":
            opts["end"] = True
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
