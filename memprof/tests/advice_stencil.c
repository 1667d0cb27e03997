/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A 2-D five-point stencil (Jacobi), rows innermost: every load of a
   and every store of b steps 8 bytes along its row, so no loop order
   is wrong and no interchange is advised.  N = 400 doubles: a row is
   3,200 bytes, 50 lines.  Run with a small L1 (8 KiB, 128 lines) and
   L2 1 MiB, no L3.
   Each line of a is used in three passes of the i loop: as the row
   below (a[i+1][j]), the centre row (a[i][j-1..j+1]) and the row above
   (a[i-1][j]).  Between two of them the stencil touches about three
   rows of a and one of b, 200 lines > 128: every reuse misses the L1
   though a fully associative L1 would miss too (capacity).  The first
   of the three is a reuse too (a was written by the initialisation):
   so nearly all of a's misses, 3 per line (398 x 50 x 3, about 60,000),
   are capacity misses: blocking on a, the fix being to tile the j loop
   so that three row strips fit in the L1.  b is only written, each
   line missed once, cold (static, first touched here): no advice on
   b.  No stride reaches a line: no loop-interchange, no long-stride.
   Blocking a, carried by the i loop, at the stencil's line; replayed
   tiled, -45% L1 misses but -1% cycles at -O0 (stack traffic): rejected. */
#include <stdio.h>

#define N 400

static double a[N][N], b[N][N];

int main(void)
{
   int i, j;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         a[i][j] = (i * 7 + j) % 13;
   for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
         b[i][j] = 0.2 * (a[i][j] + a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);
   printf("%g\n", b[N / 2][N / 3]);
   return 0;
}
