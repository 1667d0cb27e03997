/*--------------------------------------------------------------------*/
/*--- memprof: the variables' own counts in the access list.       ---*/
/*---                                            mp_an_footprint.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The variable table's own counts (mp_vars.c: accesses, reads and
   writes per variable and source line, the footprint of lines touched)
   as the last entry of the list in mp_analyses.h.  Each instruction
   holds its counts of its current variable (mp_instr.held) until it
   moves to another variable or the flush step adds them to the
   records.  The table itself is
   made before the list's create steps, since every analysis reads its
   line size; this entry only counts.  With the hierarchy in a helper
   process (mp_helper.h) the footprint is the helper's too: there the
   cache's L1 hit on a line the variable filled spares its probe, as it
   does here otherwise.
*/
#ifndef MP_AN_FOOTPRINT_H
#define MP_AN_FOOTPRINT_H

#include "mp_an_ctx.h"
#include "mp_an_hier.h"

static inline void mp_an_footprint_create(void)
{
   mp_g_line_shift = mp_vars_line_shift(mp_g_vars);
   /* --sample=lines: the footprint's shadow numbers the sampled lines by
      their rank in the sample, and skips the others */
   if (mp_g_sample_rank != NULL && mp_g_line_shift == mp_g_sample_line_shift)
      mp_vars_rank_lines(mp_g_vars, mp_g_sample_rank, mp_g_sample_set_mask,
                         mp_g_sample_set_bits, mp_g_sample_n_sets);
}

/* A scattered instruction's footprint cell, read while the cache is
   simulated. */
static inline void mp_an_footprint_prefetch(const mp_an_ctx *c)
{
   mp_vars_prefetch(mp_g_vars, c->e, &c->ii->held);
}

/* Counted in the instruction's held counts (mp_held_counts); a line the
   cache found in the variable's own footprint needs no probe of it. */
static inline void mp_an_footprint_access(mp_an_ctx *c)
{
   if (!mp_an_hier_here())
      mp_vars_access_counts(mp_g_vars, c->e, &c->ii->held);
   else if (c->in_footprint)
      mp_vars_access_in_footprint(mp_g_vars, c->e, &c->ii->held);
   else
      mp_vars_access(mp_g_vars, c->e, &c->ii->held);
}

/* Every instruction's held counts go to their records (mp_analyses.c):
   the counts are read after this. */
void mp_an_footprint_flush(void);

/* A forked child: the counts the instructions held are the parent's. */
void mp_an_footprint_reset(void);

#endif /* MP_AN_FOOTPRINT_H */
