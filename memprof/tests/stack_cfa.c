/* SPDX-License-Identifier: GPL-2.0-or-later

   stack_cfa: a frame whose locals Valgrind's core cannot analyse does
   not end the run (built at -O2 -g: Makefile.am).

   To find out whether a local lies at an offset from the SP or from the
   FP, the core evaluates its location with made-up register values
   (SP or FP at 6 KiB or 7 KiB, the other zero) and asserts that every
   evaluation gives the same kind of answer.  gcc places the array a at
   DW_OP_fbreg -N, the frame base being DW_OP_call_frame_cfa; inside
   the asm statement of work the CFA is %rbp + 0 (the .cfi directive),
   which is 0, and so no address, where the made-up FP is zero, and an
   address where it is not: the core's assertion fails for any question
   about the locals at the asm's store (debuginfo.c, analyse_deps), as
   it did for an FFT benchmark's -O2 frames.  The store is the first
   access to the stack at work's SP, so the registry asks about its
   address first.

   memprof asks in a process apart, which dies there; the run goes on:
     the program prints 2023 (sum of 7 + 1*1 + ... + 63*1 = 7 + 2016)
     and exits 0;
     the store of the asm (line 35, 8 bytes) is in the frame as a whole,
       stack:work: write_bytes 8 there;
     a is named from every other address of work's code: written at
       line 39 (a[1..63]: 63 * 8 = 504 bytes), read at line 41 (a[0..63]:
       64 * 8 = 512 bytes), whatever the width of gcc's accesses;
     -v says once which frame was named as a whole.
*/
#include <stdio.h>

__attribute__((noinline)) long work(int n)
{
   long a[64];
   long s = 0;
   __asm__ volatile(".cfi_remember_state\n\t.cfi_def_cfa %%rbp, 0\n\t"
                    "movq $7, (%0)\n\t"
                    ".cfi_restore_state" : : "r"(a) : "memory");
   for (int i = 1; i < 64; i++)
      a[i] = i * n;
   for (int i = 0; i < 64; i++)
      s += a[i];
   return s;
}

int main(int argc, char **argv)
{
   (void)argv;
   printf("%ld\n", work(argc));
   return 0;
}
