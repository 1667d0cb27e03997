/*--------------------------------------------------------------------*/
/*--- memprof: whole-run estimates from a sample of the lines.     ---*/
/*---                                                mp_estimates.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_estimates.h.  Runs before and after each output: a walk of
   the variables, their line records and the instructions.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "mp_estimates.h"
#include "mp_hierarchy.h"
#include "mp_tool.h"

static ULong unattributed;

static void scale_levels(Int shift)
{
   UInt k;
   for (k = 0; k < mp_g_hier.n_levels; k++) {
      mp_cache_totals t;
      ULong *f = (ULong *)&t;
      UInt i;
      mp_cache_get_raw_totals(mp_g_hier.cache, k, &t);
      for (i = 0; i < sizeof t / sizeof(ULong); i++)
         f[i] = shift >= 0 ? f[i] << shift : f[i] >> -shift;
      mp_cache_set_raw_totals(mp_g_hier.cache, k, &t);
   }
}

/* Adds sign * (exact - estimated) accesses of each kind to the records
   of each instruction of one variable.  The estimate an instruction's
   record holds is its sampled accesses times 2^shift; the exact count
   replaces it, with the bytes at the instruction's access size. */
static void exact_accesses(Int sign)
{
   mp_instr *ii;
   UInt shift = mp_g_sample_shift;
   unattributed = 0;
   mp_instrs_walk_start();
   while ((ii = mp_instrs_walk_next()) != NULL) {
      mp_var *v;
      UInt k;
      if (ii->lc == NULL) {
         unattributed += ii->executed[0] + ii->executed[1];
         continue;
      }
      if (ii->multi_var)
         continue;
      v = mp_vars_get(mp_g_vars, ii->lc_var);
      for (k = 0; k < 2; k++) {
         ULong d = sign * (ii->executed[k] - (ii->in_sample[k] << shift));
         ULong db = d * ii->access_size[k];
         if (k == 0) {
            v->c.reads += d;
            v->c.read_bytes += db;
            ii->lc->c.reads += d;
            ii->lc->c.read_bytes += db;
         } else {
            v->c.writes += d;
            v->c.write_bytes += db;
            ii->lc->c.writes += d;
            ii->lc->c.write_bytes += db;
         }
      }
   }
}

void mp_estimates_make(void)
{
   mp_segments_settle();
   mp_vars_scale(mp_g_vars, (Int)mp_g_sample_shift);
   scale_levels((Int)mp_g_sample_shift);
   /* With collection off at times the inline counts, which count
      throughout, are not the collected accesses': the sample's stay. */
   if (!mp_collection_was_partial())
      exact_accesses(1);
}

void mp_estimates_undo(void)
{
   if (!mp_collection_was_partial())
      exact_accesses(-1);
   scale_levels(-(Int)mp_g_sample_shift);
   mp_vars_scale(mp_g_vars, -(Int)mp_g_sample_shift);
}

ULong mp_estimates_unattributed(void)
{
   return unattributed;
}
