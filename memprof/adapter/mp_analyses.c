/*--------------------------------------------------------------------*/
/*--- memprof: the list's cold steps, and the analyses' state.     ---*/
/*---                                                mp_analyses.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The steps of the list in mp_analyses.h that run off the access path
   (setup, threads, munmap, free, windows, fork, exit, -v), each calling
   the analyses that have that step in the list's order, and the state
   of the analyses whose adapter is a header alone.  An analysis with a
   .c file of its own (mp_hierarchy.c, mp_loopnest.c) keeps its state
   there.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "mp_analyses.h"

/* Which analyses see this access (mp_an_ctx.h); the sampling schedule
   in mp_instrument.c sets them. */
UWord mp_g_detailing = 1;
UWord mp_g_carrying = 1;
UInt mp_g_detail_weight = 1;

mp_stride *mp_g_stride;
UInt mp_g_stride_window;
ULong mp_g_loops_accesses;
mp_sharing *mp_g_sharing;
mp_reuse *mp_g_reuse;
mp_numa *mp_g_numa;
UInt mp_g_numa_extra_cycles;
mp_whatif *mp_g_whatif;
mp_carriers *mp_g_carriers;
const uint64_t *mp_g_loop_epoch;
uint64_t mp_g_carrier_far;
const UInt *mp_g_reuse_rank;
UInt mp_g_scattered_level;
UInt mp_g_line_shift;

/* Each analysis decides from the options whether it is on.  The sharing
   analysis is made later, at the second thread. */
void mp_analyses_create(void)
{
   mp_helper_plan();
   mp_an_stride_create();
   mp_an_cache_create();
   /* The loops before the reuse analysis, which tags each access with
      the loops' epoch to find the loop carrying a far reuse. */
   mp_an_loops_create();
   mp_an_reuse_create();
   mp_an_numa_create();
   mp_an_whatif_create();
   mp_an_footprint_create();
}

/* Unconditional: a thread's start may be what turns an analysis on
   (sharing, at the second thread), and the reuse analysis's asks the
   cache whether it holds the history. */
void mp_analyses_thread_start(UInt serial)
{
   mp_an_sharing_thread_start(serial);
   mp_an_reuse_thread_start(serial);
}

void mp_analyses_thread_exit(UInt serial)
{
   if (mp_an_reuse_on())
      mp_an_reuse_thread_exit(serial);
   if (mp_an_loops_on())
      mp_an_loops_thread_exit(serial);
}

void mp_analyses_thread_joined(UInt serial)
{
   if (mp_an_sharing_on())
      mp_an_sharing_thread_joined(serial);
}

void mp_analyses_unmap(Addr a, SizeT len)
{
   if (mp_an_sharing_on())
      mp_an_sharing_unmap(a, len);
   if (mp_an_numa_on())
      mp_an_numa_unmap(a, len);
}

void mp_analyses_free(Addr a, SizeT len, UInt var)
{
   if (mp_an_sharing_on())
      mp_an_sharing_free(a, len, var);
}

void mp_analyses_window_start(Bool loops_followed)
{
   if (mp_an_stride_on())
      mp_an_stride_window_start();
   if (mp_an_loops_on())
      mp_an_loops_window_start(loops_followed);
}

void mp_analyses_reset(void)
{
   if (mp_an_stride_on())
      mp_an_stride_reset();
   if (mp_an_sharing_on())
      mp_an_sharing_reset();
   if (mp_an_tlb_on())
      mp_an_tlb_reset();
   if (mp_an_cache_on())
      mp_an_cache_reset();
   if (mp_an_reuse_on())
      mp_an_reuse_reset();
   if (mp_an_numa_on())
      mp_an_numa_reset();
   if (mp_an_whatif_on())
      mp_an_whatif_reset();
   if (mp_an_loops_on())
      mp_an_loops_reset();
   mp_an_footprint_reset();
}

/* The instructions' held counts and those the cache held for them
   (mp_held_counts) are the parent's. */
void mp_an_footprint_reset(void)
{
   mp_instr *ii;
   mp_vars_reset_counts(mp_g_vars);
   mp_segments_settle();      /* the parent's, zeroed below */
   mp_instrs_walk_start();
   while ((ii = mp_instrs_walk_next()) != NULL) {
      VG_(memset)(&ii->held, 0, sizeof ii->held);
      /* the exact counts start from zero too */
      VG_(memset)(ii->executed, 0, sizeof ii->executed);
      VG_(memset)(ii->in_sample, 0, sizeof ii->in_sample);
      VG_(memset)(ii->in_window, 0, sizeof ii->in_window);
   }
}

void mp_an_footprint_flush(void)
{
   mp_instr *ii;
   mp_instrs_walk_start();
   while ((ii = mp_instrs_walk_next()) != NULL)
      if (ii->lc != NULL)
         mp_vars_flush_held(mp_g_vars, ii->lc_var, ii->lc, &ii->held);
}

/* The held counts first: the other flush steps may read the counts
   (the cache's estimate of the miss causes reads its hits). */
static void flush_steps(void)
{
   mp_an_footprint_flush();
   if (mp_an_stride_on())
      mp_an_stride_flush();
   if (mp_an_cache_on())
      mp_an_cache_flush();
   if (mp_an_reuse_on())
      mp_an_reuse_flush();
}

void mp_analyses_flush(void)
{
   mp_helper_collect(False);
   flush_steps();
}

void mp_analyses_finish(void)
{
   mp_helper_collect(True);
   if (mp_an_cache_on())
      mp_an_cache_finish();
   if (mp_an_loops_on())
      mp_an_loops_finish();
   flush_steps();
}

/* The variables' number is printed with the tool's own counters, not
   here. */
void mp_analyses_stats(void)
{
   if (mp_an_sharing_on())
      mp_an_sharing_stats();
   if (mp_an_cache_on())
      mp_an_cache_stats();
   if (mp_an_reuse_on())
      mp_an_reuse_stats();
   if (mp_an_numa_on())
      mp_an_numa_stats();
   if (mp_an_whatif_on())
      mp_an_whatif_stats();
   if (mp_an_loops_on())
      mp_an_loops_stats();
   mp_helper_stats();
}
