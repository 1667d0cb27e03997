/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The prefetcher model on two walks of an 8 MiB array each, eight times
   the test's L2 (1 MiB; L1 32 KiB; 64-byte lines; no L3; one core),
   only the two functions collected (--toggle-collect), at -O0.

   sum_seq reads seq[] in order, twice: 2 x 131,072 lines, 2,048 pages
   of 64 lines (the array is page-aligned), 8 reads per line.  The first
   read of every line misses L1 (the second pass too: 8 MiB is far more
   than L1 and L2 hold): 262,144 L1 misses, the other 7 reads hit.
   --prefetch=none: every L1 miss misses L2: 262,144 L2 misses.
   --prefetch=stream: in each page the L1 misses of lines 0, 1 and 2 make
   the stream (two steps up); from line 2 on each L1 miss asks for the
   next two lines of the page, the first of which the miss before had
   already brought.  Lines 3 to 63 are prefetched hits in L2 (61 per page,
   249,856 in all), lines 0 to 2 miss it (3 per page, 12,288; the first
   pass's cold, the second's capacity).  Lines issued: 249,856, all used.
   --prefetch=stride: the load's misses are 64 bytes apart; the third
   confirms the stride, and from then on each asks for the next line,
   except the last line of a page (the next would leave it): the first
   line of every page but the first misses L2, the others are
   prefetched hits.  Per pass 1 + 1 + 1 + 2,047 L2 misses (lines 0, 1, 2
   of the first page, then line 0 of each page), 129,022 prefetched.
   Cycles (latencies 4, 12, 200): an L1 hit costs 4, a prefetched hit
   in L2 12, as a hit, a miss of both 200; seq's cycles are
   7 x 262,144 x 4 = 7,340,032 plus, with none, 262,144 x 200
   (52,428,800; 59,768,832 in all), with stream 249,856 x 12 + 12,288 x
   200 (2,998,272 + 2,457,600; 12,795,904), with stride 258,044 x 12 +
   4,100 x 200 (3,096,528 + 820,000; 11,256,560).

   walk_rnd reads 131,072 elements of rnd[] at pseudo-random indices
   (a fixed linear congruential sequence): its misses are too far apart
   for a stream to form or a stride to repeat, and almost none of them
   is a prefetched hit.

   With none, the advice blames seq's capacity misses (blocking); with a
   prefetcher, which covers nearly all of them, it does not.

   With a 2 MiB L3 (prefetch_stream_l3) the prefetches fill it too, and
   only the L2's 12,288 misses reach it: they miss it as well (the first
   pass's cold, the second's capacity: 8 MiB is more than it holds), and
   everything else is as without it.  Those 6,144 capacity misses are
   half of the L3's misses, but a small share of the 262,144 it would
   have had without the prefetcher: no advice there either. */
#include <stdio.h>

#define N (1 << 20)                  /* 8 MiB of doubles */

double seq[N] __attribute__((aligned(4096)));
double rnd[N] __attribute__((aligned(4096)));

__attribute__((noinline)) static double sum_seq(void)
{
   double s = 0;
   int pass, i;
   for (pass = 0; pass < 2; pass++)
      for (i = 0; i < N; i++)
         s += seq[i];
   return s;
}

__attribute__((noinline)) static double walk_rnd(void)
{
   double s = 0;
   unsigned x = 12345;
   int i;
   for (i = 0; i < N / 8; i++) {
      x = x * 1664525u + 1013904223u;
      s += rnd[(x >> 8) % N];
   }
   return s;
}

int main(void)
{
   printf("%g %g\n", sum_seq(), walk_rnd());
   return 0;
}
