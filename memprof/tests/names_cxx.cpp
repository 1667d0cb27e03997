// SPDX-License-Identifier: GPL-2.0-or-later
// names_cxx: the names a C++ proxy app's data gets, at -O0 and at -O2
// (names_cxx_O2), and what ranks first.
//
// Every block comes from Allocate<T>, a one-line template in a header
// returning malloc's block, which at -O2 is inlined, kernel and
// Domain::alloc with it.  Each block is named after the variable the
// calling line assigns: dvdx and dvdy in kernel, the members
// Domain::m_x and Domain::m_y on one line of Domain::alloc, in order.
//
// The static local table of main (symbol "table.N" at -O2, where GCC
// numbers it) is named main::table; the frame of scale (a constant
// propagated copy, "scale.constprop.0" at -O2) is stack:scale.
//
// Ranking: kernel's frame (its own counters, at -O0) makes more
// accesses, all L1 hits, than any array; the four arrays of N doubles
// (1.6 MB each, beyond the 1 MiB L2) miss.  Stall cycles rank the four
// arrays first, whatever the frame's cycles.
#include <cstdio>
#include "names_cxx.h"

enum { N = 200000, ITERS = 3 };

struct Domain {
   double *m_x;
   double *m_y;
   void alloc(int n) { m_x = Allocate<double>(n); m_y = Allocate<double>(n); }
};

__attribute__((noinline)) static double scale(const double *v, int n, double f)
{
   volatile double acc[4] = { 0, 0, 0, 0 };
   for (int i = 0; i < n; i++)
      acc[i & 3] = acc[i & 3] + v[i] * f;
   return acc[0] + acc[1] + acc[2] + acc[3];
}

static void kernel(Domain &d, int n, int iters)
{
   double *dvdx = Allocate<double>(n);
   double *dvdy = Allocate<double>(n);
   for (int it = 0; it < iters; it++) {
      for (int i = 0; i < n; i++)
         dvdx[i] = d.m_x[i] * 2.0;
      for (int i = 0; i < n; i++)
         dvdy[i] = d.m_y[i] + dvdx[i];
   }
   printf("%g\n", scale(dvdy, n, 0.5));
   Release(&dvdx);
   Release(&dvdy);
}

int main(void)
{
   static volatile int table[64];
   Domain d;
   d.alloc(N);
   for (int i = 0; i < N; i++) {
      d.m_x[i] = i;
      d.m_y[i] = 1;
      table[i & 63] = table[i & 63] + 1;
   }
   kernel(d, N, ITERS);
   printf("%d\n", table[5]);
   return 0;
}
