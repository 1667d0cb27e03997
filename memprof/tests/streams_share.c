/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A loop over 20 arrays (20 streams, flagged above 16) that makes 2.5%
   of the run's accesses, beside a sweep that makes nearly all the rest,
   repeated: the too-many-streams advice needs the loop's share of the
   run (1% at least), which sparse detail windows see only a little of.
   At -O0 (gcc 12, from objdump -d; Cachegrind's counts per line agree)
   an iteration of the streams loop loads v 20 times and i 20 times,
   loads and stores s, loads and stores i (i++) and loads i for the
   test: 45 accesses, 16 x 512 iterations and 16 last tests, 368,656;
   an iteration of the sweep loads i twice, sweep[i] and the two
   constants, stores sweep[i], loads and stores i and loads it for the
   test: 9, 16 x 98,304 and 16 last tests, 14,155,792.  The outer
   loop's own: per repetition two i = 0, r++ (a load and a store) and
   the test, and the last test: 81. */
#include <stdio.h>

#define N 512
#define A 20
#define BIG 98304
#define REPS 16

double v[A][N];
static double sweep[BIG];

int main(void)
{
   double s = 0;
   int i, r;
   for (i = 0; i < A * N; i++)
      v[i / N][i % N] = i;
   for (r = 0; r < REPS; r++) {
      for (i = 0; i < N; i++)
         s += v[0][i] + v[1][i] + v[2][i] + v[3][i] + v[4][i] + v[5][i] + v[6][i]
            + v[7][i] + v[8][i] + v[9][i] + v[10][i] + v[11][i] + v[12][i]
            + v[13][i] + v[14][i] + v[15][i] + v[16][i] + v[17][i] + v[18][i]
            + v[19][i];
      for (i = 0; i < BIG; i++)
         sweep[i] = sweep[i] * 0.5 + 1.0;
   }
   printf("%g %g\n", s, sweep[BIG - 1]);
   return 0;
}
