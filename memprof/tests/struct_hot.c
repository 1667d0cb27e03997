/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An array of particles of 32 bytes (x, y, z, mass: doubles) on the
   heap.  The hot loop (100 passes) reads only mass; a cold loop, once,
   reads all four fields.  Expected: size 32, fields x, y, z, mass at
   0, 8, 16, 24 (named from line 19's type and line 15's definition);
   mass is in both loops, x, y and z only in the cold one, so
   affinity(x,y) = affinity(x,z) = affinity(y,z) = 1 and affinity(mass,
   x) = the cold loop's share of the pair's cycles, small: the split
   { x, y, z } / { mass }, mass alone. */
#include <stdio.h>
#include <stdlib.h>

#define N 2048

struct particle { double x, y, z, mass; };

int main(void)
{
   struct particle *p = calloc(N, sizeof *p);
   double m = 0, c = 0;
   int i, r;
   for (i = 0; i < N; i++)
      c += p[i].x + p[i].y + p[i].z + p[i].mass;   /* the cold loop */
   for (r = 0; r < 100; r++)
      for (i = 0; i < N; i++)
         m += p[i].mass;                             /* the hot loop */
   printf("%g %g\n", m, c);
   free(p);
   return 0;
}
