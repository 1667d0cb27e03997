/* SPDX-License-Identifier: GPL-2.0-or-later

   runtime_first: the exit summary ranks the program's data first,
   though the C library's and the dynamic linker's data cost more.  The
   .vgtest fixes the geometry: L1 32 KiB 8-way, L2 1 MiB 16-way, no L3,
   one core; default latencies L1 4, L2 12, memory 200.  The loop
   counters are `register` variables, which gcc keeps in registers even
   at -O0, so the loops touch no stack.

   a (double[512]): line 50 writes a[i], 8 x 512 = 4,096 writes; line 53
                    reads a[i], 4 x 512 = 2,048 reads: 6,144 accesses.
   b (double[512]): line 53 writes b[i], 4 x 512 = 2,048 writes; line 54
                    reads b[511] once: 2,049 accesses.
   Both are 64-byte aligned: 4,096 / 64 = 64 lines each; together
   (8 KiB) they fit in the L1, so each line misses once, cold, in L1
   and L2 (served by memory, 200 cycles); every other access hits the
   L1 (4 cycles):
     a: 64 x 200 + 6,080 x 4 = 37,120 cycles, 64 x 196 = 12,544 stall
     b: 64 x 200 + 1,985 x 4 = 20,740 cycles, 12,544 stall (a first)
   The dynamic linker reads the C library's symbol tables
   (libc.so.6:mapped, about 160,000 cycles here) and its own
   (ld-linux-x86-64.so.2:mapped, about 65,000): with every variable
   ranked they come before a; ranked among the program's, a and b lead,
   above this program's own file (runtime_first:mapped, the dynamic
   symbols the linker reads, about 11,000).

   copy: strdup's block, returned to main: the program's (class
   program, object runtime_first).  printf's buffer for stdout, which
   the C library allocates and keeps (_IO_file_doallocate): the C
   library's (class runtime, object libc.so.6).

   stdout: "runtime_first 7.0" (b[511] = a[511], the first loop's last
   rep, 7).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double a[512] __attribute__((aligned(64)));
double b[512] __attribute__((aligned(64)));

int main(void)
{
   register int rep;
   register long i;
   char *copy = strdup("runtime_first");

   for (rep = 0; rep < 8; rep++)
      for (i = 0; i < 512; i++)
         a[i] = rep;
   for (rep = 0; rep < 4; rep++)
      for (i = 0; i < 512; i++)
         b[i] = a[i];
   printf("%s %.1f\n", copy, b[511]);
   free(copy);
   return 0;
}
