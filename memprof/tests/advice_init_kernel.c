/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shape of PolyBench's atax: init_array fills A (N x N doubles,
   512 KiB: 8,192 lines against an L1 of 512), then the kernel reads each
   row of A twice, in two loops inside the i loop.  The two reads of a
   row are 32 lines apart (near: L1 hits); the kernel's first read of
   each line of A comes 8,192 lines after init_array wrote it: a
   capacity miss (the line was touched, but longer ago than the L1
   holds), 8,192 of them, about half of A's L1 misses... all of them
   reuses that run from init_array's loop to the kernel's, carried by no
   loop of the program.  No tiling of either nest shortens them: the
   blocking item is rejected, not advised.  x, y and tmp are 2 KiB each:
   no capacity miss.  Fusing init_array's i loop with the kernel's would
   read x[j] in row i before init_array's row j stored it; that store
   runs between init_array's loops, outside the replayed inner loop, so
   the fusion is rejected as one whose dependences are not known. */
#include <stdio.h>

#define N 256

static double A[N][N], x[N], y[N], tmp[N];

static void __attribute__((noinline)) init_array(void)
{
   int i, j;
   for (i = 0; i < N; i++) {
      x[i] = 1 + i / (double)N;
      for (j = 0; j < N; j++)
         A[i][j] = (double)((i + j) % N) / (5 * N);
   }
}

static void __attribute__((noinline)) kernel_atax(void)
{
   int i, j;
   for (i = 0; i < N; i++)
      y[i] = 0;
   for (i = 0; i < N; i++) {
      tmp[i] = 0;
      for (j = 0; j < N; j++)
         tmp[i] += A[i][j] * x[j];
      for (j = 0; j < N; j++)
         y[j] += A[i][j] * tmp[i];
   }
}

int main(void)
{
   init_array();
   kernel_atax();
   printf("%g\n", y[N / 2]);
   return 0;
}
