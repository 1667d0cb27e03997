/*--------------------------------------------------------------------*/
/*--- memprof: the stride analysis in the access list.             ---*/
/*---                                               mp_an_stride.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the stride engine (mp_stride.c: per variable and
   thread) and of the per-instruction strides (mp_istride, kept in each
   mp_instr and counted into its line's record), as one entry of the
   list in mp_analyses.h.  One file for both: they are one option
   (--strides) and one report section.

   An instruction's pending runs end in one function,
   mp_an_stride_end_runs, wherever they end: when the instruction moves
   to another variable, at its first access in a later sampling window,
   before an output, in a forked child.
*/
#ifndef MP_AN_STRIDE_H
#define MP_AN_STRIDE_H

#include "pub_tool_libcassert.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_stride.h"

extern mp_stride *mp_g_stride;     /* NULL with --strides=no */

static inline Bool mp_an_stride_on(void) { return mp_g_stride != NULL; }

static inline void mp_an_stride_create(void)
{
   mp_stride_cfg sc;
   const char *err = NULL;
   if (!mp_clo_strides)
      return;
   sc.k = mp_clo_stride_history;
   sc.mode = mp_clo_stride_filtered ? MP_STRIDE_FILTERED : MP_STRIDE_ALL;
   sc.threshold = mp_clo_stride_threshold;
   sc.line = mp_vars_line_size(mp_g_vars);
   mp_g_stride = mp_stride_new(&sc, &err);
   tl_assert2(mp_g_stride != NULL, "%s", err);  /* options were range-checked */
}

/*--- An instruction's stride runs ---*/

/* How an instruction's pending runs end (mp_an_stride_end_runs). */
typedef enum {
   /* Added to the record of the variable they were made in (ii->lc);
      the instruction's next access starts afresh. */
   MP_AN_STRIDE_COUNT,
   /* Added likewise, and the runs go on from the last address: the
      counts are made complete for an output without ending anything. */
   MP_AN_STRIDE_COUNT_GO_ON,
   /* Forgotten: a forked child's counts start from zero. */
   MP_AN_STRIDE_DROP
} mp_an_stride_end;

/* The one place an instruction's pending stride runs (its loads', then
   its stores') end.  Called
   - by mp_on_access (mp_instrument.c) when the instruction moves to
     another variable, before ii->lc changes: no stride from one
     variable to another (MP_AN_STRIDE_COUNT);
   - by the access step below, at the instruction's first access in a
     later sampling window: no stride spans a gap (MP_AN_STRIDE_COUNT);
   - for every instruction, by the flush step before an output
     (MP_AN_STRIDE_COUNT_GO_ON) and by the reset step in a forked child
     (MP_AN_STRIDE_DROP). */
static inline void mp_an_stride_end_runs(mp_instr *ii, mp_an_stride_end how)
{
   mp_line_stride *ls = how != MP_AN_STRIDE_DROP && ii->lc != NULL
                        ? &ii->lc->lstride : NULL;
   UInt k;
   for (k = 0; k < 2; k++) {
      mp_istride *is = &ii->istride[k];
      Addr last = is->last;
      mp_istride_flush(is, ls, ii->id);
      if (how == MP_AN_STRIDE_COUNT_GO_ON)
         is->last = last;
   }
}

/* mp_an_stride_end_runs for every instruction (mp_instrs.c's table). */
static inline void mp_an_stride_end_all_runs(mp_an_stride_end how)
{
   mp_instr *ii;
   mp_instrs_walk_start();
   while ((ii = mp_instrs_walk_next()) != NULL)
      mp_an_stride_end_runs(ii, how);
}

/*--- The steps ---*/

/* Sampling windows begun; an instruction whose last stride was in an
   earlier one ends its runs there, so that no stride spans a gap (a
   compare per access, nothing per window over the instructions). */
extern UInt mp_g_stride_window;

/* The variable's histories (mp_stride_access), then the instruction's
   own run (mp_istride_access), each stride weighed as
   mp_g_detail_weight says. */
static inline void mp_an_stride_access(mp_an_ctx *c)
{
   mp_instr *ii = c->ii;
   int cls;
   if (__builtin_expect(ii->stride_window != mp_g_stride_window, 0)) {
      mp_an_stride_end_runs(ii, MP_AN_STRIDE_COUNT);
      ii->stride_window = mp_g_stride_window;
   }
   cls = mp_stride_access(mp_g_stride, c->e->var, c->e->tid, c->e->addr, c->e->size,
                          c->e->is_write, mp_g_detail_weight);
   if (cls >= 0)
      c->lc->stride_classes[cls] += mp_g_detail_weight;
   mp_istride_access(&ii->istride[c->e->is_write], &c->lc->lstride, c->e->addr, ii->id,
                     mp_g_detail_weight);
}

static inline void mp_an_stride_window_start(void)
{
   mp_stride_window_start(mp_g_stride);
   mp_g_stride_window++;
}

/* A forked child's strides start from zero, its instructions' runs
   too. */
static inline void mp_an_stride_reset(void)
{
   mp_stride_reset(mp_g_stride);
   mp_an_stride_end_all_runs(MP_AN_STRIDE_DROP);
}

/* The instructions' open runs are added to their lines' records, and
   go on (the process may go on past an execve that fails). */
static inline void mp_an_stride_flush(void)
{
   mp_an_stride_end_all_runs(MP_AN_STRIDE_COUNT_GO_ON);
}

#endif /* MP_AN_STRIDE_H */
