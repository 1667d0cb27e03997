/*--------------------------------------------------------------------*/
/*--- memprof: the padding replay of the conflict-sets advice.     ---*/
/*---                                                mp_pad_replays.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_pad_replays.h.

   Cost: per walk tried, a pass over the instructions (mp_order_nest);
   for the walk replayed, three replays at most of MP_ORDER_REPLAY_BUDGET
   accesses each.
*/
#include "mp_pad_replays.h"
#include "mp_facts.h"
#include "mp_util.h"

/* The outermost loop around inner, at most MP_NEST_MAX_LOOPS - 1
   levels out, up to which instr's formula knows every loop's step:
   the loops that come back to the lines of a walk that conflicts are
   around it.  MP_LOOP_NONE if not even the loop around inner is known. */
static uint32_t nest_top(const mp_finished *an, uint32_t instr, uint32_t inner)
{
   const mp_loop *in = mp_loops_get(an->loops, inner);
   const mp_formula_instr *fi = mp_formula_get(an->formula,
                                               (uint64_t)in->depth << 32 | instr);
   uint32_t top = MP_LOOP_NONE, p, levels = 1;
   if (fi == NULL || fi->coef == NULL)
      return MP_LOOP_NONE;
   for (p = in->parent; p != MP_LOOP_NONE && levels < MP_NEST_MAX_LOOPS;
        p = mp_loops_get(an->loops, p)->parent, levels++) {
      uint32_t d = mp_loops_get(an->loops, p)->depth - 1;
      if (d >= fi->depth || !(fi->known >> d & 1))
         break;
      top = p;
   }
   return top;
}

static uint64_t magnitude(int64_t s)
{
   return s < 0 ? (uint64_t)-s : (uint64_t)s;
}

/* Marks var's references padded from the start of the block each
   walks (without one, a stack array: from the lowest address its
   references start at) and returns its row: the largest step of a
   loop through it, if a line or more (0: none).  Not only a whole
   number of lines: rows of 7.5 lines collide too, and a line more
   moves them. *n_var: its references. */
static uint64_t mark_var(const mp_finished *an, uint32_t var, uint32_t depth,
                         const uint32_t *ids, mp_nest *nest, mp_nest_ref *refs,
                         uint32_t line, uint32_t *n_var)
{
   uint64_t row = 0, low = UINT64_MAX;
   uint32_t r, k;
   *n_var = 0;
   for (r = 0; r < nest->n_refs; r++)
      if (an->instrs[ids[r]].var == var && refs[r].base < low)
         low = refs[r].base;
   for (r = 0; r < nest->n_refs; r++) {
      const mp_formula_instr *fi;
      if (an->instrs[ids[r]].var != var)
         continue;
      fi = mp_formula_get(an->formula, (uint64_t)depth << 32 | ids[r]);
      refs[r].origin = fi && fi->has_block && fi->ref_block ? fi->ref_block : low;
      (*n_var)++;
      for (k = 0; k < nest->n_loops; k++) {
         uint64_t m = magnitude(refs[r].step[k]);
         if (m >= line && m > row)
            row = m;
      }
   }
   return row;
}

/* "; with its start moved by 64 B instead: L1 misses 1 -> 2 (+100%),
   cycles ..." */
static char *variant_text(const char *how, const mp_whatif_run *before,
                          const mp_whatif_run *after, uint32_t level)
{
   char *outcome = mp_replay_outcome(before, after, level);
   char *t = mp_asprintf("; %s instead: %s", how, outcome);
   mp_free(outcome);
   return t;
}

/* Replays the nest as it ran and under each layout (padded rows, a
   moved start), keeping the better layout in out. */
static void replay_layouts(const mp_finished *an, const mp_nest *nest, const char *name,
                           uint64_t row, uint32_t line, int partner, uint32_t level,
                           mp_order_replay *out)
{
   mp_nest_pad pads[2] = { { row, line, 0 }, { 0, 0, line } };
   mp_whatif_run runs[2];
   char *how[2] = { NULL, NULL }, b[2][32];
   uint32_t v, best = 2;
   mp_cache_cfg cc;
   if (!mp_facts_cache_cfg(an, &cc))
      return;
   if (!mp_nest_replay(nest, &cc, an->cache->latency, &out->r.before)) {
      out->why_not = mp_asprintf("no replay: the nest makes no access");
      return;
   }
   for (v = 0; v < 2; v++) {
      mp_nest after = *nest;
      if (v == 0 ? row == 0 : !partner)
         continue;
      after.pad = &pads[v];
      if (!mp_nest_replay(&after, &cc, an->cache->latency, &runs[v]))
         continue;
      how[v] = v == 0
         ? mp_asprintf("with the rows of %s padded from %s to %s B", name,
                       mp_commas(row, b[0], sizeof b[0]),
                       mp_commas(row + line, b[1], sizeof b[1]))
         : mp_asprintf("with the start of %s moved by %u B", name, line);
      if (best == 2 || runs[v].cycles < runs[best].cycles)
         best = v;
   }
   if (best == 2)
      return;
   out->r.made = 1;
   out->r.after = runs[best];
   out->how = how[best];
   out->level = level;
   if (how[1 - best]) {
      out->also = variant_text(how[1 - best], &out->r.before, &runs[1 - best], level);
      mp_free(how[1 - best]);
   }
}

/* Tries the walk of instr: 1 if it was replayed, or said why not in
   out->why_not (then 0). */
static int try_walk(const mp_run *run, const mp_finished *an, uint32_t var,
                    uint32_t instr, uint32_t level, int partner, mp_order_replay *out)
{
   uint32_t inner = mp_facts_instr_loop(an, instr), top, n_var = 0, line;
   uint32_t *ids = NULL;
   const char *name = mp_vars_get(an->vars, var)->name;
   mp_nest nest;
   mp_nest_ref *refs;
   uint64_t row;
   if (inner == MP_LOOP_NONE
       || (top = nest_top(an, instr, inner)) == MP_LOOP_NONE) {
      out->why_not = mp_asprintf("no replay: its walk is in no loop nest whose access "
                                 "formulas are known");
      return 0;
   }
   refs = mp_order_nest(run, an, instr, inner, top, &nest, out, &ids);
   if (refs == NULL)
      return 0;
   line = an->cache->level[level].line;
   row = mark_var(an, var, mp_loops_get(an->loops, inner)->depth, ids, &nest, refs, line,
                  &n_var);
   mp_free(ids);
   if (n_var == 0 || (row == 0 && !partner)) {
      out->why_not = mp_asprintf("no replay: no loop of its nest steps through %s by "
                                 "a cache line or more: no leading dimension to pad", name);
      mp_free(refs);
      return 0;
   }
   replay_layouts(an, &nest, name, row, line, partner, level, out);
   mp_free(refs);
   return out->r.made;
}

void mp_replay_padding(const mp_run *run, const mp_finished *an, uint32_t var,
                       const uint32_t *instrs, uint32_t n, uint32_t level, int partner,
                       mp_order_replay *out)
{
   char *first_why = NULL;
   uint32_t i;
   mp_memset(out, 0, sizeof *out);
   if (!run->whatif_pad_conflicts || an->loops == NULL || an->formula == NULL
       || an->cache == NULL || level >= an->cache->n_levels)
      return;
   for (i = 0; i < n; i++) {
      if (try_walk(run, an, var, instrs[i], level, partner, out))
         break;
      /* The walk tried first says why, if none is replayed. */
      if (first_why == NULL) {
         first_why = out->why_not;
         out->why_not = NULL;
      }
      mp_order_replay_clear(out);
      mp_memset(out, 0, sizeof *out);
   }
   if (out->r.made) {
      if (first_why)
         mp_free(first_why);
   } else if (n == 0) {
      out->why_not = mp_asprintf("no replay: none of its lines has a dominant walk");
   } else {
      out->why_not = first_why;
   }
}
