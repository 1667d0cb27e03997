/* SPDX-License-Identifier: GPL-2.0-or-later

   stride_rowcol: Balle & Steely's stride histograms of a 2-D
   array swept by rows, then by columns.

   m is double[64][64] (row-major: m[i][j] at byte 512*i + 8*j, 32768
   bytes).  At -O0 (objdump -d) every m[i][j] below is one movsd from or
   to m; i, j and s live in the frames.  The accesses of m, in order:
     init_rows (line 100): 4096 stores, row by row: m[0][0], m[0][1], ...
                           m[63][63], i.e. byte offsets 0, 8, ..., 32760;
     sum_rows  (line 109): 4096 loads in the same order;
     sum_cols  (line 119): 4096 loads column by column: m[0][0], m[1][0],
                           ..., m[63][0], m[0][1], ..., m[63][63].
   The functions are called one after the other from main (not inside one
   printf argument list, whose evaluation order is unspecified).

   Stride of an access in histogram k: its address minus that of the k-th
   previous access of the same kind (loads apart from stores).  Bins: one
   per byte below 128, then [128,255], [256,511], ... [16384,32767],
   [32768,inf).

   stride_rowcol.vgtest: default options, K = 5, filtered, threshold 128.
   An access enters histogram k+1 only if its stride in histogram k was
   >= 128.
   Stores: 4095 strides of +8 (every store but the first): store 1: [8]
   4095.  Nothing >= 128, so store 2..5 are empty.
   Loads, row sweep: 4095 strides of +8 (the first load has no previous
   one): load 1 [8] 4095, nothing further.
   Loads, column sweep: every load has at least 5 earlier loads.  In
   column j, the load of row i:
     i >= 1: k-th previous for k <= i is m[i-k][j]: stride +512*k.
     k > i:  the k-th previous is the end of the previous column
             (m[63-(k-i-1)][j-1]) or, for j = 0, the end of the row
             sweep (m[63][63-(k-i-1)]).  The stride is
             512*i + 8*j - (512*(64-(k-i)) + 8*(j-1))
               = 512*k - 32760             (j >= 1), or
             512*i - (32768 - 8*(k-i))
               = 512*i - 32768 + 8*(k-i)   (j = 0),
             between -32760 and -30200: bin [16384,32767], negative.
   Every stride >= 128 in magnitude, so the filter never stops a load with
   k previous ones; the bins of +512k: 512 -> [512,1023]; 1024, 1536 ->
   [1024,2047]; 2048, 2560 -> [2048,4095].
   Per column (same bins for j = 0 and j >= 1), loads of row i:
              k=1        k=2         k=3         k=4         k=5
     i = 0    big        big         big         big         big
     i = 1    [512,1023] big         big         big         big
     i = 2    [512,1023] [1024,2047] big         big         big
     i = 3    [512,1023] [1024,2047] [1024,2047] big         big
     i = 4    [512,1023] [1024,2047] [1024,2047] [2048,4095] big
     i >= 5   [512,1023] [1024,2047] [1024,2047] [2048,4095] [2048,4095]
   (big = [16384,32767], negative).  Times 64 columns:
     load 1: [8] 4095 (row sweep), [512,1023] 63*64 = 4032,
             [16384,32767] 1*64 = 64
     load 2: [1024,2047] 62*64 = 3968, [16384,32767] 2*64 = 128
     load 3: [1024,2047] 61*64 = 3904, [16384,32767] 3*64 = 192
     load 4: [2048,4095] 60*64 = 3840, [16384,32767] 4*64 = 256
     load 5: [2048,4095] 59*64 = 3776, [16384,32767] 5*64 = 320
     negative loads 64 128 192 256 320 (the big ones), stores 0 0 0 0 0.
   Classes (first-histogram strides, size 8, line 64): +8 == the access
   size -> unit: 4095 stores + 4095 loads = 8190; +512 and the big ones
   -> beyond_line: 4032 + 64 = 4096.  No zero, no within_line.
   Dominant first stride (loads and stores together): +8, 8190 times out
   of 8190 + 4096 = 12286 first strides: share 0.666612 (rounded), 8/64 =
   0.125 lines.
   Per line: line 100 unit 4095 (stores), line 109 unit 4095, line 119
   beyond_line 4096: the row and the column sweeps are told apart.

   stride_rowcol_all.vgtest: --stride-mode=all --stride-history=3.  Every
   access enters every histogram k for which it has k earlier accesses.
   Stores (row order, +8 per store): store k has 4096-k strides of 8k:
     store 1: [8] 4095; store 2: [16] 4094; store 3: [24] 4093.
   Loads, row sweep: likewise [8] 4095, [16] 4094, [24] 4093.
   Loads, column sweep (each has >= 3 earlier loads): rows i >= k give
   +512k, rows i < k a big negative stride (table above):
     load 1: [512,1023] 63*64 = 4032, [16384,32767] 64
     load 2: [1024,2047] 62*64 = 3968, [16384,32767] 128
     load 3: [1024,2047] 61*64 = 3904, [16384,32767] 192
   so load 1: [8] 4095, [512,1023] 4032, [16384,32767] 64;
      load 2: [16] 4094, [1024,2047] 3968, [16384,32767] 128;
      load 3: [24] 4093, [1024,2047] 3904, [16384,32767] 192;
   negative loads 64 128 192, stores 0 0 0.  The first histograms are
   those of the filtered mode: same classes and dominant stride.

   Both tests also check the histograms against stride_ref.py, which
   recomputes them from a Lackey trace of the program.

   stdout: sum of i + j over the 4096 elements, each sweep:
           2 * 64 * (0 + 1 + ... + 63) = 2 * 64 * 2016 = 258048.
*/
#include <stdio.h>

#define N 64
double m[N][N] __attribute__((aligned(64)));

static void init_rows(void)
{
   int i, j;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         m[i][j] = i + j;
}

static double sum_rows(void)
{
   int i, j;
   double s = 0;
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
         s += m[i][j];
   return s;
}

static double sum_cols(void)
{
   int i, j;
   double s = 0;
   for (j = 0; j < N; j++)
      for (i = 0; i < N; i++)
         s += m[i][j];
   return s;
}

int main(void)
{
   double r, c;
   init_rows();
   r = sum_rows();
   c = sum_cols();
   printf("rows %.1f cols %.1f\n", r, c);
   return 0;
}
