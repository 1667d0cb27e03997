/* SPDX-License-Identifier: GPL-2.0-or-later

   stride_spmv: the sparse matrix-vector loop of Balle & Steely's Figure 1
   ("Analyzing Memory Access Patterns of Programs on Alpha-based
   Architectures"), in C with small deterministic sizes, and the stride
   histograms of its arrays Q, COLSTR and P.

   Translation: the Fortran arrays are column-major, so COLSTR(j,k1) is
   COLSTR[k1][j] here (contiguous in j), likewise ROWIDX, AA and YTEMP;
   indices are 0-based.  n = N = 16 (14000 in the paper), 2 blocks k1 (4
   in the paper), every column j of every block holds NZ = 5 nonzeros at
   the rows R = (1, 2, 6, 11, 15), in this order: COLSTR[k1][j] = 5j
   (j = 0..16), ROWIDX[k1][5j+t] = R[t], AA[k1][5j+t] = t+1, P[i] = i+1.
   ROWIDX has 4 more entries per block (R[0..3] again): the k loop reads
   ROWIDX(k+4..k+7) past the last column (the paper's "it looks like the
   k loop is violating the array bounds").  The paper's [snip] p3 is the
   last element of the whole groups of 4: p3 = p1 + 4*((p2-p1+1)/4) - 1.
   COLSTR, ROWIDX, AA and P are initialised data: they are never
   stored to.  The only accesses to the arrays are spmv()'s and main's
   sum of Q.

   At -O0 (objdump -d) every array reference in spmv() is one movl/movsd
   from or to the array; the scalars live in spmv's frame.  With 5
   nonzeros a column runs the k loop once (k = p1, p3 = p1+3) and the
   remainder loop once (k = p1+4 = p2).

   Q (double[16]).  Q(i)=0 (line 125): 16 stores Q[0..15].  Then, per
   block, the i loop (lines 156-159): loads and stores Q[0..15] in
   order.  Then main sums Q (line 170): 16 loads Q[0..15].
   Stores: 48, Q[0..15] three times; loads: 48, Q[0..15] three times.
   Stride from one access to the next of its kind: +8 (one element: unit)
   but at each restart Q[15] -> Q[0]: -120 (beyond_line: >= 64).
   Restarts: 2 for the stores (init -> block 0 -> block 1), 2 for the
   loads (block 0 -> block 1 -> main).
     load 1: [8] 47-2 = 45, [120] 2;  store 1: [8] 47-2 = 45, [120] 2.
   That is the paper's "Q ... 100 percent stride one" but for the
   restarts (invisible among n = 14000 elements in the paper).  120 is
   below the threshold 128: histograms 2..5 stay empty.
     negative: load 2 0 0 0 0, store 2 0 0 0 0.
     classes: unit 45+45 = 90, beyond_line 2+2 = 4.
     dominant +8: 90 of 94 first strides, share 0.957447, 0.125 lines.
   Per line: 125 (stores 2..16 after a store): unit 15; 156 (Q[i], i =
   0, 4, 8, 12): loads unit 6 + beyond 1 (block 1's Q[0] after Q[15];
   block 0's Q[0] is the first load), stores unit 6 + beyond 2 -> unit
   12, beyond 3; 157, 158, 159: unit 16 each (8 loads + 8 stores,
   each after Q[i-1]); 170: unit 15, beyond 1 (Q[0] after Q[15]).

   COLSTR (int[2][17]).  Per column: p1 = COLSTR[k1][j] (line 131), then
   p2 = COLSTR[k1][j+1] - 1 (line 132): loads of elements j, j+1, then
   j+1, j+2 for the next column: at -O0 both references are loads, as
   the paper's compiler did (its Figure 4).  Loads: 2*16*2 = 64, 63
   strides: +4 (unit) from j to j+1 in a column (16 per block) and from
   COLSTR[0][16] to COLSTR[1][0] (adjacent: rows of 17): 33; 0 from
   COLSTR(j+1) of column j to COLSTR(j) of column j+1 (15 per block): 30.
     load 1: [0] 30, [4] 33; no store; histograms 2..5 empty.
     negative 0.  classes: zero 30, unit 33.
     dominant +4: 33 of 63, share 0.52381, 0.0625 lines.
   Per line: 131 zero 30 (after line 132's load of the same element),
   unit 1 (block 1, j = 0); 132 unit 32.

   P (double[32]), indexed through ROWIDX.  In a column the P loads read
   the rows (x1..x4 preloaded, lines 135-138; prefetched in the k loop,
   lines 144-147; reloaded in the remainder loop, line 150):
       R[0] R[1] R[2] R[3] | R[4] R[0]' R[1]' R[2]' | R[4]
     =  1    2    6    11  |  15   1    2    6      |  15
   (' = the next column's ROWIDX entries, the same rows), all at
   P[16*k1 + row].  Differences in elements: +1 +4 +5 +4 -14 +1 +4 +9,
   then -14 to the next column's first load; from block 0's last load
   (row 15) to block 1's first (16 + 1): +2.  In bytes (x8), over 32
   columns (288 loads, 287 strides):
     +8   (+1, twice a column)              64   unit
     +32  (+4, three times a column)        96   within_line
     +40  (+5, once)                        32   within_line
     +72  (+9, once)                        32   beyond_line
     -112 (-14, in a column 32 + between columns 15 per block 30)
                                            62   beyond_line
     +16  (block 0 -> block 1)               1   within_line
     load 1: [8] 64, [16] 1, [32] 96, [40] 32, [72] 32, [112] 62;
     nothing >= 128: histograms 2..5 empty; no store.
     negative: load 62 0 0 0 0.  classes: unit 64, within_line 129,
     beyond_line 94.  dominant +32: 96 of 287, share 0.334495, 0.5 lines.
   Per line: 135 (row 1 after row 15) beyond 30, within 1 (block 1's
   first, +16), and block 0's first has no previous load; 136 unit 32;
   137 within 32; 138 within 32; 144 (15 after 11) within 32; 145 (1
   after 15) beyond 32; 146 unit 32; 147 within 32; 150 (15 after 6)
   beyond 32.

   ROWIDX, AA and YTEMP are checked against stride_ref.py's Lackey
   reference only (with Q, COLSTR and P).

   stdout: YTEMP[k1][j] = sum_t (t+1) * P[16*k1 + R[t]]
                        = sum_t (t+1) * (16*k1 + R[t] + 1)
                        = 240*k1 + (1*2 + 2*3 + 3*7 + 4*12 + 5*16)
                        = 240*k1 + 157;
           Q[i] = 157 + 397 = 554, and the sum of Q is 16 * 554 = 8864.
*/
#include <stdio.h>

#define N   16              /* n */
#define NK  2               /* blocks k1 */
#define NZ  5               /* nonzeros per column */
#define NNZ (N * NZ)        /* per block */

#define CS  { 0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80 }
#define R5  1, 2, 6, 11, 15
#define R80 R5, R5, R5, R5, R5, R5, R5, R5, R5, R5, R5, R5, R5, R5, R5, R5
#define W5  1, 2, 3, 4, 5
#define W80 W5, W5, W5, W5, W5, W5, W5, W5, W5, W5, W5, W5, W5, W5, W5, W5

int COLSTR[NK][N + 1] = { CS, CS };
int ROWIDX[NK][NNZ + 4] = { { R80, 1, 2, 6, 11 }, { R80, 1, 2, 6, 11 } };
double AA[NK][NNZ] = { { W80 }, { W80 } };
double P[NK * N] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                     17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                     31, 32 };
double Q[N];
double YTEMP[NK][N];

static void spmv(void)
{
   int i, j, k, k1, index, p1, p2, p3;
   double sum0, sum1, sum2, sum3, x1, x2, x3, x4;

   for (i = 0; i < N; i++)
      Q[i] = 0;
   for (k1 = 0; k1 < NK; k1++) {
      index = k1 * N;
      for (j = 0; j < N; j++) {
         /* The paper's lines 5-6: COLSTR(j) and COLSTR(j+1), two loads
            per column, one of them the previous column's second. */
         p1 = COLSTR[k1][j];
         p2 = COLSTR[k1][j + 1] - 1;
         p3 = p1 + 4 * ((p2 - p1 + 1) / 4) - 1;
         sum0 = sum1 = sum2 = sum3 = 0.0;
         x1 = P[index + ROWIDX[k1][p1]];
         x2 = P[index + ROWIDX[k1][p1 + 1]];
         x3 = P[index + ROWIDX[k1][p1 + 2]];
         x4 = P[index + ROWIDX[k1][p1 + 3]];
         for (k = p1; k <= p3; k += 4) {
            sum0 = sum0 + AA[k1][k] * x1;
            sum1 = sum1 + AA[k1][k + 1] * x2;
            sum2 = sum2 + AA[k1][k + 2] * x3;
            sum3 = sum3 + AA[k1][k + 3] * x4;
            x1 = P[index + ROWIDX[k1][k + 4]];
            x2 = P[index + ROWIDX[k1][k + 5]];
            x3 = P[index + ROWIDX[k1][k + 6]];
            x4 = P[index + ROWIDX[k1][k + 7]];
         }
         for (k = p3 + 1; k <= p2; k++) {
            x1 = P[index + ROWIDX[k1][k]];
            sum0 = sum0 + AA[k1][k] * x1;
         }
         YTEMP[k1][j] = sum0 + sum1 + sum2 + sum3;
      }
      for (i = 0; i < N; i += 4) {
         Q[i] = Q[i] + YTEMP[k1][i];
         Q[i + 1] = Q[i + 1] + YTEMP[k1][i + 1];
         Q[i + 2] = Q[i + 2] + YTEMP[k1][i + 2];
         Q[i + 3] = Q[i + 3] + YTEMP[k1][i + 3];
      }
   }
}

int main(void)
{
   int i;
   double s = 0;
   spmv();
   for (i = 0; i < N; i++)
      s += Q[i];
   printf("sum of Q %.1f\n", s);
   return 0;
}
