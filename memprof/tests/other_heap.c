/* SPDX-License-Identifier: GPL-2.0-or-later

   other_heap: a heap block made in a page that was "other".

   memprof remembers, per instruction, a page of memory that no variable
   owns and that holds no heap block, so that the instruction's next
   accesses there skip the registry's look-ups; a block made in that
   page must end it.  A thread's first malloc makes the thread an arena
   of its own (glibc), and its first block lies in the arena's first
   page; the page after it is the arena's free space, mapped and read
   here by touch (64 byte loads, to "other").  Then an 8 KiB block, big,
   is made right after the first: it covers that page, and the same
   loads of touch are now big's.  big: reads 64, writes 0.  The program
   prints whether big does cover the page (1), which is what the test
   is about. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;
static int covers;

static __attribute__((noinline)) void touch(volatile char *p, int n)
{
   int i;
   for (i = 0; i < n; i++)
      sink += p[i];
}

static void *worker(void *arg)
{
   char *first = malloc(64);
   uintptr_t page = ((uintptr_t)first | 4095) + 1;
   char *big;
   touch((volatile char *)page, 64);
   big = malloc(8192);
   covers = (uintptr_t)big <= page && page + 64 <= (uintptr_t)big + 8192;
   touch((volatile char *)page, 64);
   free(big);
   free(first);
   return arg;
}

int main(void)
{
   pthread_t t;
   void *r;
   if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, &r) != 0)
      return 1;
   printf("%d\n", covers);
   return 0;
}
