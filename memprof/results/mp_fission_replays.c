/*--------------------------------------------------------------------*/
/*--- memprof: the replay of the too-many-streams advice.          ---*/
/*---                                            mp_fission_replays.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_fission_replays.h.  The parts share the loop's nest (its trip
   counts and order) and each takes a slice of its references.
*/
#include "mp_fission_replays.h"
#include "mp_facts.h"
#include "mp_order_replays.h"
#include "mp_util.h"

/* An instruction of loop's own body whose formula there fits, or
   UINT32_MAX. */
static uint32_t body_instr(const mp_finished *an, uint32_t loop)
{
   const mp_loop *lp = mp_loops_get(an->loops, loop);
   uint32_t id;
   for (id = 0; id < an->n_instrs; id++) {
      const mp_formula_instr *fi;
      if (!an->instrs[id].known || mp_facts_instr_loop(an, id) != loop)
         continue;
      fi = mp_formula_get(an->formula, (uint64_t)lp->depth << 32 | id);
      if (fi != NULL && fi->coef != NULL && mp_formula_fits(fi, NULL))
         return id;
   }
   return UINT32_MAX;
}

/* Leaves out the references that walk nothing (a loop counter or an
   accumulator kept in memory, at -O0): each loop of the split keeps
   its own, as the compiler would, and they stay in L1 anyway; the
   others keep their order.  Returns how many were left out. */
static uint32_t drop_scalars(mp_nest *nest, mp_nest_ref *refs, uint32_t *ids)
{
   uint32_t r, l, kept = 0, n = nest->n_refs;
   for (r = 0; r < n; r++) {
      int walks = 0;
      for (l = 0; l < nest->n_loops; l++)
         walks |= refs[r].step[l] != 0;
      if (walks) {
         refs[kept] = refs[r];
         ids[kept] = ids[r];
         kept++;
      }
   }
   nest->n_refs = kept;
   return n - kept;
}

/* A store through an index is left out of the replay: a split keeps
   it in its part, and it walks no stream.  Its order against the other
   parts' accesses is unseen, so the split is replayed only when none
   of the references kept touches its variable; else why not. */
static char *scatter_walked(const mp_finished *an, const mp_order_replay *o,
                            const mp_nest *nest, const uint32_t *ids)
{
   uint32_t s, r;
   for (s = 0; s < o->n_scattered; s++) {
      uint32_t var = o->scattered[s];
      for (r = 0; r < nest->n_refs; r++)
         if (ids[r] < an->n_instrs && an->instrs[ids[r]].var == var
             && var != UINT32_MAX)
            return mp_asprintf("no replay: it stores into %s through an index and walks "
                               "it too: the split's order against those stores is unknown",
                               mp_vars_get(an->vars, var)->name);
   }
   return NULL;
}

/* A loop run again and again is compared in the steady state.  The
   windows may have seen one of its executions only: the exact count of
   a body instruction run once per iteration ('instr', whose formula
   says so), against the iterations of the execution replayed, tells
   that it ran at least twice as long as that (a part of one execution
   seen is at most its whole: fewer than two). */
static int runs_again(const mp_finished *an, uint32_t loop, uint32_t instr, uint64_t trips)
{
   if (mp_loops_get(an->loops, loop)->entries > 1)
      return 1;
   return trips > 0 && an->instrs[instr].executed / trips >= 2;
}

/* The run's misses at 'level' and accesses of the (variable, line)
   pairs of the references replayed. */
typedef struct {
   const mp_finished *an;
   const uint32_t *ids;
   uint32_t n, level;
   uint64_t accesses, misses;
} run_misses;

static void add_line(const mp_line_counts *lc, void *arg)
{
   run_misses *rm = arg;
   uint32_t r;
   for (r = 0; r < rm->n; r++) {
      const mp_instr_fact *f;
      if (rm->ids[r] >= rm->an->n_instrs)
         continue;
      f = &rm->an->instrs[rm->ids[r]];
      if (f->var == lc->var && f->loc == lc->loc) {
         rm->accesses += lc->c.reads + lc->c.writes;
         rm->misses += lc->cache.misses[rm->level];
         return;
      }
   }
}

static double miss_ratio(uint64_t misses, uint64_t accesses)
{
   return accesses ? (double)misses / (double)accesses : 0;
}

/* Whether the loop's data stays in the cache from one execution to the
   next, as when nothing else runs between them, or is evicted by what
   does (a sweep over other data): of the loop replayed as it ran from
   a cold cache and from a warm one, the one whose miss ratio at
   'level' is the nearer to the run's on the same source lines. */
static int stays_cached(const mp_finished *an, const mp_nest *nest, const uint32_t *ids,
                        uint32_t level, const mp_whatif_run *cold, const mp_whatif_run *warm)
{
   run_misses rm;
   double ran, c, w;
   mp_memset(&rm, 0, sizeof rm);
   rm.an = an;
   rm.ids = ids;
   rm.n = nest->n_refs;
   rm.level = level;
   mp_vars_foreach_line(an->vars, add_line, &rm);
   if (rm.accesses == 0)
      return 1;
   ran = miss_ratio(rm.misses, rm.accesses);
   c = miss_ratio(cold->misses[level], cold->accesses) - ran;
   w = miss_ratio(warm->misses[level], warm->accesses) - ran;
   return w * w <= c * c;
}

void mp_replay_fission(const mp_run *run, const mp_finished *an, uint32_t loop,
                       uint32_t streams, mp_fission_outcome *out)
{
   mp_nest nest, nests[MP_FUSION_MAX_PARTS];
   const mp_nest *parts[MP_FUSION_MAX_PARTS];
   mp_order_replay o;
   mp_nest_ref *refs;
   mp_cache_cfg cc;
   uint32_t *ids = NULL, instr, k, per, p, earlier, later, ref;
   uint64_t all, addr;
   mp_memset(out, 0, sizeof *out);
   if (!run->whatif_fission || an->loops == NULL || an->formula == NULL || an->cache == NULL
       || streams == 0 || !mp_facts_cache_cfg(an, &cc))
      return;
   /* the prefetcher replayed: the run's, else a stream prefetcher of
      'streams' streams, which --prefetch-streams says the hardware has */
   if (cc.prefetch.kind == MP_PREFETCH_NONE) {
      cc.prefetch.kind = MP_PREFETCH_STREAM;
      cc.prefetch.streams = streams > MP_PREFETCH_MAX_STREAMS ? MP_PREFETCH_MAX_STREAMS
                                                             : streams;
   }
   out->streams = cc.prefetch.streams;
   out->level = cc.n_levels > 1 ? 1 : 0;     /* where it prefetches to */
   instr = body_instr(an, loop);
   if (instr == UINT32_MAX) {
      out->why_not = mp_strdup("mp.fission.why", "no replay: no access of its body has an "
                               "affine formula");
      return;
   }
   mp_memset(&o, 0, sizeof o);
   o.leave_gathers = o.leave_scatters = 1;
   refs = mp_order_nest(run, an, instr, loop, loop, &nest, &o, &ids);
   if (refs == NULL) {
      out->why_not = o.why_not;
      o.why_not = NULL;
      mp_order_replay_clear(&o);
      return;
   }
   out->n_instrs = o.n_instrs;
   out->n_gathered = o.n_gathered;
   out->n_scattered = o.n_scattered;
   out->why_not = scatter_walked(an, &o, &nest, ids);
   mp_order_replay_clear(&o);
   if (out->why_not)
      goto done;
   out->n_scalars = drop_scalars(&nest, refs, ids);
   if (nest.n_refs <= streams) {
      out->why_not = mp_asprintf("no replay: %u of its memory instructions have formulas, "
                                 "no more than the prefetcher's %u streams (the others "
                                 "go through an index or walk nothing)", nest.n_refs, streams);
      goto done;
   }
   k = (nest.n_refs + streams - 1) / streams;
   if (k > MP_FUSION_MAX_PARTS)
      k = MP_FUSION_MAX_PARTS;
   per = (nest.n_refs + k - 1) / k;
   for (p = 0; p < k; p++) {
      uint32_t first = p * per, n = first + per <= nest.n_refs ? per : nest.n_refs - first;
      nests[p] = nest;
      nests[p].refs = nest.refs + first;
      nests[p].n_refs = n;
      parts[p] = &nests[p];
   }
   out->n_loops = k;
   all = mp_fusion_accesses(parts, k, 0);
   if (all > MP_ORDER_REPLAY_BUDGET) {
      out->trips = nest.trips[0] * MP_ORDER_REPLAY_BUDGET / all;
      if (out->trips == 0)
         out->trips = 1;
   }
   if (out->trips != 0) {
      uint32_t line = cc.level[0].line, l;
      for (l = 0; l < cc.n_levels; l++)
         out->run_ways[l] = cc.level[l].assoc;
      out->shrunk = mp_nest_miniature(&cc, mp_nest_footprint(&nest, out->trips, line),
                                      mp_nest_footprint(&nest, 0, line));
      for (l = 0; l < cc.n_levels; l++)
         out->ways[l] = cc.level[l].assoc;
   }
   if (mp_fusion_dependence(parts, k, out->trips, &earlier, &later, &ref, &addr)) {
      uint32_t var = ids[later * per + ref] < an->n_instrs ? an->instrs[ids[later * per + ref]].var
                                                           : UINT32_MAX;
      out->illegal = 1;
      out->why_not = mp_asprintf("no replay: splitting it would break a dependence on %s: "
                                 "an iteration of one part touches an element a later "
                                 "iteration of an earlier part touches, one of them storing",
                                 var != UINT32_MAX ? mp_vars_get(an->vars, var)->name
                                                   : "a variable");
      goto done;
   }
   out->r.made = mp_fusion_replay(parts, k, out->trips, 1, 0, &cc, an->cache->latency,
                                  &out->r.before);
   if (out->r.made && runs_again(an, loop, instr, nest.trips[0])) {
      mp_whatif_run warm;
      if (mp_fusion_replay(parts, k, out->trips, 1, 1, &cc, an->cache->latency, &warm)
          && stays_cached(an, &nest, ids, out->level, &out->r.before, &warm)) {
         out->warm = 1;
         out->r.before = warm;
      }
   }
   out->r.made = out->r.made
                 && mp_fusion_replay(parts, k, out->trips, 0, out->warm, &cc,
                                     an->cache->latency, &out->r.after);
   out->r.complete = out->trips == 0;
   if (out->trips == 0)
      out->trips = nest.trips[0];
   if (!out->r.made)
      out->why_not = mp_asprintf("no replay: the loop makes no access");
done:
   mp_free(refs);
   mp_free(ids);
}

/* ", through L2 shrunk to 11 of its 16 ways, as their share of the
   loop's footprint", or "". */
static char *shrunk_text(const mp_fission_outcome *o)
{
   char *t = mp_strdup("mp.fission.text", ""), *more;
   uint32_t l, n = 0;
   for (l = 0; l < MP_CACHE_MAX_LEVELS; l++) {
      if (!(o->shrunk & 1u << l))
         continue;
      more = mp_asprintf("%s%s %s to %u of its %u ways", t, n++ ? "," : ", through",
                         mp_report_level_name(l), o->ways[l], o->run_ways[l]);
      mp_free(t);
      t = more;
   }
   if (n) {
      more = mp_asprintf("%s, their share of the loop's footprint", t);
      mp_free(t);
      t = more;
   }
   return t;
}

char *mp_fission_replay_text(const mp_fission_outcome *o)
{
   char b[2][32];
   char *outcome, *text, *gathers, *shrunk;
   if (!o->r.made)
      return o->why_not ? mp_asprintf("; %s", o->why_not) : mp_strdup("mp.fission.text", "");
   outcome = mp_replay_outcome(&o->r.before, &o->r.after, o->level);
   gathers = o->n_gathered ? mp_asprintf(", %u load%s through an index left out",
                                          o->n_gathered, o->n_gathered == 1 ? "" : "s")
                           : mp_strdup("mp.fission.text", "");
   if (o->n_scattered) {
      char *more = mp_asprintf("%s, %u store%s through an index left out", gathers,
                               o->n_scattered, o->n_scattered == 1 ? "" : "s");
      mp_free(gathers);
      gathers = more;
   }
   if (o->n_scalars) {
      char *more = mp_asprintf("%s, %u of them on scalars left out", gathers, o->n_scalars);
      mp_free(gathers);
      gathers = more;
   }
   shrunk = shrunk_text(o);
   text = mp_asprintf("; replaying %sthe loop (%u memory instructions%s, %s accesses, %s "
                      "iterations%s%s) with a stream prefetcher of %u streams, as it ran and "
                      "split into %u loops: %s",
                      o->r.complete ? "" : "the first iterations of ", o->n_instrs, gathers,
                      mp_commas(o->r.before.accesses, b[0], sizeof b[0]),
                      mp_commas(o->trips, b[1], sizeof b[1]), shrunk,
                      o->warm ? ", its data in the cache from its last execution, as in the run"
                              : "", o->streams, o->n_loops, outcome);
   mp_free(outcome);
   mp_free(gathers);
   mp_free(shrunk);
   return text;
}

void mp_fission_outcome_clear(mp_fission_outcome *o)
{
   if (o->why_not)
      mp_free(o->why_not);
   o->why_not = NULL;
}
