/* SPDX-License-Identifier: GPL-2.0-or-later

   sample_lines_split: under --sample=lines an instruction that touches
   several variables has its exact count split among them as the
   detail windows saw it, when the sample's own split is off by more
   than a factor of 2 (the geometry of the .vgtest: L1 32 KiB 8-way of
   64-byte lines, 64 sets; 1/4 of them sampled; the first window, of
   10m instructions, holds the whole program).

   touch()'s load of *p reads hot (one line) 30,000 times and each of
   arr's 8,192 doubles (64 KiB, 16 lines in each L1 set) once: 38,192
   reads, of hot 30,000 and of arr 8,192.  Whichever sets the hash
   picks, 1/4 of arr's lines are in the sample (2,048 reads, times 4:
   8,192), and hot's one line is in it or not:
     in: the sample says 4 * 30,000 + 8,192 = 128,192 reads, 3.36
       times the exact 38,192;
     out: it says 8,192, 0.21 times.
   Either way the sample's split is not the instruction's, and the
   windows' is exact: hot 30,000 reads, arr 8,192 (and its 8,192
   writes, by an instruction of arr alone, exact too).  Split by the
   sample, hot would get 120,000 or none.
   stdout: 30,000 * 2 + 8,192 = 68192.
*/
#include <stdio.h>

struct padded {
   double v;
   char pad[56];
};

struct padded hot __attribute__((aligned(64))) = { 2.0, { 0 } };
double arr[8192] __attribute__((aligned(4096)));

static double __attribute__((noinline)) touch(const double *p)
{
   return *p;
}

int main(void)
{
   double sum = 0;
   int i;
   for (i = 0; i < 8192; i++)
      arr[i] = 1.0;
   for (i = 0; i < 8192; i++)
      sum += touch(&arr[i]);
   for (i = 0; i < 30000; i++)
      sum += touch(&hot.v);
   printf("%.0f\n", sum);
   return 0;
}
