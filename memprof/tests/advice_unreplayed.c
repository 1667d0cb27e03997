/* SPDX-License-Identifier: GPL-2.0-or-later

   advice_unreplayed: a loop fix without a replay ranks after one with
   a replay, and says so.

   Two column walks, each of the 2 passes over the arrays (line 31):
     a[perm[i]][j], line 34: rows in a permuted order (perm[i] = 167*i
       mod 512, line 30), each row 4096 bytes: 2 x 512 x 512 = 524,288
       loads, every one an L1 miss (a row is 64 lines apart, and 512
       rows of one column are 512 lines, more than L1's); its address
       is no affine function of i (the permutation), so the interchange
       it gets has no replay: "no affine formula in its loop";
     b[i][j], line 37: double b[512][256], rows of 2048 bytes, the
       column walk of a plain interchange: 2 x 256 x 512 = 262,144
       loads, all L1 misses, whose formula (8*i2 + 2048*i1) lets the
       interchange be replayed.
   a costs twice b's cycles and would rank first; unreplayed, it ranks
   after b and the summary marks it "(not replayed)".
*/
#include <stdio.h>

#define N 512
static double a[N][N], b[N][N / 2];
static int perm[N];

int main(void)
{
   double s = 0;
   for (int i = 0; i < N; i++)
      perm[i] = (i * 167) % N;
   for (int r = 0; r < 2; r++) {
      for (int j = 0; j < N; j++)
         for (int i = 0; i < N; i++)
            s += a[perm[i]][j];
      for (int j = 0; j < N / 2; j++)
         for (int i = 0; i < N; i++)
            s += b[i][j];
   }
   printf("%f\n", s);
   return 0;
}
