/* SPDX-License-Identifier: GPL-2.0-or-later
   share_joined: the shape of Phoenix's linear_regression.  One block of
   64-byte per-thread argument records, placed 48 bytes into a line (as
   glibc's calloc placed Phoenix's), so that worker 0's accumulator SX
   shares a line with worker 1's points and n, which worker 1 reads at
   every iteration.  main creates both workers, then joins both: in the
   program they run at the same time.  Under Valgrind the short worker 0
   runs to its exit before worker 1 is created (main sleeps between the
   two creations, as it is descheduled there under Valgrind's lock), so
   the threads' lifetimes must be taken from the joins, not the exits.

   Expected (post), ITER = 1000, lines relative to the 64-aligned block
   start: line 0 holds worker 0's points and n (bytes 48-63 of it);
   line 1 worker 0's SX (bytes 0-7 of the line) and worker 1's points
   and n (48-63); line 2 worker 1's SX (0-7).  At -O0 each iteration
   reads n (the loop test, ITER + 1 times), SX and points, and writes
   SX.  The sharing analysis starts at the second thread's creation, so
   main's writes of points and n come before it; main reads each SX
   after the joins.  Per thread (N accesses, W writes):
     line 1: main N = 1, W = 0; worker 0 N = 2 ITER, W = ITER;
             worker 1 N = 2 ITER + 1, W = 0;
     line 2: main N = 1; worker 1 N = 2 ITER, W = ITER;
     line 0: worker 0 only (not shared).
   All three threads overlap (both workers are created before either
   is joined), so transfers to j = min(N_j, sum of the others' W) and
   invalidations by j = min(W_j, sum of the others' N):
     line 1: main 1 (true: worker 0 wrote the SX main read), worker 0
             0, worker 1 min(2001, 1000) = 1000 (false: worker 1 never
             touches SX); invalidations by worker 0 min(1000, 2002) =
             1000;
     line 2: main 1 (true), invalidations 1.
   Variable: predicted transfers 1002, true 2, false 1000,
   invalidations 1001; two shared lines, line 1 false and true (main
   and worker 0 truly share SX), line 2 true; the false-sharing advice.
   With the lifetimes taken from the exits, worker 1 would meet only
   main on line 1 and the false sharing would vanish; and the block is
   freed before the exit, which must not take its lines' sharing with
   it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N_THREADS 2
#define ITER 1000

typedef struct {                 /* 64 bytes, as Phoenix's lreg_args */
   long *points;
   long n;
   long SX, SY, SXX, SYY, SXY;
   long pad;
} lreg_args;

static long points[ITER];

static void *lreg(void *arg)
{
   lreg_args *a = arg;
   for (long i = 0; i < a->n; i++)
      a->SX = a->SX + a->points[i];
   return NULL;
}

int main(void)
{
   pthread_t tid[N_THREADS];
   struct timespec pause = { 0, 20 * 1000 * 1000 };
   void *block;
   lreg_args *tid_args;
   long i, sum = 0;

   if (posix_memalign(&block, 64, (N_THREADS + 1) * sizeof(lreg_args)) != 0)
      return 1;
   tid_args = (lreg_args *)((char *)block + 48);
   for (i = 0; i < ITER; i++)
      points[i] = i;
   for (i = 0; i < N_THREADS; i++) {
      tid_args[i].points = points;
      tid_args[i].n = ITER;
   }
   for (i = 0; i < N_THREADS; i++) {
      pthread_create(&tid[i], NULL, lreg, &tid_args[i]);
      nanosleep(&pause, NULL);
   }
   for (i = 0; i < N_THREADS; i++)
      pthread_join(tid[i], NULL);
   for (i = 0; i < N_THREADS; i++)
      sum += tid_args[i].SX;
   printf("%ld\n", sum);
   free(block);
   return 0;
}

/* Placements (the block, 192 bytes, starts a line: current +0).  In
   offsets from the block's start, worker 0 reads 48-63 and reads and
   writes 64-71, worker 1 reads 112-127 and reads and writes 128-135,
   main reads 64-71 and 128-135.  At +0 line 1 (64-127) holds worker
   0's 64-71 and worker 1's 112-127, disjoint, worker 0 writing: false.
   At +16 the workers' bytes move to 64-87 (line 1) and 128-151 (line
   2), at +32 to 80-103 and 144-167, at +48 to 96-119 and 160-183:
   never on one line, and main shares truly with each.  So false
   sharing at 1 of 4 placements, +0, the block's own: the summary's
   entry and the advice's evidence add it, with no advice of its own. */
