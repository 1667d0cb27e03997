/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jacobi-2d's shape: a time loop running two sweeps of 64 x 64 doubles
   (32 KiB each), the first reading A and writing B, the second reading
   B and writing A, in the test's 4 KiB L1.  Between two time steps
   every line of A and B is used again after both whole sweeps: the
   capacity misses of both are carried by the time loop, and the
   blocking rule finds them.  But tiling across the time loop moves the
   first sweep's accesses of A past the second sweep's stores to A of
   the step before (and B's the other way): a stencil's time loop can
   be tiled only with skewed tiles, which the replay does not model.
   The sweeps walk the same elements in every step (their access
   formulas' coefficient along t is 0), one storing them: no tiling is
   replayed, and both items are rejected with that reason (before, they
   were advised with "no tile of it fits"). */
#include <stdio.h>

#define N 64
#define STEPS 4

static double A[N][N] __attribute__((aligned(4096)));
static double B[N][N] __attribute__((aligned(4096)));

int main(void)
{
   register int t, i, j;
   double s = 0;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         A[i][j] = (i * j) % 7;
   for (t = 0; t < STEPS; t++) {
      for (i = 1; i < N - 1; i++)
         for (j = 1; j < N - 1; j++)
            B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
      for (i = 1; i < N - 1; i++)
         for (j = 1; j < N - 1; j++)
            A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
   }
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         s += A[i][j];
   printf("%g\n", s);
   return 0;
}
