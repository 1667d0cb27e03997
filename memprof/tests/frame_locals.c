/* SPDX-License-Identifier: GPL-2.0-or-later

   frame_locals: one instruction writing two local arrays of its own
   frame, at two stack depths.

   memprof remembers, per instruction, the local (or the rest of the
   frame) its last stack access resolved to, with the addresses that
   answer holds for and the stack pointer it holds at.  Here the store
   in fill's loop writes a (which 0) or b (which 1), 256 ints each from
   the top down, through one pointer: a remembered answer must be
   narrowed to the array written, or b's writes would go to a.  fill
   runs from main and, through deeper(), 0x510 bytes lower (deeper's
   0x500 of locals, its saved %rbp and return address; gcc 12 -O0, from
   objdump -d): the arrays are 0x400 bytes each, b right under a, so
   the deeper call's first write to a lands in the addresses of the
   main call's b, just remembered; an answer that held at any stack
   pointer would count it, and the next 191, in b.

   Calls: main fill(0), main fill(1), deeper fill(0), deeper fill(1),
   main fill(0): a is written 3 x 256 = 768 times and read 3 times
   (a[7]), b 2 x 256 = 512 and 2.  The counts hold for any frame layout
   the compiler picks. */
#include <stdio.h>

static volatile long sink;

static __attribute__((noinline)) void fill(int which)
{
   volatile int a[256], b[256];
   volatile int *p = which ? b : a;
   int i;
   for (i = 255; i >= 0; i--)
      p[i] = i;
   sink += p[7];
}

static __attribute__((noinline)) void deeper(void)
{
   volatile char pad[1280];
   pad[0] = 1;
   fill(0);
   fill(1);
   sink += pad[0];
}

int main(void)
{
   fill(0);
   fill(1);
   deeper();
   fill(0);
   printf("%ld\n", sink);
   return 0;
}
