/*--------------------------------------------------------------------*/
/*--- memprof: the NUMA analysis in the access list.               ---*/
/*---                                                 mp_an_numa.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the NUMA engine (mp_numa.c: the pages' homes under
   first touch, remote accesses) as one entry of the list in
   mp_analyses.h.  On with two sockets or more.  A remote access served
   from memory costs more: its access adds that to the context's cycles,
   which is why it comes after the cache and before the loops.  It has
   no free step: a freed block's pages stay where they were first
   touched (an unmap forgets them).
*/
#ifndef MP_AN_NUMA_H
#define MP_AN_NUMA_H

#include "pub_tool_libcprint.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_hierarchy.h"
#include "mp_numa.h"

/* NULL unless two or more sockets. */
extern mp_numa *mp_g_numa;
/* What a remote access served from memory costs over a local one. */
extern UInt mp_g_numa_extra_cycles;

static inline Bool mp_an_numa_on(void) { return mp_g_numa != NULL; }

static inline void mp_an_numa_create(void)
{
   UInt mem;
   if (mp_g_hier.cores / mp_g_hier.cores_per_socket < 2)
      return;
   mem = mp_g_hier.cache ? mp_g_hier.latency[mp_g_hier.n_levels] : mp_clo_latency[3];
   mp_g_numa = mp_numa_new(mp_clo_page_size);
   mp_g_numa_extra_cycles = mp_clo_latency[4] > mem ? mp_clo_latency[4] - mem : 0;
}

static inline void mp_an_numa_access(mp_an_ctx *c)
{
   UInt socket = c->core / mp_g_hier.cores_per_socket;
   int first;
   UInt home = mp_numa_home(mp_g_numa, c->e->addr, socket, &first);
   Bool from_memory = mp_g_hier.cache && c->served == mp_g_hier.n_levels;
   mp_vars_numa_access(mp_g_vars, c->e, c->lc, home != socket, from_memory,
                       mp_g_numa_extra_cycles, first, socket);
   if (home != socket && from_memory)
      c->cycles += mp_g_numa_extra_cycles;
}

static inline void mp_an_numa_unmap(Addr a, SizeT len)
{
   mp_numa_forget(mp_g_numa, a, len);
}

static inline void mp_an_numa_reset(void) { mp_numa_reset(mp_g_numa); }

static inline void mp_an_numa_stats(void)
{
   VG_(dmsg)("memprof: NUMA: %llu pages placed, %llu bytes of metadata\n",
             (ULong)mp_numa_pages(mp_g_numa), (ULong)mp_numa_bytes(mp_g_numa));
}

#endif /* MP_AN_NUMA_H */
