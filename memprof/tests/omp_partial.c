/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A hand-written OpenMP reduction array: the team (main and three pool
   threads) adds its quarters of a into partial[t], one double per
   thread, the four in one cache line: the textbook false sharing (each
   += a read and a write of its own 8 bytes, next to the others').
   Under Valgrind the team runs one thread at a time, so few transfers
   are seen; the pool threads are never joined, so the lifetimes overlap
   and the prediction sums over all four.  By hand: each does 4,096
   additions, 8,192 accesses, against the others' 12,288 writes: 8,192
   transfers each, and main's 4 reads of partial at the end: 32,772,
   of which main's 8,196 are true (it reads what the others wrote):
   24,576 false.  a's last four doubles share the line (static arrays
   laid out one after the other): only a's own accesses there count for
   it, the last quarter's 4 reads (main's fill came before the second
   thread, when sharing is not yet tracked): 4 transfers, not partial's
   32,772.  Advice: false sharing on partial, none on a. */
#include <omp.h>
#include <stdio.h>

#define N 16384
#define T 4

static double a[N];
static double partial[T];

int main(void)
{
   double sum = 0;
   int i;
   for (i = 0; i < N; i++)
      a[i] = 1.0;
#pragma omp parallel num_threads(T)
   {
      int t = omp_get_thread_num(), j;
#pragma omp for schedule(static)
      for (j = 0; j < N; j++)
         partial[t] += a[j];
   }
   for (i = 0; i < T; i++)
      sum += partial[i];
   printf("%.0f\n", sum);
   return 0;
}
