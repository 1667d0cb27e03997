#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# sample_check.py FILE WINDOW MIN_TOTAL VAR...: prints what the sampling
# tests assert of a memprof file written with --sample=periodic|windows:
# the schedule from config.sampling, whether the instructions analysed
# are within one superblock (200 instructions) above WINDOW * windows,
# whether the run's instructions exceed MIN_TOTAL, and the reads and
# writes of each named variable ("absent" if it is not in the file).
import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402

path, window, min_total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
doc = read_file(path)
s = doc.config.sampling
gap_key = "period" if s.mode == "periodic" else "max_gap"
print("sampling mode=%s window=%d %s=%d windows=%d" %
      (s.mode, s.window, gap_key, getattr(s, gap_key), s.windows))
low = window * s.windows
print("analysed within a superblock of %d: %s" %
      (low, low <= s.instructions_analysed <= low + 200))
print("instructions above %d: %s" % (min_total, s.instructions > min_total))
scale = s.instructions / s.instructions_analysed
print("scale consistent: %s" % (abs(s.scale - scale) < 1e-6 * scale))
byname = {v.name: v for v in doc.variables}
for name in sys.argv[4:]:
    v = byname.get(name)
    print("%s %s" % (name, "absent" if v is None else
                     "reads=%d writes=%d" % (v.reads, v.writes)))
