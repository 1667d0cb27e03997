/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two blocks of one function whose arrays share a stack slot, as -O2
   lays out the locals of blocks that never live at once.  work's frame
   is unwound once, at the first access to `first`; the function's SP
   does not move after its prologue, so the same unwind serves the
   second block.  Each block writes its 64 doubles and reads them back
   (-fno-tree-vectorize: one access per element): `first` 64 reads and
   64 writes, `second` the same, none counted against the other, whose
   bytes they are too.  The asm makes each array's address escape, so
   that it lives in memory. */
#include <stdio.h>

#define N 64

static double sink;

static void __attribute__((noinline, noclone)) work(int n)
{
   {
      double first[N];
      int i;
      for (i = 0; i < N; i++)
         first[i] = i;
      __asm__ volatile("" : : "r"(first) : "memory");
      for (i = 0; i < N; i++)
         sink += first[i];
   }
   if (n > 0) {
      double second[N];
      int i;
      for (i = 0; i < N; i++)
         second[i] = 2 * i;
      __asm__ volatile("" : : "r"(second) : "memory");
      for (i = 0; i < N; i++)
         sink += second[i];
   }
}

int main(int argc, char **argv)
{
   (void)argv;
   work(argc);
   printf("%g\n", sink);
   return 0;
}
