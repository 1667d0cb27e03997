/* SPDX-License-Identifier: GPL-2.0-or-later

   stack_array: accesses to a function's frame.

   Model (memprof's mp_reg_stack.c): an access to the stack goes to the
   frame that holds the address when the access happens.  The innermost
   frame (the function executing) owns [SP - 128 (red zone), its CFA),
   each caller [its callee's CFA, its own CFA); the CFA is the SP before
   the call, so a function's return-address slot (CFA-8) and saved-%rbp
   slot (CFA-16) are in its own frame, except at the moment `call`
   pushes the return address: then the callee does not run yet, and the
   push is a write to the caller's red zone (stack:main here).

   --read-var-info=no: one variable per function frame, stack:<fn>.
   From objdump -d -l at -O0 (gcc 12, -fno-omit-frame-pointer default):

   fill (called once), arr at -0x110(%rbp), i at -0x4(%rbp):
     line 59  push %rbp                         W 1 (8 bytes)
     line 63  movl $0,i                         W 1 (4)
              addl $1,i   (x64)                 R 64, W 64 (4 each)
              cmpl $63,i  (x65)                 R 65 (4)
              -> R 129 (516 bytes), W 65 (260 bytes)
     line 64  2 loads of i and 1 store to arr[i], x64
              -> R 128 (512 bytes), W 64 (256 bytes)
     line 65  load of arr[10] (the store is to the global sink)
              -> R 1 (4)
     line 66  leave (pops %rbp), ret            R 2 (16 bytes)
     stack:fill: reads 129+128+1+2 = 260, writes 1+65+64 = 130,
       read_bytes 516+512+4+16 = 1048, write_bytes 8+260+256 = 524,
       size (the largest frame, red zone included) = from arr[0] at %rbp-0x110 to the
       end of the return address at %rbp+16: 0x120 = 288.
     In particular the 64 writes of arr (line 64) are in stack:fill.

   leaf (called 10 times), x at -0x14(%rbp), y at -0x4(%rbp), no
   `sub %rsp` (a leaf function uses the red zone); per call:
     line 69  push %rbp, store of x             W 2 (8 + 4 bytes)
     line 70  load x, store y                   R 1, W 1 (4, 4)
     line 71  load y                            R 1 (4)
     line 72  pop %rbp, ret                     R 2 (8 + 8)
     stack:leaf (x10): reads 40, writes 30, read_bytes 240,
       write_bytes 160, size from x (%rbp-0x14) to %rbp+16 = 36.

   lines is not asserted: it depends on the alignment of the stack
   pointer, which depends on the environment and auxv size.

   Every stack variable carries its function ("function": fill, leaf);
   its where is null.
   By default (stack_array_varinfo), arr becomes a variable
   of its own, named arr, function fill, size 64 * 4 = 256:
     line 64 writes 64 (256 bytes), line 65 reads 1 (4 bytes).

   stdout: sink = arr[10] = 10; total = sum(k + 1, k = 0..9) = 55.
*/
#include <stdio.h>

int sink;

static void fill(void)
{
   int arr[64];
   int i;

   for (i = 0; i < 64; i++)
      arr[i] = i;
   sink = arr[10];
}

static int leaf(int x)
{
   int y = x + 1;
   return y;
}

int main(void)
{
   int k, total = 0;

   fill();
   for (k = 0; k < 10; k++)
      total += leaf(k);
   printf("%d %d\n", sink, total);
   return 0;
}
