/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gemm (PolyBench's order: C's row scaled, then C[i][j] += A[i][k] *
   B[k][j] over k, j) on 48 x 48 doubles (18 KiB each) in the test's
   4 KiB L1 (16 sets of 4 ways) and no L2: every i walks all of B
   (288 lines) again, capacity misses carried by i, the blocking advice
   on B.  The row scaling is another loop inside i beside the nest, but
   it walks i's own row of C, so the tiling across i is replayed. */
#include <stdio.h>

#define N 48

static double A[N][N] __attribute__((aligned(4096)));
static double B[N][N] __attribute__((aligned(4096)));
static double C[N][N] __attribute__((aligned(4096)));

int main(void)
{
   register int i, j, k;
   register double beta = 0.5, s = 0;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
         A[i][j] = i + j;
         B[i][j] = i - j;
         C[i][j] = 1;
      }
   for (i = 0; i < N; i++) {
      for (j = 0; j < N; j++)
         C[i][j] *= beta;
      for (k = 0; k < N; k++)
         for (j = 0; j < N; j++)
            C[i][j] += A[i][k] * B[k][j];     /* the product */
   }
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         s += C[i][j];
   printf("%g\n", s);
   return 0;
}

/* The replay: the nest i, k, j, the inner loop's four accesses in
   program order (C[i][j] loaded, A[i][k], B[k][j], C[i][j] stored),
   48 x 48 x 48 iterations, 442,368 accesses, all replayed from a cold
   L1.  A tile of j alone, in one iteration of i (k runs whole inside
   it), moves 8 B of C and of B per iteration over 48 rows of k: 768 B,
   and half the L1 (2,048 B) holds 2 of them; square tiles of k and j
   of t x t iterations hold t rows of B and t elements of A's and C's
   rows: t = 13 fits.  Both are replayed, and the one with fewer cycles
   is kept:
   - as run: 14,400 misses (B's 288 lines each i, and A's and C's);
   - tiles of 2 of j (for each, for i, for k, for j in it): 63,360 (each
     tile walks all of A again);
   - 13 x 13 tiles (for each tile of k, for each tile of j, for i, for
     k in it, for j in it): 4,831.
   A simulator of a 16-set, 4-way LRU cache fed the three orders'
   addresses gives the same numbers.  Cycles (L1 4, memory 200): as run
   427,968 hits and 14,400 misses: 4,591,872; square tiles 437,537 and
   4,831: 2,716,348 (-41%): advised with the square tiles. */
