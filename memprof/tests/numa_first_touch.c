/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MACPO's Listing 3: the main thread initialises the whole array, then
   four threads each process a quarter.  data is 64 pages of 4 KiB,
   page-aligned; quarter q (16 pages) is processed by thread q+2.
   Run with --cores=4 --cores-per-socket=2: thread n runs on core
   (n-1) mod 4, so main (1) and thread 5 are on core 0, thread 2 on core
   1 (socket 0), threads 3 and 4 on cores 2 and 3 (socket 1).
   Every page is placed on socket 0 by main's first touch:
     main's init:    32768 writes, local;
     processing:     data[i] = data[i] * 2 + 1 is a load and a store:
                     quarters 0 and 3 (threads 2, 5, socket 0) local,
                     quarters 1 and 2 (threads 3, 4, socket 1) remote,
                     16384 accesses each;
   local 32768 + 2 * 16384 = 65536, remote 32768, hit ratio 2/3.
   With -DPARALLEL_INIT, the fix: each thread initialises its own
   quarter first: every access local (32768 + 65536 = 98304), the pages
   placed 16 each by threads 2-5, on sockets 0, 1, 1, 0. */
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define N 32768                  /* doubles: 256 KiB, 64 pages */
#define Q (N / NT)

static double data[N] __attribute__((aligned(4096)));

static void *worker(void *arg)
{
   long q = (long)arg;
   long i;
#ifdef PARALLEL_INIT
   for (i = q * Q; i < (q + 1) * Q; i++)
      data[i] = (double)i;
#endif
   for (i = q * Q; i < (q + 1) * Q; i++)
      data[i] = data[i] * 2 + 1;
   return NULL;
}

int main(void)
{
   pthread_t t[NT];
   long i;
#ifndef PARALLEL_INIT
   for (i = 0; i < N; i++)
      data[i] = (double)i;
#endif
   for (i = 0; i < NT; i++)
      pthread_create(&t[i], NULL, worker, (void *)i);
   for (i = 0; i < NT; i++)
      pthread_join(t[i], NULL);
   printf("done\n");
   return 0;
}
