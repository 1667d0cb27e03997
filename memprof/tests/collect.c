/* SPDX-License-Identifier: GPL-2.0-or-later

   collect: --collect-atstart=no, then MEMPROF_START() / MEMPROF_STOP()
   around one loop: only what runs between the two requests is counted.

   Before START (nothing counted): the C library's start-up, the loop
   X[i] = i.  After STOP (nothing counted): the loop X[i] += Y[i], the
   printf, the exit.
   Counted (objdump -d at -O0; the client request macros store their six
   argument words in main's frame and then execute the magic sequence,
   which ends the superblock):
     line 44 (MEMPROF_START): after the request, the result word is
       stored to and loaded from main's frame:  W 1, R 1 (8 bytes each).
     line 45 (for): movl $0,i W 1; addl $1,i x100 R 100, W 100;
       cmpl $99,i x101 R 101 (4 bytes each): R 201, W 101.
     line 46 (Y[i] = X[i]), x100: loads of i twice (R 200, stack),
       one load of X[i] (X R 100), one store to Y[i] (Y W 100).
     line 47 (MEMPROF_STOP): its six argument words are stored to
       main's frame before the request: W 6 (8 bytes each).
   Hence exactly three variables:
     X: reads 100, read_bytes 400, writes 0; Y: writes 100,
       write_bytes 400, reads 0 (both int[100], size 400).
     stack:main: reads 1 + 201 + 200 = 402, writes 1 + 101 + 6 = 108,
       read_bytes 8 + 804 + 800 = 1612, write_bytes 8 + 404 + 48 = 460,
       size = main's frame: 'add $-0x80,%rsp' below the saved %rbp
       and the return address: 128 + 8 + 8 = 144.
   totals: variables 3, threads 1, reads 502, writes 208, accesses 710.
   config: collect_atstart=false.  lines not asserted for the frame (it
   depends on the stack's alignment); X and Y are not aligned: no lines.

   stdout: X[99] = 99 + Y[99] = 99 + 99 = 198.
*/
#include <stdio.h>
#include "memprof.h"

int X[100], Y[100];

int main(void)
{
   int i;

   for (i = 0; i < 100; i++)
      X[i] = i;
   MEMPROF_START();
   for (i = 0; i < 100; i++)
      Y[i] = X[i];
   MEMPROF_STOP();
   for (i = 0; i < 100; i++)
      X[i] += Y[i];
   printf("%d\n", X[99]);
   return 0;
}
