/* SPDX-License-Identifier: GPL-2.0-or-later
   reuse_sweep: reuse distances in cache lines.  a is 8 KiB,
   64-byte aligned: 128 lines.  The loop reads a[0], a[8], ..., one
   double per line, 4 times over.

   Expected (64-byte lines, the default L1 line; single thread, so every
   reuse is private):
     first sweep: 128 first touches -> cold 128;
     sweeps 2-4: each line was last read 128 accesses ago, with the 127
     other lines in between -> distance 127, bin [64, 127], 3 x 128 = 384;
     mean_private 127, median in [64, 127].
   The loop variables are `register` variables, which gcc keeps in
   registers even at -O0 (objdump -d: no stack access in the loop): a
   stack line in the thread's stream would count as one more distinct
   line between two reads of a line (distance 128), and whether s, rep
   and i share one stack line depends on where the environment puts the
   stack.
   With --reuse=no the "reuse" key is absent (second test). */
#include <stdio.h>

#define N 1024

double a[N] __attribute__((aligned(64)));

int main(void)
{
   register double s = 0;
   register int rep, i;
   for (rep = 0; rep < 4; rep++)
      for (i = 0; i < N; i += 8)
         s += a[i];
   printf("%g\n", s);
   return 0;
}
