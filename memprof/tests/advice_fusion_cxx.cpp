// SPDX-License-Identifier: GPL-2.0-or-later
// Loop fusion in a C++ proxy app's shape, at -O2 (LULESH's
// EvalEOSForElems): per region, temporaries from a one-line template
// allocator; a repetition loop around two adjacent loops, the first
// gathering the region's elements through a shuffled index list into
// e_old and delv, the second reading both.  In the test's 4 KiB L1 (64
// lines) and no L2 or L3, N = 4096 elements: list is 256 lines (4-byte
// ints), e_old, delv and comp 512 lines each (doubles).
//
// Every line of e_old and delv is used again in the second loop only
// after more than a thousand lines went through the cache: the advice
// fuses the loops at lines 52 and 57, on e_old and delv.  gcc unrolls
// the first loop by four (1,024 iterations) and vectorises the second
// by two (2,048): the fused loop spreads the first's iterations over
// the second's.  The replay, warmed by one pass (the repetition loop
// runs them again), leaves out the gathers' loads (no formula, and no
// loop stores to E or P).  As they ran, the first loop misses on every
// line of list, e_old and delv (1,280), the second on every line of
// delv, e_old and comp (1,536): about 2,816; fused, each line of the
// four misses once: about 1,792.  The replay gives 2,818 and 1,793,
// malloc's 16-byte alignment making a block straddle one line more.
#include <cstdio>
#include <cstdlib>

template <class T> static inline T *Allocate(size_t n) { return static_cast<T *>(malloc(sizeof(T) * n)); }

static const int N = 4096;
static double *E, *P;
static int *list;

int main()
{
   E = Allocate<double>(N);
   P = Allocate<double>(N);
   list = Allocate<int>(N);
   unsigned seed = 1;
   for (int i = 0; i < N; i++) {
      E[i] = i;
      P[i] = 2 * i;
      list[i] = i;
   }
   for (int i = N - 1; i > 0; i--) {   // a shuffled element list
      seed = seed * 1103515245u + 12345u;
      int k = (seed >> 8) % (i + 1), x = list[i];
      list[i] = list[k];
      list[k] = x;
   }
   double t = 0;
   for (int r = 0; r < 3; r++) {
      double *e_old = Allocate<double>(N), *delv = Allocate<double>(N), *comp = Allocate<double>(N);
      for (int j = 0; j < 4; j++) {
         for (int i = 0; i < N; i++) {
            int ie = list[i];
            e_old[i] = E[ie];
            delv[i] = P[ie];
         }
         for (int i = 0; i < N; i++)
            comp[i] = 1.0 / (delv[i] + 1.0) - e_old[i];
      }
      for (int i = 0; i < N; i++)
         t += comp[i];
      free(e_old);
      free(delv);
      free(comp);
   }
   printf("%g\n", t);
   return 0;
}
