/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MACPO's Listing 4 with four POSIX threads: thread t increments
   data[i] for i = t, t+4, t+8, ... so every 64-byte line of data holds
   bytes of all four threads, and no byte is touched by two threads:
   16 lines, all falsely shared.  With -DPADDED, the fix: thread t owns
   data[256t .. 256t+255], whole lines of its own: no shared line.
   The main thread never touches data.  The workers wait for each
   other at a barrier before they start, as the threads of a parallel
   loop do: so all four are alive together, whatever order Valgrind
   runs them in. */
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define N 1024

#ifdef PADDED
static char data[NT][N / NT] __attribute__((aligned(64)));
#else
static char data[N] __attribute__((aligned(64)));
#endif

static pthread_barrier_t start;

static void *worker(void *arg)
{
   long tid = (long)arg;
   int i;
   pthread_barrier_wait(&start);
#ifdef PADDED
   for (i = 0; i < N / NT; i++)
      data[tid][i]++;
#else
   for (i = (int)tid; i < N; i += NT)
      data[i]++;
#endif
   return NULL;
}

int main(void)
{
   pthread_t t[NT];
   long i;
   pthread_barrier_init(&start, NULL, NT);
   for (i = 0; i < NT; i++)
      pthread_create(&t[i], NULL, worker, (void *)i);
   for (i = 0; i < NT; i++)
      pthread_join(t[i], NULL);
   printf("done\n");
   return 0;
}
