/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A loop that walks 20 arrays at once, run 4 times: 20 concurrent
   streams, above the 16 a stream prefetcher follows.  The rows are
   padded by a line so that no two share a set (the split, not a
   conflict, is what the replay measures).  20 rows of 32 KiB make
   640 KiB: with a 256 KiB L2 each pass comes from memory, and split
   into two loops of 10 streams the prefetcher follows every stream
   (the advice stands, replayed); with a 1 MiB L2 every pass after the
   first hits L2 and the split saves nothing (the advice is rejected). */
#include <stdio.h>

#define N 4096
#define A 20

static double v[A][N + 8];

int main(void)
{
   double s = 0;
   int i, r;
   for (r = 0; r < 4; r++)
      for (i = 0; i < N; i++)
         s += v[0][i] + v[1][i] + v[2][i] + v[3][i] + v[4][i] + v[5][i] + v[6][i]
            + v[7][i] + v[8][i] + v[9][i] + v[10][i] + v[11][i] + v[12][i]
            + v[13][i] + v[14][i] + v[15][i] + v[16][i] + v[17][i] + v[18][i]
            + v[19][i];
   printf("%g\n", s);
   return 0;
}
