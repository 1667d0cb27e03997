/* SPDX-License-Identifier: GPL-2.0-or-later

   toggle_collect: --toggle-collect=work counts only what runs inside
   work() and the functions it calls (helper), from work's first
   instruction to its return.  helper called from main (twice) and the
   loops of main are not counted.

   Globals (int[100] each, 64-byte aligned so lines = ceil(400 / 64)
   = 7 when all touched; -O0: one store per element):
     W: written once per iteration of work's loop (line 52): writes 100,
        write_bytes 400.
     Z: written by helper (line 45), counted only for the 100 calls from
        work: writes 100, write_bytes 400 (the calls helper(1) and
        helper(2) from main are not counted).
     Q: touched by main only: absent.
   All counted accesses (objdump -d at -O0; 4-byte int accesses, 8-byte
   pushes / pops / return addresses):
     work, once:   push %rbp W 8; movl $0,i W 4; leave R 8; ret R 8;
                   cmpl $99,i x101 R 4 each.
     work, x100:   loads of i (index, W[i] value, argument) R 3 x 4;
                   store W[i] W 4; call helper (return address) W 8;
                   addl $1,i R 4 + W 4.
     helper, x100: push %rbp W 8; store of the argument W 4; two loads of
                   it R 2 x 4; store Z[i] W 4; pop %rbp R 8; ret R 8.
     reads  = 2 + 101 + 100 * 4 + 100 * 4               = 903
     writes = 2 + 100 * 3 + 100 * 3                     = 602
     read_bytes  = 16 + 404 + 100 * 16 + 100 * 24       = 4420
     write_bytes = 12 + 100 * 16 + 100 * 16             = 3212
     accesses = 903 + 602 = 1505
   These totals are asserted; how the stack accesses are split between
   stack:work and stack:helper is stack_array's business, not this test's.
   config: collect_atstart=true (the default; --toggle-collect restricts it),
   toggle_collect=[work].

   stdout: Q[99] = 99 + W[99] + Z[99] = 99 + 99 + 99 = 297.
*/
#include <stdio.h>

int W[100] __attribute__((aligned(64)));
int Z[100] __attribute__((aligned(64)));
int Q[100] __attribute__((aligned(64)));

static void helper(int i)
{
   Z[i] = i;
}

static void work(void)
{
   int i;
   for (i = 0; i < 100; i++) {
      W[i] = i;
      helper(i);
   }
}

int main(void)
{
   int i;

   for (i = 0; i < 100; i++)
      Q[i] = i;
   helper(1);
   work();
   for (i = 0; i < 100; i++)
      Q[i] += W[i] + Z[i];
   helper(2);
   printf("%d\n", Q[99]);
   return 0;
}
