/* SPDX-License-Identifier: GPL-2.0-or-later
   Cross-check workload: a sweep with a 4 KiB stride over 512 rows
   (2 MiB), which maps every access to one L1 set and thrashes it
   (conflict misses), and to 16 sets of a 1 MiB 16-way LL, thrashing
   those too. */
#include <stdio.h>

#define ROWS 512
#define STRIDE 4096

static char big[ROWS * STRIDE] __attribute__((aligned(4096)));

int main(void)
{
   long sum = 0;
   for (int rep = 0; rep < 400; rep++)
      for (int r = 0; r < ROWS; r++)
         sum += big[r * STRIDE] += 1;
   printf("%ld\n", sum);
   return 0;
}
