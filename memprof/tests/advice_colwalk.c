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
   - the dominant stride, 4096 bytes, leaves the line at every step.
   Expected advice on m, at the summing line, in this order (equal
   scores; conflicts before strides before blocking): conflict-sets,
   long-stride, blocking. */
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
