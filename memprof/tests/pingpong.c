/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A producer/consumer ping-pong: main produces N items through a
   one-slot mailbox, thread 2 consumes them; a mutex and a condition
   variable make them strictly alternate.  The mailbox (full flag and
   item) is one cache line.  Each round the line goes from the producer
   (its last write: "box.full = 1") to the consumer (its first touch:
   the "while (!box.full)" test): N transfers; and back from the
   consumer ("box.full = 0") to the producer ("while (box.full)"):
   N - 1 transfers, the last item being followed by no production.
   Those two pairs are the communication hot-spots of this file. */
#include <pthread.h>
#include <stdio.h>

#define N 200

static struct { int full; int item; } box __attribute__((aligned(64)));
static pthread_mutex_t m __attribute__((aligned(64))) = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv __attribute__((aligned(64))) = PTHREAD_COND_INITIALIZER;
static long total __attribute__((aligned(64)));   /* not in cv's line */

static void *consumer(void *arg)
{
   int n;
   (void)arg;
   for (n = 0; n < N; n++) {
      pthread_mutex_lock(&m);
      while (!box.full)                         /* consumer waits */
         pthread_cond_wait(&cv, &m);
      total += box.item;
      box.full = 0;                             /* consumer empties */
      pthread_cond_signal(&cv);
      pthread_mutex_unlock(&m);
   }
   return NULL;
}

int main(void)
{
   pthread_t t;
   int n;
   pthread_create(&t, NULL, consumer, NULL);
   for (n = 0; n < N; n++) {
      pthread_mutex_lock(&m);
      while (box.full)                          /* producer waits */
         pthread_cond_wait(&cv, &m);
      box.item = n;
      box.full = 1;                             /* producer fills */
      pthread_cond_signal(&cv);
      pthread_mutex_unlock(&m);
   }
   pthread_join(t, NULL);
   printf("%ld\n", total);
   return 0;
}
