/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A variable with a share of the run's cycles but a negligible share of
   its misses gets no loop or layout advice: blocking it would save too
   little to show (heat-3d's frame of main, advised blocking for 7,604
   L1 misses of 5.9M).

   With --L1=32768,8,64 (512 lines), --L2=1048576,16,64 (16,384 lines):
   big, 4 MiB (65,536 lines), is read one double per line 16 times:
   1,048,576 L1 misses, each a memory access (the L2 holds a quarter of
   it), 210M cycles.  small, 48 KiB (768 lines), is swept 8 times, each
   sweep followed by 250,000 reads of its first line: per sweep 768 L1
   misses (a cyclic walk of 768 lines through 512 misses every time),
   7 in 8 of them capacity misses after the first sweep (about 5,400 in
   all: enough for the blocking rule, 100% of its misses beyond the
   first sweep's cold ones), and 2.05M accesses, nearly all L1 hits at
   4 cycles: 8.2M cycles, about 3% of the run's (the loop counters at
   -O0 add some 40M more), above the advice's 1%.  But its 6,144 L1
   misses are 0.6% of the run's 1.05M: under the hundredth a fix of one
   variable must remove, so small is neither advised nor rejected.
   stdout: 16 * 65,536 reads of 1.0 plus 8 * (6,144 + 250,000) reads of
   0.5: 2,073,152. */
#include <stdio.h>

#define BIG ((4 << 20) / sizeof(double))
#define SMALL 6144

static double big[BIG], small[SMALL];

int main(void)
{
   double s = 0;
   long i;
   int r, p, k;
   for (i = 0; i < (long)BIG; i++)
      big[i] = 1.0;
   for (i = 0; i < SMALL; i++)
      small[i] = 0.5;
   for (r = 0; r < 16; r++)
      for (i = 0; i < (long)BIG; i += 8)
         s += big[i];
   for (p = 0; p < 8; p++) {
      for (i = 0; i < SMALL; i++)
         s += small[i];
      for (k = 0; k < 250000; k++)
         s += small[k & 7];
   }
   printf("%.0f\n", s);
   return 0;
}
