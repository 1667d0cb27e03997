/* SPDX-License-Identifier: GPL-2.0-or-later

   runtime_advice: no advice on the dynamic linker's data.  A small
   threaded program does little of its own: two threads count to 1,000
   in their own slots of counts.  Most of its memory cycles are then
   the dynamic linker's, and with the C library's debug information
   installed (libc6-dbg: the .vgtest's prereq) the linker's code has
   source lines, so its global _rtld_local (struct rtld_global, of
   ld-linux-x86-64.so.2) passes every test of the structure-splitting
   rule: at least 1,000 accesses, at least 1% of the run's cycles, a
   structure of at least two groups of fields covering at least half
   of its cycles (the post step checks each in the output file).  It
   is of class loader, so it gets no advice: no "Advice" line, and no
   advice item in the file.  The rule's own cases, which must fire on
   the program's variables, are struct_split's and struct_hot's.

   counts: thread k writes counts[k] 1,000 times (read and write,
   -O0); nothing the test derives, only that it is the program's.

   stdout: "1000 1000".
*/
#include <pthread.h>
#include <stdio.h>

static long counts[2];

static void *work(void *arg)
{
   long *c = arg;
   int i;
   for (i = 0; i < 1000; i++)
      (*c)++;
   return NULL;
}

int main(void)
{
   pthread_t t[2];
   int k;
   for (k = 0; k < 2; k++)
      pthread_create(&t[k], NULL, work, &counts[k]);
   for (k = 0; k < 2; k++)
      pthread_join(t[k], NULL);
   printf("%ld %ld\n", counts[0], counts[1]);
   return 0;
}
