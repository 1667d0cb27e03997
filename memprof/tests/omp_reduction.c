/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An OpenMP reduction over 4 threads: every thread sums a quarter of a
   (read only, initialised by main before the team exists) into its own
   partial sum and adds it once into the shared result.  The array is
   not shared (nobody writes it while the team runs); the result is
   truly shared: the threads add to the same 8 bytes. */
#include <omp.h>
#include <stdio.h>

#define N 4096

static double a[N];

int main(void)
{
   double sum = 0;
   int i;
   for (i = 0; i < N; i++)
      a[i] = 1.0;
#pragma omp parallel for num_threads(4) reduction(+:sum) schedule(static)
   for (i = 0; i < N; i++)
      sum += a[i];
   printf("%.0f\n", sum);
   return 0;
}
