/* SPDX-License-Identifier: GPL-2.0-or-later
   heap_library: a library call that allocates behind &argc, as
   MPI_Init(&argc, &argv) does: the library keeps its blocks (its
   functions return an int), so the program's argc and argv hold none
   of them.

   Expected (post): the two blocks, each a site of its own, named after
   the library call the program made, at the program's line:
     heap@heaplib_init (heap_library.c:21): 64 longs, size 512;
     heap@heaplib_init#2 (heap_library.c:21): size 32.
   No variable named argc, argv or err (the status the call returns);
   and the program's own block buf is still named buf (line 22). */
#include <stdio.h>
#include <stdlib.h>

int heaplib_init(int *argc, char ***argv);
long heaplib_sum(void);

int main(int argc, char **argv)
{
   int err = heaplib_init(&argc, &argv);
   char *buf = malloc(16);
   buf[0] = (char)err;
   printf("%ld\n", heaplib_sum() + buf[0]);
   free(buf);
   return 0;
}
