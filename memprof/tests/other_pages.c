/* SPDX-License-Identifier: GPL-2.0-or-later

   other_pages: memory that no variable owns becomes a thread's stack.

   memprof remembers a page of anonymous memory whose accesses went to
   "other", so that its next accesses skip the registry's look-ups; a
   thread that starts must make those pages stale, since its stack may
   now lie there.  main touches every line of an anonymous mapping (all
   "other"), then runs a thread on a stack inside that mapping
   (pthread_attr_setstack).  The thread's frame writes must go to
   stack:worker, not to "other".

   worker at -O0 (gcc 12), from objdump -d -l: push %rbp (W), the store
   of its argument (W), i = 0 (W), then per iteration the store to
   buf[i] and the increment of i (R and W of i): writes 3 + 2 x 1024 =
   2051 to stack:worker, from the lines of worker. */
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

#define REGION (1 << 20)
#define N 1024

static void *worker(void *arg)
{
   volatile int buf[N];
   int i;
   for (i = 0; i < N; i++)
      buf[i] = i;
   return (void *)(long)buf[N / 2] + (long)arg * 0;
}

int main(void)
{
   char *r = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   pthread_attr_t attr;
   pthread_t t;
   void *res;
   long i;
   if (r == MAP_FAILED)
      return 1;
   for (i = 0; i < REGION; i += 64)
      r[i] = 1;
   pthread_attr_init(&attr);
   pthread_attr_setstack(&attr, r, REGION);
   if (pthread_create(&t, &attr, worker, NULL) != 0)
      return 1;
   pthread_join(t, &res);
   printf("%ld\n", (long)res);
   return 0;
}
