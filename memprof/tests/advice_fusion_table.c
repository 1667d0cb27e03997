/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two copies around a loop that fills a table the second one reads,
   in the test's 4 KiB L1 (64 lines, 4-way) and no L2 or L3 (-O0): per
   pass of a time loop, a loop copies u into v (N = 2048 doubles, 256
   lines each), a function's loop fills the 8 doubles of t, and a loop
   copies v back into u scaled by t[i % 8].  Every line of u and v is
   used again in the copy-out only after the copy-in walked 512 lines:
   capacity misses whose reuses run from the copy-in to the copy-out.
   The table's loop runs between them and writes what the copy-out
   reads, but the copy-in never touches t: the table's loop moves
   before the fused loop, and the fusion is advised with that move.
   Its replay, warmed by a pass: as they ran, the copy-in misses on
   every line of u and v (512), the copy-out on every line of v and u
   (512): 1,024; fused, 512 (t's line, used at every iteration, stays
   the most recent of its set).  The load of t[i & 7], through an
   index, is left out of the replay: 4 references of 2,048 iterations,
   8,192 accesses. */
#include <stdio.h>

#define N 2048
#define REP 4

static double u[N], v[N], t[8];

static void fill_table(void)
{
   register int j;
   for (j = 0; j < 8; j++)
      t[j] = 1.0 - (j & 1);
}

int main(void)
{
   register int r, i;
   for (i = 0; i < N; i++)
      u[i] = i;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         v[i] = u[i];
      fill_table();
      for (i = 0; i < N; i++)
         u[i] = t[i & 7] * v[i];
   }
   printf("%g %g\n", u[1], u[2]);
   return 0;
}
