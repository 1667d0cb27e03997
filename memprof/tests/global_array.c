/* SPDX-License-Identifier: GPL-2.0-or-later

   global_array: accesses to global arrays, counted exactly.

   Expected (global_array.post.exp), at -O0 (objdump -d: every g[i] in
   the loops below is one movsd from or to g, the loop counter i lives in
   main's frame; `g[i] += 1.0` is one load then one store of g):

   g: double[1024], 64-byte aligned (attribute below).
     size   = 1024 * 8                                   = 8192
     writes = 1024 (first loop) + 512 (third loop)       = 1536
     reads  = 1024 (second loop) + 512 (third loop)      = 1536
     read_bytes = write_bytes = 1536 * 8                 = 12288
     lines  = 8192 / 64 (aligned, every element touched) = 128
     threads = 1; per line:
       line 41 (g[i] = i * 0.5)  writes 1024
       line 43 (s += g[i])       reads 1024
       line 45 (g[i] += 1.0)     reads 512, writes 512 (i = 0, 2, ...)
   sparse: unsigned char[4096], 64-byte aligned; written at index 100*k
     for k = 0..40 (4000 < 4096): writes 41, write_bytes 41, reads 0.
     Consecutive indices are 100 > 64 bytes apart, so each write is in a
     line of its own: lines = 41.  size 4096.  Per line: line 47.
   where is "-" (null): with --read-var-info=no a global has no
   declaration line (global_array_varinfo checks the default).

   stdout: s = sum(i * 0.5, i = 0..1023) = 0.5 * 1023 * 1024 / 2
             = 261888.0 (exact in double).
*/
#include <stdio.h>

#define N 1024
double g[N] __attribute__((aligned(64)));
unsigned char sparse[4096] __attribute__((aligned(64)));

int main(void)
{
   int i;
   double s = 0;

   for (i = 0; i < N; i++)
      g[i] = i * 0.5;
   for (i = 0; i < N; i++)
      s += g[i];
   for (i = 0; i < N; i += 2)
      g[i] += 1.0;
   for (i = 0; i <= 40; i++)
      sparse[i * 100] = (unsigned char)i;
   printf("sum %.1f\n", s);
   return 0;
}
