/* SPDX-License-Identifier: GPL-2.0-or-later */
/* miss_causes: two arrays whose L2 misses have one cause each, run with
   --L1=32768,8,64 --L2=1048576,8,64 --L3=none under
   --miss-causes=exact and =sampled (the L2, 16,384 lines in 2,048
   sets, is sampled; the L1, 512 lines, is not).
   - coll: 64 rows 128 KiB apart (the L2's way size: sets x line), 64
     lines of each row: 4,096 lines in 64 L2 sets, 64 per set in 8
     ways.  Walked row by row, 10 times: after the first pass every L2
     miss is a conflict miss (a fully-associative L2 of 16K lines would
     hold all 4,096); 36,864 of them.
   - big: 2 MiB (32,768 lines, twice the L2) swept 3 times: after the
     first pass every L2 miss is a capacity miss, 65,536 of them.
   Each variable's misses have one cause, so the estimated split must
   equal the exact one; hits, misses, cold misses and the L1's split
   are the same with both settings. */
#include <stddef.h>

#define WAY (128 * 1024)
#define ROWS 64
#define COLS 64                 /* lines per row */
#define BIG (2 * 1024 * 1024)

char coll[ROWS * WAY];   /* not static: the reads must stay */
char big[BIG];

int main(void)
{
   volatile char sink = 0;
   size_t pass, r, c, i;
   for (pass = 0; pass < 10; pass++)
      for (r = 0; r < ROWS; r++)
         for (c = 0; c < COLS; c++)
            sink += coll[r * WAY + c * 64];
   for (pass = 0; pass < 3; pass++)
      for (i = 0; i < BIG; i += 64)
         sink += big[i];
   return sink;
}
