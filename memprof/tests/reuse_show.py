#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""reuse_show.py [--totals] FILE VAR...: prints the reuse distances
of the named variables of a memprof JSON file, and the reuse
configuration, in a stable form for .post.exp files.  With --totals, the
shared histogram is reduced to its total (its distances depend on the C
library's accesses in between)."""
import os
import sys

# memprof_reader.py is in the parent directory, or beside this script
# when the tests run in a build tree other than the source tree.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "annotate"))
from memprof_reader import read_file  # noqa: E402


def main():
    args = sys.argv[1:]
    totals = args[:1] == ["--totals"]
    if totals:
        args = args[1:]
    if len(args) < 2:
        sys.exit("usage: reuse_show.py [--totals] FILE VAR...")
    doc = read_file(args[0])
    cfg = doc.config.reuse
    if cfg is None:
        print("reuse absent")
        return
    print(f"reuse sample={cfg.sample} estimated={str(cfg.estimated).lower()}")
    for name in args[1:]:
        found = [v for v in doc.variables if v.name == name]
        if not found:
            print(f"{name} absent")
            continue
        r = found[0].reuse
        hist = lambda h: " ".join(f"{lo}-{hi}:{n}" for lo, hi, n in h) or "-"
        shared = (str(sum(n for _, _, n in r.shared)) if totals
                  else hist(r.shared))
        mean = "-" if r.mean_private is None else r.mean_private
        median = "-" if r.median_private is None else list(r.median_private)
        print(f"{name} cold={r.cold} private={hist(r.private)} "
              f"shared={shared} mean_private={mean} median_private={median}")


if __name__ == "__main__":
    main()
