/* SPDX-License-Identifier: GPL-2.0-or-later

   sample_lines: --sample=lines follows a sample of whole L1 sets from
   start to exit, and its estimates of a variable spread over every set
   are the full run's (derivation below, for the geometry of the
   .vgtest files: L1 32 KiB 8-way of 64-byte lines, 64 sets; L2 256 KiB
   8-way, 512 sets; no L3).

   big: 65,536 doubles (512 KiB, 8,192 lines), aligned to 4 KiB,
   written in order once, then read in order 4 times.  Each L1 set
   holds 128 of its lines and each L2 set 16, cycled through in order:
   more than the 8 ways, so every access to a new line misses both
   levels (LRU), cold or not.
     full run: 65,536 writes and 262,144 reads; L1 and L2 misses
       5 * 8,192 = 40,960.
     1/4 of the sets (16 of 64): 16 * 128 = 2,048 of its lines in the
       sample, each missed 5 times: 10,240 misses counted, times 4 =
       40,960, the full run's; the accesses are counted exactly inline.
       The 95% interval of the misses: each sampled line has y = 5,
       the sum of the squares 2,048 * 25 = 51,200, the variance
       (1 - 1/4) * 4^2 * 51,200 = 614,400, the standard deviation
       783.84, times Student's t for 2,047 degrees of freedom
       (1.96117) 1,537.2: [39,423, 42,497].  Of the accesses (8 writes
       and 32 reads per line): squares 2,048 * 1,600 = 3,276,800,
       variance 0.75 * 16 * 3,276,800 = 39,321,600, sd 6,270.7, times
       t 12,297.9: [315,382, 339,978] around 327,680.
     all the sets (lines:1): the counts of the full run, and intervals
       of zero width.
   tiny: one int, 1,001 reads and 1,000 writes (tiny++ at -O0, then
     the printf's read): one line, in the sample or not; either way
     fewer than the 2 lines an estimate needs, so it is said to be too
     few to estimate; its accesses are still exact.  With every line
     followed, its one line is enough: 1 miss at each level, cold.
   stdout: 4 * (0 + 1 + ... + 65,535) = 8,589,803,520; tiny = 1,000.
*/
#include <stdio.h>

double big[1 << 16] __attribute__((aligned(4096)));
int tiny __attribute__((aligned(64)));

int main(void)
{
   double sum = 0;
   int i, p;
   for (i = 0; i < (1 << 16); i++)
      big[i] = i;
   sum = 0;
   for (p = 0; p < 4; p++)
      for (i = 0; i < (1 << 16); i++)
         sum += big[i];
   for (i = 0; i < 1000; i++)
      tiny++;
   printf("%.0f %d\n", sum, tiny);
   return 0;
}
