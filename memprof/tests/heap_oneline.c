/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Three allocations on one source line: the sites are told apart by
   their call stacks and named after the line's statements in the order
   they run: a (10 doubles), b (20), c (30), each written once whole. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
   double *a, *b, *c;
   int i;
   a = malloc(10 * sizeof *a); b = malloc(20 * sizeof *b); c = calloc(30, sizeof *c);
   for (i = 0; i < 10; i++) a[i] = i;
   for (i = 0; i < 20; i++) b[i] = i;
   for (i = 0; i < 30; i++) c[i] = i;
   printf("%g\n", a[9] + b[19] + c[29]);
   free(a); free(b); free(c);
   return 0;
}
