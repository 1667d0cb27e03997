/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A counter shared under a lock: four threads each add 1000 times to
   one long, so every thread reads and writes the same 8 bytes: the
   counter's line is truly shared, never falsely.  counter sits alone on
   its line (aligned), the mutex on another. */
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITER 1000

static long counter __attribute__((aligned(64)));
static pthread_mutex_t lock __attribute__((aligned(64))) = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
   int i;
   (void)arg;
   for (i = 0; i < ITER; i++) {
      pthread_mutex_lock(&lock);
      counter++;
      pthread_mutex_unlock(&lock);
   }
   return NULL;
}

int main(void)
{
   pthread_t t[NT];
   int i;
   for (i = 0; i < NT; i++)
      pthread_create(&t[i], NULL, worker, NULL);
   for (i = 0; i < NT; i++)
      pthread_join(t[i], NULL);
   printf("%ld\n", counter);
   return 0;
}
