/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The product D = T x C of 40 x 40 doubles, i, j, k order (2mm's and
   3mm's second products), in the test's 8 KiB L1 (128 lines, 32 sets
   of 4 ways): the k loop walks a column of C, 40 lines 320 B (5 lines,
   prime to the 32 sets) apart, which with T's row fits the L1, so C's
   lines come back at j + 1 as hits; but each i walks the whole of C
   (200 lines), and every later i misses it again: capacity misses
   carried by i, the blocking advice on C.  Run in windows of 4,000
   instructions in 20,000, no longer first window: one iteration of i
   (some 40 x 40 x 6 instructions) is longer than a window, and the
   nest is first seen in the windows; the carriers, counted in the gaps
   too, still see i carry the reuses. */
#include <stdio.h>

#define N 40

static double T[N][N] __attribute__((aligned(4096)));
static double C[N][N] __attribute__((aligned(4096)));
static double D[N][N] __attribute__((aligned(4096)));

int main(void)
{
   register int i, j, k;
   register double s;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
         T[i][j] = i + j;
         C[i][j] = i - j;
      }
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
         s = 0;
         for (k = 0; k < N; k++)
            s += T[i][k] * C[k][j];        /* the product */
         D[i][j] = s;
      }
   s = 0;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         s += D[i][j];
   printf("%g\n", s);
   return 0;
}

/* The replay.  The loops are followed through the windows' gaps, so
   the nest's counters count from each loop's entry and its access
   formulas fit (C[k][j]: 8*j + 320*k; T[i][k]: 8*k + 320*i) though
   every window cuts it.  The reuses are carried by i, the carriers say
   (98% of those beyond 128 lines), so the loops inside it are tiled:
   two iterations of k, each with the whole j loop in it (40 of C's
   lines and 8 B of T per j), fill more than half the L1 (4,096 B), so
   j and k are cut both, in square tiles: 21 x 21, the largest whose
   lines fill half the L1 as the rule counts them.
   The nest, 40 x 40 x 40 iterations of two loads (T's, then C's),
   128,000 accesses, all replayed from a cold hierarchy:
   - as run: 8,200 L1 misses (T's 200 lines and C's 200 each i, and the
     conflicts of the column walks);
   - tiled (for each tile of j, for each tile of k, for i, for j in the
     tile, for k in the tile): 720.
   A simulator of a 32-set, 4-way LRU cache fed the two orders'
   addresses (the arrays aligned to 4 KiB, so at set 0) gives the same
   two numbers.  The cycles (L1 4, L2 12, memory 200): as run 400 lines
   from memory, 7,800 from L2, 119,800 L1 hits: 652,800; tiled 400,
   320 and 127,280: 592,960 (-9%, more than --what-if-min-gain's 5%:
   advised).  A build that counted the carriers in the windows alone
   saw none, and tiled as below.

   Without carriers (--sample=shards, a sampled reuse mode:
   advice_tile_outer_nocarrier), the rule guesses from the formulas.
   The loop that comes back to what the k loop walks is j (C's step
   along j, 8 B, is less than k's walk); one execution of k fills 40
   lines of C and 5 of T, less than half the L1 (4,096 B): no tile of k
   would help, and the misses are carried further out, by the loop that
   comes back to what j's whole execution walked: i (C's step along it
   is 0).  So j is tiled, with k whole: a tile of t iterations of j is
   40 rows of C, 320 B apart, of 8t bytes (a line at least),
   40 x max(8t, 64) B, plus T's row (one line and 39 steps of 8 B:
   376 B) and D's t elements (64 + 8(t - 1) B, though D's access is
   outside the k loop and left out of the replay): t = 11 gives
   3,520 + 376 + 144 = 4,040 B, t = 12 4,368 B: tiles of 11.  Tiled
   (for each tile of j, for i, for j in the tile, for k): 2,245 L1
   misses, as the simulator gives too; cycles 400 lines from memory,
   1,845 from L2 and 125,755 L1 hits: 605,160 (-7%: advised). */
