/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Three allocations in one declaration on one source line: the sites
   are named after the declarators in the order they run, a (10
   doubles), b (20), c (30), each written once whole; s, initialized
   without a call, is not one of the allocations. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
   int i;
   double *a = malloc(10 * sizeof *a), s = 0.0, *b = malloc(20 * sizeof *b), *c = calloc(30, sizeof *c);
   for (i = 0; i < 10; i++) a[i] = i;
   for (i = 0; i < 20; i++) b[i] = i;
   for (i = 0; i < 30; i++) c[i] = i;
   s = a[9] + b[19] + c[29];
   printf("%g\n", s);
   free(a); free(b); free(c);
   return 0;
}
