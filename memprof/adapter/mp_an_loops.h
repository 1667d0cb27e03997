/*--------------------------------------------------------------------*/
/*--- memprof: the loop analyses in the access list.               ---*/
/*---                                                mp_an_loops.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the loop analyses (mp_loopnest.c over the engines
   mp_loops.c, mp_streams.c, mp_formula.c and mp_structs.c: loop
   nests, prefetch streams, address formulas, structure fields) as one
   entry of the list in mp_analyses.h.  One entry for the four: they
   are one option (--loops), and the streams, formulas and fields are
   all kept per loop instance, which the loop nest tracks.  Their
   instrumentation (back edges, loop heads, returns) is in
   mp_instrument.c, translation time being no part of the access path.
*/
#ifndef MP_AN_LOOPS_H
#define MP_AN_LOOPS_H

#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"

#include "mp_an_ctx.h"
#include "mp_hierarchy.h"
#include "mp_loopnest.h"

static inline Bool mp_an_loops_on(void) { return mp_g_loops != NULL; }

static inline void mp_an_loops_create(void)
{
   mp_loopnest_init();
   if (mp_g_loops) {
      /* Every taken back edge must be an exit of the IR we see: no
         superblock runs on past a branch into its target (chasing), and
         iropt does not unroll a loop into one superblock (it would turn
         the back edges of the unrolled copies into fall-throughs). */
      VG_(clo_vex_control).guest_chase = False;
      VG_(clo_vex_control).iropt_unroll_thresh = 0;
   }
}

/* Accesses the loop analysis saw: with --sample=detail, the
   denominator of a loop's share of the accesses (config.detail). */
extern ULong mp_g_loops_accesses;

/* With the access's cycles, remote memory included; with the
   hierarchy in a helper, which alone knows them, a record naming the
   structure stream the helper is to add them to. */
static inline void mp_an_loops_access(mp_an_ctx *c)
{
   UInt stream;
   mp_g_loops_accesses++;
   /* Outside a sample of the lines, an access has no cycles; one in it
      stands for 2^shift. */
   stream = mp_loopnest_access(c->e->tid, c->ii, c->e, c->cycles << mp_g_sample_shift,
                               mp_an_block_start(c));
   if (mp_g_hier_apart && stream != MP_NO_STREAM && c->sampled)
      mp_helper_put(0, stream, MP_REC_STRUCT);
}

/* A finished thread's open loop instances end with it. */
static inline void mp_an_loops_thread_exit(UInt serial)
{
   mp_loopnest_thread_exit(serial);
}

/* A sampling window begins (mp_loopnest_window_start). */
static inline void mp_an_loops_window_start(Bool followed)
{
   mp_loopnest_window_start(followed);
}

static inline void mp_an_loops_reset(void)
{
   mp_loopnest_reset();
   mp_g_loops_accesses = 0;
}

/* The open loop instances end. */
static inline void mp_an_loops_finish(void) { mp_loopnest_finish(); }

static inline void mp_an_loops_stats(void)
{
   VG_(dmsg)("memprof: loops: %u found, deepest stack of active loops %u\n",
             mp_loops_count(mp_g_loops), mp_loops_deepest(mp_g_loops));
}

#endif /* MP_AN_LOOPS_H */
