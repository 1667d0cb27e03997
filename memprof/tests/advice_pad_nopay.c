/* SPDX-License-Identifier: GPL-2.0-or-later */
/* False sharing that padding would not cure: two workers (threads 2
   and 3, on cores 0 and 1 of --cores=2) share every line of data (768
   KiB, 12,288 lines of 16 ints) without sharing a byte: thread 2
   writes int 0 of each line once (line 45), thread 3 reads the odd
   ints R = 8 times (line 57).  The main thread does not touch data.
   Test geometry: L1 32 KiB (64 sets of 8 ways), L2 1 MiB (1,024 sets
   of 16 ways) per core, no L3 (a transfer costs memory's latency).
   Prediction for a parallel run, per line (as in sharing_counters.c):
   to thread 3 min(its 8R = 64 accesses, thread 2's 1 write) = 1
   transfer, to thread 2 min(1, 0) = 0: 12,288 false transfers, 7% of
   the run's cycles: the false-sharing rule fires.
   The padding replay gives each core's bytes of a line a line of their
   own, line L of data going to line 2L + core.  Thread 3's lines are
   then the odd lines only, which fall in the odd sets: 512 of the L2's
   1,024, 8,192 places for its 12,288 lines, 24 per set, cycled in
   order, so an LRU set misses every one: each of its 8 passes goes to
   memory for all 12,288 lines (98,304 memory accesses), where before
   padding its lines stayed in the L2 (12,288 < 16,384 lines) and only
   the 12,288 predicted transfers went further.  The replay costs more
   cycles after than before: the padding is rejected, not advised.
   The other advice on data is the program's as it stands: thread 3's
   passes over 12,288 lines miss the L1 by capacity (blocking); its
   ints and thread 2's fall in two groups, { +0 } / { +4 } of an
   8-byte element, whose split halves thread 3's footprint
   (structure-splitting, its replay pays); thread 2's walk steps 64
   bytes, a line per access, each a miss, with no loop around it
   (long-stride at line 45). */
#include <pthread.h>
#include <stdio.h>

#define N 196608   /* ints: 768 KiB, 12,288 lines */
#define R 8

static int data[N] __attribute__((aligned(64)));
static pthread_barrier_t start;
static long sum;

static void *writer(void *arg)
{
   int i;
   (void)arg;
   pthread_barrier_wait(&start);
   for (i = 0; i < N; i += 16)
      data[i] = i;
   return NULL;
}

static void *reader(void *arg)
{
   int i, r;
   long s = 0;
   (void)arg;
   pthread_barrier_wait(&start);
   for (r = 0; r < R; r++)
      for (i = 1; i < N; i += 2)
         s += data[i];
   sum = s;
   return NULL;
}

int main(void)
{
   pthread_t t[2];
   pthread_barrier_init(&start, NULL, 2);
   pthread_create(&t[0], NULL, writer, NULL);
   pthread_create(&t[1], NULL, reader, NULL);
   pthread_join(t[0], NULL);
   pthread_join(t[1], NULL);
   printf("%ld\n", sum);
   return 0;
}
