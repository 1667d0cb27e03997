/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ten sweeps over a 256 KiB array: the array is reused, but between two
   uses of a line the sweep touches all 4096 lines of the array, eight
   times what the test's L1 (32 KiB: 512 lines) holds, and a quarter of
   its L2 (1 MiB).  Every L1 miss after the first sweep is a capacity
   miss at a reuse distance of 4095 lines: the blocking advice on a,
   (a unit stride: no long-stride advice, no conflicts). */
#include <stdio.h>

#define N 32768

static double a[N];

int main(void)
{
   double s = 0;
   int r, i;
   for (r = 0; r < 10; r++)
      for (i = 0; i < N; i++)
         s += a[i];                        /* the sweep */
   printf("%g\n", s);
   return 0;
}

/* The blocking advice's replay tiled: the sweep's loop (i) is the
   inner loop, and r the loop around it whose iterations come back to
   the data (a's step along r is 0).  At -O0 the inner loop's 6 memory instructions make 7
   accesses an iteration (i; a[i]; s loaded and stored; i incremented,
   loaded and stored; i compared), only a[i] moving, 8 bytes: a tile
   of 16 KiB (half the L1) / 8 = 2,048 iterations.  The first
   1,048,576 accesses of each order are 149,796 iterations and the
   first 4 accesses of the next (a[i] among them):
   - as run, 4 sweeps of 4,096 lines and 18,725 doubles of the fifth,
     2,341 lines, and the stack line of i, r and s: 18,726 misses;
   - tiled (for each tile, for r, for i in the tile), 7 tiles of 10
     sweeps over 256 lines, and 6,437 iterations of the eighth, which
     touch all its 256 lines in their first sweep, and the stack line:
     8 x 256 + 1 = 2,049. */
