/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Conflict misses, and the padding's replay (--what-if=pad-conflicts).
   The test's L1 is 4 KiB, 2-way, 64-byte lines: 32 sets, a span of
   2 KiB; the L2 (256 KiB, 8-way) holds both matrices.  Counters and the
   sum are kept in registers (at -O0 too), so the kernels' bodies are
   their loads of m or w alone.

   m: 32 rows of 512 doubles, 4 KiB each (two spans): row i's element j
   is in set j / 8 % 32 whatever i.  The stencil at line 50 reads rows
   i - 1, i and i + 1 at column j: three lines in one set of two ways,
   read in turn, each evicting the one read next: every access misses,
   though a fully associative L1 (64 lines) would hold the three; the
   misses are conflict misses: conflict-sets on m.  Its replay: the
   nest of lines 48-50 (i = 1 .. 30, j = 0 .. 511, 3 loads: 46,080
   accesses), as it ran every access misses (46,080); with m's rows
   padded to 4,160 B (65 lines) row i's line of column j is in set
   (j / 8 + i) % 32: the three lines fall in three sets, and each
   misses once per 8 columns, 3 x 64 x 30 = 5,760 L1 misses: advised.

   w: 8 rows of 1,024 doubles, 8 KiB each.  Line 53 reads w[i][j],
   w[i][j + 256], w[i][j + 512] and w[i][j + 768]: 2 KiB apart, four
   lines of one row in one set, every access misses (8 x 256 x 4 =
   8,192), conflict misses again.  Padding the rows moves a row, not
   the parts of one row: the replay's 8,192 misses stay 8,192 (moving
   w's start moves the four lines together: the same).  The padding
   does not pay: conflict-sets on w is rejected, with its replay.

   Expected: advice conflict-sets m (its lines: the stencil and the
   initialisation at line 47) with the replay 46,080 -> 5,760; rejected
   conflict-sets w at line 53, 8,192 -> 8,192. */
#include <stdio.h>

#define R 32
#define N 512
#define RW 8
#define NW 1024

static double m[R][N] __attribute__((aligned(4096)));
static double w[RW][NW] __attribute__((aligned(4096)));

int main(void)
{
   register double s = 0;
   register int i, j;
   for (i = 0; i < R; i++)
      for (j = 0; j < N; j++)
         m[i][j] = i + j;
   for (i = 1; i < R - 1; i++)
      for (j = 0; j < N; j++)
         s += m[i - 1][j] + m[i][j] + m[i + 1][j];
   for (i = 0; i < RW; i++)
      for (j = 0; j < NW / 4; j++)
         s += w[i][j] + w[i][j + NW / 4] + w[i][j + NW / 2]
              + w[i][j + 3 * NW / 4];
   printf("%g\n", s);
   return 0;
}
