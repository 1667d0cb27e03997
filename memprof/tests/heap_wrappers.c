/* SPDX-License-Identifier: GPL-2.0-or-later

   heap_wrappers: a heap variable is named where the program receives
   its block, through allocation wrappers found at run time (a callee
   that returns the block, or stores it through an out-parameter).

   The shapes of a benchmark suite's helpers: main declares its arrays
   with a macro whose expansion calls alloc_data, which calls xmalloc,
   which calls posix_memalign(&ret, ...) and returns ret.  Each array
   is named at main's line, after the identifier the macro declares,
   never after xmalloc's status variable err:
     A  (line 75, DECL_2D_ARRAY(A, double, N, N)): N*N = 256 doubles,
        2048 bytes; 256 writes (line 85), 256 reads (line 100).
     x1 (line 76, DECL_1D_ARRAY(x1, double, N)): 16 doubles, 128
        bytes; 16 writes (line 87), 16 reads (line 102).
   The others are each read once, by the printf at line 103:
   s->buf (line 77, s->buf = xmalloc(...)): a field holds the block;
        10 doubles, 80 bytes; 10 writes (line 89).
   B  (line 78, my_alloc(&B, 12)): my_alloc passes its out-parameter
        to posix_memalign, and the pointer lies in main's frame: B, 12
        doubles, 96 bytes; 12 writes (line 91).
   live[i] (line 79, `for (...) live[i] = malloc(32);`): the for
        header's i = 0 names nothing; 4 blocks of 32 bytes, one site
        (peak live 128 bytes); 4 writes of 8 bytes (line 93).
   hdr (line 80, hdr = hdr_alloc(40)): hdr_alloc keeps a 16-byte
        header before what it returns, as sqlite3's allocator does; the
        pointer returned lies inside the block, so hdr_alloc is a
        wrapper: one block of 56 bytes; 5 writes (line 95).
   pool[npool] (line 63, in pool_new): pool_new stores the block in
        pool[] and returns an index, so it receives the block itself
        (heap_wrappers_alloc_fn marks it with --alloc-fn=pool_new and
        the site is then idx, line 81); 24 bytes; 3 writes (line 97).
   Each site but live[i] has one block, alloc_bytes = size.  (-O0: one
   access per element; the pointers are in main's frame.)

   stdout: 512 (272, the sum of A and x1, plus 240).
*/
#include <stdio.h>
#include <stdlib.h>

#define N 16

static void *xmalloc(size_t sz)
{
   void *ret = NULL;
   int err = posix_memalign(&ret, 64, sz);
   if (err)
      abort();
   return ret;
}

static void *alloc_data(size_t n, size_t elt) { return xmalloc(n * elt); }

#define DECL_2D_ARRAY(name, type, n, m) type (*name)[m] = (type (*)[m])alloc_data((n) * (m), sizeof(type))
#define DECL_1D_ARRAY(name, type, n) type *name = (type *)alloc_data(n, sizeof(type))

static void my_alloc(double **out, size_t n) { if (posix_memalign((void **)out, 64, n * sizeof(double))) abort(); }

static void *hdr_alloc(size_t n) { char *p = malloc(16 + n); return p + 16; }

static double *pool[4];
static int npool;
static int pool_new(size_t n) { pool[npool] = malloc(n); return npool++; }

struct holder { double *buf; };

int main(void)
{
   struct holder h, *s = &h;
   double *B;
   double **live = malloc(4 * sizeof *live);
   double *hdr;
   int i, j, idx;
   double sum = 0;
   DECL_2D_ARRAY(A, double, N, N);
   DECL_1D_ARRAY(x1, double, N);
   s->buf = xmalloc(10 * sizeof(double));
   my_alloc(&B, 12);
   for (i = 0; i < 4; i++) live[i] = malloc(32);
   hdr = hdr_alloc(40);
   idx = pool_new(24);

   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         A[i][j] = 1.0;
   for (i = 0; i < N; i++)
      x1[i] = 1.0;
   for (i = 0; i < 10; i++)
      s->buf[i] = 1.0;
   for (i = 0; i < 12; i++)
      B[i] = 1.0;
   for (i = 0; i < 4; i++)
      *live[i] = 1.0;
   for (i = 0; i < 5; i++)
      hdr[i] = 1.0;
   for (i = 0; i < 3; i++)
      pool[idx][i] = 1.0;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         sum += A[i][j];
   for (i = 0; i < N; i++)
      sum += x1[i];
   printf("%g\n", sum + 0 * (s->buf[0] + B[0] + *live[0] + hdr[0] + pool[idx][0]) + 240);
   return 0;
}
