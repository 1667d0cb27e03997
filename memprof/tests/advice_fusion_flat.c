/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A matrix of floats filled row by row in a function of its own, then
   read flat by the loop after the call (the shape of Rodinia's srad
   start: random_matrix, then J[k] = exp(I[k])), built at -O2 with lazy
   binding, in the test's 8 KiB L1 (128 lines, 8-way) and no L2 or L3.
   Three things stood between this and a replayed fusion:
   - the floats m[k] and m[k + 1], stored by the fill and loaded by the
     flat loop, share 8 bytes: met as 8-byte granules they looked like
     a dependence the fusion would break;
   - the loader's lazy binding of ldexpf(), run at its first call in
     the flat loop's first iteration (before that loop is known as
     one), touches the stack both loops touch: it looked like a loop
     between them that the fusion would cross;
   - the fill is a nest of 256 rows where the flat loop runs 32,768
     iterations: "their iterations do not pair up", though the nest's
     iterations, all its loops', are the flat loop's.
   Each line of m misses cold at the fill's store and by capacity at
   the flat loop's load: 2,048 capacity misses, exactly half of m's,
   the rule's threshold.  ldexpf() (no table, unlike exp()) and the
   eight ways keep the stack's lines from evicting m's current line
   wherever the environment's size puts them: no conflict miss.
   The replay, cold (no loop repeats the two): the loops as found run
   255 of the fill's rows (its outer loop's back edges) and 32,767 of
   the flat loop's iterations; m and e are 64-byte aligned.  One after
   the other: the fill stores 255 x 8 = 2,040 lines of m, the flat loop
   loads 2,048 lines of m (the fill's are long gone from L1) and stores
   2,048 of e; the constant RAND_MAX's line and the line of the two
   calls' return address slots miss once each (main's frame is aligned
   to a line: its calls' slot is a line's last 8 bytes, and the slot of
   fill's call to rand() 32 bytes below it, in the same line):
   2,040 + 2,048 + 2,048 + 2 = 6,138.  Fused, each row of m is loaded
   right after it is stored: only the last row's 8 lines, which the
   replayed fill does not store, miss on the load:
   2,040 + 8 + 2,048 + 2 = 4,098.  Cycles (4 a hit, 200 a miss,
   196,221 accesses: 3 per iteration of either loop):
   6,138 x 200 + 190,083 x 4 = 1,987,932 -> 4,098 x 200 + 192,123 x 4
   = 1,588,092. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 256
#define COLS 128

static float m[ROWS * COLS] __attribute__((aligned(64)));
static float e[ROWS * COLS] __attribute__((aligned(64)));

__attribute__((noinline)) static void fill(float *x, int rows, int cols)
{
   int i, j;
   srand(7);
   for (i = 0; i < rows; i++)
      for (j = 0; j < cols; j++)
         x[i * cols + j] = rand() / (float)RAND_MAX;
}

int main(void)
{
   /* Makes main align its frame to a line: the calls' return address
      slots then lie where no environment size moves them. */
   volatile char anchor[64] __attribute__((aligned(64)));
   int k;
   anchor[0] = 0;
   fill(m, ROWS, COLS);
   for (k = 0; k < ROWS * COLS; k++)
      e[k] = ldexpf(m[k], 1);
   printf("%.4f\n", e[ROWS * COLS - 1]);
   return 0;
}
