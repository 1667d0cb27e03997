/* SPDX-License-Identifier: GPL-2.0-or-later

   threads: per-variable thread counts.  Two threads run at the same
   time (a barrier keeps both alive until both have done their writes,
   so Valgrind cannot give the second one the ThreadId the first one
   freed); main only creates and joins them.

   All arrays int, 64-byte aligned (attribute), one store per element at
   -O0 (the counters are in each thread's own frame):
     A: written by thread `first` only, A[0..999] (line 37):
        writes 1000, write_bytes 4000, size 4000, threads 1,
        lines = ceil(4000 / 64) = 63.
     B: written by thread `second` only, B[0..1999] (line 48):
        writes 2000, write_bytes 8000, size 8000, threads 1,
        lines = 8000 / 64 = 125.
     S: S[0..99] by `first` (line 39), S[100..299] by `second`
        (line 50): writes 100 + 200 = 300, write_bytes 1200,
        size 1200, threads 2, lines = ceil(1200 / 64) = 19.
     reads 0 for all three.
   totals.threads = 3: main (it runs main's code and touches its own
   stack) and the two threads.

   stdout: "done".
*/
#include <pthread.h>
#include <stdio.h>

int A[1000] __attribute__((aligned(64)));
int B[2000] __attribute__((aligned(64)));
int S[300] __attribute__((aligned(64)));
static pthread_barrier_t both_alive;

static void *first(void *arg)
{
   int i;
   for (i = 0; i < 1000; i++)
      A[i] = i;
   for (i = 0; i < 100; i++)
      S[i] = 1;
   pthread_barrier_wait(&both_alive);
   return arg;
}

static void *second(void *arg)
{
   int i;
   for (i = 0; i < 2000; i++)
      B[i] = i;
   for (i = 100; i < 300; i++)
      S[i] = 2;
   pthread_barrier_wait(&both_alive);
   return arg;
}

int main(void)
{
   pthread_t t1, t2;

   pthread_barrier_init(&both_alive, NULL, 2);
   if (pthread_create(&t1, NULL, first, NULL) != 0
       || pthread_create(&t2, NULL, second, NULL) != 0)
      return 1;
   pthread_join(t1, NULL);
   pthread_join(t2, NULL);
   printf("done\n");
   return 0;
}
