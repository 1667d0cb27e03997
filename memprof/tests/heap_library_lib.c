/* SPDX-License-Identifier: GPL-2.0-or-later
   heap_library_lib.c: a library whose initialiser takes the program's
   &argc and &argv, as MPI_Init does, and keeps tables of its own that
   the program never holds.  Built as libheap_library.so without debug
   information, as the system's libraries are. */
#include <stdlib.h>

static long *table;        /* the library's own */
static char *copy;

int heaplib_init(int *argc, char ***argv);
long heaplib_sum(void);

int heaplib_init(int *argc, char ***argv)
{
   int i;
   table = malloc(64 * sizeof(long));
   for (i = 0; i < 64; i++)
      table[i] = i + *argc;
   copy = malloc(32);
   copy[0] = (*argv)[0][0];
   return 0;
}

long heaplib_sum(void)
{
   long s = copy[0] != 0;
   int i;
   for (i = 0; i < 64; i++)
      s += table[i];
   return s;
}
