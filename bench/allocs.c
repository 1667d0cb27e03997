/* SPDX-License-Identifier: GPL-2.0-or-later
   Benchmark workload: a million small allocations from a few sites,
   linked into lists and walked (heap registry under churn). */
#include <stdio.h>
#include <stdlib.h>

struct node { struct node *next; long val; };

int main(void)
{
   long sum = 0;
   for (int round = 0; round < 10; round++) {
      struct node *head = NULL;
      for (int i = 0; i < 100000; i++) {
         struct node *n = malloc(sizeof *n);
         n->val = i;
         n->next = head;
         head = n;
      }
      for (struct node *p = head; p; p = p->next)
         sum += p->val;
      while (head) {
         struct node *next = head->next;
         free(head);
         head = next;
      }
   }
   printf("%ld\n", sum);
   return 0;
}
