#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fork_check.py PATTERN -- for the fork_instructions test: the two files
# of a run of fork_child under --sample=periodic:W,P, the child's (the
# one with C written) and the parent's.  Prints, as stable lines:
#   - whether the child's instructions are fewer than a quarter of the
#     parent's (the child counts from the fork: about 8,500 instructions
#     against the parent's 145,000 here, most of them the dynamic
#     linker's before main; counting the parent's too, it had more);
#   - whether the child's schedule started again with a window: it
#     analysed min(W, its instructions) or more (continuing the parent's
#     schedule, it would be wherever the parent was at the fork);
#   - whether each file's mpki is misses * 1000 / its analysed
#     instructions.
import glob
import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402

files = sorted(glob.glob(sys.argv[1]))
if len(files) != 2:
    print("fork_check: expected 2 files, found %d" % len(files))
    sys.exit(1)
docs = [read_file(f) for f in files]


def has(doc, name):
    return any(v.name == name and v.writes > 0 for v in doc.variables)


# Only the child writes C; its first window covers the start of its loop
# (the parent's windows need not cover P's).
child = [d for d in docs if has(d, "C")]
if len(child) != 1:
    print("fork_check: no single file has C written: no window at the child's start")
    sys.exit(1)
child = child[0]
parent = docs[1] if docs[0] is child else docs[0]
ps, cs = parent.config.sampling, child.config.sampling
print("child instructions < parent's / 4:", "yes" if cs.instructions * 4 < ps.instructions else
      "no (%d, %d)" % (cs.instructions, ps.instructions))
first = min(cs.window, cs.instructions)
print("child's first window at its start:", "yes" if cs.instructions_analysed >= first else
      "no (%d analysed)" % cs.instructions_analysed)
for who, d in (("parent", parent), ("child", child)):
    l1 = d.totals.cache["L1"]
    expect = l1.misses * 1000.0 / d.totals.instructions
    ok = abs(l1.mpki - expect) <= 0.01 + 1e-6 * expect
    print(who, "L1 mpki = misses * 1000 / analysed instructions:", "yes" if ok else
          "no (%s, %s)" % (l1.mpki, expect))
