/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two threads each increment their own counter of one struct, N times:
   a and b share a 64-byte line, so the line is falsely shared, and a
   parallel run passes it between the cores at nearly every increment.
   Valgrind runs one thread at a time and sees only a few transfers.
   A barrier makes both threads alive at once before either counts.

   The prediction for the line of s (mp_sharing_predict), with -O0
   (s.x++ is one load and one store): threads 2 and 3 make 2N accesses
   and N writes each, the main thread reads a and b once after the
   joins (2 reads).  Transfers: to thread 2 min(2N, N + 0) = N, to
   thread 3 N, to the main thread min(2, 2N) = 2: 2N + 2, of which the
   main thread's 2 are true (it reads bytes the workers wrote): 2N
   false.  Invalidations: min(N, 2N + 2) = N by each worker: 2N.

   With -DPADDED each counter has a line of its own: no false sharing.
   Each line is then shared only by its worker and the main thread's
   read: 1 true transfer and 1 invalidation predicted per line. */
#include <pthread.h>
#include <stdio.h>

#define N 100000

#ifdef PADDED
static struct {
   long a __attribute__((aligned(64)));
   long b __attribute__((aligned(64)));
} __attribute__((aligned(64))) s;
#else
/* A whole line: the barrier below does not share it. */
static struct {
   long a;
   long b;
} __attribute__((aligned(64))) s;
#endif

static pthread_barrier_t start;

static void *count_a(void *arg)
{
   int i;
   pthread_barrier_wait(&start);
   for (i = 0; i < N; i++)
      s.a++;
   return arg;
}

static void *count_b(void *arg)
{
   int i;
   pthread_barrier_wait(&start);
   for (i = 0; i < N; i++)
      s.b++;
   return arg;
}

int main(void)
{
   pthread_t t1, t2;
   pthread_barrier_init(&start, NULL, 2);
   pthread_create(&t1, NULL, count_a, NULL);
   pthread_create(&t2, NULL, count_b, NULL);
   pthread_join(t1, NULL);
   pthread_join(t2, NULL);
   printf("%ld\n", s.a + s.b);
   return 0;
}
