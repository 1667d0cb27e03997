/* SPDX-License-Identifier: GPL-2.0-or-later
   reuse_threads: shared versus private reuse.  A worker
   thread writes every line of X (128 lines, one double each); once it
   has been joined, main reads X twice.

   Expected for X (64-byte lines; the two threads share the last level,
   --cores=1, so they are one sharing group):
     worker's writes: 128 first touches of the group -> cold 128;
     main's first pass: main never touched X, another thread did ->
       shared, 128 reuses (their distances count the worker's and main's
       other lines in between, which depend on the C library: not
       asserted);
     main's second pass: main read each line 128 reads ago, no write
       since -> private, distance 127 (the 127 other lines of X; the
       loop variables are `register`, in registers even at -O0), bin
       [64, 127], 128 reuses.
   reuse_show --totals prints the number of cold, private and shared
   reuses and the private histogram.
   stdout: 2 passes x 128 elements x 1.0 = 256. */
#include <pthread.h>
#include <stdio.h>

#define N 1024

double X[N] __attribute__((aligned(64)));

static void *writer(void *arg)
{
   register int i;
   for (i = 0; i < N; i += 8)
      X[i] = 1.0;
   return arg;
}

int main(void)
{
   pthread_t t;
   register double s = 0;
   register int rep, i;
   pthread_create(&t, NULL, writer, NULL);
   pthread_join(t, NULL);
   for (rep = 0; rep < 2; rep++)
      for (i = 0; i < N; i += 8)
         s += X[i];
   printf("%g\n", s);
   return 0;
}
