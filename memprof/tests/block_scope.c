/* SPDX-License-Identifier: GPL-2.0-or-later

   block_scope: at -O0, a scratch array declared in a loop's block,
   entered after its function touched its other locals: memprof's
   unwind of the running frame is kept while the function and the
   stack pointer stay, with the locals in scope where it was made (the
   block not among them); the array is named at the instructions in the
   block, not counted against stack:main.

   Counts: scratch is written 128 times and read 128 times per pass,
   4 passes: 512 writes, 512 reads.  total is written once at its
   declaration, then read and written once per read of scratch (512),
   and read once by the printf: 513 writes, 513 reads. */
#include <stdio.h>

int main(void)
{
   double total = 0;
   int r;
   for (r = 0; r < 4; r++) {
      double scratch[128];
      int k;
      for (k = 0; k < 128; k++)
         scratch[k] = k * r;
      for (k = 0; k < 128; k++)
         total += scratch[k];
   }
   printf("%g\n", total);
   return 0;
}
