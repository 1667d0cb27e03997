/* SPDX-License-Identifier: GPL-2.0-or-later

   name_range: MEMPROF_NAME_RANGE / MEMPROF_UNNAME_RANGE.

   pool = memalign(64, 4096) (line 49): a heap variable; bytes
   [1024, 2048) of it are named "arena" (line 51) before any
   access, and the upper half of the global table (double[256], 64-byte
   aligned) is named "table_hi".
   First loop (line 54), pool[0..4095] = 1, one byte store each:
     arena: 1024 writes (indices 1024..2047), pool: 4096 - 1024 = 3072.
   Table loop (line 56), table[0..255] = i, one 8-byte store each:
     table: 128 writes (0..127), table_hi: 128 writes (128..255).
   Then three refused requests, each a warning on stderr and nothing
   else: a range inside arena ("inside", line 57), a range around it
   ("around", line 58; both overlap a range named before), and an
   unnaming at pool+1025 (line 59; no named range starts there).
   MEMPROF_UNNAME_RANGE(pool + 1024) (line 60) ends the naming of
   arena; its counts stay.
   Second loop (line 62), sum += pool[i], one byte load each: all
   4096 reads go to pool (arena no longer named).
   Expected:
     pool: reads 4096, writes 3072, read_bytes 4096, write_bytes 3072,
       size 4096, lines 64 (64-byte aligned, every byte touched), heap,
       blocks 1, alloc_bytes 4096.
     arena: kind other, named_by MEMPROF_NAME_RANGE, size 1024, writes
       1024, write_bytes 1024, reads 0, lines 16 (1024 / 64, aligned).
     table: writes 128, write_bytes 1024, size 2048, lines 16 (only the
       lower half is touched as table).
     table_hi: kind other, named_by MEMPROF_NAME_RANGE, size 1024,
       writes 128, write_bytes 1024, lines 16.
     inside, around: absent (refused; a variable never accessed is not
       reported either).
   (-O0: one store / load per element; i, sum and pool are in main's
   frame; the client requests only touch main's frame.)

   stdout: sum = 4096 (every byte is 1).
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include "memprof.h"

static double table[256] __attribute__((aligned(64)));

int main(void)
{
   int i;
   long sum = 0;
   char *pool = memalign(64, 4096);

   MEMPROF_NAME_RANGE(pool + 1024, 1024, "arena");
   MEMPROF_NAME_RANGE(&table[128], 128 * sizeof(double), "table_hi");
   for (i = 0; i < 4096; i++)
      pool[i] = 1;
   for (i = 0; i < 256; i++)
      table[i] = i;
   MEMPROF_NAME_RANGE(pool + 1536, 100, "inside");
   MEMPROF_NAME_RANGE(pool, 4096, "around");
   MEMPROF_UNNAME_RANGE(pool + 1025);
   MEMPROF_UNNAME_RANGE(pool + 1024);
   for (i = 0; i < 4096; i++)
      sum += pool[i];
   printf("sum %ld\n", sum);
   free(pool);
   return 0;
}
