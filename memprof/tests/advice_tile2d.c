/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Four sweeps over a 144 KiB matrix of 256 rows of 72 doubles (rows of
   576 B, 9 lines), by rows, in the test's 4 KiB L1 (64 lines, 16 sets
   of 4 ways): between two uses of a line a sweep touches all 2,304
   lines of the matrix, and every L1 miss after the first sweep is a
   capacity miss: the blocking advice on m, carried by r.  A tile of the
   inner loop alone cannot fit: two of its iterations, in one of r, run
   over all 256 rows (2 x 8 B x 256 = 4 KiB, more than half the L1). */
#include <stdio.h>

#define ROWS 256
#define COLS 72

static double m[ROWS][COLS] __attribute__((aligned(64)));

int main(void)
{
   register double s = 0;
   register int r, i, j;
   for (r = 0; r < 4; r++)
      for (i = 0; i < ROWS; i++)
         for (j = 0; j < COLS; j++)
            s += m[i][j];                  /* the sweep */
   printf("%g\n", s);
   return 0;
}

/* The blocking advice's replay tiled in two dimensions: the sweep's
   loop (j) is the inner loop, r the loop that carries the reuses, i
   between them.  The inner loop's one memory instruction (the counters
   and s are kept in registers) is m[i][j], 8 bytes an iteration: two
   iterations of j, in one of r, are 2 x 8 x 256 = 4,096 B of lines,
   more than half the L1 (2,048 B).  So i and j are cut both: a tile of
   t x t iterations is t rows (576 B apart) of 8t bytes, 8t x t bytes;
   t = 16 fills 2,048 B, t = 17 more.  The nest, 4 x 256 x 72
   iterations (73,728 accesses, all replayed):
   - as run, each sweep misses all 2,304 lines of m: 9,216 misses;
   - tiled (for each tile of i, for each tile of j, for r, for i in it,
     for j in it), a tile is 16 rows of 2 lines (1 for the last tile of
     j, j = 64..71), lines 9i + 2jt and 9i + 2jt + 1 of the aligned
     matrix: as 9 is prime to the 16 sets, the 16 rows' lines fall two
     to a set, within its 4 ways, and only the first sweep of a tile
     misses: each line of m once, 2,304.
   The cycles (L1 4, L2 12, memory 200 the cycles of an access): as
   run 2,304 lines from memory, 6,912 from L2 and 64,512 L1 hits:
   801,792; tiled 2,304 from memory and 71,424 hits: 746,496 (-7%, more
   than --what-if-min-gain's 5%: advised).  A simulator of a 16-set,
   4-way LRU cache fed the two orders' addresses gives the same
   misses. */
