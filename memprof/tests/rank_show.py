#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# rank_show.py -- prints what a memprof output file ranks first, for the
# `post:` step of the regression tests whose counts depend on the
# compiler's code (an -O2 build, a C++ frame) but whose ranking and
# names do not.
#
# Usage: rank_show.py FILE N [--var NAME]...
#
# Prints the first N variables of the program (class "program") in the
# file's order, which is by stall cycles, one a line:
#     RANK. NAME [label=LABEL] kind=K where=W stalls=yes|no
# (where=- when null; stalls: whether its stall cycles are above 0),
# then for each --var NAME the variables of that name, sorted by where:
#     NAME [label=LABEL] kind=K where=W [function=F]
# or "NAME absent".  A file the reader refuses, or without stall
# cycles, prints "rank_show: error" and exits 1.

import os
import sys

sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import FormatError, read_file  # noqa: E402


def describe(v):
    text = v.name
    if v.label:
        text += " label=%s" % v.label
    return text + " kind=%s where=%s" % (v.kind, v.where or "-")


def main(argv):
    if len(argv) < 3 or (len(argv) - 3) % 2 or any(a != "--var" for a in argv[3::2]):
        sys.stderr.write("usage: rank_show.py FILE N [--var NAME]...\n")
        return 2
    try:
        f = read_file(argv[1], program="rank_show")
    except FormatError as e:
        print("rank_show: error")
        sys.stderr.write("%s\n" % e)
        return 1
    ranked = [v for v in f.variables if (v.class_ or "program") == "program"]
    if any(v.stall_cycles is None for v in ranked):
        print("rank_show: error")
        sys.stderr.write("rank_show: %s has no stall cycles\n" % argv[1])
        return 1
    for i, v in enumerate(ranked[:int(argv[2])], 1):
        print("%d. %s stalls=%s" % (i, describe(v), "yes" if v.stall_cycles else "no"))
    for name in argv[4::2]:
        found = sorted((v for v in f.variables if v.name == name),
                       key=lambda v: v.where or "")
        if not found:
            print("%s absent" % name)
        for v in found:
            print(describe(v) + (" function=%s" % v.function if v.function else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
