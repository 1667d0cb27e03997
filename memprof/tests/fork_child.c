/* SPDX-License-Identifier: GPL-2.0-or-later

   fork_child: a forked child starts from zero counts and writes its own
   output file (--memprof-out-file=memprof.out.fork.%p: one file per
   process).

   P (int[500], 64-byte aligned): written by the parent before the fork,
     P[0..499] at line 40: writes 500, write_bytes 2000, size 2000,
     lines = ceil(2000 / 64) = 32.  Neither process touches P after the
     fork.
   C (int[700], 64-byte aligned): written by the child only, after the
     fork, C[0..699] at line 47: writes 700, write_bytes 2800,
     size 2800, lines = ceil(2800 / 64) = 44.
   (-O0: one store per element, the counter in main's frame.)

   Parent's file: P as above, C absent (the parent never touches C).
   Child's file:  C as above, P absent: its counts were reset at the
                  fork, and the child never touches P.
   Each file: totals.threads = 1.  The post step prints both files sorted
   by content: the child's ("P absent" first) sorts before the
   parent's ("P kind=...").

   stdout: the parent's "child exited 0" (stdout flushed before fork so
   nothing is printed twice).
*/
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int P[500] __attribute__((aligned(64)));
int C[700] __attribute__((aligned(64)));

int main(void)
{
   int i, status;
   pid_t pid;

   for (i = 0; i < 500; i++)
      P[i] = i;
   fflush(stdout);
   pid = fork();
   if (pid < 0)
      return 1;
   if (pid == 0) {
      for (i = 0; i < 700; i++)
         C[i] = i;
      exit(0);
   }
   if (waitpid(pid, &status, 0) != pid)
      return 1;
   printf("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
   return 0;
}
