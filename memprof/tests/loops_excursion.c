/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loops_excursion: a loop with a rare branch, which gcc -O2 places past
   the loop's back edge, from where it jumps back into the body.  The
   loop is one instance of N - 1 back edges, and its accesses have
   affine formulas over it, however often the rare block runs. */
#include <stdio.h>

#define N 4096

double a[N], b[N];
static long clamped;

__attribute__((noinline)) static void report(int i)
{
   clamped += i;
}

int main(void)
{
   int i;
   for (i = 0; i < N; i++)
      a[i] = i % 512 == 7 ? -1.0 : (double)i;
   for (i = 0; i < N; i++) {
      double x = a[i];
      if (__builtin_expect(x < 0.0, 0)) {
         report(i);
         x = 0.0;
      }
      b[i] = 2.0 * x;
   }
   printf("%g %ld\n", b[N - 1], clamped);
   return 0;
}
