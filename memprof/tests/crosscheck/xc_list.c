/* SPDX-License-Identifier: GPL-2.0-or-later
   Cross-check workload: a linked list threaded through a static pool of
   nodes in a shuffled order, walked several times (pointer chasing).
   Static, not malloc'd, for the reason given in xc_matmul.c. */
#include <stdio.h>

#define NODES 20000

struct node { struct node *next; long pad[7]; };

int main(void)
{
   static struct node pool[NODES] __attribute__((aligned(64)));
   static struct node *nodes[NODES];
   unsigned seed = 12345;
   long sum = 0;
   for (int i = 0; i < NODES; i++)
      nodes[i] = &pool[i];
   for (int i = NODES - 1; i > 0; i--) {       /* Fisher-Yates, fixed seed */
      seed = seed * 1103515245u + 12345u;
      int j = (int)((seed >> 8) % (unsigned)(i + 1));
      struct node *t = nodes[i]; nodes[i] = nodes[j]; nodes[j] = t;
   }
   for (int i = 0; i < NODES; i++)
      nodes[i]->next = i + 1 < NODES ? nodes[i + 1] : NULL;
   for (int rep = 0; rep < 20; rep++)
      for (struct node *p = nodes[0]; p; p = p->next)
         sum += p->pad[0];
   printf("%ld\n", sum);
   return 0;
}
