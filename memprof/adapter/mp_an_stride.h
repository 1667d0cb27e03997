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

static inline void mp_an_stride_prefetch(const mp_an_ctx *c) { }

/* Sampling windows begun; an instruction whose last stride was in an
   earlier one ends its run there, so that no stride spans a gap (a
   compare per access, nothing per window over the instructions). */
extern UInt mp_g_stride_window;

static inline void mp_an_stride_access(mp_an_ctx *c)
{
   mp_instr *ii = c->ii;
   int cls;
   if (__builtin_expect(ii->stride_window != mp_g_stride_window, 0)) {
      mp_istride_flush(&ii->istride[0], &c->lc->lstride, ii->id);
      mp_istride_flush(&ii->istride[1], &c->lc->lstride, ii->id);
      ii->stride_window = mp_g_stride_window;
   }
   cls = mp_stride_access(mp_g_stride, c->e->var, c->e->tid, c->e->addr, c->e->size,
                          c->e->is_write, mp_g_detail_weight);
   if (cls >= 0)
      c->lc->stride_classes[cls] += mp_g_detail_weight;
   mp_istride_access(&ii->istride[c->e->is_write], &c->lc->lstride, c->e->addr, ii->id,
                     mp_g_detail_weight);
}

static inline void mp_an_stride_thread_start(UInt serial) { }
static inline void mp_an_stride_thread_exit(UInt serial) { }
static inline void mp_an_stride_unmap(Addr a, SizeT len) { }
static inline void mp_an_stride_free(Addr a, SizeT len) { }
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
   mp_instrument_forget_strides();
}

static inline void mp_an_stride_finish(void) { }

/* The instructions' open runs are added to their lines' records, and
   go on (the process may go on past an execve that fails). */
static inline void mp_an_stride_flush(void)
{
   mp_instrument_flush_strides();
}

static inline void mp_an_stride_stats(void) { }

#endif /* MP_AN_STRIDE_H */
