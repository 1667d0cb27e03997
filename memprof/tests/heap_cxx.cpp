/* SPDX-License-Identifier: GPL-2.0-or-later

   heap_cxx: operator new[] and operator new, freed by delete[] and
   delete, wrapped by memprof with the malloc they call (one block a
   call): one allocation site named after the identifier on its line.

   arr = new int[100] (line 35): size = alloc_bytes = 400, blocks 1.
     line 39 (arr[i] = i)    100 writes of 4 bytes
     line 41 (sum += arr[i]) 100 reads of 4 bytes
     (-O0, objdump -d: one mov to/from (%rdx) / (%rax) per element; the
     pointer arr and the counter i are in main's frame.)
     reads 100, writes 100, read_bytes 400, write_bytes 400;
     lines not asserted (operator new gives 16-byte alignment).
   pt = new Point (line 36): 3 doubles, size = alloc_bytes = 24, blocks 1.
     `new Point` (no parentheses) does not initialise a POD: no stores.
     line 42 pt->x = 1.0               1 write
     line 43 pt->y = 2.0               1 write
     line 44 pt->z = pt->x + pt->y     2 reads, 1 write
     line 45 printf(..., pt->z)        1 read
     reads 3, writes 3, read_bytes 24, write_bytes 24.
   The allocation stack of each is main alone.

   stdout: sum(0..99) = 4950, z = 3.0.
*/
#include <cstdio>

struct Point {
   double x, y, z;
};

int main()
{
   int i;
   long sum = 0;
   int *arr = new int[100];
   Point *pt = new Point;

   for (i = 0; i < 100; i++)
      arr[i] = i;
   for (i = 0; i < 100; i++)
      sum += arr[i];
   pt->x = 1.0;
   pt->y = 2.0;
   pt->z = pt->x + pt->y;
   std::printf("sum %ld z %.1f\n", sum, pt->z);
   delete[] arr;
   delete pt;
   return 0;
}
