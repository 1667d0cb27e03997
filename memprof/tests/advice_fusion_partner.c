/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fusion that holds, and a partner many loops later that would break
   it, in the test's 4 KiB L1 (64 lines, 4-way) and no L2 or L3 (-O0):
   per pass of a time loop, loop A scales v into t (N = 2048 doubles,
   256 lines each) by a small table s (64 doubles, 8 lines), loop B
   adds 1 to t into f, loop C updates s, and loop D scales v into w by
   s.  t is used again in B only after A walked 512 lines, and v in D
   only after A and B walked 768: capacity misses whose reuses run from
   A to B and from A to D.  A and B fuse: B reads t[i] that A wrote at
   the same i.  D does not join them: C, between B and D, writes s,
   which A and D read, and cannot move before A (A reads s after it)
   nor after D.  Fused, A and B, replayed warmed by a pass: as they ran,
   A misses on every line of v and t (512), B on every line of t and f
   (512) and once on the line of the constant 1.0 it loads at -O0,
   evicted while A ran: 1,025; fused, v, t and f once each: 768.  (s's
   loads, through i & 63, are left out of the replay.) */
#include <stdio.h>

#define N 2048
#define REP 4

static double t[N], v[N], f[N], w[N], s[64];

int main(void)
{
   register int r, i;
   for (i = 0; i < N; i++)
      v[i] = i;
   for (i = 0; i < 64; i++)
      s[i] = 1.0;
   for (r = 0; r < REP; r++) {
      for (i = 0; i < N; i++)
         t[i] = v[i] * s[i & 63];
      for (i = 0; i < N; i++)
         f[i] = t[i] + 1.0;
      for (i = 0; i < 64; i++)
         s[i] = 0.5 * s[i] + 1.0;
      for (i = 0; i < N; i++)
         w[i] = v[i] * s[i & 63];
   }
   printf("%g %g\n", f[1], w[N - 1]);
   return 0;
}
