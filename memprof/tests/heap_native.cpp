/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_native: the program's own allocator stays in place; memprof
   wraps it and sees each block's life.  Each expected count below is
   the element accesses of the loop that follows the allocation (-O0:
   the indices live on the stack).

   first = malloc(48) (line 37): 6 stores of 8 bytes, then freed.
   second = malloc(48) (line 41): glibc's tcache gives first's chunk
     back ("same address: yes"); its 6 stores of 8 bytes are second's
     alone, because first's life ended at the free, before the
     allocator ran.  first: writes 6; second: writes 6, reads 0.
   keep = malloc(100) (line 46); realloc(keep, huge) fails (line 47):
     keep lives on, its 100 one-byte stores are keep's (blocks 1,
     alloc_bytes 100), and the failed call makes no variable.
   grown = malloc(16) (line 51), 2 stores, then realloc to 4000 (line
     53) moves it: the new block is the realloc line's, with 500
     stores; the copy of the 16 bytes is the allocator's.  Both sites
     are named grown: line 51 writes 2, line 53 writes 500.
   cells = new cell[4] (line 57), cell aligned to 64: operator new[]
     (size, align) calls aligned_alloc; each wrapper reports the block,
     which counts once: blocks 1, alloc_bytes 256, 4 stores.
   few = new (std::nothrow) int[10] (line 60): nothrow new[] calls new[]
     calls malloc, three reports: blocks 1, alloc_bytes 40, 10 stores.
   malloc_usable_size answers as natively: at least the size asked.
   The allocator's headers and free lists, and the copy realloc made,
   are "malloc (allocator internals)": read and written. */
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <new>

struct alignas(64) cell { double v[8]; };

int main()
{
   int i;
   long *first = (long *)malloc(48);
   for (i = 0; i < 6; i++)
      first[i] = i;
   free(first);
   long *second = (long *)malloc(48);
   for (i = 0; i < 6; i++)
      second[i] = 2 * i;
   printf("same address: %s\n", (void *)first == (void *)second ? "yes" : "no");

   char *keep = (char *)malloc(100);
   char *failed = (char *)realloc(keep, (size_t)-1 / 2);
   for (i = 0; i < 100; i++)
      keep[i] = 1;

   char *grown = (char *)malloc(16);
   grown[0] = 1; grown[15] = 1;
   grown = (char *)realloc(grown, 4000);
   for (i = 0; i < 500; i++)
      ((double *)grown)[i] = 0;

   cell *cells = new cell[4];
   for (i = 0; i < 4; i++)
      cells[i].v[0] = i;
   int *few = new (std::nothrow) int[10];
   for (i = 0; i < 10; i++)
      few[i] = i;

   printf("realloc failed: %s\n", failed == NULL ? "yes" : "no");
   printf("usable size >= 100: %s\n", malloc_usable_size(keep) >= 100 ? "yes" : "no");
   delete[] few;
   delete[] cells;
   free(grown);
   free(keep);
   free(second);
   return 0;
}
