/*--------------------------------------------------------------------*/
/*--- memprof: small helpers the engines and the adapter share.    ---*/
/*---                                                     mp_util.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
*/
#include "mp_util.h"

static void swap_bytes(char *a, char *b, size_t sz)
{
   size_t i;
   for (i = 0; i < sz; i++) {
      char t = a[i];
      a[i] = b[i];
      b[i] = t;
   }
}

static void sift_down(char *base, size_t sz, size_t root, size_t n,
                      int (*cmp)(const void *, const void *))
{
   for (;;) {
      size_t child = 2 * root + 1;
      if (child >= n)
         return;
      if (child + 1 < n && cmp(base + child * sz, base + (child + 1) * sz) < 0)
         child++;
      if (cmp(base + root * sz, base + child * sz) >= 0)
         return;
      swap_bytes(base + root * sz, base + child * sz, sz);
      root = child;
   }
}

void mp_sort(void *base_, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
   char *base = base_;
   size_t i;
   if (n < 2)
      return;
   for (i = n / 2; i-- > 0;)
      sift_down(base, sz, i, n, cmp);
   for (i = n - 1; i > 0; i--) {
      swap_bytes(base, base + i * sz, sz);
      sift_down(base, sz, 0, i, cmp);
   }
}

const char *mp_commas(uint64_t n, char *buf, size_t size)
{
   char digits[32];
   int nd = mp_snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), i;
   size_t k = 0;
   for (i = 0; i < nd && k + 1 < size; i++) {
      if (i > 0 && (nd - i) % 3 == 0 && k + 2 < size)
         buf[k++] = ',';
      buf[k++] = digits[i];
   }
   if (size > 0)
      buf[k < size ? k : size - 1] = '\0';
   return buf;
}
