/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A temporary that one loop writes and the next reads back, beside a
   loop body whose locals (at -O0, in the frame) make nearly all the
   cycles with L1 hits: t's 65,536 accesses (a store and a load per
   element, 8,192 elements, 4 passes) cost under 1% of the run's cycles,
   but its 8,192 L1 misses (a line per 8 elements, once in each loop:
   a, t and b, 192 KiB, do not stay in a 32 KiB L1) are a third of the
   run's memory stall.  Its share of the stall makes it one the rules
   look at: its loop fusion and its blocking are found and rejected
   (the fusion because t's load and b's store run between the second
   nest's loops, outside the walk its replay follows; the tilings
   because each pass of the time loop reads what the last one wrote). */
#include <stdio.h>

#define N 8192

static double a[N], t[N], b[N];

int main(void)
{
   int r, i, k;
   double x = 0, y = 1;
   for (r = 0; r < 4; r++) {
      for (i = 0; i < N; i++)
         t[i] = a[i] * 2;
      for (i = 0; i < N; i++) {
         for (k = 0; k < 64; k++)
            x = x * 0.999 + y;
         b[i] = t[i] + x;
      }
   }
   printf("%g\n", b[N - 1]);
   return 0;
}
