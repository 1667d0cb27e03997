/* SPDX-License-Identifier: GPL-2.0-or-later
   share_placed: false sharing that the block's placement hides.  Two
   workers each update their own 64-byte record of a two-record block
   that posix_memalign placed at the start of a line, and main reads
   both records after the joins.  Where the block lies, each record is
   a line of its own: no falsely shared line.  But the allocator could
   have started the block 16, 32 or 48 bytes into a line (malloc does,
   on another build or another heap): then a line would hold the end of
   worker 0's record and the start of worker 1's, which both write.

   Expected (post), offsets from the block's start, threads 1 = main,
   2 = worker 0, 3 = worker 1; the sharing analysis starts at the
   second thread's creation, so main's initialisation does not count:
     worker 0 reads and writes bytes 0-63, worker 1 bytes 64-127
     (ITER times each long of its record), main reads 0-127.
   Both workers are created before either is joined: all three threads
   are concurrent.
     at +0: line 0 holds worker 0 and main (true: main reads what
            worker 0 wrote), line 1 worker 1 and main (true): no false
            pair, 2 shared lines, both true, no false transfer
            predicted;
     at +16: worker 0's bytes fall at 16-79 (lines 0 and 1), worker 1's
            at 80-143 (lines 1 and 2): line 1 holds worker 0's 64-79
            and worker 1's 80-127, both written, disjoint: false;
     at +32 and +48 the same way.
   So false sharing at 3 of 4 placements (+16, +32, +48), none at its
   own (+0): the exit summary names the block and the advice asks to
   align it and pad its elements.

   With -DPADDED (share_padded) each record holds one counter and
   padding, each worker updating only its counter: worker 0 bytes 0-7,
   worker 1 bytes 64-71, main reading both.  Placed at +p (p = 0, 16,
   32, 48) worker 0's bytes fall at p .. p+7 and worker 1's at
   64+p .. 71+p: line 0 and line 1 whatever p, the two workers never
   meet on a line: false sharing at 0 of 4 placements, no entry in the
   summary and no advice on the block. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 2
#define ITER 1000

#ifdef PADDED
typedef struct {                 /* 64 bytes: a counter, padded */
   long count;
   char pad[56];
} rec;
#else
typedef struct {                 /* 64 bytes of a thread's partial sums */
   long v[8];
} rec;
#endif

static rec *recs;

static void *worker(void *arg)
{
   rec *r = &recs[(long)arg];
   for (long i = 0; i < ITER; i++) {
#ifdef PADDED
      r->count++;
#else
      for (int k = 0; k < 8; k++)
         r->v[k] += k;
#endif
   }
   return NULL;
}

int main(void)
{
   pthread_t tid[NT];
   void *block;
   long i, sum = 0;

   if (posix_memalign(&block, 64, NT * sizeof(rec)) != 0)
      return 1;
   recs = block;
   for (i = 0; i < NT; i++)
      recs[i] = (rec){ 0 };
   for (i = 0; i < NT; i++)
      pthread_create(&tid[i], NULL, worker, (void *)i);
   for (i = 0; i < NT; i++)
      pthread_join(tid[i], NULL);
   for (i = 0; i < NT; i++) {
#ifdef PADDED
      sum += recs[i].count;
#else
      for (int k = 0; k < 8; k++)
         sum += recs[i].v[k];
#endif
   }
   printf("%ld\n", sum);
   return 0;
}
