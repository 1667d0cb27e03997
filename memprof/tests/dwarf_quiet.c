/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf_quiet: a small program built with gcc -O2 -g, whose parameters
   gcc describes after a call with DW_OP_entry_value (their value on
   entry, in registers: no stack block).  Run with --read-var-info=yes,
   Valgrind's evaluator of location expressions, which does not
   implement that operation, would warn ("evaluate_Dwarf3_Expr:
   unhandled DW_OP_ 0xa3") at each question memprof asks about an
   instruction of these functions; memprof prints at most one such
   line.  Prints 6240 (sum of i * 3 for i < 64, plus 3 * 64). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long sum(const long *a, long n)
{
   long s = 0, i;
   for (i = 0; i < n; i++)
      s += a[i];
   return s;
}

__attribute__((noinline)) static long work(long k, long n)
{
   long buf[64], i, s;
   for (i = 0; i < 64; i++)
      buf[i] = i * k;
   s = sum(buf, 64);
   return s + k * n;
}

int main(int argc, char **argv)
{
   long k = argc > 1 ? atol(argv[1]) : 3;
   printf("%ld\n", work(k, 64));
   return 0;
}
