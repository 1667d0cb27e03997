#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# owners_show.py -- prints the classes of a memprof output file's
# variables, and what memprof_annotate ranks, for the `post:` step of
# the tests of the program's data first (runtime_first, runtime_unfold).
#
# Usage:
#   owners_show.py FILE ANNOTATE FIRST,SECOND,... VAR...
#
# Prints, from FILE:
#   "VAR class=C object=O"            for each VAR (object - when none);
#   "stdout buffer class=C object=O"  the heap site whose allocation
#                                     stack holds _IO_file_doallocate;
#   "NAME class=C object=O"           for libc.so.6:mapped,
#                                     ld-linux-x86-64.so.2:mapped, other,
#                                     malloc (allocator internals);
#   "preload objects class=C..."      the classes of the variables of
#                                     vgpreload_* objects;
#   "classes C..."                    the classes of all the variables;
#   "totals whole: yes|no"            whether the variables' accesses and
#                                     cycles add up to the totals (the
#                                     file keeps every variable);
#   "advice on others: N"             advice items on variables not of
#                                     the program's class;
# then from ANNOTATE FILE --show=0 (the report):
#   "report ranks NAME..."            the names of as many rows as FIRST,
#                                     SECOND... are (they should be those);
#   "report folds OBJECT (CLASS)..."  its fold lines of libc.so.6 and
#                                     ld-linux-x86-64.so.2, sorted;
# and from ANNOTATE FILE --show=0 --show-runtime=yes:
#   "report with --show-runtime=yes ranks first: CLASS NAME",
#   "report with --show-runtime=yes ranks CLASS NAME; ..." for the rows
#   of FIRST, SECOND... and
#   "report with --show-runtime=yes folds: N lines".

import os
import subprocess
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402


def owner(v):
    return "class=%s object=%s" % (v.class_, v.object or "-")


def column(line, header, name, after):
    """The text of line under the header's column name (up to the
    column after)."""
    return line[header.index(name):header.index(after)].strip()


def table_rows(text):
    """The (class or None, name) of the rows of the report's variables
    table, and the (object, class) of the fold lines after it."""
    rows, folds, where, header = [], [], None, None
    for line in text.splitlines():
        if line.startswith("-- Variables, by"):
            where = "head"
        elif where == "head" and line.split()[:1] in (["stall"], ["cycles"]):
            where, header = "table", line
        elif where == "table":
            if not line.strip():
                where = "gap"
            elif not line.startswith("("):
                cls = (column(line, header, " class ", " name ")
                       if " class " in header else None)
                rows.append((cls, column(line, header, " name ", " where")))
        elif where == "gap" and line.startswith("Not the program's data"):
            where = "folds-head"
        elif where == "folds-head":
            where, header = "folds", line
        elif where == "folds":
            if not line.strip():
                break
            folds.append((line[header.index(" object") + 1:].strip(),
                          column(line, header, " class ", " object")))
    return rows, folds


def main():
    path, annotate, ranked = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    names = sys.argv[4:]
    doc = read_file(path, program="owners_show")
    variables = doc.variables
    by_name = {}
    for v in variables:
        by_name.setdefault(v.name, v)
    for name in names:
        print(name, owner(by_name[name]))
    for v in variables:
        if any("_IO_file_doallocate" in fr for fr in v.alloc_stack or []):
            print("stdout buffer", owner(v))
    for name in ("libc.so.6:mapped", "ld-linux-x86-64.so.2:mapped", "other",
                 "malloc (allocator internals)"):
        print(name, owner(by_name[name]))
    print("preload objects", " ".join(sorted({
        "class=" + v.class_ for v in variables
        if (v.object or "").startswith("vgpreload_")})))
    print("classes", " ".join(sorted({v.class_ for v in variables})))
    acc = sum(v.reads + v.writes for v in variables)
    cyc = sum(v.cycles for v in variables)
    whole = acc == doc.totals.accesses and cyc == doc.totals.cycles
    print("totals whole:", "yes" if whole else "no (%d %d)" % (acc, cyc))
    program = {v.name for v in variables if v.class_ == "program"}
    print("advice on others:", sum(1 for a in doc.advice
                                   if a.variable is not None
                                   and a.variable not in program))
    run = [annotate, path, "--show=0"]
    rows, folds = table_rows(subprocess.run(run, capture_output=True, text=True,
                                            check=True).stdout)
    print("report ranks", " ".join(n for _, n in rows[:len(ranked)]))
    print("report folds", "; ".join(sorted(
        "%s (%s)" % f for f in folds
        if f[0] in ("libc.so.6", "ld-linux-x86-64.so.2"))))
    rows, folds = table_rows(subprocess.run(run + ["--show-runtime=yes"],
                                            capture_output=True, text=True,
                                            check=True).stdout)
    print("report with --show-runtime=yes ranks first: %s %s" % rows[0])
    print("report with --show-runtime=yes ranks %s" % "; ".join(
        "%s %s" % r for r in rows if r[1] in ranked))
    print("report with --show-runtime=yes folds: %d lines" % len(folds))


if __name__ == "__main__":
    main()
