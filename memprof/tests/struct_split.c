/* SPDX-License-Identifier: GPL-2.0-or-later */
/* StructSlim's Figure 1: an array of struct { int a, b, c, d }; one loop
   reads a and c of every element, the other b and d.  Expected:
   structure size 16 (the GCD of the strides: every field is read at a
   stride of 16 bytes), fields at 0, 4, 8, 12 named a, b, c, d (from the
   debug info, --read-var-info=yes); a and c only ever in the first loop,
   b and d only in the second, so affinity(a,c) = affinity(b,d) = 1 and
   every other pair 0 (StructSlim's Eq. 7: the cycles of the loops using
   both fields over the cycles of the two); the split { a, c } / { b, d }
   and the structure-splitting advice on arr. */
#include <stdio.h>

#define N 4096

struct s { int a, b, c, d; };
static struct s arr[N];

int main(void)
{
   long sum1 = 0, sum2 = 0;
   int i, r;
   for (r = 0; r < 4; r++)
      for (i = 0; i < N; i++)
         sum1 += arr[i].a + arr[i].c;      /* the first loop */
   for (r = 0; r < 4; r++)
      for (i = 0; i < N; i++)
         sum2 += arr[i].b * arr[i].d;      /* the second loop */
   printf("%ld %ld\n", sum1, sum2);
   return 0;
}
