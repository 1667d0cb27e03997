/*--------------------------------------------------------------------*/
/*--- memprof: the reuse analysis in the access list.              ---*/
/*---                                                mp_an_reuse.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the reuse-distance engine (mp_reuse.c: multicore
   reuse distances per variable, exact or sampled) as one entry of the
   list in mp_analyses.h.
*/
#ifndef MP_AN_REUSE_H
#define MP_AN_REUSE_H

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_reuse.h"

extern mp_reuse *mp_g_reuse;       /* NULL with --reuse=no */

static inline Bool mp_an_reuse_on(void) { return mp_g_reuse != NULL; }

static inline void mp_an_reuse_create(void)
{
   mp_reuse_cfg rc;
   const char *err = NULL;
   if (!mp_clo_reuse)
      return;
   VG_(memset)(&rc, 0, sizeof rc);
   rc.n_threads_hint = 4;
   rc.mode = mp_clo_sample_mode == 1 ? MP_REUSE_SHARDS
           : mp_clo_sample_mode == 2 ? MP_REUSE_BURSTY : MP_REUSE_EXACT;
   rc.rate = mp_clo_sample_rate;
   rc.window = mp_clo_sample_window;
   rc.max_gap = mp_clo_sample_max_gap;
   mp_g_reuse = mp_reuse_new(&rc, &err);
   tl_assert2(mp_g_reuse != NULL, "%s", err);   /* --sample was range-checked */
}

/* A scattered instruction's history cell, read while the cache is
   simulated. */
static inline void mp_an_reuse_prefetch(const mp_an_ctx *c)
{
   mp_reuse_prefetch(mp_g_reuse, c->e->tid, c->e->addr >> mp_g_line_shift);
}

static inline void mp_an_reuse_access(mp_an_ctx *c)
{
   ULong line = mp_event_first_line(c->e, mp_g_line_shift);
   ULong last = mp_event_last_line(c->e, mp_g_line_shift);
   UInt group = mp_g_thread_group[c->tid];
   for (; line <= last; line++) {
      uint64_t d;
      int kind = mp_reuse_access(mp_g_reuse, c->e->tid, group, line, c->e->is_write, &d);
      mp_vars_reuse(c->lc, kind, d);
   }
}

static inline void mp_an_reuse_thread_start(UInt serial) { }

/* Its private reuse stream goes. */
static inline void mp_an_reuse_thread_exit(UInt serial)
{
   mp_reuse_thread_exit(mp_g_reuse, serial);
}

static inline void mp_an_reuse_unmap(Addr a, SizeT len) { }
static inline void mp_an_reuse_free(Addr a, SizeT len) { }
static inline void mp_an_reuse_window_start(void) { }
static inline void mp_an_reuse_reset(void) { mp_reuse_reset(mp_g_reuse); }
static inline void mp_an_reuse_finish(void) { }
/* The variables' reuse histograms, from their lines' records. */
static inline void mp_an_reuse_flush(void)
{
   mp_vars_reuse_totals(mp_g_vars);
}

static inline void mp_an_reuse_stats(void)
{
   mp_reuse_stats st;
   mp_reuse_get_stats(mp_g_reuse, &st);
   VG_(dmsg)("memprof: reuse: %llu lines accessed, %llu analysed, %llu "
             "compactions, %llu bytes of metadata\n", (ULong)st.accesses,
             (ULong)st.analysed, (ULong)st.compactions,
             (ULong)mp_reuse_bytes(mp_g_reuse));
}

#endif /* MP_AN_REUSE_H */
