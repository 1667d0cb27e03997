/* SPDX-License-Identifier: GPL-2.0-or-later
   Cross-check workload: naive and blocked matrix multiply (naive: b is
   read down its columns, a capacity-miss pattern; blocked: the same work
   in 32x32 tiles).  The matrices are static, not malloc'd: under
   Cachegrind the C library's malloc places blocks, under memprof
   Valgrind's, and different placements make different conflict misses. */
#include <stdio.h>

#define N 160
#define B 32

static void naive(const double *a, const double *b, double *c)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
         double s = 0;
         for (int k = 0; k < N; k++)
            s += a[i * N + k] * b[k * N + j];
         c[i * N + j] = s;
      }
}

static void blocked(const double *a, const double *bb, double *c)
{
   for (int ii = 0; ii < N; ii += B)
      for (int kk = 0; kk < N; kk += B)
         for (int jj = 0; jj < N; jj += B)
            for (int i = ii; i < ii + B; i++)
               for (int k = kk; k < kk + B; k++)
                  for (int j = jj; j < jj + B; j++)
                     c[i * N + j] += a[i * N + k] * bb[k * N + j];
}

int main(int argc, char **argv)
{
   static double a[N * N] __attribute__((aligned(64)));
   static double b[N * N] __attribute__((aligned(64)));
   static double c[N * N] __attribute__((aligned(64)));
   for (int i = 0; i < N * N; i++) { a[i] = i % 7; b[i] = i % 5; }
   if (argc > 1)
      blocked(a, b, c);
   else
      naive(a, b, c);
   printf("%g\n", c[N * N - 1]);
   return 0;
}
