/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A one-off write next to a hot private counter: the main thread
   writes the 7 bytes of a message once, after starting the worker,
   on the line where the worker then increments its counter N times
   (think of a stdio buffer next to a thread's counter).  The line is
   falsely shared, but a parallel run moves it only a handful of times:
   no advice.

   Prediction for the line of g: the main thread makes 7 one-byte
   writes, the worker 2N accesses and N writes (-O0: a load and a store
   per increment).  Transfers: to the main thread min(7, N) = 7, to the
   worker min(2N, 7) = 7: 14, all false.  Invalidations: min(7, 2N) = 7
   by the main thread, min(N, 7) = 7 by the worker: 14.  At 200 cycles
   a transfer that is far below 1% of the run. */
#include <pthread.h>
#include <stdio.h>

#define N 100000

/* A whole line: the barrier below does not share it. */
static struct {
   char msg[8];
   long hot;
} __attribute__((aligned(64))) g;

static pthread_barrier_t start;

static void *worker(void *arg)
{
   int i;
   pthread_barrier_wait(&start);
   for (i = 0; i < N; i++)
      g.hot++;
   return arg;
}

int main(void)
{
   pthread_t t;
   static const char text[] = "started";
   int i;
   pthread_barrier_init(&start, NULL, 2);
   pthread_create(&t, NULL, worker, NULL);
   for (i = 0; i < 7; i++)
      g.msg[i] = text[i];
   pthread_barrier_wait(&start);
   pthread_join(t, NULL);
   printf("done\n");
   return 0;
}
