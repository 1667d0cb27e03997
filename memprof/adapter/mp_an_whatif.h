/*--------------------------------------------------------------------*/
/*--- memprof: the what-if recording in the access list.           ---*/
/*---                                               mp_an_whatif.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the what-if recorder (mp_whatif.c: accesses kept
   per variable, replayed at exit through a split or padded layout) as
   one entry of the list in mp_analyses.h.  It records only with a
   simulated cache (the replay runs through one) and --what-if.
*/
#ifndef MP_AN_WHATIF_H
#define MP_AN_WHATIF_H

#include "pub_tool_libcprint.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_hierarchy.h"
#include "mp_whatif.h"

/* Accesses recorded for what-if replays (--what-if), or NULL. */
extern mp_whatif *mp_g_whatif;

/* Budgets: accesses recorded per variable and in all (16 bytes each:
   64 MB at most). */
#define MP_WHATIF_PER_VAR (1ULL << 20)
#define MP_WHATIF_TOTAL   (4ULL << 20)

static inline Bool mp_an_whatif_on(void) { return mp_g_whatif != NULL; }

static inline void mp_an_whatif_create(void)
{
   if ((mp_clo_whatif_split || mp_clo_whatif_pad) && mp_g_hier.cache)
      mp_g_whatif = mp_whatif_new(MP_WHATIF_PER_VAR, MP_WHATIF_TOTAL);
}

/* Offsets within a block are what a layout changes: accesses outside
   any known block (the stack, unknown memory) are not recorded. */
static inline void mp_an_whatif_access(mp_an_ctx *c)
{
   Addr start;
   /* Whether an access has a block start depends on its variable
      alone; once the variable's budget is spent, its accesses are only
      counted, as mp_whatif_record would count them. */
   if (!mp_registry_has_blocks(mp_vars_get(mp_g_vars, c->e->var))
       || mp_whatif_count_spent(mp_g_whatif, c->e->var))
      return;
   start = mp_an_block_start(c);
   if (start != 0)
      mp_whatif_record(mp_g_whatif, c->e->var, c->e->addr, start, c->e->size,
                       c->e->is_write, c->core);
}

static inline void mp_an_whatif_reset(void) { mp_whatif_reset(mp_g_whatif); }

static inline void mp_an_whatif_stats(void)
{
   VG_(dmsg)("memprof: what-if: %llu bytes of recorded accesses\n",
             (ULong)mp_whatif_bytes(mp_g_whatif));
}

#endif /* MP_AN_WHATIF_H */
