/*--------------------------------------------------------------------*/
/*--- memprof: the reuse analysis in the access list.              ---*/
/*---                                                mp_an_reuse.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the reuse-distance engine (mp_reuse.c: multicore
   reuse distances per variable, exact or sampled) as one entry of the
   list in mp_analyses.h.

   The same history answers the simulated L1's miss causes: a fully
   associative LRU cache of C lines holds a line exactly when its reuse
   distance is under C, so while one thread runs, its exact history is
   the L1 shadow that the cache would otherwise step at every access
   (mp_cache_set_l1_oracle).  The cache, before the reuse step, asks it
   at each L1 miss (mp_reuse_would_hold); the reuse step then takes the
   count the question made.  When a second thread starts, the cache
   gets its shadows back, the first thread's C latest lines in them.

   The history also finds the loop that carries each far reuse (a
   distance of at least the L1's lines; mp_carriers.h): each access
   leaves the loops' epoch in its line's record, and a far private
   reuse reads the epoch its earlier access left, which says which of
   the loops active now were active then (mp_loops_carrier).  That
   needs the loops (--loops=yes), exact distances and a cache to size
   "far"; the carriers are then counted wherever the loops are followed
   (mp_g_carrying: throughout with --sample=detail, in the windows alone
   when the gaps do not follow the loops), and only there are the
   epochs left: outside them the plain access runs (a line last touched
   in a gap reads an older epoch, from before the window's flush: its
   carrier is unseen).
*/
#ifndef MP_AN_REUSE_H
#define MP_AN_REUSE_H

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_loopnest.h"
#include "mp_helper.h"
#include "mp_reuse_step.h"
#include "mp_hierarchy.h"
#include "mp_reuse.h"

/* The oracle, while the main thread (serial 1) is the only one that
   has run. */
static inline int mp_an_reuse_l1_verdict(void *arg, uint32_t core, uint64_t first,
                                         uint64_t line, uint64_t cap)
{
   return mp_reuse_would_hold(mp_g_reuse, 1, first, line, cap);
}

/* Lends an exact history to the cache, if it can take it
   (mp_cache_set_l1_oracle).  With --sample=periodic or windows the
   history is exact too: the cache and it see the same accesses, those
   of the windows. */
static inline void mp_an_reuse_lend_history(mp_reuse_mode mode)
{
   if (mode == MP_REUSE_EXACT && mp_g_hier.cache != NULL)
      mp_cache_set_l1_oracle(mp_g_hier.cache, mp_an_reuse_l1_verdict, NULL);
}

static inline Bool mp_an_reuse_on(void) { return mp_g_reuse != NULL; }

/* --sample=lines: the history numbers the lines by their rank in the
   sample (mp_reuse_line_of).  The cache's L1 oracle asks it by line,
   but the cache takes one only when every set is sampled (R = 1),
   where each line's rank is its own number. */
static inline void mp_an_reuse_rank_sample(void)
{
   if (mp_g_sample_rank != NULL
       && mp_vars_line_shift(mp_g_vars) == mp_g_sample_line_shift)
      mp_g_reuse_rank = mp_g_sample_rank;
}

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
   rc.fed_shift = mp_g_sample_shift;   /* --sample=lines: whole sets of the L1 */
   rc.window = mp_clo_sample_window;
   rc.max_gap = mp_clo_sample_max_gap;
   rc.tags = rc.mode == MP_REUSE_EXACT && mp_g_loops != NULL && mp_g_hier.cache != NULL;
   mp_g_reuse = mp_reuse_new(&rc, &err);
   tl_assert2(mp_g_reuse != NULL, "%s", err);   /* --sample was range-checked */
   /* With either in a helper process, the history and the cache are not
      in one: the cache steps its own L1 shadows, which hold the same
      lines. */
   if (!mp_g_reuse_apart && !mp_g_hier_apart)
      mp_an_reuse_lend_history(rc.mode);
   mp_an_reuse_rank_sample();
   if (rc.tags) {
      mp_g_carrier_far = mp_cache_l1_lines(mp_g_hier.cache);
      mp_g_carriers = mp_carriers_new(mp_g_carrier_far);
      mp_g_loop_epoch = mp_loops_epoch(mp_g_loops);
      mp_g_loop_changes = mp_loops_changes(mp_g_loops);
   }
}

/* A scattered instruction's history cell, read while the cache is
   simulated. */
static inline void mp_an_reuse_prefetch(const mp_an_ctx *c)
{
   ULong line = mp_reuse_line_of(c->e->addr >> mp_g_line_shift);
   if (!mp_g_reuse_apart && line != MP_LINE_UNSAMPLED)
      mp_reuse_prefetch(mp_g_reuse, c->e->tid, line);
}

/* In a helper, the access's record (mp_an_stream_access) is all. */
static inline void mp_an_reuse_access(mp_an_ctx *c)
{
   if (mp_g_reuse_apart && LIKELY(!mp_clo_helper_check))
      return;
   mp_an_reuse_lines(c->e, mp_g_thread_group[c->tid], &c->lc->reuse,
                     mp_g_carriers != NULL && mp_g_carrying);
}

/* A second thread: the L1 shadows come back, filled as the history
   says the main thread's core's would be. */
static inline void mp_an_reuse_thread_start(UInt serial)
{
   void *arg;
   if (serial == 2 && mp_g_hier.cache != NULL
       && mp_cache_get_l1_oracle(mp_g_hier.cache, &arg) != NULL) {
      UInt n = (UInt)mp_cache_l1_lines(mp_g_hier.cache);
      uint64_t *lines = VG_(malloc)("mp.an.reuse.recent", n * sizeof *lines);
      n = mp_reuse_recent_lines(mp_g_reuse, 1, lines, n);
      mp_cache_l1_shadows(mp_g_hier.cache, mp_hierarchy_core_of(1), lines, n);
      VG_(free)(lines);
   }
}

/* Its private reuse stream goes. */
static inline void mp_an_reuse_thread_exit(UInt serial)
{
   if (mp_g_reuse_apart)
      mp_helper_thread_exit(serial);
   if (!mp_g_reuse_apart || mp_clo_helper_check)
      mp_reuse_thread_exit(mp_g_reuse, serial);
}

static inline void mp_an_reuse_reset(void)
{
   mp_reuse_reset(mp_g_reuse);
   if (mp_g_carriers)
      mp_carriers_reset(mp_g_carriers);
}
/* The variables' reuse histograms, from their lines' records (the
   helper's counts, if it ran, are theirs already: mp_helper_collect).
   A helper that died took the analysis with it. */
static inline void mp_an_reuse_flush(void)
{
   if (mp_g_reuse != NULL)
      mp_vars_reuse_totals(mp_g_vars);
}

static inline void mp_an_reuse_stats(void)
{
   mp_reuse_stats st;
   mp_reuse_get_stats(mp_g_reuse, &st);
   VG_(dmsg)("memprof: reuse: %llu lines accessed, %llu analysed, %llu "
             "compactions, %llu bytes of metadata\n", (ULong)st.accesses,
             (ULong)st.analysed, (ULong)st.compactions,
             (ULong)(mp_helper_ran() ? mp_helper_reuse_bytes()
                                     : mp_reuse_bytes(mp_g_reuse)));
   if (mp_g_carriers) {
      uint64_t added, unseen;
      mp_carriers_counts(mp_g_carriers, &added, &unseen);
      VG_(dmsg)("memprof: reuse: %llu far reuses (%llu lines or more) by carrier "
                "loop, %llu whose carrier was not seen\n", (ULong)added,
                (ULong)mp_g_carrier_far, (ULong)unseen);
   }
}

#endif /* MP_AN_REUSE_H */
