/* SPDX-License-Identifier: GPL-2.0-or-later
   heap_inlined.h: allocation helpers of the program's own header, as
   Phoenix's stddefines.h has them; at -O2 they are inlined into their
   callers. */
#include <stdlib.h>

/* A wrapper: the block goes back to the caller. */
static inline void *checked_calloc(size_t num, size_t size)
{
   void *temp = calloc(num, size);
   if (temp == NULL)
      abort();
   return temp;
}

typedef struct {
   double *buf;
   size_t n;
} holder;

/* Not a wrapper: the block is stored in the holder, which names it. */
static inline void holder_init(holder *h, size_t n)
{
   h->buf = malloc(n * sizeof(double));
   h->n = n;
}
