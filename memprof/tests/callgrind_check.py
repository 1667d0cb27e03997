#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# callgrind_check.py -- checks memprof_annotate --callgrind against
# Valgrind's own reader of the format, callgrind_annotate, for the
# `post:` step of the regression tests and for the annotator's tests.
#
# Usage:
#   callgrind_check.py FILE ANNOTATE [--fn VIEW:NAME]... [--line FILE:LINE]...
#
# For each view (code, then data), runs ANNOTATE (memprof_annotate, run
# with this Python) --callgrind --callgrind-view=VIEW FILE, then
# callgrind_annotate --auto=yes --threshold=100 on the profile, in the
# current directory (where it looks for the source files), and prints:
#   "VIEW: events E1 E2 ..."      the events callgrind_annotate read
#   "VIEW: totals match the JSON" or "VIEW: totals differ: ..."
#       its PROGRAM TOTALS against FILE's totals: reads + writes, reads,
#       writes, the misses of each level of config.levels, cycles
#   "VIEW: functions sum to the totals" or "... do not sum ...: ..."
#       the sum of its per-function costs against the same totals
#   "VIEW: fn NAME Acc=N Rd=N Wr=N"    for each --fn of this view (NAME
#       as callgrind_annotate prints it: "file:function [object]")
#   "VIEW: line FILE:LINE Acc=N Rd=N Wr=N"   for each --line, from its
#       annotated source
# With --summaries, first "summaries: some of the variables, all with
# misses at every level" ("none", "not all" otherwise): the variables
# written on one line ("summary": true), whose misses the totals include.
# Exits 1 if a check failed or a name or line was not found, 77 (with a
# line "SKIP: ...") when callgrind_annotate is not installed.

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402

VIEWS = ("code", "data")
PCT = re.compile(r"\(\s*[0-9.]+%\)")


def json_totals(path):
    doc = read_file(path)
    t = doc.totals
    costs = [t.reads + t.writes, t.reads, t.writes]
    if doc.level_names:
        costs += [t.cache[name].misses for name in doc.level_names]
        costs.append(t.cycles)
    return costs


def counts(text, n):
    """The first n cost columns of a callgrind_annotate row ('.' is 0),
    and the rest of the row; None if it does not start with n counts."""
    tokens = PCT.sub(" ", text).split(None, n)
    if len(tokens) < n:
        return None
    values = []
    for tok in tokens[:n]:
        if tok == ".":
            values.append(0)
        elif re.fullmatch(r"[0-9][0-9,]*", tok):
            values.append(int(tok.replace(",", "")))
        else:
            return None
    return values, tokens[n] if len(tokens) > n else ""


def parse_report(text):
    """{"events": [...], "totals": [...], "functions": {name: costs},
    "sources": {file: [row text]}} of callgrind_annotate's output."""
    lines = text.split("\n")
    events = next(l.split(":", 1)[1].split() for l in lines
                  if l.startswith("Events recorded:"))
    n = len(events)
    out = {"events": events, "totals": None, "functions": {}, "sources": {}}
    section = None
    for line in lines:
        if line.endswith(" PROGRAM TOTALS"):
            out["totals"] = counts(line[:-len(" PROGRAM TOTALS")], n)[0]
        elif line.endswith(" file:function"):
            section = "functions"
        elif line.startswith("-- Auto-annotated source: "):
            section = out["sources"].setdefault(
                line[len("-- Auto-annotated source: "):].strip(), [])
        elif not line.strip() or line.startswith("---"):
            if section == "functions" and not line.strip():
                section = None
        elif section == "functions":
            parsed = counts(line, n)
            if parsed is not None:
                out["functions"][parsed[1].strip()] = parsed[0]
        elif isinstance(section, list):
            section.append(line)
    return out


def line_costs(rows, source_text, n):
    """The costs of the annotated row whose source is source_text."""
    for row in rows:
        if source_text.strip() and row.rstrip().endswith(source_text.strip()):
            head = row.rstrip()[:-len(source_text.strip())]
            parsed = counts(head, n)
            if parsed is not None and not parsed[1].strip():
                return parsed[0]
    return None


def abc(costs):
    return "Acc=%d Rd=%d Wr=%d" % tuple(costs[:3])


def check_view(view, path, annotate, fns, lines, expected):
    ok = True
    prof = subprocess.run([sys.executable, annotate, "--callgrind",
                           "--callgrind-view=" + view, path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if prof.returncode != 0 or prof.stderr:
        print("%s: memprof_annotate exit %d: %s"
              % (view, prof.returncode, prof.stderr.decode().strip()))
        return False
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out." + view)
        with open(out, "wb") as f:
            f.write(prof.stdout)
        ca = subprocess.run(["callgrind_annotate", "--auto=yes",
                             "--threshold=100", out],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if ca.returncode != 0 or ca.stderr:
        print("%s: callgrind_annotate exit %d: %s"
              % (view, ca.returncode, ca.stderr.decode().strip()))
        return False
    rep = parse_report(ca.stdout.decode("utf-8", "backslashreplace"))
    print("%s: events %s" % (view, " ".join(rep["events"])))
    if rep["totals"] == expected:
        print("%s: totals match the JSON" % view)
    else:
        print("%s: totals differ: callgrind_annotate %s, JSON %s"
              % (view, rep["totals"], expected))
        ok = False
    summed = [sum(c[i] for c in rep["functions"].values())
              for i in range(len(expected))]
    if summed == expected:
        print("%s: functions sum to the totals" % view)
    else:
        print("%s: functions do not sum to the totals: %s, JSON %s"
              % (view, summed, expected))
        ok = False
    for fn in fns.get(view, []):
        costs = rep["functions"].get(fn)
        print("%s: fn %s %s" % (view, fn,
                                abc(costs) if costs else "not found"))
        ok = ok and costs is not None
    for fname, lineno in lines:
        with open(fname, encoding="utf-8") as f:
            text = f.read().split("\n")[lineno - 1]
        costs = line_costs(rep["sources"].get(fname, []), text,
                           len(expected))
        print("%s: line %s:%d %s" % (view, fname, lineno,
                                     abc(costs) if costs else "not found"))
        ok = ok and costs is not None
    return ok


def show_summaries(path):
    """Says how many variables of path are summaries, and how many of
    those give their misses at every level (the raw JSON: the reader
    makes no difference between a summary and a variable in full)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    levels = [lv["name"] for lv in doc["config"].get("levels") or []]
    summ = [v for v in doc["variables"] if v.get("summary") is True]
    with_misses = [v for v in summ
                   if all(name in (v.get("misses") or {}) for name in levels)]
    print("summaries: %s of the variables, %s with misses at every level"
          % ("some" if summ else "none",
             "all" if summ and len(with_misses) == len(summ) else "not all"))
    return bool(summ) and len(with_misses) == len(summ)


def main(argv):
    args = list(argv)
    fns, lines = {}, []
    while "--fn" in args:
        i = args.index("--fn")
        view, name = args[i + 1].split(":", 1)
        fns.setdefault(view, []).append(name)
        del args[i:i + 2]
    while "--line" in args:
        i = args.index("--line")
        fname, lineno = args[i + 1].rsplit(":", 1)
        lines.append((fname, int(lineno)))
        del args[i:i + 2]
    summaries = "--summaries" in args
    if summaries:
        args.remove("--summaries")
    path, annotate = args
    if shutil.which("callgrind_annotate") is None:
        print("SKIP: callgrind_annotate not found (it comes with "
              "Valgrind: auto/memprof-deps.sh installs it)")
        return 77
    expected = json_totals(path)
    ok = True
    if summaries:
        ok = show_summaries(path)
    for view in VIEWS:
        ok = check_view(view, path, annotate, fns, lines, expected) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
