/* SPDX-License-Identifier: GPL-2.0-or-later

   callgrind_out: memprof_annotate --callgrind read by callgrind_annotate
   (callgrind_out.vgtest runs callgrind_check.py).

   Expected (callgrind_out.post.exp), at -O0 (objdump -d: the stores of
   line 28 are four movl of a constant to table, the loads of line 29
   four mov from table then one mov to table; nothing else touches
   memory on those two lines, and fill's frame is its push of rbp on
   line 27 and its pop of rbp and ret on line 30):

   fill is called 1000 times, so
     line 28: Acc 4000, Rd 0,    Wr 4000   (table only, both views)
     line 29: Acc 5000, Rd 4000, Wr 1000   (table only, both views)
   code view, the function fill (lines 27-30):
     line 27 push: Wr 1000; line 30 pop, ret: Rd 2000
     Acc 1000 + 4000 + 5000 + 2000 = 12000, Rd 6000, Wr 6000
   data view, the global table (named with its declaration, line 24,
   as the report shows it): lines 28 and 29, and line 38's read of table[4] once:
     Acc 4000 + 5000 + 1 = 9001, Rd 4001, Wr 5000
   The totals (the dynamic linker and libc included) are checked against
   the JSON's, not written here.
*/
int table[8];

static void fill(void)
{
   table[0] = 1; table[1] = 2; table[2] = 3; table[3] = 4;
   table[4] = table[0] + table[1] + table[2] + table[3];
}

int main(void)
{
   int i;

   for (i = 0; i < 1000; i++)
      fill();
   return table[4] == 10 ? 0 : 1;
}
