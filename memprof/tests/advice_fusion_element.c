/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An element loop fused with the loop that fills its temporaries, as a
   finite-element code's hourglass control (-O2), in the test's 4 KiB
   L1 (16 sets of 4 ways) and no L2 or L3: per step, a function
   allocates two temporaries t and u of 8 doubles per element (NE = 256
   elements: 16 KiB, 256 lines each), fills them in a first loop from
   the element's nodes' x gathered through a node list (two inner loops
   of 8), then in a second loop reads them back in a short inner loop
   (4 iterations, kept a loop) into a local h and adds h to the
   element's nodes' forces f through the node list, and frees them.
   Every line of t and u is used again in the second loop only after
   the first walked 512 lines: capacity misses whose reuses run from
   one loop to the next.  Most of the second loop's body is outside its
   inner loop (the scatter), the locals of the two loops share the
   frame's slots, and the node list's values (e + k) make the gathers'
   and scatter's addresses affine here, so every access is replayed.
   The replay covers 255 of the 256 iterations (the loops are entered
   at their test), warmed by a pass: as they ran, the first loop misses
   on t's and u's 255 lines, nodes' 128 and x's 33, the second on t's
   and u's 255 again, nodes' 128 and f's 33: 1,342; fused, t, u and
   nodes once: 704 (the same counts as an LRU model of the 16 sets fed
   the replay's accesses). */
#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NE 256
#define NN (NE + 8)
#define STEPS 6

static double x[NN], f[NN];
static int nodes[8 * NE];

static void __attribute__((noinline)) hourglass(void)
{
   double *t = aligned_alloc(64, 8 * NE * sizeof *t);
   double *u = aligned_alloc(64, 8 * NE * sizeof *u);
   int e, k, m;
   for (e = 0; e < NE; e++) {
      double loc[8];
      for (k = 0; k < 8; k++)
         loc[k] = x[nodes[8 * e + k]];
      for (k = 0; k < 8; k++) {
         t[8 * e + k] = 2.0 * loc[k];
         u[8 * e + k] = loc[(k + 1) & 7] - loc[k];
      }
   }
   for (e = 0; e < NE; e++) {
      double h[4];
#pragma GCC unroll 1
      for (m = 0; m < 4; m++)
         h[m] = t[8 * e + 2 * m] * u[8 * e + 2 * m + 1] + t[8 * e + 2 * m + 1] * u[8 * e + 2 * m];
      for (k = 0; k < 8; k++)
         f[nodes[8 * e + k]] += h[k & 3];
   }
   free(u);
   free(t);
}

int main(void)
{
   static void *held[STEPS];
   int e, k, s, n;
   /* the frames below at one place modulo 4 KiB, whatever the size of
      the environment above them: the locals' sets in the L1 are the
      same on every machine */
   char *shift = alloca((uintptr_t)__builtin_frame_address(0) & 4095);
   __asm__ volatile("" : : "r"(shift) : "memory");
   for (e = 0; e < NE; e++)
      for (k = 0; k < 8; k++)
         nodes[8 * e + k] = e + k;
   for (n = 0; n < NN; n++)
      x[n] = n;
   for (s = 0; s < STEPS; s++) {
      hourglass();
      for (n = 0; n < NN; n++)
         x[n] += 1e-3 * f[n];
      /* a record kept per step: the next step's temporaries lie
         elsewhere */
      held[s] = malloc(256);
   }
   printf("%g\n", x[NN / 2]);
   for (s = 0; s < STEPS; s++)
      free(held[s]);
   return 0;
}
