/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A 3-deep loop nest over double a[4][200][136] (MTL's access formula):
   the load of a[i3][i2][i1] is at 8*i1 + 1088*i2 + 217600*i3 bytes from
   a (136 * 8 = 1088, 200 * 1088 = 217600), i1 the innermost counter.
   Counters count back edges taken; at -O0 gcc tests at the bottom of the
   loop, so the first pass through each body has counter 1: the base (the
   offset at all counters 0) is -(8 + 1088 + 217600) = -218696.  The
   loop nest: 4 entries of the i2 loop (200 iterations each), 800 of the
   i1 loop (136 each).  fill's loop: one formula, 8*i1 (base -8). */
#include <stdio.h>

#define N3 4
#define N2 200
#define N1 136

double a[N3][N2][N1];

static void fill(double v)
{
   for (int k = 0; k < N3 * N2 * N1; k++)
      ((double *)a)[k] = v * k;
}

int main(int argc, char **argv)
{
   double s = 0;
   int i1, i2, i3;
   fill(argc);
   for (i3 = 0; i3 < N3; i3++)
      for (i2 = 0; i2 < N2; i2++)
         for (i1 = 0; i1 < N1; i1++)
            s += a[i3][i2][i1];
   printf("%g\n", s);
   return 0;
}
