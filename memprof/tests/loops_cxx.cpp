/* SPDX-License-Identifier: GPL-2.0-or-later

   loops_cxx: the shape of C++ code that once made the loop analysis
   grow without bound: a hash map of strings to vectors filled in a
   loop nest, each key looked up and pushed to from a loop body, with
   every call into libstdc++ going through its lazy-binding PLT (built
   with -z lazy), then a fold, then tasks handed to a pool of threads.
   A PLT stub leaves by an indirect jump, never by a ret: the frames of
   whatever it reaches must still end when the call returns.

   At -O0 every loop is "jmp to the test; body; test: jl body", so a
   loop whose body runs n times takes n back edges (the manual's "How
   loops are found").  N = 3000 keys, key i gets 1 + i % 5 values:
     fill, outer (line 45):  1 entry,  3000 iterations;
     fill, inner (line 48):  3000 entries, sum over i of (1 + i % 5)
                             = 600 * (1+2+3+4+5) = 9000 iterations;
     fold, outer (line 51):  1 entry, 3000 iterations (one per key);
     fold, inner (line 52):  3000 entries, 9000 iterations;
     thread creation (lines 56-57): 1 entry, 4 iterations;
     worker's for (;;) (lines 59-64): 4 entries (one per thread); its
       back edge is taken after each task run, 16 in all;
     task submission (lines 65-72): 1 entry, 16 iterations;
     each task's loop (lines 67-69): 16 entries, 16 * 1000 iterations;
     join (line 75): 1 entry, 4 iterations.
   No loop is reported without a function: PLT stubs and code without
   a symbol have none.  The deepest stack of active loops of any thread
   stays small (the program's calls times its loop depth), whatever N.

   stdout: "3000 9000 <sum> <total>".
*/
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

int main()
{
   const int n = 3000;
   std::unordered_map<std::string, std::vector<int>> m;
   for (int i = 0; i < n; i++) {
      std::string key = "key" + std::to_string(i);
      int k = 1 + i % 5;
      for (int j = 0; j < k; j++) m[key].push_back(i + j);
   }
   long sum = 0, values = 0;
   for (auto &kv : m)
      for (int v : kv.second) { sum += v; values++; }
   std::mutex mu; std::condition_variable cv; std::deque<std::function<void()>> q;
   bool done = false; long total = 0;
   std::vector<std::thread> pool;
   for (int t = 0; t < 4; t++)
      pool.emplace_back([&] {
         for (;;) {
            std::function<void()> f;
            { std::unique_lock<std::mutex> l(mu);
              cv.wait(l, [&] { return done || !q.empty(); });
              if (q.empty()) return;
              f = std::move(q.front()); q.pop_front(); }
            f(); } });
   for (int t = 0; t < 16; t++) {
      std::unique_lock<std::mutex> l(mu);
      q.push_back([&, t] {
         long s = 0;
         for (int i = 0; i < 1000; i++) s += i * t;
         std::lock_guard<std::mutex> g(mu); total += s; });
      cv.notify_one();
   }
   { std::lock_guard<std::mutex> l(mu); done = true; }
   cv.notify_all();
   for (auto &th : pool) th.join();
   std::printf("%zu %ld %ld %ld\n", m.size(), values, sum, total);
   return 0;
}
