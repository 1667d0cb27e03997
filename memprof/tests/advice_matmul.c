/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The naive matrix multiply in i, j, k order: the inner loop (k) walks
   B by columns.  N = 140 doubles: a row is 1,120 bytes, 17.5 lines;
   each matrix 153 KiB.  Run with a small L1 (8 KiB, 128 lines, 8 ways,
   16 sets) and L2 1 MiB, no L3.  At -O0 the statement at line 40
   loads c[i][j], a[i][k], b[k][j] and stores c[i][j].
   - b[k][j]: its instruction steps 1,120 B (139 of each column's 140
     strides).  Between b[k][j] and b[k][j+1], one line, the k loop
     touches the column's 140 lines of b and a's row, 17.5 lines: 158
     > 128, so each of its 140^3 = 2,744,000 loads misses the L1
     (capacity).  The formula 1120*i1 + 8*i2 says the loop around it
     (j, line 38) steps 8 B: loop-interchange on b at line 40 (the
     i, k, j order makes the inner loop walk b and c by rows).
   - a[i][k] steps 8 B, its misses (a's row is evicted between two
     values of j, 140 / 8 = 17.5 lines each time: about 2,744,000 / 8)
     are made in that same k loop, fixed by the interchange: no
     blocking on a; nor on b, whose misses are all the column walk's.
   - c[i][j] is the same address all along the k loop: stride 0.
   - The columns do not collide: 1,120 B is 17.5 lines, so a column's
     lines spread over the 16 sets (no conflict-sets).
   Expected advice: loop-interchange b at advice_matmul.c:40, nothing
   else. */
#include <stdio.h>

#define N 140

static double a[N][N], b[N][N], c[N][N];

int main(void)
{
   int i, j, k;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
         a[i][j] = i + j;
         b[i][j] = i - j;
      }
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         for (k = 0; k < N; k++)
            c[i][j] += a[i][k] * b[k][j];
   printf("%g\n", c[N / 2][N / 3]);
   return 0;
}
