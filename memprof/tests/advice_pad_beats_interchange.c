/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A column walk of a matrix whose rows are 4 KiB, a 32 KiB 8-way L1's
   span of sets: the 64 lines of a column all map to one set and miss at
   every access.  Two fixes cure it: interchanging the loops (the walk
   becomes contiguous, at any size) and padding the rows by a line (the
   column spreads over 64 sets and the next 7 columns hit, while its 64
   lines fit L1).  Both are replayed; at -O0 the padding saves more of
   the nest's cycles, so it is the item's fix and the interchange its
   alternative. */
#include <stdio.h>

#define ROWS 64
#define COLS 512

static double big[ROWS][COLS];
/* the counters at fixed addresses, so that the replays' counts do not
   move with the stack's */
static double s;
static int r, c, j;

int main(void)
{
   for (r = 0; r < 8; r++)
      for (c = 0; c < COLS; c++)
         for (j = 0; j < ROWS; j++)
            s += big[j][c];
   printf("%g\n", s);
   return 0;
}
