/* SPDX-License-Identifier: GPL-2.0-or-later

   segv_handled: a store through a null pointer raises SIGSEGV, which a
   handler catches (siglongjmp back), in the same straight-line code as
   two accesses to an array just before it: they are counted, though the
   superblock that made them never reached its end (an instrumentation
   that analysed accesses at a superblock's exits would lose them).

   near_fault (int[16], 64-byte aligned), each access once, after the
   sigsetjmp and before the fault:
     line 38 writes near_fault[5]: writes 1, write_bytes 4;
     line 39 reads near_fault[6]: reads 1, read_bytes 4;
     size 64, lines 1, threads 1.
   (-O0: one store, one load; the pointer and x live in main's frame.)

   stdout: "caught 11", then "done".
*/
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

int near_fault[16] __attribute__((aligned(64)));
static sigjmp_buf back;

static void on_segv(int sig)
{
   printf("caught %d\n", sig);
   siglongjmp(back, 1);
}

int main(void)
{
   volatile int *nowhere = NULL;
   int x;

   signal(SIGSEGV, on_segv);
   if (sigsetjmp(back, 1) == 0) {
      near_fault[5] = 1;
      x = near_fault[6];
      *nowhere = x;
   }
   printf("done\n");
   return 0;
}
