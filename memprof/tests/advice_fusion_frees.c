/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loop fusion across code the compiler placed before a loop, in the
   test's 4 KiB L1 (64 lines, 16 sets of 4 ways) and no L2 or L3 (-O0,
   the counters in registers).  gcc at -O2 lays LULESH's hourglass
   force out this way: the frees after the loop come before it, a
   backward jump never taken (no elements) goes to them from before the
   loop, and the loop's end jumps back to them.  The gotos make that
   layout at -O0.

   main's time loop calls step REP times; step's two loops, b = 2a over
   N = 2048 doubles (256 lines an array), then c = b + a, are sweeps' of
   advice_fusion.c.  The never-taken jump back to 'release' is no loop
   (it never iterates) and the jump back to 'release_rest' is an
   excursion of it, so the reuses of a and b run from the first loop to
   a "loop" that holds the second: the pair stands for the second loop.
   The advice: fuse the loops at lines 31-32 and 42-43, on a and b.
   Replay, warmed by one pass: as they ran, 512 + 768 = 1,280 misses;
   fused, 768; 5 references of 2,048 iterations: 10,240 accesses. */
#include <stdio.h>

#define N 2048
#define REP 4

static double a[N], b[N], c[N];
static long released;
static int n = N;

__attribute__((noinline)) static void step(void)
{
   register int i;
   for (i = 0; i < N; i++)
      b[i] = 2.0 * a[i];
   goto start;
release:
   released += 2;
release_rest:
   released++;
   return;
start:
   if (n <= 0)
      goto release;
   for (i = 0; i < N; i++)
      c[i] = b[i] + a[i];
   goto release_rest;
}

int main(void)
{
   register int r, i;
   for (i = 0; i < N; i++)
      a[i] = i;
   for (r = 0; r < REP; r++)
      step();
   printf("%g %ld\n", c[N - 1], released);
   return 0;
}
