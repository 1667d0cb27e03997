#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# advice_owner.py -- for the `post:` step of runtime_advice: whether a
# variable that is not the program's passes every test the
# structure-splitting rule makes (so that, were it the program's, it
# would get that advice; see ADVICE in docs/memprof.md), and that it
# got no advice.
#
# Usage:
#   advice_owner.py FILE VAR
#
# Prints:
#   "VAR class=C object=O"
#   "  accesses >= 1,000: yes|no"
#   "  share of the run's cycles >= 1%: yes|no"
#   "  a source line: yes|no"       (a per_line row with a file:line)
#   "  structure of 2 groups or more: yes|no"
#   "  fields covering half of its cycles: yes|no"
#   "advice on VAR: none" or "advice on VAR: KIND..."
#   "advice on variables not the program's: N"

import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402


def yes(b):
    return "yes" if b else "no"


def main():
    path, name = sys.argv[1], sys.argv[2]
    doc = read_file(path, program="advice_owner")
    v = next(v for v in doc.variables if v.name == name)
    st = v.struct
    print("%s class=%s object=%s" % (name, v.class_, v.object or "-"))
    print("  accesses >= 1,000:", yes(v.reads + v.writes >= 1000))
    print("  share of the run's cycles >= 1%:",
          yes(v.cycles >= 0.01 * doc.totals.cycles))
    print("  a source line:", yes(any(r.where for r in v.per_line)))
    print("  structure of 2 groups or more:",
          yes(st is not None and len(st.groups) >= 2))
    print("  fields covering half of its cycles:",
          yes(st is not None and (st.covered or 0) >= 0.5))
    kinds = [a.kind for a in doc.advice if a.variable == name]
    print("advice on %s: %s" % (name, " ".join(kinds) or "none"))
    program = {v.name for v in doc.variables if v.class_ == "program"}
    print("advice on variables not the program's:",
          sum(1 for a in doc.advice
              if a.variable is not None and a.variable not in program))


if __name__ == "__main__":
    main()
