// SPDX-License-Identifier: GPL-2.0-or-later
// heap_vector_O2: C++ containers inlined into main at -O2 (built -O2 -g):
// the allocation's physical frame is main, its inner levels the C++
// library's templates (stl_vector.h, new_allocator.h, ...), which are
// passed over to main's line.
//
// Expected (post):
//   v (heap_vector_O2.cpp:21, std::vector<double> v(n)): 1000 doubles,
//      size 8000;
//   w (heap_vector_O2.cpp:22, std::vector<long> w(n / 2)): 500 longs,
//      size 4000.
// Not heap@main, heap@main#2.
#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
   (void)argv;
   std::size_t n = 1000 + (std::size_t)argc - 1;
   double s = 0;
   std::vector<double> v(n);
   std::vector<long> w(n / 2);
   for (std::size_t i = 0; i < v.size(); i++)
      v[i] = (double)i * 0.5;
   for (std::size_t i = 0; i < w.size(); i++)
      w[i] = (long)i;
   for (std::size_t i = 0; i < v.size(); i++)
      s += v[i];
   for (std::size_t i = 0; i < w.size(); i++)
      s += (double)w[i];
   std::printf("%.1f\n", s);
   return 0;
}
