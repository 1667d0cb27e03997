#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# advice_text.py -- prints the advice texts of a memprof output file, and
# checks that memprof_annotate shows them whole, for the `post:` step of
# the regression tests on long names.
#
# Usage:
#   advice_text.py FILE ANNOTATE [--name NAME=LABEL]...
#
# For each advice item on a variable, in the file's order:
#   "advice KIND VARIABLE"
#   "  text TEXT", "  evidence TEXT", "  fix TEXT"
# where each whole occurrence of a NAME given with --name is printed as
# <LABEL> (so a 300-character name does not make the expected output
# unreadable, and a name cut short shows as itself, not as the label),
# and in the evidence every count as N (they are the cache model's,
# which other tests check).
# Then ANNOTATE (memprof_annotate) is run on FILE, and for each advice
# item one line says whether its text, evidence and fix appear whole in
# the report (whitespace runs made one space, as the report wraps
# lines): "annotate KIND: whole" or "annotate KIND: missing FIELD...".

import os
import re
import subprocess
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402


def main():
    args = sys.argv[1:]
    labels = []
    while "--name" in args:
        i = args.index("--name")
        name, label = args[i + 1].split("=", 1)
        labels.append((name, label))
        del args[i:i + 2]
    path, annotate = args
    doc = read_file(path)

    def shown(text, counts=False):
        for name, label in labels:
            text = text.replace(name, "\0%s\0" % label)
        if counts:
            text = re.sub(r"(?<![A-Za-z0-9])[0-9][0-9,.]*[0-9]|(?<![A-Za-z0-9])[0-9]",
                          "N", text)
        return re.sub("\0([^\0]*)\0", r"<\1>", text)

    advice = [a for a in doc.advice if a.variable is not None]
    for a in advice:
        print("advice %s %s" % (a.kind, shown(a.variable)))
        for key in ("text", "evidence", "fix"):
            print("  %s %s" % (key, shown(getattr(a, key), key == "evidence")))
    rep = subprocess.run([sys.executable, annotate, "--threshold=0", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if rep.returncode != 0:
        print("annotate: exit %d" % rep.returncode)
        return
    flat = re.sub(r"\s+", " ", rep.stdout.decode("utf-8"))
    for a in advice:
        missing = [key for key in ("text", "evidence", "fix")
                   if re.sub(r"\s+", " ", getattr(a, key)) not in flat]
        print("annotate %s: %s" % (a.kind, "missing " + " ".join(missing)
                                     if missing else "whole"))


main()
