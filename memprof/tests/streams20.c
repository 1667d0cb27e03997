/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MACPO's Lattice-Boltzmann case in small: one loop reading 20 arrays,
   each at a stride of 8 bytes: 20 concurrent strided streams in every
   execution of the loop, above --prefetch-streams' 16: flagged, with the
   too-many-streams advice.  With -DFISSION the loop is split in two
   loops of 10 arrays each: 10 streams each, neither flagged. */
#include <stdio.h>

#define N 2048
#define A 20

static double v[A][N];

int main(void)
{
   double s = 0;
   int i, r;
   for (r = 0; r < 4; r++) {
#ifndef FISSION
      for (i = 0; i < N; i++)
         s += v[0][i] + v[1][i] + v[2][i] + v[3][i] + v[4][i] + v[5][i] + v[6][i]
            + v[7][i] + v[8][i] + v[9][i] + v[10][i] + v[11][i] + v[12][i]
            + v[13][i] + v[14][i] + v[15][i] + v[16][i] + v[17][i] + v[18][i]
            + v[19][i];
#else
      for (i = 0; i < N; i++)
         s += v[0][i] + v[1][i] + v[2][i] + v[3][i] + v[4][i] + v[5][i] + v[6][i]
            + v[7][i] + v[8][i] + v[9][i];
      for (i = 0; i < N; i++)
         s += v[10][i] + v[11][i] + v[12][i] + v[13][i] + v[14][i] + v[15][i]
            + v[16][i] + v[17][i] + v[18][i] + v[19][i];
#endif
   }
   printf("%g\n", s);
   return 0;
}
