/* SPDX-License-Identifier: GPL-2.0-or-later

   realloc_buf: a buffer grown by realloc.  memprof moves every realloc'd
   block to a new block of the realloc's site (mp_heap.c), so `buf` is two
   heap variables, one per allocating line, and the accesses split at the
   realloc.  The copy of the old contents is done by the tool: no client
   access.

   buf @ realloc_buf.c:28 (malloc(100)): size = alloc_bytes = 100,
     blocks 1; line 31 writes buf[0..99]: 100 writes of 1 byte.
   buf @ realloc_buf.c:32 (realloc(buf, 1000)): size = alloc_bytes =
     1000, blocks 1;
     line 34 writes buf[100..999]: 900 writes of 1 byte;
     line 36 reads buf[0..999]:   1000 reads of 1 byte.
   (-O0: one movb / movzbl per element; buf and i are in main's frame.)
   lines not asserted (16-byte aligned malloc blocks).

   stdout: the copied 'a's (97) and the new 'b's (98):
     100 * 97 + 900 * 98 = 9700 + 88200 = 97900.
*/
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
   int i;
   long sum = 0;
   char *buf = malloc(100);

   for (i = 0; i < 100; i++)
      buf[i] = 'a';
   buf = realloc(buf, 1000);
   for (i = 100; i < 1000; i++)
      buf[i] = 'b';
   for (i = 0; i < 1000; i++)
      sum += buf[i];
   printf("sum %ld\n", sum);
   free(buf);
   return 0;
}
