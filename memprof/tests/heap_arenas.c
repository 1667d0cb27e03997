/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_arenas: two threads each malloc a private counter and increment
   it 200,000 times, then print it.  With the program's own allocator
   each thread allocates from its own glibc arena, never from the line
   of another thread's block.  (A thread that exits gives its arena
   back, and Valgrind may run one thread to its end before the other
   starts: a barrier keeps both alive until both have allocated, as a
   parallel run does.) c is two blocks (blocks 2,
   alloc_bytes 16), 200,001 reads (the increments and printf's
   argument) and 200,001 writes (the "*c = 0" and the increments) per
   thread, and shares no line with anything another thread
   touches: no sharing, no false-sharing advice.  (The blocks are not
   freed: main's free would touch their lines, truly.) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t allocated;

static void *work(void *arg)
{
   long *c = malloc(sizeof(long));
   int i;
   (void)arg;
   pthread_barrier_wait(&allocated);
   *c = 0;
   for (i = 0; i < 200000; i++)
      (*(volatile long *)c)++;
   printf("%ld\n", *c);
   return c;
}

int main(void)
{
   pthread_t t[2];
   int i;
   pthread_barrier_init(&allocated, NULL, 2);
   for (i = 0; i < 2; i++)
      pthread_create(&t[i], NULL, work, NULL);
   for (i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
   return 0;
}
