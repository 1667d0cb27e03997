/* SPDX-License-Identifier: GPL-2.0-or-later

   sample_periodic: --sample=periodic:5m,1g analyses the first 5,000,000
   guest instructions and nothing after (the next window would begin at
   instruction 1,000,000,000; the program executes about 41 million).

   The program: the C library's start-up (a few hundred thousand
   instructions), then 100,000 stores to early[] (at -O0 about 7
   instructions each), then a spin of 20,000,000 iterations of
   'dec; jnz' (40 million instructions, no memory access), then 100,000
   stores to late[].  So the window ends inside the spin:
     early: exactly 100,000 writes (the phase lies wholly in the window);
     late: absent (all its accesses come after the window);
     sampling: one window, 5,000,000 instructions analysed (plus at most
       the rest of the superblock that crossed the boundary, here one
       'dec; jnz' iteration), more than 40,000,000 in all.
   stdout: early[999] + late[999] = 99999 + 99999 = 199998.
*/
#include <stdio.h>

int early[1000], late[1000];

static void spin(long n)
{
#if defined(__aarch64__)
   __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#else
   __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
#endif
}

int main(void)
{
   int i;
   for (i = 0; i < 100000; i++)
      early[i % 1000] = i;
   spin(20000000);
   for (i = 0; i < 100000; i++)
      late[i % 1000] = i;
   printf("%d\n", early[999] + late[999]);
   return 0;
}
