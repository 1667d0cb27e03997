/* SPDX-License-Identifier: GPL-2.0-or-later

   red_zone: a leaf function's array in the red zone, written from the
   top down by one store.

   memprof remembers, per instruction, the frame an access fell in and
   the addresses the answer holds for, red zone included.  The size of
   stack:<function> counts the lowest byte touched below the stack
   pointer, so a remembered red-zone answer may only hold above the
   address it was made at: the store below, walking down, must reach
   the registry at each new low.

   walk_down at -O0 (gcc 12), from objdump -d: a leaf, no `sub %rsp`;
   after `push %rbp; mov %rsp,%rbp`, buf is at %rbp-0x70 (the stack
   pointer is %rbp) and i at %rbp-0x4.  Called 3 times; per call:
     line 35  push %rbp                         W 1 (8)
     line 38  i = 99                            W 1 (4)
              cmpl $0,i  (x101)                 R 101 (4)
              subl $1,i  (x100)                 R 100, W 100 (4)
     line 39  2 loads of i, 1 store to buf[i], x100
              -> R 200 (4 each), W 100 (1 each)
     line 40  load of buf[50]                   R 1 (1)
     line 41  pop %rbp, ret                     R 2 (8 + 8)
   stack:walk_down: reads 3 x (101 + 100 + 200 + 1 + 2) = 1212, writes
   3 x (1 + 1 + 100 + 100) = 606; size from buf[0] at %rbp-0x70 to the
   end of the return address at %rbp+16: 0x80 = 128.  An answer held
   for the whole red zone from the first store (buf[99]) would leave
   the size at the lowest address first seen by another instruction:
   buf[50]'s, 0x3e + 16 = 78. */
#include <stdio.h>

static volatile long sink;

static __attribute__((noinline)) void walk_down(void)
{
   volatile char buf[100];
   int i;
   for (i = 99; i >= 0; i--)
      buf[i] = (char)i;
   sink += buf[50];
}

int main(void)
{
   int k;
   for (k = 0; k < 3; k++)
      walk_down();
   printf("%ld\n", sink);
   return 0;
}
