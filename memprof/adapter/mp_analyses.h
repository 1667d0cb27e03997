/*--------------------------------------------------------------------*/
/*--- memprof: the analyses of the access path, in one list.       ---*/
/*---                                                mp_analyses.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every analysis that sees the program's data accesses is one entry of
   MP_ANALYSES below, and nothing else wires it in: the access helper
   (mp_on_access), setup, thread start and exit, munmap, free, sampling
   windows, the forked child's reset, the end of the run and -v's
   counters all run the list's steps in the list's order.

   Adding an analysis is one entry in the list plus its own files: an
   adapter header mp_an_<name>.h that defines, as static inline
   functions (an empty body where the step has nothing to do),

     Bool mp_an_<name>_on(void)          it is enabled; every step but
                                         create and thread_start is
                                         skipped when not, at the cost of
                                         one predictable branch
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
     void mp_an_<name>_unmap(Addr a, SizeT len)
                                         the program unmapped memory
     void mp_an_<name>_free(Addr a, SizeT len)
                                         the program freed a heap block
                                         (its memory stays mapped)
     void mp_an_<name>_window_start(void)
                                         a sampling window opens after
                                         a gap nothing was seen in
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

   and, if it needs them, its engine (host-independent .c/.h) and a .c
   of its own for its state or cold code.  There is no write step: the
   report layer builds the results from each analysis's finished state
   (mp_results.h: mp_finished, filled in by write_output in mp_main.c)
   and its writers (mp_report*.c, mp_summary.c) write them.

   The order is the order of the access path, and it matters:
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
   estimated).
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

/* Each entry: the analysis, and how often it sees the accesses:
   MP_AN_EVERY, at every access of the run; MP_AN_DETAIL, at every
   access of the detail windows only (--sample=detail, the default:
   windows of W instructions, one every P; at every access with
   --exact=yes).  The detail analyses are those whose results are
   distributions and patterns (stride histograms, loops, streams,
   fields, formulas), which a sample of the run estimates well; the
   others give the counts the variables are ranked by (accesses, hits,
   misses, cycles, reuse distances, sharing), which stay exact. */
#define MP_AN_EVERY  0
#define MP_AN_DETAIL 1

#define MP_ANALYSES(X)        \
   X(stride, MP_AN_DETAIL)    \
   X(sharing, MP_AN_EVERY)    \
   X(tlb, MP_AN_EVERY)        \
   X(cache, MP_AN_EVERY)      \
   X(reuse, MP_AN_EVERY)      \
   X(numa, MP_AN_EVERY)       \
   X(whatif, MP_AN_EVERY)     \
   X(loops, MP_AN_DETAIL)     \
   X(footprint, MP_AN_EVERY)

/* Whether an analysis of kind 'when' sees this access. */
#define MP_AN_SEES(when) ((when) == MP_AN_EVERY || mp_g_detailing)

/* The hot path's two steps, inline into mp_on_access. */
static inline void mp_analyses_prefetch(const mp_an_ctx *c)
{
#define MP_AN_PREFETCH(n, when) \
   if (mp_an_##n##_on() && MP_AN_SEES(when)) mp_an_##n##_prefetch(c);
   MP_ANALYSES(MP_AN_PREFETCH)
#undef MP_AN_PREFETCH
}

static inline void mp_analyses_access(mp_an_ctx *c)
{
#define MP_AN_ACCESS(n, when) \
   if (mp_an_##n##_on() && MP_AN_SEES(when)) mp_an_##n##_access(c);
   MP_ANALYSES(MP_AN_ACCESS)
#undef MP_AN_ACCESS
}

/* The other steps, each over the whole list (mp_analyses.c). */
void mp_analyses_create(void);
void mp_analyses_thread_start(UInt serial);
void mp_analyses_thread_exit(UInt serial);
/* The program joined thread serial (pthread_join returned): only the
   sharing prediction reads the lifetimes that ends. */
void mp_analyses_thread_joined(UInt serial);
void mp_analyses_unmap(Addr a, SizeT len);
void mp_analyses_free(Addr a, SizeT len);
/* A sampling window opens: with detail_only (--sample=detail), the
   window of the detail analyses alone, the others having seen the gap. */
void mp_analyses_window_start(Bool detail_only);
void mp_analyses_reset(void);
/* At exit: every finish step, then every flush step. */
void mp_analyses_finish(void);
/* Before an output written while the run goes on (an execve). */
void mp_analyses_flush(void);
void mp_analyses_stats(void);

#endif /* MP_ANALYSES_H */
