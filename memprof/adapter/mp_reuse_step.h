/*--------------------------------------------------------------------*/
/*--- memprof: the reuse analysis's step on one access.            ---*/
/*---                                              mp_reuse_step.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The step of the reuse-distance analysis on one access, and the state
   it runs on: what the inline path (mp_an_reuse.h) and the analysis
   helper process (mp_helper.c) share, so that both run the same code.
*/
#ifndef MP_REUSE_STEP_H
#define MP_REUSE_STEP_H

#include "mp_an_ctx.h"
#include "mp_carriers.h"
#include "mp_hierarchy.h"
#include "mp_loopnest.h"
#include "mp_reuse.h"

extern mp_reuse *mp_g_reuse;       /* NULL with --reuse=no */
extern mp_carriers *mp_g_carriers; /* NULL unless loops, exact reuse, a cache */
extern const uint64_t *mp_g_loop_epoch;   /* mp_loops_epoch, with the carriers */
extern uint64_t mp_g_carrier_far;    /* the carriers' far distance, in lines */
/* --sample=lines, the history's lines being the L1's: the sample's
   ranks (mp_g_sample_rank), by which mp_reuse_line_of numbers the
   lines; NULL otherwise. */
extern const UInt *mp_g_reuse_rank;

#define MP_LINE_UNSAMPLED (~0ULL)

/* The number the history knows line by.  With --sample=lines, a line
   outside the sample (the other line of an access straddling two) is
   MP_LINE_UNSAMPLED, and a line of it is numbered by its rank among the
   sampled lines: its number above the L1's set bits times the sampled
   sets, plus its set's rank.  The history's tables are kept by page of
   512 lines, and a sample of whole sets has lines in every page of the
   program's, so without the ranks they cost as much per touched line
   as in the full run.  Distances, counts of distinct lines, are the
   same.  The cache's L1 oracle, which asks the history by line, is
   taken only when every set is sampled, where the rank of each line is
   its own number (mp_an_reuse_rank_sample). */
static inline ULong mp_reuse_line_of(ULong line)
{
   UInt r;
   if (mp_g_reuse_rank == NULL)
      return line;
   r = mp_g_reuse_rank[line & mp_g_sample_set_mask];
   if (r == 0)
      return MP_LINE_UNSAMPLED;
   return (line >> mp_g_sample_set_bits) * mp_g_sample_n_sets + (r - 1);
}

/* The reuse of each line of one access, into its line record's
   reuses: the step itself, which the helper (mp_helper.c) runs on the
   records it reads as the inline path (mp_an_reuse_access) runs it.  tagged: the
   carriers are counted (the loops are followed: a detail window). */
static inline void mp_an_reuse_lines(const mp_event *e, UInt group, mp_line_reuse *lr,
                                     Bool tagged)
{
   ULong line = mp_event_first_line(e, mp_g_line_shift);
   ULong last = mp_event_last_line(e, mp_g_line_shift);
   for (; line <= last; line++) {
      ULong at = mp_reuse_line_of(line);
      uint64_t d;
      int kind;
      if (at == MP_LINE_UNSAMPLED)
         continue;
      if (tagged) {
         uint64_t now = *mp_g_loop_epoch;
         uint32_t then;
         mp_loopnest_seen(e->tid);
         kind = mp_reuse_access_tagged(mp_g_reuse, e->tid, group, at, e->is_write,
                                       (uint32_t)now, &d, &then);
         if (UNLIKELY(kind == MP_REUSE_PRIVATE && d >= mp_g_carrier_far))
            mp_loopnest_far_reuse(mp_g_carriers, e->tid, e->var, now, then, d);
      } else {
         kind = mp_reuse_access(mp_g_reuse, e->tid, group, at, e->is_write, &d);
      }
      mp_vars_reuse(lr, kind, d);
   }
}

#endif /* MP_REUSE_STEP_H */
