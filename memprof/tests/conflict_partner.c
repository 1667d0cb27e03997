/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NPB FT's cffts3 in small: a block of 8 columns of u1 copied along k
   into a scratch y0, worked on there, and copied back.  u1's planes are
   8 KiB apart, a multiple of a 32 KiB 8-way L1's 4 KiB span of sets, so
   the 64 lines of a block's column all map to one set: they evict each
   other (u1's own conflict misses) and the scratch's line there (y0's,
   whose rows are padded already).  The array to pad is u1, whose
   leading dimension causes both: y0's item names it, and replays u1
   padded rather than y0.  Both items are rejected: the replay rebuilds
   the nest of the copy loop alone, not the work on y0 and the copy back
   that follow it in each block, where the evicted lines are used again
   (a nest's sibling loops are not replayed). */
#include <stdio.h>

#define NX 64
#define NY 16
#define NZ 64
#define BLK 8
#define PAD 9
static double u1[NZ][NY][NX];
static double y0[NZ][PAD];
/* the counters at fixed addresses, so that the replays' counts do not
   move with the stack's */
static int j, ii, k, i, it, p;
static double s;

int main(void)
{
   for (it = 0; it < 4; it++)
      for (j = 0; j < NY; j++)
         for (ii = 0; ii < NX; ii += BLK) {
            for (k = 0; k < NZ; k++)
               for (i = 0; i < BLK; i++)
                  y0[k][i] = u1[k][j][i + ii];
            for (p = 0; p < 6; p++)
               for (k = 0; k < NZ; k++)
                  for (i = 0; i < BLK; i++)
                     y0[k][i] = y0[k][i] * 0.5 + y0[(k + 1) % NZ][i];
            for (k = 0; k < NZ; k++)
               for (i = 0; i < BLK; i++)
                  u1[k][j][i + ii] = y0[k][i];
         }
   for (k = 0; k < NZ; k++)
      s += u1[k][1][2];
   printf("%g\n", s);
   return 0;
}
