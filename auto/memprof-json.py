#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""memprof-json.py: what the shell scripts (memprof-bench.sh,
memprof-parts.sh) take from memprof's JSON output files, read by
memprof_reader (memprof/annotate/), one answer a line:

  memprof-json.py geometry FILE     the simulated L1 and last level as
                                    Cachegrind's options,
                                    "--D1=SIZE,ASSOC,LINE --LL=SIZE,ASSOC,LINE"
  memprof-json.py lines FILE...     per file, the cache lines its
                                    variables touched (the sum of their
                                    "lines")

A file that is not memprof output, or (geometry) has no cache
simulation, is one line on stderr and exit status 1.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "memprof", "annotate"))
from memprof_reader import FormatError, read_file  # noqa: E402


def geometry(path):
    levels = read_file(path, program="memprof-json.py").config.levels
    if not levels:
        raise FormatError("%s: no cache simulation (config.levels)" % path)
    return " ".join("--%s=%d,%d,%d" % (opt, lv.size, lv.assoc, lv.line)
                    for opt, lv in (("D1", levels[0]), ("LL", levels[-1])))


def lines(path):
    f = read_file(path, program="memprof-json.py")
    return str(sum(v.lines or 0 for v in f.variables))


def main(argv):
    if len(argv) == 2 and argv[0] == "geometry":
        answers = [geometry(argv[1])]
    elif len(argv) >= 2 and argv[0] == "lines":
        answers = [lines(p) for p in argv[1:]]
    else:
        sys.stderr.write("usage: memprof-json.py geometry FILE | lines FILE...\n")
        return 2
    print("\n".join(answers))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except FormatError as e:
        sys.stderr.write("memprof-json.py: %s\n" % e)
        sys.exit(1)
