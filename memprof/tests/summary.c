/* SPDX-License-Identifier: GPL-2.0-or-later

   summary: the exit summary on stderr.  --summary=2 shows the two
   variables with the most memory stall cycles (the .vgtest fixes the
   geometry: L1 32 KiB 8-way, L2 1 MiB 16-way, no L3, one core; default
   latencies L1 4, L2 12, memory 200); this program makes them hot and
   warm, far above anything of the C library's start-up (a few thousand
   accesses each).  The loop counters are `register` variables, which
   gcc keeps in registers even at -O0 (objdump -d: %r12d and %rbx), so
   the loops touch no stack.

   hot (double[1000]):  line 39 writes hot[i], 100 x 1000 = 100,000
                        writes; line 42 reads hot[i], 50 x 1000 =
                        50,000 reads: 150,000 accesses.
   warm (double[1000]): line 42 writes warm[i], 50 x 1000 = 50,000
                        writes; line 43 reads warm[999] once:
                        50,001 accesses (1 read).
   Both arrays are 64-byte aligned: 8000 / 64 = 125 lines each, and
   together (16,000 B) they fit in the L1, so each line misses once, cold,
   in L1 and L2 (served by memory, 200 cycles); every other access hits
   the L1 (4 cycles).
   Summary lines, by stall (cycles beyond an L1 hit: 125 x 196 each):
     Top 2 variables by memory stall cycles (beyond an L1 hit):
       stall  cycles  accesses  cpa  L1 misses  kind  variable   (the header)
       hot:  125 x 200 + 149,875 x 4 = 624,500 cycles, cpa 4.16 -> 4.2
       warm: 125 x 200 +  49,876 x 4 = 224,504 cycles, cpa 4.49 -> 4.5
   The "Accesses:" line's numbers include the C library's start-up and
   are masked by the filter; the "Output:" line names the file.
   summary_zero runs the same program with --summary=0: no "Top" lines.

   stdout: warm[999] = hot[999] = 99 (the last rep) = 99.0.
*/
#include <stdio.h>

double hot[1000] __attribute__((aligned(64)));
double warm[1000] __attribute__((aligned(64)));

int main(void)
{
   register int rep;
   register long i;

   for (rep = 0; rep < 100; rep++)
      for (i = 0; i < 1000; i++)
         hot[i] = rep;
   for (rep = 0; rep < 50; rep++)
      for (i = 0; i < 1000; i++)
         warm[i] = hot[i];
   printf("%.1f\n", warm[999]);
   return 0;
}
