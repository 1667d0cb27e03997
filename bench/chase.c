/* SPDX-License-Identifier: GPL-2.0-or-later
   Benchmark workload: a pointer chase through 1M list nodes linked in a
   random order (one 64-byte node per line), 20 laps: every access a
   different line, latency-bound.  Usage: chase [nodes [laps]] (the
   benchmark's memory slope runs it at two sizes). */
#include <stdio.h>
#include <stdlib.h>

struct node { struct node *next; long pad[7]; };

int main(int argc, char **argv)
{
   unsigned N = argc > 1 ? (unsigned)atol(argv[1]) : 1u << 20;
   int laps = argc > 2 ? atoi(argv[2]) : 20;
   struct node *nodes = malloc(N * sizeof *nodes);
   unsigned *perm = malloc(N * sizeof *perm);
   unsigned long x = 88172645463325252UL;
   struct node *p;
   long steps = 0;
   for (unsigned i = 0; i < N; i++)
      perm[i] = i;
   for (unsigned i = N - 1; i > 0; i--) {
      unsigned j;
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      j = (unsigned)(x % (i + 1));
      unsigned t = perm[i]; perm[i] = perm[j]; perm[j] = t;
   }
   for (unsigned i = 0; i < N; i++)
      nodes[perm[i]].next = &nodes[perm[(i + 1) % N]];
   if (N < 2 || !nodes || !perm)
      return 1;
   for (int lap = 0; lap < laps; lap++)
      for (p = nodes[perm[0]].next; p != &nodes[perm[0]]; p = p->next)
         steps++;
   printf("%ld\n", steps);
   free(nodes); free(perm);
   return 0;
}
