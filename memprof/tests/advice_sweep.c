/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ten sweeps over a 256 KiB array: the array is reused, but between two
   uses of a line the sweep touches all 4096 lines of the array, eight
   times what the test's L1 (32 KiB: 512 lines) holds, and a quarter of
   its L2 (1 MiB).  Every L1 miss after the first sweep is a capacity
   miss at a reuse distance of 4095 lines: the blocking advice on a,
   (a unit stride: no long-stride advice, no conflicts). */
#include <stdio.h>

#define N 32768

static double a[N];

int main(void)
{
   double s = 0;
   int r, i;
   for (r = 0; r < 10; r++)
      for (i = 0; i < N; i++)
         s += a[i];                        /* the sweep */
   printf("%g\n", s);
   return 0;
}
