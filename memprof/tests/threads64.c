/* SPDX-License-Identifier: GPL-2.0-or-later */
/* 64 threads, each setting its own byte of one 64-byte line 100 times:
   one line, falsely shared by every pair of the 64 threads (2016
   pairs), thread n (2..65) writing byte n-2.  Checks that sharing is
   tracked past 64 threads' worth of bits anywhere. */
#include <pthread.h>
#include <stdio.h>

#define NT 64

static char flags[NT] __attribute__((aligned(64)));

static void *worker(void *arg)
{
   long t = (long)arg;
   int i;
   for (i = 0; i < 100; i++)
      flags[t] = (char)i;
   return NULL;
}

int main(void)
{
   pthread_t t[NT];
   long i;
   for (i = 0; i < NT; i++)
      pthread_create(&t[i], NULL, worker, (void *)i);
   for (i = 0; i < NT; i++)
      pthread_join(t[i], NULL);
   printf("done\n");
   return 0;
}
