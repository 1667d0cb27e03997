/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two fixes of one column walk, covariance's shape (-O0, the counters
   and the sum in registers), in the test's 4 KiB L1 of 16 sets of 4
   ways (a set every 1 KiB) and no L2 or L3.  For each i and each
   j >= i the innermost loop k walks columns i and j down the rows.

   wide: N = 24 rows of M = 64 doubles, a row 512 bytes (8 lines): a
   column's lines fall in 2 of the 16 sets (8 lines of room), and the
   two walks' 48 lines evict each other: nearly every access misses.
   The walk-order rule speaks (more than half its accesses miss):
   loop-interchange on wide at line 48, the k loop with the j loop
   around it, holding at any size.  Its misses are conflict misses too
   (a 64-line fully associative L1 holds the 48 lines): padding wide's
   rows by a line (9 lines: a column walks all 16 sets) is replayed
   beside it, holding while the 48 lines of its 2 walks of 24
   iterations fit in L1's 64.  The interchange saves more of the nest's
   cycles (a row of wide is then used whole): it stays first, the
   padding its alternative.

   narrow: N2 = 20 rows of M2 = 48 doubles, a row 384 bytes (6 lines):
   a column falls in 8 sets (32 lines of room) and the two walks' 40
   lines partly fit: fewer than half the accesses miss, so the
   walk-order rule stays silent, but most misses are conflict misses:
   conflict-sets on narrow at line 58.  Its padding and the
   interchange of its walk are both replayed; the interchange saves
   more and becomes the item's fix, the padding (holding while the 40
   lines of 2 walks of 20 iterations fit in 64) its alternative.
   The replayed numbers are the cache model's; the test holds the
   choice of fix, the alternatives and what each says of the size. */
#include <stdio.h>

#define N 24
#define M 64
#define N2 20
#define M2 48

static double wide[N][M], cov[M][M];
static double narrow[N2][M2], cov2[M2][M2];

static void covariance_wide(void)
{
   register int i, j, k;
   register double s;
   for (i = 0; i < M; i++)
      for (j = i; j < M; j++) {
         s = 0;
         for (k = 0; k < N; k++)
            s += wide[k][i] * wide[k][j];
         cov[i][j] = s;
      }
}

static void covariance_narrow(void)
{
   register int i, j, k;
   register double s;
   for (i = 0; i < M2; i++)
      for (j = i; j < M2; j++) {
         s = 0;
         for (k = 0; k < N2; k++)
            s += narrow[k][i] * narrow[k][j];
         cov2[i][j] = s;
      }
}

int main(void)
{
   register int j, k;
   for (k = 0; k < N; k++)
      for (j = 0; j < M; j++)
         wide[k][j] = (k * M + j) % 7;
   for (k = 0; k < N2; k++)
      for (j = 0; j < M2; j++)
         narrow[k][j] = (k * M2 + j) % 5;
   covariance_wide();
   covariance_narrow();
   printf("%g %g\n", cov[M - 1][M - 1], cov2[M2 - 1][M2 - 1]);
   return 0;
}
