/*--------------------------------------------------------------------*/
/*--- memprof: the padding replay of the conflict-sets advice.     ---*/
/*---                                                mp_pad_replays.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A variable whose misses are conflict misses is advised padding: a
   cache line added to its leading dimension, or between it and the
   array it collides with.  Before it is advised
   (--what-if=pad-conflicts), the nest of one of its walks is rebuilt
   from the access formulas of its innermost loop's instructions
   (mp_order_nest), from the outermost loop around whose step the
   walk's formula knows, and replayed (mp_nest_replay) as it ran and
   with the variable padded: its rows (the largest step of a loop
   through it, a line or more) one line longer, and,
   when it collides with another array, with its start moved by a line
   instead.  The other arrays keep their addresses.  The better layout
   is the replay kept; the other is told.  No Valgrind header:
   unit-tested on the host.
*/
#ifndef MP_PAD_REPLAYS_H
#define MP_PAD_REPLAYS_H

#include "mp_order_replays.h"

/* The padding of variable var against its conflict misses at the
   level, replayed on the nest of the first of instrs[0 .. n - 1] (the
   dominant instructions of its lines with the most misses) whose nest
   can be rebuilt; partner: it collides with another variable (its
   start is moved too). */
void mp_replay_padding(const mp_run *run, const mp_finished *an, uint32_t var,
                       const uint32_t *instrs, uint32_t n, uint32_t level, int partner,
                       mp_order_replay *out);

#endif /* MP_PAD_REPLAYS_H */
