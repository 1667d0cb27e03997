/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loop fusion, in the test's 4 KiB L1 (64 lines, 16 sets of 4 ways)
   and no L2 or L3 (-O0, the counters in registers):

   sweeps: a time loop of REP passes around two adjacent loops over
   N = 2048 doubles (16 KiB, 256 lines per array): b = 2a, then
   c = b + a.  Every line of a and b is used again in the second loop
   only after 512 lines went through the cache: capacity misses, the
   reuses carried by the time loop, running from the first loop to the
   second.  The advice: fuse the loops at lines 54 and 56 (one item, on
   a and b).  Its replay, warmed by one pass as the time loop runs them
   again: as they ran, the first loop misses on every line of a and b
   (512), the second on every line of b, a and c (768): 1,280 misses;
   fused, each line of a, b and c misses once: 768.  5 references
   (a, b; b, a, c) of 2,048 iterations each: 10,240 accesses per order.
   The reuses from the second loop back to the first, in the time
   loop's next pass, are no fusion's.

   shifted: the same shape over d, e, f, the second loop reading
   d[i + 1]: the fused loop's iteration i would read d[i + 1] before
   the first loop's iteration i + 1 stored it.  The item is rejected:
   fusing the loops at lines 65 and 67 would break a dependence on d.

   once: two loops run once each, outside any loop, over N1 = 8192
   doubles (1,024 lines): g = 2h, then k = g + h, after main's loop at
   line 99 filled h.  The three are the thread's outermost loops, each
   reusing what the one before walked: one item fuses the loops at
   lines 99, 75 and 77, replayed cold (no loop of the program runs them
   again): as they ran, 1,024 (h) + 2,048 (h, g) + 3,072 (g, h, k) =
   6,144 misses; fused, 3,072.  6 references of 8,192 iterations:
   49,152 accesses per order.  Its score, the share of the run's
   cycles of g and h, is above sweeps' (a and b).

   gathered: sweeps' shape, the first loop gathering q[i] = p[idx[i]]
   (idx a permutation), the second s = 2q: fuse the loops at lines 85
   and 87, on q.  The gather's load has no formula and is left out of
   the replay (no loop stores to p): as they ran, idx (4-byte ints, 128
   lines) and q miss 384, q and s 512: 896; fused, 640.  4 references
   (idx, q; q, s) of 2,048 iterations: 8,192 accesses. */
#include <stdio.h>

#define N 2048
#define N1 8192
#define REP 4

static double a[N], b[N], c[N], d[N], e[N], f[N], g[N1], h[N1], k[N1];
static double p[N], q[N], s[N];
static int idx[N];

static void sweeps(void)
{
   register int r, i;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         b[i] = 2.0 * a[i];
      for (i = 0; i < N; i++)
         c[i] = b[i] + a[i];
   }
}

static void shifted(void)
{
   register int r, i;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         d[i] = 3.0 * e[i];
      for (i = 0; i < N - 1; i++)
         f[i] = d[i + 1] + e[i];
   }
}

static void once(void)
{
   register int i;
   for (i = 0; i < N1; i++)
      g[i] = 2.0 * h[i];
   for (i = 0; i < N1; i++)
      k[i] = g[i] + h[i];
}

static void gathered(void)
{
   register int r, i;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         q[i] = p[idx[i]];
      for (i = 0; i < N; i++)
         s[i] = 2.0 * q[i];
   }
}

int main(void)
{
   register int i;
   for (i = 0; i < N; i++) {
      a[i] = e[i] = p[i] = i;
      idx[i] = i * 7 % N;
   }
   for (i = 0; i < N1; i++)
      h[i] = i;
   sweeps();
   shifted();
   once();
   gathered();
   printf("%g %g %g %g\n", c[N - 1], f[N - 2], k[N1 - 1], s[N - 1]);
   return 0;
}
