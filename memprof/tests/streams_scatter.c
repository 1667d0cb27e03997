/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two loops of 20 streams (rows padded by a line, 640 KiB in all) that
   also store through an index, as a histogram or an assembly loop's
   scatter does.  The first scatters into count[], which it walks
   nowhere else: the split is replayed without that store (it walks no
   stream, and each part may keep it).  The second scatters into row 0,
   which it also walks: the order of those stores against the other
   part's loads is unknown, and no replay is made. */
#include <stdio.h>

#define N 4096
#define A 20

static double v[A][N + 8];
static int key[N];
static double count[64];

int main(void)
{
   double s = 0;
   int i, r;
   for (i = 0; i < N; i++)
      key[i] = (i * 37) % N;
   for (r = 0; r < 4; r++) {
      for (i = 0; i < N; i++) {
         s += v[0][i] + v[1][i] + v[2][i] + v[3][i] + v[4][i] + v[5][i] + v[6][i]
            + v[7][i] + v[8][i] + v[9][i] + v[10][i] + v[11][i] + v[12][i]
            + v[13][i] + v[14][i] + v[15][i] + v[16][i] + v[17][i] + v[18][i]
            + v[19][i];
         count[key[i] % 64] += 1;
      }
      for (i = 0; i < N; i++) {
         s += v[0][i] + v[1][i] + v[2][i] + v[3][i] + v[4][i] + v[5][i] + v[6][i]
            + v[7][i] + v[8][i] + v[9][i] + v[10][i] + v[11][i] + v[12][i]
            + v[13][i] + v[14][i] + v[15][i] + v[16][i] + v[17][i] + v[18][i]
            + v[19][i];
         v[0][key[i]] = s;
      }
   }
   printf("%g %g\n", s, count[0]);
   return 0;
}
