/* SPDX-License-Identifier: GPL-2.0-or-later
   Benchmark workload: the STREAM triad a[i] = b[i] + s * c[i] over three
   heap arrays of 2M doubles (48 MB), 10 times: unit strides, no reuse
   within L1/L2, bandwidth-bound. */
#include <stdio.h>
#include <stdlib.h>

#define N (2 * 1024 * 1024)

int main(void)
{
   double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
   for (long i = 0; i < N; i++) { b[i] = i; c[i] = 2 * i; }
   for (int r = 0; r < 10; r++)
      for (long i = 0; i < N; i++)
         a[i] = b[i] + 3.0 * c[i];
   printf("%g\n", a[N - 1]);
   free(a); free(b); free(c);
   return 0;
}
