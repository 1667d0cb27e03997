/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A loop's source lines are its own function's: at -O2 the helper
   scale() (lines 17-20) is inlined into main's loop over i (lines
   29-30), whose first instructions then carry line 19, from the same
   file.  The loop is "loops_inlined.c:29-30", not 19-29: scale's line
   is another function's code, inlined there, and the loop's back edge
   (its increment and test, line 29) is main's.  (The loop over r,
   28-30, takes line 23 from the instruction at its head, which gcc
   gives main's opening line.)  Built at -O2 -fno-tree-vectorize: one
   scalar loop each.  stdout: the sum of a, 3 * 2 + 1 = 7 per element,
   7 * 4096 = 28672. */
#include <stdio.h>

#define N 4096
static double a[N], b[N];

static inline __attribute__((always_inline)) double scale(double x)
{
   return x * 3.0 + 1.0;
}

int main(void)
{
   double s = 0;
   int i, r;
   for (i = 0; i < N; i++)
      b[i] = 2.0;
   for (r = 0; r < 4; r++)
      for (i = 0; i < N; i++)
         a[i] = scale(b[i]);
   for (i = 0; i < N; i++)
      s += a[i];
   printf("%.0f\n", s);
   return 0;
}
