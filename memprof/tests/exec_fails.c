/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec_fails: an execve that fails in the middle of the run.  memprof
   completes its counts and writes them before every execve (the file
   <name>.exec-1), and the run goes on: the counts at the end must be
   the whole run's, as if nothing had been written between.  With the
   analyses in helper processes they hand their counts back at the
   execve and again at the end (memprof/tests/helper_exact.py compares
   the two ways); the sampled miss causes of the L2 are split at both. */
#include <stdio.h>
#include <unistd.h>

#define N (4 << 20)
static unsigned char big[N];

static unsigned sweep(int step)
{
   unsigned s = 0;
   for (int i = 0; i < N; i += step)
      s += big[i]++;
   return s;
}

int main(void)
{
   char *argv[] = { "memprof-exec-fails", NULL };
   unsigned s = sweep(64);
   execv("/nonexistent/memprof-exec-fails", argv);
   s += sweep(64) + sweep(4096);
   printf("exec failed, sum %u\n", s);
   return 0;
}
