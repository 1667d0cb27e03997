/* SPDX-License-Identifier: GPL-2.0-or-later

   stack_block: scratch arrays declared in nested blocks, named in the
   default run (built at -O2 -g -fopenmp: Makefile.am).

   The shape of an FFT's column pass: per pass, a block declares two
   scratch arrays, fills one from the input, the other from the first
   reversed, and adds the second to the output.  The asm statements
   with a "memory" clobber take each array's address, so the compiler
   keeps both in memory and writes and reads each whole per pass,
   whatever it vectorises (the byte counts do not depend on the width
   of the accesses; the access counts would, and are not asserted).

   columns (noinline; the number of passes comes from argc, so that gcc
   does not clone it: a clone, columns.constprop.0, gets no location
   for its locals from gcc 12, and its frame is then named as a whole),
   PASSES = 4 passes of N = 64 doubles:
     y0: written by the loop at line 40, read by the loop at line 43:
         write_bytes = read_bytes = 4 * 64 * 8 = 2048
     y1: written at line 43, read at line 46: the same, 2048 and 2048
   rows: the same pass in an OpenMP parallel region, whose body gcc
   outlines as rows._omp_fn.0 (one thread: OMP_NUM_THREADS=1), with
   its block's arrays y0 (written line 59, read line 62) and y1
   (written line 62, read line 65): 2048 and 2048 each; named
   columns::y0, rows::y0, ..., as two program variables share each name.
*/
#include <stdio.h>

#define N 64
#define PASSES 4

static double in[N], out[N];

__attribute__((noinline)) void columns(int passes)
{
   for (int p = 0; p < passes; p++) {
      double y0[N];
      double y1[N];
      for (int i = 0; i < N; i++)
         y0[i] = in[i] * p;
      __asm__ volatile("" : : "r"(y0) : "memory");
      for (int i = 0; i < N; i++)
         y1[i] = y0[N - 1 - i] + 1.0;
      __asm__ volatile("" : : "r"(y1) : "memory");
      for (int i = 0; i < N; i++)
         out[i] += y1[i];
   }
}

__attribute__((noinline)) void rows(int passes)
{
#pragma omp parallel
   {
#pragma omp single
      for (int p = 0; p < passes; p++) {
         double y0[N];
         double y1[N];
         for (int i = 0; i < N; i++)
            y0[i] = out[i] * p;
         __asm__ volatile("" : : "r"(y0) : "memory");
         for (int i = 0; i < N; i++)
            y1[i] = y0[N - 1 - i] + 1.0;
         __asm__ volatile("" : : "r"(y1) : "memory");
         for (int i = 0; i < N; i++)
            in[i] += y1[i];
      }
   }
}

int main(int argc, char **argv)
{
   int passes = PASSES + (argc > 1 && argv[1][0] == '+');
   for (int i = 0; i < N; i++)
      in[i] = i;
   columns(passes);
   rows(passes);
   printf("%.1f %.1f\n", out[N - 1], in[0]);
   return 0;
}
