/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fusion over per-call temporaries of regions of different sizes
   (LULESH's equation of state), in the test's 4 KiB L1 (64 lines,
   4-way) and no L2 or L3 (-O0).  Per pass of a time loop, update() runs
   on 4 regions of 8, 512, 256 and 512 doubles: it allocates two
   temporaries t and u, fills them from x in one loop and multiplies
   them into o in the next.  In a region of 512, t and u (64 lines each)
   are used again only after the first loop walked x, t and u (192
   lines): capacity misses whose reuses run from one loop to the next.
   The formulas are fitted at the first call, a region of 8 whose
   blocks lie 144 bytes apart, while the misses come from the regions
   of 512: the replay runs the loops' largest execution, 513 iterations
   (the loop's test, which -O0 loads i and n for, runs once more than
   its body), with the blocks laid apart as the allocator lays out
   blocks of that size.  Replayed warmed by a pass, each walk of 513
   doubles from a line's start touches 65 lines: as they ran, the first
   loop misses on x, t and u, the second on t, u and o, 390 lines, and
   once on the line of the constants 2.0 and 1.0 that -O0 loads, evicted
   while the second loop ran: 391; fused, x, t, u and o once each, 260.  A build that replayed the first call
   (9 iterations, everything in L1: 0 -> 0) rejected the fusion as not
   paying; one that kept the first call's blocks replayed t and u over
   each other: 265 -> 197. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REP 4
#define REGIONS 4
#define ALL 1288

static const int len[REGIONS] = { 8, 512, 256, 512 };
static double in[ALL] __attribute__((aligned(64)));
static double out[ALL] __attribute__((aligned(64)));

/* The first line's start in a block of malloc's (a line more than
   needed), so that the counts do not hang on malloc's header. */
static double *line_start(void *block)
{
   return (double *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
}

static void update(double *o, const double *x, int n)
{
   void *t_block = malloc(n * sizeof(double) + 64), *u_block = malloc(n * sizeof(double) + 64);
   double *t = line_start(t_block), *u = line_start(u_block);
   int i;
   for (i = 0; i < n; i++) {
      t[i] = 2.0 * x[i];
      u[i] = x[i] + 1.0;
   }
   for (i = 0; i < n; i++)
      o[i] = t[i] * u[i];
   free(u_block);
   free(t_block);
}

int main(void)
{
   int r, g, off, i;
   for (i = 0; i < ALL; i++)
      in[i] = i;
   for (r = 0; r < REP; r++)
      for (g = 0, off = 0; g < REGIONS; off += len[g], g++)
         update(out + off, in + off, len[g]);
   printf("%g\n", out[ALL - 1]);
   return 0;
}
