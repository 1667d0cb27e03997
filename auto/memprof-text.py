#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# memprof-text.py BYTES OUT: writes about BYTES of generated,
# half-compressible text (words and hex numbers, seeded: the same every
# time) to OUT, the input of the compressors in the benchmark scripts.
import random
import sys

if len(sys.argv) != 3:
    sys.exit("usage: memprof-text.py BYTES OUT")
limit = int(sys.argv[1])
r = random.Random(1)
words = ['memory', 'cache', 'line', 'stride', 'reuse', 'thread', 'valgrind', 'numa']
out, size = [], 0
while size < limit:
    w = r.choice(words) if r.random() < 0.7 else '%08x' % r.getrandbits(32)
    out.append(w)
    size += len(w) + 1
with open(sys.argv[2], 'w') as f:
    f.write(' '.join(out))
