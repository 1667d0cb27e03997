/* SPDX-License-Identifier: GPL-2.0-or-later
   heap_inlined: heap blocks named through allocation helpers of the
   program's own header inlined into main at -O2 (built -O2 -g).  The
   physical frame of both allocation calls is main; Valgrind's inline
   information gives the helper's level inside it.

   Expected (post):
     args (heap_inlined.c:28, args = checked_calloc(...)): the wrapper
        keeps calloc's block in its local temp and returns it, so it is
        passed over to main's line; 16 longs, size 128.
     h->buf (heap_inlined.h:24): holder_init stores the block in the
        holder: the helper's own line names it; 32 doubles, size 256.
   No variable is named temp. */
#include <stdio.h>
#include "heap_inlined.h"

#define N_ARGS 16
#define N_BUF 32

int main(int argc, char **argv)
{
   long *args;
   holder hold, *h = &hold;
   volatile long sum = 0;
   int i;

   (void)argv;
   args = checked_calloc(N_ARGS + argc - 1, sizeof(long));
   holder_init(h, N_BUF);
   for (i = 0; i < N_ARGS; i++)
      args[i] = i;
   for (i = 0; i < N_BUF; i++)
      h->buf[i] = i;
   for (i = 0; i < N_ARGS; i++)
      sum += args[i];
   for (i = 0; i < N_BUF; i++)
      sum += (long)h->buf[i];
   printf("%ld\n", (long)sum);
   free(h->buf);
   free(args);
   return 0;
}
