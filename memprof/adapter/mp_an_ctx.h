/*--------------------------------------------------------------------*/
/*--- memprof: what one access tells the analyses.     mp_an_ctx.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The per-access context that mp_on_access resolves once (variable,
   line record, thread, core) and hands to every analysis of the list
   (mp_analyses.h) in turn, and the hot-path state the analyses' adapter
   files share.  Some fields are results: the cache fills in the level
   that served the access, its cycles and whether its line is in the
   variable's footprint, for the analyses after it.

   The context lives on the helper's stack and every step taking it is
   static inline, so the compiler keeps its fields in registers: the
   struct costs nothing over the locals it replaces (see e below).
*/
#ifndef MP_AN_CTX_H
#define MP_AN_CTX_H

#include "mp_threads.h"
#include "mp_tool.h"

typedef struct {
   /* The access, its variable resolved.  A pointer, not a member: the
      engines take the event's address, and a context whose member's
      address escapes would live in memory, its fields reloaded after
      every call; this way it stays in registers. */
   mp_event *e;
   mp_instr *ii;           /* the accessing instruction */
   mp_line_counts *lc;     /* counts of (e.var, ii->loc) */
   ThreadId tid;           /* Valgrind's thread id: indexes per-thread tables */
   UInt core;              /* simulated core the thread runs on */
   /* With --sample=lines, whether a line of the access is in the
      sample: only those reach the per-line analyses (the others come in
      a detail window, for the detail analyses alone).  Always True in
      the other modes. */
   Bool sampled;
   /* Filled in by the cache (left as they are without one). */
   UInt served;            /* level that served the access; n_levels: memory */
   UInt cycles;            /* its estimated memory cycles (NUMA adds its own) */
   Bool in_footprint;      /* its line is known to be in e.var's footprint */
   /* The start of the block accessed, asked once of the registry by the
      first analysis that needs it (mp_an_block_start). */
   Bool start_known;
   Addr start;
} mp_an_ctx;

/* Bytes per line as a shift, of the footprint's lines (the simulated
   L1's, or 64 without a cache): the unit of the reuse histories and of
   the set diagnosis. */
extern UInt mp_g_line_shift;
/* 1 while the detail analyses (mp_analyses.h) see the accesses: always
   with --exact=yes, else while a detail window is open; 0 while
   collection is off.  Defined in mp_analyses.c; the sampling schedule
   in mp_instrument.c sets it. */
extern UWord mp_g_detailing;
/* 1 while the carriers of far reuses are counted: wherever the loops
   are followed, which --sample=detail does in its gaps too, so that a
   reuse across a time step's body (millions of instructions, beyond
   any window) finds the loops of both its accesses; 0 while
   collection is off.  Set with mp_g_detailing. */
extern UWord mp_g_carrying;
/* What one access seen by the detail analyses stands for: 1, or with
   --sample=detail past its first window P/W rounded, so that the stride
   counts estimate the run's.  Set with mp_g_detailing. */
extern UInt mp_g_detail_weight;

/* The start of the heap block or global accessed, 0 for the stack and
   unknown memory; the registry is asked at most once per access. */
static inline Addr mp_an_block_start(mp_an_ctx *c)
{
   if (!c->start_known) {
      c->start = mp_registry_block_start(c->e->addr, c->e->var, c->ii);
      c->start_known = True;
   }
   return c->start;
}

#endif /* MP_AN_CTX_H */
