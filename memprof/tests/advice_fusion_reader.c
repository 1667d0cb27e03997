/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two copies around a loop that only reads what they read, in the
   test's 4 KiB L1 (64 lines, 4-way) and no L2 or L3 (-O0): per pass of
   a time loop, a loop copies u into v (N = 2048 doubles, 256 lines
   each) scaled by k[0], a function's loop scales every 256th element
   of w by k[0], and a loop copies v back into u scaled by k[0].  Every
   line of u and v is used again in the copy-out only after the copy-in
   walked 512 lines: capacity misses whose reuses run from the copy-in
   to the copy-out.  The function's loop runs between them and loads
   k[0] as they do, but no one stores to k: reading a variable the
   fused loops only read is no dependence, and the fusion is advised.
   Its replay, warmed by a pass: as they ran, the copy-in misses on
   every line of u and v (512), the copy-out on every line of v and u
   (512): 1,024; fused, 512 (k's line, used at every iteration, stays
   the most recent of its set).  3 references of 2,048 iterations in
   each loop: 12,288 accesses. */
#include <stdio.h>

#define N 2048
#define REP 4

static double u[N], v[N], w[N], k[1] = { 0.5 };

static void scale_w(void)
{
   register int i;
   for (i = 0; i < N; i += 256)
      w[i] = k[0] * w[i];
}

int main(void)
{
   register int r, i;
   for (i = 0; i < N; i++)
      u[i] = i;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         v[i] = k[0] * u[i];
      scale_w();
      for (i = 0; i < N; i++)
         u[i] = k[0] * v[i];
   }
   printf("%g\n", u[1]);
   return 0;
}
