/* SPDX-License-Identifier: GPL-2.0-or-later */
/* l1_oracle: the L1's capacity/conflict split is the same whether it
   comes from the reuse distances (the default while one thread runs)
   or from the L1's own shadow (--reuse=no), before and after a second
   thread starts.  Run with --L1=32768,8,64 (512 lines, 64 sets of 8
   ways; one way is 4 KiB) --L2=none --L3=none --cores=2.
   - cap: 1,024 consecutive lines swept 3 times.  The first sweep's
     misses are cold; later every line misses L1 (16 lines a set, 8
     ways, cycled) and a fully-associative L1 of 512 lines, which sees
     1,024 other lines between two touches, would miss too: 2,048
     capacity misses.
   - conf: 16 lines 4 KiB apart, all in one set, read round-robin,
     15 passes, 10 before a second thread starts and 5 after it has
     ended.  Every read misses (16 lines cycled through 8 ways): 16
     cold, then 224 conflict misses, since a fully-associative L1
     would hold 16 lines.  The first pass after the thread is where
     the shadow made when the second thread starts must already hold
     conf's lines (the reuse history's latest 512 lines): an empty one
     would call those 16 misses capacity misses.
   The second thread (core 1, its own L1) reads a small array of its
   own.  Expected for both runs:
     cap  L1 misses=3072 cold=1024 capacity=2048 conflict=0
     conf L1 misses=240 cold=16 capacity=0 conflict=224 */
#include <pthread.h>
#include <stddef.h>

#define LINE 64
#define WAY 4096
#define CAP_LINES 1024
#define CONF_LINES 16

char cap[CAP_LINES * LINE];     /* not static: the reads must stay */
char conf[CONF_LINES * WAY];
char own[8 * LINE];
volatile char sink;

static void *other(void *arg)
{
   size_t i;
   for (i = 0; i < sizeof own; i += LINE)
      sink += own[i];
   return arg;
}

static void conf_passes(int n)
{
   int pass;
   size_t i;
   for (pass = 0; pass < n; pass++)
      for (i = 0; i < CONF_LINES; i++)
         sink += conf[i * WAY];
}

int main(void)
{
   pthread_t t;
   int pass;
   size_t i;
   for (pass = 0; pass < 3; pass++)
      for (i = 0; i < CAP_LINES; i++)
         sink += cap[i * LINE];
   conf_passes(10);
   pthread_create(&t, NULL, other, NULL);
   pthread_join(t, NULL);
   conf_passes(5);
   return 0;
}
