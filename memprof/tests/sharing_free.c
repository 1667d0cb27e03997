/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A heap block freed and made again at the same address: what the
   first block's writer did to the lines is not the second block's
   sharing.

   A second thread starts and ends first, so that the sharing analysis
   is on.  Then main writes the 4096 bytes of a block (memprof names it
   "old", the local it is assigned to) and frees it; the next malloc of
   the same size gets the same chunk back (glibc's per-thread cache
   returns the chunk freed last; the program prints whether it did),
   and a third thread writes that block, "new".  Each block was touched
   by one thread: neither has sharing.  Were the freed lines
   remembered, new's 64 lines would show thread 1's writes beside
   thread 3's, all 64 of them true sharing. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static void *idle(void *arg)
{
   return arg;
}

static void *writer(void *arg)
{
   volatile char *b = arg;
   int i;
   for (i = 0; i < N; i++)
      b[i] = (char)i;
   return NULL;
}

__attribute__((noinline)) static char *make_old(void)
{
   return malloc(N);
}

__attribute__((noinline)) static char *make_new(void)
{
   return malloc(N);
}

int main(void)
{
   pthread_t t;
   volatile char *old;
   char *new;
   int i;
   pthread_create(&t, NULL, idle, NULL);
   pthread_join(t, NULL);
   old = make_old();
   for (i = 0; i < N; i++)
      old[i] = 1;
   free((char *)old);
   new = make_new();
   pthread_create(&t, NULL, writer, new);
   pthread_join(t, NULL);
   printf("%s\n", new == (char *)old ? "same chunk" : "another chunk");
   free(new);
   return 0;
}
