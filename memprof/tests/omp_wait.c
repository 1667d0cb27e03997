/* SPDX-License-Identifier: GPL-2.0-or-later

   omp_wait: an OpenMP program at two threads (OMP_NUM_THREADS=2 in the
   .vgtest), 40 parallel loops, each ending at a barrier.  Under
   Valgrind's serial schedule the thread that reaches a barrier first
   spins there (libgomp's default wait policy) until the scheduler
   gives the other thread the CPU: the exit summary says so, with the
   runtime's share of the accesses, which depends on the schedule (the
   filter masks the numbers).  omp_wait_passive runs it with
   OMP_WAIT_POLICY=passive: no such line.

   stdout: b[N-1] after the last of 20 rounds = 2 * ((N-1) * 0.5 + 19)
   = 2 * (49,999.5 + 19) = 100,037.
*/
#include <stdio.h>
#include <stdlib.h>

#define N 100000

int main(void)
{
   double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
   for (int it = 0; it < 20; it++) {
#pragma omp parallel for
      for (int i = 0; i < N; i++)
         a[i] = i * 0.5 + it;
#pragma omp parallel for
      for (int i = 0; i < N; i++)
         b[i] = a[i] * 2;
   }
   printf("%g\n", b[N - 1]);
   free(a);
   free(b);
   return 0;
}
