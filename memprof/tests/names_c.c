// SPDX-License-Identifier: GPL-2.0-or-later
// names_c: at -O2, the names the source gives to what GCC renames.
//
// - work's static local u1 (symbol "u1.0"; work is inlined into main)
//   is work::u1, and main's static local w (symbol "w.1") is main::w;
// - main's static local field (symbol "field.2"), which fill touches
//   first (main passes it), is main::field: the function that declares
//   it, not the one that touches it;
// - sum, called with a constant step, becomes "sum.constprop.0": its
//   frame is stack:sum.
// The file global grid keeps its name.
#include <stdio.h>

double grid[512];

static int work(int k)
{
   static int u1[64];
   for (int i = 0; i < 1000; i++)
      u1[i & 63] += k;
   return u1[3];
}

__attribute__((noinline)) static void fill(double *f, int n)
{
   for (int i = 0; i < n; i++)
      f[i] = i;
}

__attribute__((noinline)) static double sum(const double *v, int n, int step)
{
   volatile double acc[8] = { 0 };
   for (int i = 0; i < n; i += step)
      acc[i & 7] = acc[i & 7] + v[i];
   return acc[0] + acc[7];
}

int main(void)
{
   static double w[100];
   static double field[256];
   int s = 0;
   fill(field, 256);
   for (int i = 0; i < 100; i++) {
      w[i] = i;
      s += work(i);
   }
   for (int i = 0; i < 512; i++)
      grid[i] = w[i % 100];
   printf("%d %g %g %g\n", s, sum(grid, 512, 2), sum(w, 100, 2), sum(field, 256, 2));
   return 0;
}
