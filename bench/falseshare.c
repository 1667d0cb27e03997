/* SPDX-License-Identifier: GPL-2.0-or-later
   Benchmark workload: four threads incrementing their own counters of
   one cache line 5M times each (false sharing), pthreads. */
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITER 5000000

static volatile long counters[NT];

static void *worker(void *arg)
{
   long id = (long)arg;
   for (long i = 0; i < ITER; i++)
      counters[id]++;
   return NULL;
}

int main(void)
{
   pthread_t t[NT];
   for (long i = 0; i < NT; i++)
      pthread_create(&t[i], NULL, worker, (void *)i);
   for (int i = 0; i < NT; i++)
      pthread_join(t[i], NULL);
   printf("%ld\n", counters[0] + counters[NT - 1]);
   return 0;
}
