// SPDX-License-Identifier: GPL-2.0-or-later
//
// heap_wrappers_cxx: C++ containers allocate through the library's
// templates (std::allocator, _M_allocate ... in /usr/include/c++),
// whose frames are passed over: each block is named at the program's
// line that made the container grow.
//   g.cells (line 34, g.cells.resize(100)): a member grown by a method:
//     one block of 100 doubles, 800 bytes, zero-filled by resize (100
//     writes, in the library) and written by line 39: 200 writes.
//   g.ids (line 35, g.ids.reserve(50)): 50 ints, 200 bytes; 50 writes
//     (line 41).
//   v (line 36, std::vector<double> v(300)): built by its constructor:
//     300 doubles, 2400 bytes, written 300 times by the constructor's
//     zero fill (in the library) and 300 times by line 43: 600 writes.
//   raw (line 37, new double[40]): operator new[] is an allocation
//     function: 40 doubles, 320 bytes; 40 writes (line 45).
// Each has one block, alloc_bytes = size.  (-O0: one access per
// element written by the loops; the library's fills, built at -O0 in
// this program, store one element each.)
//
// stdout: 100 50 300 40.
#include <cstdio>
#include <vector>

struct Grid {
   std::vector<double> cells;
   std::vector<int> ids;
};

int main()
{
   Grid g;
   int i;
   g.cells.resize(100);
   g.ids.reserve(50);
   std::vector<double> v(300);
   double *raw = new double[40];
   for (i = 0; i < 100; i++)
      g.cells[i] = 1.0;
   for (i = 0; i < 50; i++)
      g.ids.push_back(i);
   for (i = 0; i < 300; i++)
      v[i] = 2.0;
   for (i = 0; i < 40; i++)
      raw[i] = 3.0;
   std::printf("%zu %zu %zu %d\n", g.cells.size(), g.ids.size(), v.size(), 40);
   delete[] raw;
   return 0;
}
