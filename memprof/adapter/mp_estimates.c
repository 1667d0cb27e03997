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
#include "pub_tool_mallocfree.h"

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

/*------------------------------------------------------------*/
/*--- Instructions of several variables                    ---*/
/*------------------------------------------------------------*/

/* An instruction seen touching several variables has its sampled
   accesses split among them in their line records, each times 2^shift:
   unbiased, but with a hot line of one variable in the sample and
   another's out of it, far off (python3's PyDict_SetItem gave its
   interpreter data 12.8M accesses where the whole run has 0.4M).  Its
   exact count is known, and the detail windows see every one of its
   accesses in them, sampled or not, with its variable.  So, per source
   location (the records are by variable and location, not by
   instruction), the exact accesses of its instructions of several
   variables are split among its records: as the sample split them when
   the sample's total is near the exact one, else as the windows saw
   them (split_part).  The tables are by location and record of those
   instructions only, each found through an index of 4 bytes per
   location and per record.  What was added to each record, for the
   undo. */
typedef struct {
   UInt id;
   Long d[2], db[2];        /* reads, writes; their bytes */
} record_delta;

static record_delta *deltas;
static UInt n_deltas;

typedef struct {
   UInt max_id, max_loc;
} line_bounds;

static void bound_line(const mp_line_counts *lc, void *arg)
{
   line_bounds *b = arg;
   if (lc->id >= b->max_id)
      b->max_id = lc->id + 1;
   if (lc->loc >= b->max_loc)
      b->max_loc = lc->loc + 1;
}

/* A record's count of kind k (0 reads, 1 writes) and its bytes. */
static uint64_t *count_of(mp_counts *c, UInt k)
{
   return k == 0 ? &c->reads : &c->writes;
}

static uint64_t *bytes_of(mp_counts *c, UInt k)
{
   return k == 0 ? &c->read_bytes : &c->write_bytes;
}

static void add_delta(mp_line_counts *lc, UInt k, Long d, Long db)
{
   mp_var *v = mp_vars_get(mp_g_vars, lc->var);
   *count_of(&lc->c, k) += d;
   *bytes_of(&lc->c, k) += db;
   *count_of(&v->c, k) += d;
   *bytes_of(&v->c, k) += db;
}

/* Per source location, of its instructions of several variables:
   their exact accesses, those in the sample times 2^shift, those the
   windows saw, and the bytes of the exact ones. */
typedef struct {
   ULong exec[2], sampled[2], window[2], bytes[2];
} multi_loc;

/* The new count of a line record of location m from its instructions
   of several variables, kind k: 'part' their sampled accesses times
   2^shift, window_part those the windows saw.  The split by the sample
   when its total is within a factor of 2 of the exact one, scaled to
   it; else the sample's lines were not the location's (a hot line in
   it or out of it), and the split is the windows'.  Never below what
   the sample saw. */
static ULong split_part(const multi_loc *m, UInt k, ULong part, ULong window_part, UInt shift)
{
   double r = m->exec[k] ? (double)m->sampled[k] / (double)m->exec[k] : 0, share;
   ULong want;
   if (m->window[k] == 0 || (m->sampled[k] > 0 && r >= 0.5 && r <= 2.0))
      share = (double)part / (double)m->sampled[k];
   else
      share = (double)window_part / (double)m->window[k];
   want = (ULong)((double)m->exec[k] * share + 0.5);
   if (want < part >> shift)
      want = part >> shift;
   return want;
}

/* What a record at such a location has from instructions of one
   variable: their exact accesses and those the windows saw. */
typedef struct {
   ULong exact[2], window[2];
} single_counts;

static void scale_multi_var(void)
{
   line_bounds b = { 0, 0 };
   UInt *loc_slot, *rec_slot;     /* per location, per record: index + 1 */
   multi_loc *locs = NULL;
   single_counts *single;
   mp_instr *ii;
   UInt id, k, n_locs = 0, cap = 0, n_recs = 0, shift = mp_g_sample_shift;
   mp_vars_foreach_line(mp_g_vars, bound_line, &b);
   if (b.max_id == 0)
      return;
   loc_slot = VG_(calloc)("mp.est.locslot", b.max_loc, sizeof *loc_slot);
   mp_instrs_walk_start();
   while ((ii = mp_instrs_walk_next()) != NULL) {
      multi_loc *m;
      if (ii->lc == NULL || !ii->multi_var || ii->loc >= b.max_loc)
         continue;
      if (loc_slot[ii->loc] == 0) {
         if (n_locs == cap) {
            cap = cap ? 2 * cap : 64;
            locs = VG_(realloc)("mp.est.locs", locs, cap * sizeof *locs);
         }
         VG_(memset)(&locs[n_locs], 0, sizeof *locs);
         loc_slot[ii->loc] = ++n_locs;
      }
      m = &locs[loc_slot[ii->loc] - 1];
      for (k = 0; k < 2; k++) {
         m->exec[k] += ii->executed[k];
         m->sampled[k] += ii->in_sample[k] << shift;
         m->window[k] += ii->in_window[k];
         m->bytes[k] += ii->executed[k] * ii->access_size[k];
      }
   }
   if (n_locs == 0) {
      VG_(free)(loc_slot);
      return;
   }
   rec_slot = VG_(calloc)("mp.est.recslot", b.max_id, sizeof *rec_slot);
   for (id = 0; id < b.max_id; id++) {
      mp_line_counts *lc = mp_vars_line_by_id(mp_g_vars, id);
      if (lc != NULL && lc->loc < b.max_loc && loc_slot[lc->loc] != 0)
         rec_slot[id] = ++n_recs;
   }
   single = VG_(calloc)("mp.est.single", n_recs, sizeof *single);
   mp_instrs_walk_start();
   while ((ii = mp_instrs_walk_next()) != NULL) {
      single_counts *sc;
      if (ii->lc == NULL || ii->multi_var || ii->lc_id >= b.max_id || !rec_slot[ii->lc_id])
         continue;
      sc = &single[rec_slot[ii->lc_id] - 1];
      for (k = 0; k < 2; k++) {
         sc->exact[k] += ii->executed[k];
         sc->window[k] += ii->in_window[k];
      }
   }
   deltas = VG_(calloc)("mp.est.deltas", n_recs, sizeof *deltas);
   for (id = 0; id < b.max_id; id++) {
      mp_line_counts *lc;
      const multi_loc *m;
      const single_counts *sc;
      record_delta *rd;
      if (!rec_slot[id])
         continue;
      lc = mp_vars_line_by_id(mp_g_vars, id);
      m = &locs[loc_slot[lc->loc] - 1];
      sc = &single[rec_slot[id] - 1];
      rd = &deltas[n_deltas++];
      rd->id = id;
      for (k = 0; k < 2; k++) {
         ULong count = *count_of(&lc->c, k), part, want, window_part;
         if (m->exec[k] == 0 || (m->window[k] == 0 && m->sampled[k] == 0))
            continue;
         part = count > sc->exact[k] ? count - sc->exact[k] : 0;
         window_part = lc->in_window[k] > sc->window[k] ? lc->in_window[k] - sc->window[k] : 0;
         want = split_part(m, k, part, window_part, shift);
         rd->d[k] = (Long)want - (Long)part;
         /* the bytes at the location's mean size */
         rd->db[k] = (Long)((double)rd->d[k] * (double)m->bytes[k] / (double)m->exec[k]);
         add_delta(lc, k, rd->d[k], rd->db[k]);
      }
   }
   VG_(free)(single);
   VG_(free)(rec_slot);
   VG_(free)(locs);
   VG_(free)(loc_slot);
}

static void unscale_multi_var(void)
{
   UInt i, k;
   for (i = 0; i < n_deltas; i++) {
      mp_line_counts *lc = mp_vars_line_by_id(mp_g_vars, deltas[i].id);
      for (k = 0; k < 2; k++)
         add_delta(lc, k, -deltas[i].d[k], -deltas[i].db[k]);
   }
   if (deltas)
      VG_(free)(deltas);
   deltas = NULL;
   n_deltas = 0;
}

void mp_estimates_make(void)
{
   mp_segments_settle();
   mp_vars_scale(mp_g_vars, (Int)mp_g_sample_shift);
   scale_levels((Int)mp_g_sample_shift);
   /* With collection off at times the inline counts, which count
      throughout, are not the collected accesses': the sample's stay. */
   if (!mp_collection_was_partial()) {
      exact_accesses(1);
      scale_multi_var();
   }
}

void mp_estimates_undo(void)
{
   if (!mp_collection_was_partial()) {
      unscale_multi_var();
      exact_accesses(-1);
   }
   scale_levels(-(Int)mp_g_sample_shift);
   mp_vars_scale(mp_g_vars, -(Int)mp_g_sample_shift);
}

ULong mp_estimates_unattributed(void)
{
   return unattributed;
}
