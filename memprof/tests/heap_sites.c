/* SPDX-License-Identifier: GPL-2.0-or-later

   heap_sites: what makes an allocation site.  A site is one allocation
   call stack.  It is named where the program receives the block: the
   first frame, from the allocating call out, whose callee did not
   return the block; its where is that frame's line, its name the
   identifier assigned there (else heap@FILE:LINE).

   node (heap_sites.c:56, the malloc in the loop of main): one site for
     all 1000 blocks of 16 bytes, all live together:
     blocks 1000, alloc_bytes = 1000 * 16 = 16000, size (peak live
     bytes) = 16000;
     line 57 (node[0] = i): 1000 writes of 4 bytes;
     line 69 (printf of nodes[999][0]): 1 read of 4 bytes.
   first, second: the wrapper xmalloc (`void *p = malloc(n)`, line 36)
     returns its block, so each is named at main's line that receives
     it; xmalloc is called from two lines of main, two call stacks, two
     variables (their stacks: xmalloc, then main at the calling line):
     first  (main line 60): 5 doubles, 40 bytes, 5 writes (line 64);
     second (main line 61): 7 doubles, 56 bytes, 7 writes (line 66).
   plain (main line 62, through bare_alloc's `return malloc(n);`): 9
     bytes, 9 writes of 1 byte (line 68).  All three: blocks 1.
   (-O0: one store per element, the pointers and counters are in main's
   frame or the global array nodes.)  lines not asserted (16-byte aligned
   blocks).

   stdout: nodes[999][0] = 999.
*/
#include <stdio.h>
#include <stdlib.h>

#define NBLOCKS 1000

static void *xmalloc(size_t n)
{
   void *p = malloc(n);
   if (p == NULL)
      abort();
   return p;
}

static void *bare_alloc(size_t n)
{
   return malloc(n);
}

static int *nodes[NBLOCKS];

int main(void)
{
   int i;
   double *first, *second;
   char *plain;

   for (i = 0; i < NBLOCKS; i++) {
      int *node = malloc(4 * sizeof(int));
      node[0] = i;
      nodes[i] = node;
   }
   first = xmalloc(5 * sizeof(double));
   second = xmalloc(7 * sizeof(double));
   plain = bare_alloc(9);
   for (i = 0; i < 5; i++)
      first[i] = 1.0;
   for (i = 0; i < 7; i++)
      second[i] = 2.0;
   for (i = 0; i < 9; i++)
      plain[i] = 'x';
   printf("%d\n", nodes[NBLOCKS - 1][0]);
   for (i = 0; i < NBLOCKS; i++)
      free(nodes[i]);
   free(first);
   free(second);
   free(plain);
   return 0;
}
