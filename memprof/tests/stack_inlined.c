/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Locals of functions inlined into main at -O2 (-fno-tree-vectorize,
   so that each element is one 8-byte access).  Valgrind's core gives
   no such local; memprof reads them from the DWARF itself.

   smooth and sharpen each keep a 64-double array tmp on main's frame
   and are inlined into main, called ROUNDS = 10 times each: per call,
   64 stores of tmp[i] and 64 loads of tmp[(7 * i) & 63] (a permutation,
   which keeps the array in memory).  Each tmp: 640 writes and 640
   reads of 8 bytes, 5,120 bytes each way, 512 bytes big; the two share
   a name, so each is named after its function: smooth::tmp and
   sharpen::tmp, with function smooth and sharpen.  Neither is
   stack:main. */
#include <stdio.h>

#define N 64
#define ROUNDS 10

static double in[N];

static inline __attribute__((always_inline)) double smooth(int r)
{
   double tmp[N], s = 0.0;
   int i;
   for (i = 0; i < N; i++)
      tmp[i] = in[i] * 0.5 + r;
   for (i = 0; i < N; i++)
      s += tmp[(7 * i) & (N - 1)] * i;
   return s;
}

static inline __attribute__((always_inline)) double sharpen(int r)
{
   double tmp[N], s = 0.0;
   int i;
   for (i = 0; i < N; i++)
      tmp[i] = in[i] * 2.0 - r;
   for (i = 0; i < N; i++)
      s += tmp[(5 * i) & (N - 1)] - i;
   return s;
}

int main(void)
{
   double total = 0.0;
   int r, i;
   for (i = 0; i < N; i++)
      in[i] = i;
   for (r = 0; r < ROUNDS; r++) {
      __asm__ volatile("" ::: "memory");
      total += smooth(r);
      __asm__ volatile("" ::: "memory");
      total += sharpen(r);
   }
   printf("%g\n", total);
   return 0;
}
