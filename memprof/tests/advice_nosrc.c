/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A block that only code without line information touches, as a
   distribution library built without debug information would: main
   (built with -g) allocates 256 KiB of ints at line 22 and hands it
   to sweep_nodebug (advice_nosrc_lib.c, built with -g0), which writes
   it once and sweeps it ten times, as advice_sweep.c does: every L1
   miss after the first sweep is a capacity miss (a reuse distance of
   4,096 lines, the L1 holding 512), so blocking fires on the block.
   But there is no line to tile: the item goes into one no-source item
   for the object advice_nosrc, naming the blocking of a, its share of
   the cycles and sweep_nodebug, where they are spent, and saying to
   build it with -g; no line, and never a loop nest to tile. */
#include <stdio.h>
#include <stdlib.h>

#define N (64 * 1024)

long sweep_nodebug(int *a, int n, int times);

int main(void)
{
   int *a = malloc(N * sizeof *a);
   if (a == NULL)
      return 1;
   printf("%ld\n", sweep_nodebug(a, N, 10));
   return 0;
}
