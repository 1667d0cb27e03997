/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A product of a matrix and another's transpose, walked so that a is
   read by columns and b by rows: s += a[i][j] * b[j][i], j outside.
   With the test's geometry (as advice_colwalk.c: 32 KiB 8-way L1, 1 MiB
   16-way L2, 512 x 512 doubles, rows of 4096 bytes):
   - a's line steps 4096 bytes and misses the L1 at every access, and
     its formula says the loop around it (j) steps 8 bytes: the rule
     proposes to interchange the two loops;
   - but interchanged, b is walked by columns and a by rows: the nest
     would miss as often.  Its replay (every memory instruction of the
     inner loop: a and b, and i, j and s on the stack; 11 accesses per
     iteration, 2,883,584 in all) takes the first 1,048,576 accesses
     of each order, 95,325 iterations and one access more (not of a):
     186 whole walks of the inner loop and 93 iterations of the next.
     As run: every access of a misses (95,325; a column's 512 lines all
     fall in one L1 set), b's row misses once a line (186 x 64 + the
     12 lines of 93 doubles: 11,916), the stack line once: 107,242.
     Interchanged, a and b swap parts: 107,242 again, and the same
     cycles.  The replay saves nothing: the interchange is rejected,
     with its replay in the evidence;
   - rejected, it fixes nothing, so the capacity misses of a are
     blocking's (tiling, not interchanging, is the fix of a transpose);
     a's 4 KiB strides conflict in the L2 as in advice_colwalk.
   Expected: advice conflict-sets and blocking on a, rejected
   loop-interchange on a. */
#include <stdio.h>

#define N 512

static double a[N][N], b[N][N];

int main(void)
{
   double s = 0;
   int i, j;
   for (j = 0; j < N; j++)
      for (i = 0; i < N; i++)
         s += a[i][j] * b[j][i];             /* a by columns, b by rows */
   printf("%g\n", s);
   return 0;
}

/* The test leaves the tiling's replay of the blocking advice out
   (--what-if without tile): its numbers hang on where the linker put a
   and b. */
