/* SPDX-License-Identifier: GPL-2.0-or-later */
/* True sharing, producer and consumer: the producer writes a slot K
   times, the consumer reads each value once, the two alternating
   through a barrier (so the counts are the same in every run).

   Prediction for the line of slot: the producer makes K writes, the
   consumer K reads.  Transfers: to the consumer min(K, K) = K, all
   true (it reads the bytes the producer wrote), to the producer
   min(K, 0) = 0.  Invalidations: min(K, K) = K by the producer.  The
   barrier forces the alternation, so Valgrind sees the same K
   transfers: here the observed count is already the parallel one. */
#include <pthread.h>
#include <stdio.h>

#define K 1000

/* Lines of their own: the barrier does not share them. */
static struct {
   long v;
} __attribute__((aligned(64))) slot;
static long total __attribute__((aligned(64)));
static pthread_barrier_t turn;

static void *producer(void *arg)
{
   long k;
   for (k = 1; k <= K; k++) {
      slot.v = k;
      pthread_barrier_wait(&turn);
      pthread_barrier_wait(&turn);
   }
   return arg;
}

static void *consumer(void *arg)
{
   long k, sum = 0;
   for (k = 1; k <= K; k++) {
      pthread_barrier_wait(&turn);
      sum += slot.v;
      pthread_barrier_wait(&turn);
   }
   total = sum;
   return arg;
}

int main(void)
{
   pthread_t p, c;
   pthread_barrier_init(&turn, NULL, 2);
   pthread_create(&p, NULL, producer, NULL);
   pthread_create(&c, NULL, consumer, NULL);
   pthread_join(p, NULL);
   pthread_join(c, NULL);
   printf("%ld\n", total);
   return 0;
}
