/* SPDX-License-Identifier: GPL-2.0-or-later
   Benchmark workload: naive and interchanged matrix multiply (regular
   strided accesses to three heap arrays). */
#include <stdio.h>
#include <stdlib.h>

#define N 300

int main(void)
{
   double *a = malloc(N * N * sizeof *a);
   double *b = malloc(N * N * sizeof *b);
   double *c = calloc(N * N, sizeof *c);
   for (int i = 0; i < N * N; i++) { a[i] = i % 7; b[i] = i % 5; }
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
         for (int k = 0; k < N; k++)
            c[i * N + j] += a[i * N + k] * b[k * N + j];
   for (int i = 0; i < N; i++)
      for (int k = 0; k < N; k++)
         for (int j = 0; j < N; j++)
            c[i * N + j] += a[i * N + k] * b[k * N + j];
   printf("%g\n", c[N * N - 1]);
   free(a); free(b); free(c);
   return 0;
}
