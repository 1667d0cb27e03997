/* SPDX-License-Identifier: GPL-2.0-or-later

   runtime_advice: no advice on data that is not the program's.  The
   program calls rt_kernel of libruntime_advice.so, a library outside
   its build tree (built in runtime_advice_app/'s parent directory and
   found through the rpath $ORIGIN/..), which is the runtime's by its
   place, as a library the system installed is.  The kernel is
   struct_split's, built with -g: its static rt_table, an array of
   4,096 struct { int a, b, c, d }, is read 4 x 4,096 x 2 = 32,768
   times for a and c, as many for b and d.  It passes every test of
   the structure-splitting rule: at least 1,000 accesses, at least 1%
   of the run's cycles (it is nearly all of the program's work), a
   source line, a structure of two groups of fields ({ a, c } and
   { b, d }, affinity 1 within, 0 across) covering at least half of
   its cycles; the post step checks each in the output file.  Of class
   runtime, it gets no advice: no "Advice" line naming it, and no
   advice item in the file.  runtime_advice_own runs the same program
   with the library named the program's (--program-objects): there the
   structure-splitting advice is given on rt_table, one "Advice" line
   and one item (the split's replay: L1 misses 8,200 -> 1,080, -11% of
   its cycles).

   stdout: "48": only the first element is set, { 1, 2, 3, 4 }: four
   times 1 + 3, and four times 2 x 4.
*/
#include <stdio.h>

long rt_kernel(void);

int main(void)
{
   printf("%ld\n", rt_kernel());
   return 0;
}
