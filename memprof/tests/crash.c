/* SPDX-License-Identifier: GPL-2.0-or-later

   crash: the client dies of SIGSEGV (a store through a null pointer)
   after writing an array; memprof still writes its output file whole at
   exit.

   before_crash (int[256], 64-byte aligned):
     line 29 writes before_crash[0..255]: writes 256, write_bytes 1024;
     line 30 reads before_crash[255] (the value stored through the null
     pointer): reads 1, read_bytes 4.
     size 1024, lines 1024 / 64 = 16, threads 1.
   (-O0: one store / load per element, the counter and the pointer in
   main's frame.)  The faulting store itself is not asserted.

   stderr: Valgrind's "Process terminating with default action of
   signal 11 (SIGSEGV)", then memprof's "Output:" line.  The shell sees
   the death by signal 11: exit status 128 + 11 = 139.
*/
#include <stddef.h>

int before_crash[256] __attribute__((aligned(64)));

int main(void)
{
   int i;
   volatile int *nowhere = NULL;

   for (i = 0; i < 256; i++)
      before_crash[i] = i;
   *nowhere = before_crash[255];
   return 0;
}
