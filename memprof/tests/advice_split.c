/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An array of structures of eight doubles (64 bytes, one cache line
   each), of which the hot loop (line 49) uses two fields, x and y.
   Built twice: advice_split with N = 1024 elements, advice_split_fits
   with -DN=256.  Test geometry: L1 32 KiB (512 lines), L2 1 MiB.
   The initialisation (line 46) writes all eight fields of each element;
   the hot loop then reads x and y of every element R = 8 times.
   The structure analysis groups { x, y } (read together in the hot
   loop, most of the cycles) apart from the six others.

   advice_split, N = 1024: the array is 1,024 lines, twice the L1, so
   each of the 8 passes misses every line again: 8 x 1,024 = 8,192 L1
   misses in the hot loop.  Split into an array of { x, y } (16 bytes
   an element, 16 KiB, 256 lines) and one of the rest, the hot loop's
   array fits the L1: its 256 lines miss once (their first pass; the
   initialisation touched the other array's lines in between), then
   hit: the replay of the recorded accesses saves far more than 5% of
   the cycles: structure-splitting on p is advised.  Blocking fires
   too, as for struct_split.c: the passes after the first miss by
   capacity (7 x 1,024 of the hot loop's 8,192 misses plus the
   initialisation's reuse by the first pass, 8,192 of 9,216 misses),
   and the walk's stride, 64 bytes, is the structure's size, which the
   stride rules leave to the split.

   advice_split_fits, N = 256: the array is 256 lines, half the L1:
   after the initialisation (256 cold misses) the hot loop hits every
   time, and split it would too: both replays miss 256 lines, cold,
   once each (the { x, y } array 64 lines, the rest 192) and have the
   same cycles, a gain of 0%, below --what-if-min-gain=5: the split is
   rejected (the JSON's rejected list), not advised. */
#include <stdio.h>

#ifndef N
#define N 1024
#endif
#define R 8

struct particle { double x, y, vx, vy, m, q, t, w; };
static struct particle p[N];

int main(void)
{
   double s = 0;
   int i, r;
   for (i = 0; i < N; i++)
      p[i].x = p[i].y = p[i].vx = p[i].vy = p[i].m = p[i].q = p[i].t = p[i].w = i;
   for (r = 0; r < R; r++)
      for (i = 0; i < N; i++)
         s += p[i].x * p[i].y;
   printf("%g\n", s);
   return 0;
}
