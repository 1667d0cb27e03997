/*--------------------------------------------------------------------*/
/*--- memprof: the analyses of the access path, in one list.       ---*/
/*---                                                mp_analyses.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every analysis that sees the program's data accesses is one entry of
   the list below, and nothing else wires it in: the access helper
   (mp_on_access in mp_instrument.c), setup, thread start and exit,
   munmap, free, sampling windows, the forked child's reset, the end of
   the run and -v's counters each call one function of this file or of
   mp_analyses.c, which calls the analyses' steps by name, in the list's
   order.  To follow one access: mp_on_access, then mp_analyses_prefetch
   and mp_analyses_access below.

   The list, in its order (the order of the access path):

     analysis   adapter            sees     steps besides access
     (stream)   mp_helper.h        every    the access's record for the
                                            helper processes, if any
     stride     mp_an_stride.h     detail   create window_start reset flush
     sharing    mp_an_sharing.h    every    thread_start thread_joined
                                            unmap free reset stats
     tlb        mp_an_hier.h       every    reset
     cache      mp_an_hier.h       every    create reset finish flush stats
     reuse      mp_an_reuse.h      every    create prefetch thread_start
                                            thread_exit reset flush stats
     numa       mp_an_numa.h       every    create unmap reset stats
     whatif     mp_an_whatif.h     every    create reset stats
     loops      mp_an_loops.h      detail   create thread_exit window_start
                                            reset finish stats
     footprint  mp_an_footprint.h  every    create prefetch reset flush

   "sees" is how often an analysis sees the accesses: every, at every
   access of the run; detail, at every access of the detail windows only
   (--sample=detail, the default: windows of W instructions, one every
   P; at every access with --exact=yes), while mp_g_detailing is 1.  The
   detail analyses are those whose results are distributions and
   patterns (stride histograms, loops, streams, fields, formulas), which
   a sample of the run estimates well; the others give the counts the
   variables are ranked by (accesses, hits, misses, cycles, reuse
   distances, sharing), which stay exact.

   The reuse analysis and the hierarchy (tlb, cache) may run in helper
   processes instead (--analysis-procs, mp_helper.h): the stream step
   then appends the access to the helpers' ring, their access steps do
   nothing, and the helpers' counts come back at the start of the finish
   and flush steps (mp_helper_collect), the hierarchy's taken by the
   cache's flush step.

   The order matters on the access path:
   - cache before reuse: while one thread runs, the cache's L1 miss
     causes come from the reuse history before this access reaches it
     (mp_an_reuse.h), and the history's cell, prefetched at the
     helper's entry for a scattered instruction, arrives while the
     cache's sets are looked up (measured: reuse first, a pointer chase
     ran 21% slower);
   - tlb and cache before numa, whatif and loops: the cache fills
     in the context's served level, cycles and in_footprint, which NUMA
     (a remote access costs more only when memory served it) and loops
     (cycles per loop) read;
   - numa before loops: it adds the remote access's cost to cycles;
   - whatif before loops: the first asks the registry for the block's
     start, the second reuses it (mp_an_block_start);
   - footprint last: its footprint cell may have been prefetched at the
     helper's entry, and reading it last gives the prefetch the most
     time; in_footprint spares it a probe.
   The other steps run in the same order; none of them depends on it,
   except finish, which runs every analysis's finish before any flush
   (the cache's resident lines are counted before the miss causes are
   estimated), and flush, which runs the footprint's first (the counts
   the instructions hold reach their records before anything reads
   them).  Stride and sharing come first by no necessity: they
   read nothing the others fill in, and fill in nothing.

   The steps, each a static inline function mp_an_<name>_<step> of the
   analysis's adapter header, called below only where the analysis has
   one:

     Bool mp_an_<name>_on(void)          it is enabled; every step but
                                         create and thread_start is
                                         skipped when not, at the cost of
                                         one predictable branch (the
                                         footprint is always on)
     void mp_an_<name>_create(void)      after the options and the
                                         variable table are set up
     void mp_an_<name>_prefetch(const mp_an_ctx *c)
                                         the access's instruction is
                                         scattered (mp_instr): start
                                         reading its state now, so that
                                         the host's misses overlap the
                                         cache simulation's
     void mp_an_<name>_access(mp_an_ctx *c)
                                         every data access (the hot
                                         path: keep it small)
     void mp_an_<name>_thread_start(UInt serial)
                                         a thread is created (serial:
                                         creation number, 1 = main)
     void mp_an_<name>_thread_exit(UInt serial)
                                         a thread ends
     void mp_an_<name>_thread_joined(UInt serial)
                                         the program joined it
                                         (pthread_join returned)
     void mp_an_<name>_unmap(Addr a, SizeT len)
                                         the program unmapped memory
     void mp_an_<name>_free(Addr a, SizeT len)
                                         the program freed a heap block
                                         (its memory stays mapped)
     void mp_an_<name>_window_start(void)
                                         a sampling window opens after
                                         a gap nothing was seen in (the
                                         loops' takes whether their
                                         hooks ran in the gap)
     void mp_an_<name>_reset(void)       in a forked child: its counts
                                         start from zero
     void mp_an_<name>_finish(void)      at exit only: what is still
                                         open ends (once; the process
                                         stops after it)
     void mp_an_<name>_flush(void)       before every write of the
                                         output (at exit, and before an
                                         execve, which may fail and let
                                         the run go on): the counts are
                                         made complete for the report
                                         without ending anything
     void mp_an_<name>_stats(void)       its counters under -v

   Adding an analysis: its adapter header mp_an_<name>.h with the steps
   it needs, a row in the table above, and a call of each of its steps
   in the function of that step, here or in mp_analyses.c, at its place
   in the list; and, if it needs them, its engine (host-independent
   .c/.h) and a .c of its own for its state or cold code.  There is no
   write step: the report layer builds the results from each analysis's
   finished state (mp_results.h: mp_finished, filled in by write_output
   in mp_main.c) and its writers (mp_report*.c, mp_summary.c) write
   them.
*/
#ifndef MP_ANALYSES_H
#define MP_ANALYSES_H

#include "mp_an_ctx.h"
#include "mp_an_stride.h"
#include "mp_an_sharing.h"
#include "mp_an_hier.h"
#include "mp_an_reuse.h"
#include "mp_an_numa.h"
#include "mp_an_whatif.h"
#include "mp_an_loops.h"
#include "mp_an_footprint.h"

/*--- The hot path's two steps, inline into mp_on_access ---*/

/* The access's instruction is scattered: the analyses whose state for
   it likely misses the host's caches start reading it. */
static inline void mp_analyses_prefetch(const mp_an_ctx *c)
{
   if (mp_an_reuse_on())
      mp_an_reuse_prefetch(c);
   mp_an_footprint_prefetch(c);
}

/* The access's record for the helper processes (mp_helper.h); the
   carriers are counted by the reuse helper (mp_g_carrying). */
static inline void mp_an_stream_access(const mp_an_ctx *c)
{
   mp_helper_access(c->e->addr, c->e->size, c->e->is_write, c->ii->lc_id, c->e->tid, c->tid,
                    mp_g_reuse_apart && mp_g_carriers != NULL && mp_g_carrying);
}

/* With --sample=lines, an access outside the sample, seen in a detail
   window: the detail analyses alone, and the what-if recording, whose
   replays need every access of a variable in turn. */
static inline void mp_analyses_access_unsampled(mp_an_ctx *c)
{
   if (mp_an_stride_on() && mp_g_detailing)
      mp_an_stride_access(c);
   if (mp_an_whatif_on() && mp_g_detailing)
      mp_an_whatif_access(c);
   if (mp_an_loops_on() && mp_g_detailing)
      mp_an_loops_access(c);
}

/* One access through every analysis, in the list's order. */
static inline void mp_analyses_access(mp_an_ctx *c)
{
   if (!c->sampled) {
      mp_analyses_access_unsampled(c);
      return;
   }
   if (mp_g_stream_on)
      mp_an_stream_access(c);
   if (mp_an_stride_on() && mp_g_detailing)
      mp_an_stride_access(c);
   if (mp_an_sharing_on())
      mp_an_sharing_access(c);
   if (mp_an_tlb_on())
      mp_an_tlb_access(c);
   if (mp_an_cache_on())
      mp_an_cache_access(c);     /* fills in c->served, cycles, in_footprint */
   if (mp_an_reuse_on())
      mp_an_reuse_access(c);
   if (mp_an_numa_on())
      mp_an_numa_access(c);      /* adds a remote access's cost to c->cycles */
   if (mp_an_whatif_on() && (mp_g_sample_sets == NULL || mp_g_detailing))
      mp_an_whatif_access(c);    /* may ask the block's start */
   if (mp_an_loops_on() && mp_g_detailing)
      mp_an_loops_access(c);
   mp_an_footprint_access(c);
}

/*--- The other steps (mp_analyses.c), each over the list in order ---*/

void mp_analyses_create(void);
void mp_analyses_thread_start(UInt serial);
void mp_analyses_thread_exit(UInt serial);
/* The program joined thread serial (pthread_join returned): only the
   sharing prediction reads the lifetimes that ends. */
void mp_analyses_thread_joined(UInt serial);
void mp_analyses_unmap(Addr a, SizeT len);
void mp_analyses_free(Addr a, SizeT len, UInt var);
/* A sampling window opens: with --sample=detail the window of the
   detail analyses, the others having seen the gap; with
   --sample=periodic|windows everyone's.  Only the detail analyses have
   a window step (the others keep no state a gap breaks), so both are
   this one function.  'loops_followed': the loop hooks ran in the gap
   (--sample=detail). */
void mp_analyses_window_start(Bool loops_followed);
void mp_analyses_reset(void);
/* At exit: the helpers' counts, every finish step, then every flush
   step. */
void mp_analyses_finish(void);
/* Before an output written while the run goes on (an execve): the
   helpers' counts so far, then every flush step. */
void mp_analyses_flush(void);
void mp_analyses_stats(void);

#endif /* MP_ANALYSES_H */
