# SPDX-License-Identifier: GPL-2.0-or-later
# A benchmark workload for python3 -S: N strings appended to the lists of
# a dict of N/40 keys, then a sort of its keys.  Usage: dictsort.py N
import sys

n = int(sys.argv[1])
d = {}
for i in range(n):
    d.setdefault(i % (n // 40), []).append(str(i))
print(len(sorted(d)))
