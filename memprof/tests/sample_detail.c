/* SPDX-License-Identifier: GPL-2.0-or-later

   sample_detail: the default --sample=detail:100k,1m,10m analyses the
   strides and loops in the first 10,000,000 instructions, then in
   windows of 100,000 instructions, one every 1,000,000; every other
   count is of every access.

   The program: the C library's start-up, the initialisation of a[]
   (262,144 doubles, 2 MiB, one write each: inside the first window),
   a spin of 6,000,000 iterations of 'dec; jnz' (12 million
   instructions, no memory access), so that the first window ends
   before the reads start, then 8 passes reading a[] in order.  At -O0
   a pass is about 3 million instructions: the run is about 40 million,
   and the passes run through some 25 windows.

   With --L1=32768,8,64 --L2=none --L3=none:
     a: exactly 262,144 writes and 8 * 262,144 = 2,097,152 reads, in
       every mode (attribution is of every access);
     L1 misses of a: one per line per sweep, 9 * 32,768 = 294,912 (a
       sweep streams 2 MiB through 32 KiB: a line leaves the cache long
       before the next sweep comes back to it, and its other 7 accesses
       hit);
     reuse: 32,768 cold (the initialisation), every read private;
     strides of the writes: all in the first window, so every write
       but the first has one, 262,143, 8 bytes each, in every mode;
     strides of the reads: with the default, only the reads inside the
       later windows, about a tenth, enter a's histograms, each counting
       10 (P/W, the weight): the total is about the 2,097,152 reads.
       They are 8 bytes but where a window holds the jump back to a[0]
       between two passes (no stride spans a gap: the first read of
       each window has none); with --exact=yes (sample_exact), every
       read but the first, 2,097,151, all 8 bytes but the 7 jumps
       back.
   stdout: the sum of a[i] = i % 8 over the passes, 8 * 262,144 * 3.5 =
   7340032.
*/
#include <stdio.h>

#define N (1 << 18)

double a[N];

static void spin(long n)
{
#if defined(__aarch64__)
   __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#else
   __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
#endif
}

int main(void)
{
   double sum = 0;
   int i, pass;
   for (i = 0; i < N; i++)
      a[i] = i % 8;
   spin(6000000);
   for (pass = 0; pass < 8; pass++)
      for (i = 0; i < N; i++)
         sum += a[i];
   printf("%.0f\n", sum);
   return 0;
}
