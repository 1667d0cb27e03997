/* SPDX-License-Identifier: GPL-2.0-or-later

   loops_unwind: loops left without a return, by longjmp and by a C++
   exception, into a caller that is in no loop.  Neither way runs the
   function's ret: the loop's execution must still end when the stack
   is unwound past it, not stay active and take the caller's accesses.

   At -O0 each loop is "jmp to the test; body; test: jl body", so the
   back edge is taken before every pass of the body (the manual's "How
   loops are found"):
     scan_jump(8)  (lines 35-38): passes j = 0..8, the ninth longjmps:
                   1 entry, 9 iterations;
     scan_throw(4) (lines 44-47): passes j = 0..4, the fifth throws:
                   1 entry, 5 iterations;
     main (lines 61-64): gcc puts the catch block after the try's normal
                   path, and its end jumps back to the code after the
                   try: a backward jump within main, a loop of 1 entry
                   and 1 iteration.
   The stores after each unwinding are main's, outside any loop.  An
   execution left active would take them as its own and, once main's
   code is read as a call from it, count main's next loop as entered
   from inside it.

   stdout: "4 2": the exception's value, and data[0] incremented by both
   scans.
*/
#include <csetjmp>
#include <cstdio>

static jmp_buf env;
static int data[64];

static void scan_jump(int stop)
{
   for (int j = 0; j < 64; j++) {
      if (j == stop)
         longjmp(env, 1);
      data[j]++;
   }
}

static void scan_throw(int stop)
{
   for (int j = 0; j < 64; j++) {
      if (j == stop)
         throw j;
      data[j]++;
   }
}

int main(void)
{
   int caught = 0;
   if (!setjmp(env))
      scan_jump(8);
   data[60] = 1; data[61] = 2; data[62] = 3; data[63] = 4;
   try {
      scan_throw(4);
   } catch (int j) {
      caught = j;
   }
   data[56] = 1; data[57] = 2; data[58] = 3; data[59] = 4;
   std::printf("%d %d\n", caught, data[0]);
   return 0;
}
