/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A column walk over a 512 x 512 matrix of doubles: each step of the
   inner loop jumps one row, 4096 bytes, and a column is 512 lines.
   With the test's geometry:
   - L1 (32 KiB, 512 lines): the column alone fills it, so a line is
     gone before the walk comes back to it for the next column: the
     misses after the first are capacity misses (a fully associative L1
     misses too), at a reuse distance of about 512 lines;
   - L2 (1 MiB, 16-way, 1024 sets): the 4096-byte step moves 64 sets, so
     a column falls in 16 sets, 256 lines of room for 512: conflict
     misses (a fully associative L2 would keep the column);
   - the summing line's own stride, 4096 bytes, leaves the line at
     every step (511 of each column's 512 strides) and every access
     misses the L1; its access formula 4096*i1 + 8*i2 says the loop
     around it (j, line 32) steps 8 bytes: loop-interchange;
   - the L1 capacity misses and the L2 conflict misses are all made in
     that walk: no blocking and no conflict-sets (one diagnosis per
     access: interchanging, not tiling or padding, removes them), and no
     long-stride (there is a loop to interchange with).
   Expected advice on m: loop-interchange at the summing line, and
   nothing else. */
#include <stdio.h>

#define N 512

static double m[N][N];

int main(void)
{
   double s = 0;
   int i, j;
   for (j = 0; j < N; j++)
      for (i = 0; i < N; i++)
         s += m[i][j];                     /* the column walk */
   printf("%g\n", s);
   return 0;
}
