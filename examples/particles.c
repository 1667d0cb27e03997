/* SPDX-License-Identifier: GPL-2.0-or-later
   memprof's bundled example: the same position update on an array of
   structures (AoS) and on a structure of arrays (SoA).

   The update reads and writes x and reads vx only: 16 of every 64 bytes
   of a struct particle.  memprof attributes the accesses to the heap
   variables by name and shows the footprint in cache lines: the AoS
   array 'parts' touches every one of its N lines per sweep, while the SoA
   arrays 'x' and 'vx' touch N/8 lines each: same accesses, a quarter of
   the lines.  That is the structure-splitting advice in one number. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define STEPS 10

struct particle {
   double x, y, z;
   double vx, vy, vz;
   double mass, charge;
};

static double dt = 0.01;

static void step_aos(struct particle *p, int n)
{
   for (int i = 0; i < n; i++)
      p[i].x += p[i].vx * dt;
}

static void step_soa(double *xs, const double *vxs, int n)
{
   for (int i = 0; i < n; i++)
      xs[i] += vxs[i] * dt;
}

int main(void)
{
   struct particle *parts = malloc(N * sizeof *parts);
   double *x = malloc(N * sizeof *x);
   double *vx = malloc(N * sizeof *vx);
   double sum = 0;

   for (int i = 0; i < N; i++) {
      parts[i] = (struct particle){ .x = i, .vx = 1.0, .mass = 1.0 };
      x[i] = i;
      vx[i] = 1.0;
   }
   for (int s = 0; s < STEPS; s++) {
      step_aos(parts, N);
      step_soa(x, vx, N);
   }
   for (int i = 0; i < N; i++)
      sum += parts[i].x - x[i];
   printf("difference between layouts: %g\n", sum);
   free(parts);
   free(x);
   free(vx);
   return 0;
}
