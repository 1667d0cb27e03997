/* SPDX-License-Identifier: GPL-2.0-or-later

   formula_calls: a nest whose strides depend on its call's arguments,
   the butterfly of an FFT (NPB FT's fftz2), has an access formula per
   execution, not one over them all.

   butterfly(l) runs li = 2^(M-l) x lk = 2^(l-1) x NY iterations (lines
   35-44); its operands lie at rows i*lk + k (u, lines 39 and 40: the
   other half NX/2 rows on) and 2*i*lk + k, 2*i*lk + lk + k (v, lines
   41-44), each row NY = 16 complex doubles of 16 bytes, 256 bytes.
   Across the calls of transform (l = 1 .. M) the coefficient of i is
   256*lk and 512*lk: no formula holds for all of them.  memprof fits
   one execution of the outermost loop (the i loop): the first, l = 1,
   lk = 1, li = 128, where the k loop never moves (no coefficient):
     u[i11 + k][j], lines 39-40:  16*i1 + 256*i3 (2 loads each line)
     v[i21 + k][j], lines 41-42:  16*i1 + 512*i3 (+ 256 for v[i22]:
       lines 43-44 have the same formula, base one row further)
   and the later calls, with other strides, do not refute it.  Per
   line the loads and stores of .re and .im are two instructions with
   the same formula, 8 bytes apart (base; at -O0 the counters start at
   1, so base = offset - 256 - 16).  The variable shown is the
   instruction's last (the later calls swap x and y).
*/
#include <stdio.h>

#define M 8
#define NX (1 << M)
#define NY 16
typedef struct { double re, im; } dc;
static dc x[NX][NY], y[NX][NY];

static void butterfly(int l, dc u[NX][NY], dc v[NX][NY])
{
   int li = 1 << (M - l), lk = 1 << (l - 1);
   for (int i = 0; i < li; i++) {
      int i11 = i * lk, i12 = i11 + NX / 2, i21 = i * 2 * lk, i22 = i21 + lk;
      for (int k = 0; k < lk; k++) {
         for (int j = 0; j < NY; j++) {
            double ar = u[i11 + k][j].re, ai = u[i11 + k][j].im;
            double br = u[i12 + k][j].re, bi = u[i12 + k][j].im;
            v[i21 + k][j].re = ar + br;
            v[i21 + k][j].im = ai + bi;
            v[i22 + k][j].re = ar - br;
            v[i22 + k][j].im = ai - bi;
         }
      }
   }
}

static void transform(void)
{
   for (int l = 1; l <= M; l += 2) {
      butterfly(l, x, y);
      butterfly(l + 1, y, x);
   }
}

int main(void)
{
   for (int i = 0; i < NX; i++)
      for (int j = 0; j < NY; j++)
         x[i][j].re = i + j;
   for (int it = 0; it < 4; it++)
      transform();
   printf("%.1f\n", x[3][3].re);
   return 0;
}
