/* SPDX-License-Identifier: GPL-2.0-or-later
   Benchmark workload: the STREAM triad a[i] = b[i] + s * c[i] over three
   heap arrays of 2M doubles (48 MB), 10 times: unit strides, no reuse
   within L1/L2, bandwidth-bound.  Usage: triad [elements [repetitions]]
   (the benchmark's memory slope runs it at two sizes). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
   long n = argc > 1 ? atol(argv[1]) : 2 * 1024 * 1024;
   int reps = argc > 2 ? atoi(argv[2]) : 10;
   double *a = malloc(n * sizeof *a);
   double *b = malloc(n * sizeof *b);
   double *c = malloc(n * sizeof *c);
   if (n < 1 || !a || !b || !c)
      return 1;
   for (long i = 0; i < n; i++) { b[i] = i; c[i] = 2 * i; }
   for (int r = 0; r < reps; r++)
      for (long i = 0; i < n; i++)
         a[i] = b[i] + 3.0 * c[i];
   printf("%g\n", a[n - 1]);
   free(a); free(b); free(c);
   return 0;
}
