/* SPDX-License-Identifier: GPL-2.0-or-later

   heap_alloc: one block from each C allocation function that memprof
   wraps, each its own allocation site.

   A heap variable is named after the identifier assigned on the line of
   the allocating call and its where is that file:line.  posix_memalign
   stores the block through its first argument, so that site is named
   after it, pm (not after the status the call returns).  Each block is one site (one call stack: main
   only, frames below main are cut), blocks = 1, alloc_bytes = size = the
   bytes requested.

   Each array is touched in a loop of its own, one element access per
   iteration (-O0: one movsd per element, the counter in main's frame):
     var  function        line  elements  accesses          bytes
     m    malloc           47     10      10 writes (l. 57)   80
     c    calloc           48     20      20 reads  (l. 59)  160
     r    realloc(NULL)    49     30      30 writes (l. 61)  240
     ma   memalign(64)     50     40      40 writes (l. 63)  320
     pm   posix_memalign   52     50      50 writes (l. 65)  400
     aa   aligned_alloc    53     64      64 writes (l. 67)  512
     va   valloc           54     70      70 writes (l. 69)  560
   The access bytes equal the block size (every element touched once,
   the first time).

   lines (distinct 64-byte lines touched) is asserted only for the blocks
   whose alignment is known: memalign/posix_memalign/aligned_alloc ask
   for 64, valloc gives a page:
     ma 320/64 = 5, posix_memalign 400/64 -> 7, aa 512/64 = 8,
     va 560/64 -> 9.
   malloc/calloc/realloc blocks are only 16-byte aligned (glibc's
   malloc), so their line count depends on where the allocator puts
   them: not asserted.  threads = 1 for all.

   calloc'd memory is zero (zeroed by calloc: the allocator's stores,
   or fresh pages, not c's), so stdout is "calloc sum 0.0".
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
   int i;
   double sum = 0;
   double *pm;
   double *m = malloc(10 * sizeof(double));
   double *c = calloc(20, sizeof(double));
   double *r = realloc(NULL, 30 * sizeof(double));
   double *ma = memalign(64, 40 * sizeof(double));

   posix_memalign((void **)&pm, 64, 50 * sizeof(double));
   double *aa = aligned_alloc(64, 64 * sizeof(double));
   double *va = valloc(70 * sizeof(double));

   for (i = 0; i < 10; i++)
      m[i] = 1.0;
   for (i = 0; i < 20; i++)
      sum += c[i];
   for (i = 0; i < 30; i++)
      r[i] = 3.0;
   for (i = 0; i < 40; i++)
      ma[i] = 4.0;
   for (i = 0; i < 50; i++)
      pm[i] = 5.0;
   for (i = 0; i < 64; i++)
      aa[i] = 6.0;
   for (i = 0; i < 70; i++)
      va[i] = 7.0;
   printf("calloc sum %.1f\n", sum);
   free(m);
   free(c);
   free(r);
   free(ma);
   free(pm);
   free(aa);
   free(va);
   return 0;
}
