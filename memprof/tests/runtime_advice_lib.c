/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The library of runtime_advice, found outside the program's build
   tree as a system's library is (the program lies in
   runtime_advice_app/, this library beside that directory): its table
   is the runtime's data.  The kernel is struct_split's: an array of
   struct { int a, b, c, d }, one loop reading a and c of every
   element, the other b and d.  The table is static and initialised:
   reached without the global offset table, and in .data, which the
   loader maps from the file, not in the part of .bss it clears itself
   (its stores would be accesses of other shapes to the table). */
#define N 4096

struct rt_entry { int a, b, c, d; };
static struct rt_entry rt_table[N] = { { 1, 2, 3, 4 } };

long rt_kernel(void)
{
   long sum1 = 0, sum2 = 0;
   int i, r;
   for (r = 0; r < 4; r++)
      for (i = 0; i < N; i++)
         sum1 += rt_table[i].a + rt_table[i].c;
   for (r = 0; r < 4; r++)
      for (i = 0; i < N; i++)
         sum2 += rt_table[i].b * rt_table[i].d;
   return sum1 + sum2;
}
