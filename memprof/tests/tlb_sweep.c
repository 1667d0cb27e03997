/* SPDX-License-Identifier: GPL-2.0-or-later
   tlb_sweep: the data TLB of --TLB=64,4,4096 (64 entries, 4-way: 16
   sets of 4 pages; page p goes to set p mod 16).

   small: 32 pages, page-aligned, one byte read per page, 10 sweeps.  Its
     32 pages take 2 ways of each of the 16 sets: they all stay; the
     first sweep misses 32 times (cold), the 9 others hit: misses 32,
     hits 288.
   big: 256 pages, page-aligned, one byte read per page, 10 sweeps, after
     small's.  A sweep puts 16 pages in each set of 4 ways: LRU evicts
     every page before its next use, so every access misses: misses
     2,560, hits 0.
   The loop variables are `register`: no stack access in the loops.
   stdout: 0 (all bytes are 0). */
#include <stdio.h>

#define PAGE 4096

char small[32 * PAGE] __attribute__((aligned(PAGE)));
char big[256 * PAGE] __attribute__((aligned(PAGE)));

int main(void)
{
   register long s = 0;
   register int rep, p;
   for (rep = 0; rep < 10; rep++)
      for (p = 0; p < 32; p++)
         s += small[p * PAGE];
   for (rep = 0; rep < 10; rep++)
      for (p = 0; p < 256; p++)
         s += big[p * PAGE];
   printf("%ld\n", s);
   return 0;
}
