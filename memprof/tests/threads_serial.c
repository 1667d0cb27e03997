/* SPDX-License-Identifier: GPL-2.0-or-later
   threads_serial: four threads created and joined one after the other,
   each writing T[0..99] once.  Valgrind gives each new thread the id of
   the one that exited (2), but they are four threads: memprof numbers
   threads in creation order.

   Expected (post):
     T: writes 4 * 100 = 400, write_bytes 1600; reads 1 (main's T[7],
        4 bytes); threads 5 (the four writers and main); size 400;
        64-byte aligned, so lines = ceil(400 / 64) = 7.
     totals.threads: 5 (main + 4). */
#include <pthread.h>
#include <stdio.h>

int T[100] __attribute__((aligned(64)));

static void *fill(void *arg)
{
   for (int i = 0; i < 100; i++)
      T[i] = (int)(long)arg;
   return NULL;
}

int main(void)
{
   for (long k = 0; k < 4; k++) {
      pthread_t t;
      pthread_create(&t, NULL, fill, (void *)k);
      pthread_join(t, NULL);
   }
   printf("%d\n", T[7]);
   return 0;
}
