/* SPDX-License-Identifier: GPL-2.0-or-later

   sample_lines_cycles: under --sample=lines a variable's cycles are its
   exact accesses at the L1's latency plus the sample's estimate of its
   stall, so a variable whose accesses crowd into one set is not
   estimated from that set's luck in the draw (derivation below, for the
   geometry of the .vgtest: L1 32 KiB 8-way of 64-byte lines, 64 sets,
   4 cycles; L2 256 KiB 8-way, 12 cycles; no L3; memory 200 cycles).

   hot: 2,048 doubles (16 KiB, 256 lines) aligned to 4 KiB, written in
   order once, then the first double of each of its 4 pages read 10,000
   times: 2,048 writes and 40,000 reads, 40,004 of the accesses in the
   L1's set 0.  It fits in the L1 (4 lines in each set): each line
   misses once, cold, at both levels, then always hits.
     full run: 42,048 accesses, 256 misses at L1 and at L2; stall
       256 * (200 - 4) = 50,176; cycles 42,048 * 4 + 50,176 = 218,368.
     1/4 of the sets (16 of 64), whichever the hash picks: 4 of hot's
       lines in each set, so 64 in the sample, each one cold miss: 256
       misses at each level and 50,176 stall, exactly; the accesses are
       exact (one instruction each; the first window, of 10m
       instructions, sees them all), and so are the cycles: 218,368.
       Scaling the sample's own cycles instead would count set 0's
       40,004 accesses 4 times or not at all: with the 512 sampled
       writes of the other sets, 4 * (40,512 * 4) + 50,176 = 698,368
       or 4 * (512 * 4) + 50,176 = 58,368, never 218,368.  The stall's
       interval: no spread between sets; by lines, 64 lines of 196
       each, squares 64 * 38,416 = 2,458,624, variance 0.75 * 16 *
       2,458,624 = 29,503,488, sd 5,431.71, t(63) 1.9981 (mp_set_sample.c's
       table, between 60 and 120 in 1/df): 10,853.0 either side,
       [39,323, 61,029]; the cycles' the same shifted by 168,192:
       [207,515, 229,221].
   stdout: 4 * 10,000 * 1.0 = 40000.
*/
#include <stdio.h>

double hot[2048] __attribute__((aligned(4096)));

int main(void)
{
   double sum = 0;
   int i, r, p;
   for (i = 0; i < 2048; i++)
      hot[i] = 1.0;
   for (r = 0; r < 10000; r++)
      for (p = 0; p < 4; p++)
         sum += hot[p * 512];
   printf("%.0f\n", sum);
   return 0;
}
