// SPDX-License-Identifier: GPL-2.0-or-later
//
// share_vector: per-thread counters in a std::vector updated by
// std::thread workers, the vector freed before the exit.
//
// run() makes a std::vector<long> of 4 counters (one 32-byte block from
// operator new, aligned to 16 bytes) and 4 std::thread workers; worker
// t adds to counters[t] ITER times (line 34), and run() sums them after
// the joins (line 38).  The block is freed when run() returns, before
// the exit, and, at 32 bytes, holds no line of its own: its lines also
// hold the bytes of the threads' state blocks beside it.
//
// Placed at +p in a line (p = 0, 16, 32, 48), the workers' bytes are
// p .. p+31: at +0, +16 and +32 one line holds all four counters, at
// +48 one line the first two and the next the last two; each line is
// written by two workers or more at disjoint bytes: false sharing at 4
// of 4 placements (false_at=[0,16,32,48]), whichever the allocator
// chose (current= is not printed: it depends on the heap's history).
// The block is the vector's own variable, counters (line 29), so the
// placements and the advice are filed under it.
#include <cstdio>
#include <thread>
#include <vector>

#define ITER 2000

static long run()
{
   std::vector<long> counters(4);
   std::vector<std::thread> workers;
   for (int t = 0; t < 4; t++)
      workers.emplace_back([&counters, t] {
         for (int i = 0; i < ITER; i++)
            counters[t] += i & 3;
      });
   for (auto &w : workers)
      w.join();
   return counters[0] + counters[1] + counters[2] + counters[3];
}

int main()
{
   printf("%ld\n", run());
   return 0;
}
