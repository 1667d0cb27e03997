/* SPDX-License-Identifier: GPL-2.0-or-later

   heap_nodebug: built without debug information (-g0), as a stripped
   library is: sites are named after the function that receives the
   block, heap@FUNCTION, with #2, #3 ... where two sites would share a
   name.  lib_alloc returns its block (a wrapper), so both blocks are
   received by build_index, at two call sites:
     heap@build_index    the first (idx_a): 10 ints, 40 bytes, 10 writes
     heap@build_index#2  the second (idx_b): 20 ints, 80 bytes, 20 writes
   Both have one block and no where (no line information); each is read
   once by main (-O0: one access per element).

   stdout: 10 20.
*/
#include <stdio.h>
#include <stdlib.h>

int *idx_a, *idx_b;

__attribute__((noinline)) void *lib_alloc(size_t n)
{
   void *p = malloc(n);
   if (!p)
      abort();
   return p;
}

__attribute__((noinline)) void build_index(void)
{
   int i;
   idx_a = lib_alloc(10 * sizeof(int));
   idx_b = lib_alloc(20 * sizeof(int));
   for (i = 0; i < 10; i++)
      idx_a[i] = i + 1;
   for (i = 0; i < 20; i++)
      idx_b[i] = i + 1;
}

int main(void)
{
   build_index();
   printf("%d %d\n", idx_a[9], idx_b[19]);
   return 0;
}
