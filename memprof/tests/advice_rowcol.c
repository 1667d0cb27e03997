/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PolyBench's mvt shape: one matrix walked by rows in one loop nest
   (line 41) and by columns in another (line 44), at -O0 one load of A
   per iteration.  A is 500 x 500 doubles: a row is 4,000 bytes, 62.5
   lines; A is 2 MB, twice the test's L2.  Test geometry: L1 32 KiB
   (512 lines, 8 ways), L2 1 MiB, no L3.
   - Line 41 (the row walk) steps 8 bytes: its dominant stride is 8, no
     stride advice; its 500 x 500 / 8 = 31,250 L1 misses are the first
     touches of A (A is never written: static, zero): cold.
   - Line 44 (the column walk): the inner loop (j) steps one row, 4,000
     bytes, in 499 of each column's 500 strides (99.8%).  Between
     A[j][i] and A[j][i+1], which share a line, the walk touches the
     rest of the column (500 lines of A) and y_2 (63 lines): 563 > 512,
     so every one of its 250,000 accesses misses the L1 (all capacity
     misses; 100% of the line's accesses, at least half: the rule's
     bar).  Its access formula is 4000*i1 + 8*i2: the loop around it
     (i, line 42) steps 8 bytes, less than a line: loop-interchange on
     A at line 44, interchanging the loop at lines 43-44 with the one
     at 42-44.
   - blocking: A has 250,000 capacity misses of 281,250 (89%), but all
     are made in the walk the interchange fixes: no blocking; nor on
     y_2, whose 500 x 63 = 31,500 capacity misses are made in that loop
     too (the column walk evicts it between two values of i).
   - No long-stride (line 41 steps 8 bytes; line 44 has a loop to
     interchange with), no conflict-sets (a column's 500 lines spread
     over all 64 sets, 8 per set: the 563 lines miss a fully
     associative L1 as well).
   Expected advice: loop-interchange A at advice_rowcol.c:44, and
   nothing else. */
#include <stdio.h>

#define N 600

static double A[N][N], x1[N], x2[N], y_1[N], y_2[N];

int main(void)
{
   int i, j;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         x1[i] = x1[i] + A[i][j] * y_1[j];
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         x2[i] = x2[i] + A[j][i] * y_2[j];
   printf("%g %g\n", x1[N / 2], x2[N / 3]);
   return 0;
}
