/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An FFT's copy-in, transform, copy-out, in the test's 4 KiB L1 (64
   lines) and no L2 or L3 (-O0): per pass of a time loop, a loop copies
   x into the scratch y (N = 2048 doubles, 256 lines each), a function
   changes y (here the sign of every 256th element: too few reuses to
   pair its loop with either copy), and a loop copies y out to x.
   Every line of x and y is used again in the copy-out only after the
   copy-in walked 512 lines: capacity misses whose reuses run from the
   copy-in to the copy-out, in the same iteration of the time loop.
   Their accesses alone show no dependence a fusion would break (y[i]
   stored, then loaded at the same i), but fused, the copy-out of y[0]
   would come before the function negated it: the item is rejected,
   the function's loop named as running between them and touching y.

   The same copies of u into v and back, with a function between them
   whose loop touches w alone: the fusion is advised.  Its replay,
   warmed by a pass: as they ran, the copy-in misses on every line of
   u and v (512), the copy-out on every line of v and u (512): 1,024;
   fused, 512.  4 references of 2,048 iterations: 8,192 accesses. */
#include <stdio.h>

#define N 2048
#define REP 4

static double x[N], y[N], u[N], v[N], w[N];

static void negate(void)
{
   register int i;
   for (i = 0; i < N; i += 256)
      y[i] = -y[i];
}

static void other(void)
{
   register int i;
   for (i = 0; i < N; i += 256)
      w[i] = -w[i];
}

int main(void)
{
   register int r, i;
   for (i = 0; i < N; i++)
      x[i] = u[i] = i;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         y[i] = x[i];
      negate();
      for (i = 0; i < N; i++)
         x[i] = y[i];
   }
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         v[i] = u[i];
      other();
      for (i = 0; i < N; i++)
         u[i] = v[i];
   }
   printf("%g %g\n", x[1], u[1]);
   return 0;
}
