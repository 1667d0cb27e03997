/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct_declared: the fields of a heap array of structures are the
   members the source declares (particle_t in struct_declared.h: x, y,
   z, v[3], mass, charge, 64 bytes), also where the program stores
   several at once.  The initialisation writes each element with 16-byte
   stores (-O0 copies the compound literal two doubles at a time:
   x..y, z..v[0], v[1]..v[2], mass..charge); the hot loop (10 passes)
   reads and writes x and reads v[0].  Each store counts on the members
   it covers, an array member whole, so the split groups members:
   { x, v } (the hot loop's) apart from { y, z, mass, charge } (the
   initialisation's only), where the widths of the stores alone would
   have made fields of x..y and z..v[0]. */
#include <stdio.h>
#include <stdlib.h>
#include "struct_declared.h"

#define N 4096

int main(void)
{
   particle_t *parts = (particle_t *)malloc(N * sizeof(particle_t));
   double sum = 0;
   int i, s;
   for (i = 0; i < N; i++)
      parts[i] = (particle_t){ .x = i, .v = { 1.0, 0, 0 }, .mass = 1.0 };
   for (s = 0; s < 10; s++)
      for (i = 0; i < N; i++)
         parts[i].x += parts[i].v[0] * 0.01;
   for (i = 0; i < N; i++)
      sum += parts[i].x;
   printf("%g\n", sum);
   free(parts);
   return 0;
}
