/*--------------------------------------------------------------------*/
/*--- memprof: the replay of the loop-fusion advice.                ---*/
/*---                                             mp_fusion_replays.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A loop's part is the loop with its short inner loops unrolled, or
   else the nest from the loop down to its deepest loop that holds a
   memory instruction with a formula: the body the fused loop's
   iteration runs, in its largest execution.  The references carry
   their variables, for the dependence check; each variable's heap
   block is one for all the parts, and the blocks lie apart as one
   call's (one_layout).  When the loops' accesses together pass the
   replay's budget, both orders replay the same first iterations of
   every loop.
*/
#include "mp_fusion_replays.h"
#include "mp_facts.h"
#include "mp_order_replays.h"
#include "mp_util.h"

/* The moves that lay blocks apart keep each element's place in its
   line (a line of 64 bytes, or a divisor of it). */
#define MP_LAYOUT_LINE 64

/* An instruction of the deepest loop inside 'loop' whose formula there
   fits, and that loop in *inner; UINT32_MAX if none. */
static uint32_t part_instr(const mp_finished *an, uint32_t loop, uint32_t *inner)
{
   uint32_t id, best = UINT32_MAX, depth = 0;
   for (id = 0; id < an->n_instrs; id++) {
      uint32_t l = an->instrs[id].known ? mp_facts_instr_loop(an, id) : MP_LOOP_NONE;
      const mp_formula_instr *fi;
      const mp_loop *lp;
      if (l == MP_LOOP_NONE || !mp_loops_within(an->loops, l, loop))
         continue;
      lp = mp_loops_get(an->loops, l);
      fi = mp_formula_get(an->formula, (uint64_t)lp->depth << 32 | id);
      if (lp->depth > depth && fi != NULL && fi->coef != NULL && mp_formula_fits(fi, NULL)) {
         depth = lp->depth;
         best = id;
         *inner = l;
      }
   }
   return best;
}

/* Why the fusion cannot be made: it would break a dependence, at the
   variable of instruction 'instr' (UINT32_MAX: not known). */
static char *dependence_text(const mp_finished *an, const uint32_t *loops, uint32_t earlier,
                             uint32_t later, uint32_t instr)
{
   char *we = mp_facts_loop_where(an, loops[earlier]);
   char *wl = mp_facts_loop_where(an, loops[later]);
   uint32_t var = instr < an->n_instrs ? an->instrs[instr].var : UINT32_MAX;
   const mp_var *v = var != UINT32_MAX ? mp_vars_get(an->vars, var) : NULL;
   char *t = mp_asprintf("no replay: fusing them would break a dependence: an iteration "
                         "of the loop at %s would touch an element of %s before a later "
                         "iteration of the loop at %s touches it, one of them storing",
                         wl, v ? v->name : "a variable", we);
   mp_free(we);
   mp_free(wl);
   return t;
}

/* Whether a part stores to variable var (one of its references' does). */
static int stores_to(const mp_finished *an, const mp_nest *n, const uint32_t *ids,
                     uint32_t var)
{
   uint32_t r;
   for (r = 0; r < n->n_refs; r++)
      if (n->refs[r].is_write && ids[r] < an->n_instrs && an->instrs[ids[r]].var == var)
         return 1;
   return 0;
}

/* A load left out (a gather) of a variable that a part stores to: the
   fusion's dependences through it are not known.  Its why_not, or
   NULL. */
static char *unknown_dependence(const mp_finished *an, const uint32_t *loops, uint32_t k,
                                const mp_nest *nests, uint32_t *const *ids,
                                uint32_t *const *gathered, const uint32_t *n_gathered)
{
   uint32_t p, q, g;
   for (p = 0; p < k; p++)
      for (g = 0; g < n_gathered[p]; g++)
         for (q = 0; q < k; q++)
            if (gathered[p][g] != UINT32_MAX && q != p
                && stores_to(an, &nests[q], ids[q], gathered[p][g])) {
               char *wp = mp_facts_loop_where(an, loops[p]);
               char *wq = mp_facts_loop_where(an, loops[q]);
               char *t = mp_asprintf("no replay: the loop at %s reads %s through an index, "
                                     "and the loop at %s stores to it: the fusion's "
                                     "dependences through it are not known", wp,
                                     mp_vars_get(an->vars, gathered[p][g])->name, wq);
               mp_free(wp);
               mp_free(wq);
               return t;
            }
   return NULL;
}

static int holds(const uint32_t *set, uint32_t n, uint32_t var)
{
   uint32_t i;
   for (i = 0; i < n && set[i] != var; i++)
      ;
   return var != UINT32_MAX && i < n;
}

/* Whether part q accesses var (stores only, when stores): its refs
   replayed or the instructions left out between its loops. */
static int part_accesses(const mp_finished *an, const mp_nest *n, const uint32_t *ids,
                         const mp_order_replay *left, uint32_t var, int stores)
{
   uint32_t r;
   for (r = 0; r < n->n_refs; r++)
      if ((!stores || n->refs[r].is_write) && ids[r] < an->n_instrs
          && an->instrs[ids[r]].var == var)
         return 1;
   return holds(left->left_stored, left->n_left_stored, var)
          || (!stores && holds(left->left_loaded, left->n_left_loaded, var));
}

/* Whether var is the bytes of a function's frames that no local holds
   while the debug information names others of its locals: its spill
   slots and the compiler's temporaries, each loop's own (a fusion in
   the source lets the compiler place them again), not data one loop
   leaves for another.  Without named locals (no -g, a clone the
   debug information does not describe) the frame's arrays are among
   those bytes, and the dependence check keeps them. */
static int compilers_slots(const mp_finished *an, uint32_t var)
{
   const mp_var *v = mp_vars_get(an->vars, var), *o;
   uint32_t i, n = mp_vars_count(an->vars);
   if (!v->whole_frame || v->function == NULL)
      return 0;
   for (i = 0; i < n; i++) {
      o = mp_vars_get(an->vars, i);
      if (o->kind == MP_VAR_STACK && !o->whole_frame && o->function != NULL
          && mp_strcmp(o->function, v->function) == 0)
         return 1;
   }
   return 0;
}

/* The formula instruction id is replayed by: its own in its innermost
   loop. */
static const mp_formula_instr *formula_of(const mp_finished *an, uint32_t id)
{
   uint32_t l = id < an->n_instrs && an->instrs[id].known ? mp_facts_instr_loop(an, id)
                                                          : MP_LOOP_NONE;
   if (l == MP_LOOP_NONE)
      return NULL;
   return mp_formula_get(an->formula, (uint64_t)mp_loops_get(an->loops, l)->depth << 32 | id);
}

/* A variable in a heap block, as the parts replay it. */
typedef struct {
   uint32_t var;
   uint64_t block;        /* the block its first reference was fitted in */
   uint64_t lo, hi;       /* the bytes its references walk, hi past the last */
   uint64_t shift;        /* added to its references to lay it apart */
} heap_walk;

static int by_lo(const void *a, const void *b)
{
   const heap_walk *x = a, *y = b;
   return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The bytes reference r of nest n walks: [*lo, *hi). */
static void walk_extent(const mp_nest *n, const mp_nest_ref *r, uint64_t *lo, uint64_t *hi)
{
   uint64_t down = 0, up = 0;
   uint32_t k;
   for (k = 0; k < n->n_loops; k++) {
      uint64_t span = (uint64_t)(r->step[k] < 0 ? -r->step[k] : r->step[k])
                      * (n->trips[k] ? n->trips[k] - 1 : 0);
      if (r->step[k] < 0)
         down += span;
      else
         up += span;
   }
   *lo = r->base - down;
   *hi = r->base + up + r->size;
}

/* One block per variable for every part, and the blocks apart as one
   call's.  A formula fitted on offsets in a heap block (the block's
   start then, ref_block) is moved to the block the first reference of
   its variable was fitted in: each instruction's formula is fitted in
   one execution of its loop, and a loop's temporaries allocated at
   each call of its function lie elsewhere at each, so two loops'
   formulas of one array, fitted at two calls, would otherwise replay
   two arrays.  An execution of an outer loop spans many calls, and the
   trip counts replayed are its most (the largest region of elements)
   while the blocks are those of the call fitted first (perhaps a small
   one, its blocks a few lines apart): the variables whose walks would
   overlap are moved up, in their order in memory, each to the next
   line past the one below, as the allocator lays out blocks of that
   size one after another. */
static void one_layout(const mp_finished *an, mp_nest_ref *const *refs, const mp_nest *nests,
                       uint32_t *const *ids, uint32_t k)
{
   heap_walk *w = NULL;
   uint32_t n = 0, p, r, j;
   uint64_t end = 0;
   for (p = 0; p < k; p++)
      for (r = 0; r < nests[p].n_refs; r++) {
         const mp_formula_instr *fi = formula_of(an, ids[p][r]);
         uint32_t v = refs[p][r].var;
         uint64_t lo, hi;
         if (fi == NULL || !fi->has_block || v == 0)
            continue;
         for (j = 0; j < n && w[j].var != v; j++)
            ;
         if (j == n) {
            w = mp_realloc("mp.fusion.blocks", w, (n + 1) * sizeof *w);
            mp_memset(&w[n], 0, sizeof *w);
            w[n].var = v;
            w[n].block = fi->ref_block;
            w[n++].lo = UINT64_MAX;
         }
         refs[p][r].base += w[j].block - fi->ref_block;
         walk_extent(&nests[p], &refs[p][r], &lo, &hi);
         if (lo < w[j].lo)
            w[j].lo = lo;
         if (hi > w[j].hi)
            w[j].hi = hi;
      }
   if (w == NULL)
      return;
   mp_sort(w, n, sizeof *w, by_lo);
   /* each moved as little as clears the walks below it: a block far
      from the others keeps its place, and its sets */
   for (j = 0; j < n; j++) {
      w[j].shift = j > 0 && w[j].lo < end
                   ? (end - w[j].lo + MP_LAYOUT_LINE - 1) / MP_LAYOUT_LINE * MP_LAYOUT_LINE
                   : 0;
      if (w[j].hi + w[j].shift > end)
         end = w[j].hi + w[j].shift;
   }
   for (p = 0; p < k; p++)
      for (r = 0; r < nests[p].n_refs; r++) {
         const mp_formula_instr *fi = formula_of(an, ids[p][r]);
         for (j = 0; fi != NULL && fi->has_block && j < n; j++)
            if (w[j].var == refs[p][r].var)
               refs[p][r].base += w[j].shift;
      }
   mp_free(w);
}

/* Part n without its references to the compiler's slots of a frame
   (compilers_slots): each part's own, they carry no dependence a
   fusion in the source must keep.  *kept: the new references (the
   caller frees them), map[r] the part's reference that reference r
   was. */
static void without_slots(const mp_finished *an, const mp_nest *n, const uint32_t *ids,
                          mp_nest *out, mp_nest_ref **kept, uint32_t **map)
{
   uint32_t r, m = 0;
   *out = *n;
   *kept = mp_calloc("mp.fusion.kept", n->n_refs + 1, sizeof **kept);
   *map = mp_calloc("mp.fusion.kept", n->n_refs + 1, sizeof **map);
   for (r = 0; r < n->n_refs; r++)
      if (ids[r] >= an->n_instrs || an->instrs[ids[r]].var == UINT32_MAX
          || !compilers_slots(an, an->instrs[ids[r]].var)) {
         (*kept)[m] = n->refs[r];
         (*map)[m++] = r;
      }
   out->refs = *kept;
   out->n_refs = m;
}

/* Whether nest n, all its loops' iterations together, runs as many
   as a loop of 'most' iterations, within a factor of two: a 2-D nest
   over the elements a 1-D loop walks (a matrix filled row by row, then
   read flat), which fusing by hand collapses. */
static int collapses(const mp_nest *n, uint64_t most)
{
   uint64_t all = 1;
   uint32_t l;
   for (l = 0; l < n->n_loops && all <= 2 * most; l++)
      all *= n->trips[l];
   return n->n_loops > 1 && 2 * all >= most && all <= 2 * most;
}

/* The dependence a fusion of the parts would break, through data
   other than the compiler's slots: as mp_fusion_dependence, *ref the
   later part's reference in nests[later]. */
static int breaks_dependence(const mp_finished *an, const mp_nest *nests, uint32_t *const *ids,
                             uint32_t k, uint64_t trips, uint32_t *earlier, uint32_t *later,
                             uint32_t *ref, uint64_t *addr)
{
   mp_nest dep[MP_FUSION_MAX_PARTS];
   const mp_nest *parts[MP_FUSION_MAX_PARTS];
   mp_nest_ref *kept[MP_FUSION_MAX_PARTS];
   uint32_t *map[MP_FUSION_MAX_PARTS], part[MP_FUSION_MAX_PARTS], p, n = 0;
   int broken = 0;
   for (p = 0; p < k; p++) {
      without_slots(an, &nests[p], ids[p], &dep[p], &kept[p], &map[p]);
      /* a part of slots alone has nothing to check */
      if (dep[p].n_refs > 0) {
         part[n] = p;
         parts[n++] = &dep[p];
      }
   }
   if (n >= 2 && mp_fusion_dependence(parts, n, trips, earlier, later, ref, addr)) {
      *earlier = part[*earlier];
      *later = part[*later];
      *ref = map[*later][*ref];
      broken = 1;
   }
   for (p = 0; p < k; p++) {
      mp_free(kept[p]);
      mp_free(map[p]);
   }
   return broken;
}

/* A variable that a part stores to through an index (a scatter, left
   out of its replay: an element loop's forces added to its nodes) and
   another part accesses: the fusion's dependences through it are not
   known.  Its why_not, or NULL. */
static char *scattered_dependence(const mp_finished *an, const uint32_t *loops, uint32_t k,
                                  const mp_nest *nests, uint32_t *const *ids,
                                  uint32_t *const *gathered, const uint32_t *n_gathered,
                                  const mp_order_replay *left)
{
   uint32_t p, q, s;
   for (p = 0; p < k; p++)
      for (s = 0; s < left[p].n_scattered; s++)
         for (q = 0; q < k; q++) {
            uint32_t var = left[p].scattered[s];
            char *wp, *wq, *t;
            if (q == p || (var != UINT32_MAX
                           && !part_accesses(an, &nests[q], ids[q], &left[q], var, 0)
                           && !holds(gathered[q], n_gathered[q], var)
                           && !holds(left[q].scattered, left[q].n_scattered, var)))
               continue;
            wp = mp_facts_loop_where(an, loops[p]);
            wq = mp_facts_loop_where(an, loops[q]);
            t = mp_asprintf("no replay: the loop at %s stores to %s through an index, and "
                            "the loop at %s accesses it too: the fusion's dependences "
                            "through it are not known", wp,
                            var != UINT32_MAX ? mp_vars_get(an->vars, var)->name
                                              : "a variable", wq);
            mp_free(wp);
            mp_free(wq);
            return t;
         }
   return NULL;
}

/* A variable that an instruction left out between a part's loops (a
   row's set-up before its inner loop) stores, and another part
   accesses, or that it loads and another stores: the replay does not
   see the dependence (compilers_slots excepted).  Its why_not, or
   NULL. */
static char *unseen_dependence(const mp_finished *an, const uint32_t *loops, uint32_t k,
                               const mp_nest *nests, uint32_t *const *ids,
                               const mp_order_replay *left)
{
   uint32_t p, q, i;
   for (p = 0; p < k; p++)
      for (q = 0; q < k; q++) {
         uint32_t var = UINT32_MAX;
         if (q == p)
            continue;
         for (i = 0; i < left[p].n_left_stored && var == UINT32_MAX; i++)
            if (left[p].left_stored[i] != UINT32_MAX
                && !compilers_slots(an, left[p].left_stored[i])
                && part_accesses(an, &nests[q], ids[q], &left[q], left[p].left_stored[i], 0))
               var = left[p].left_stored[i];
         for (i = 0; i < left[p].n_left_loaded && var == UINT32_MAX; i++)
            if (left[p].left_loaded[i] != UINT32_MAX
                && !compilers_slots(an, left[p].left_loaded[i])
                && part_accesses(an, &nests[q], ids[q], &left[q], left[p].left_loaded[i], 1))
               var = left[p].left_loaded[i];
         if (var != UINT32_MAX) {
            char *wp = mp_facts_loop_where(an, loops[p]);
            char *wq = mp_facts_loop_where(an, loops[q]);
            char *t = mp_asprintf("no replay: the loop at %s accesses %s between its loops, "
                                  "where the replay does not follow it, and the loop at %s "
                                  "accesses it too, one of them storing: the fusion's "
                                  "dependences through it are not known", wp,
                                  mp_vars_get(an->vars, var)->name, wq);
            mp_free(wp);
            mp_free(wq);
            return t;
         }
      }
   return NULL;
}

void mp_replay_fusion(const mp_run *run, const mp_finished *an, const uint32_t *loops,
                      uint32_t k, int repeated, uint32_t level, mp_fusion_outcome *out)
{
   mp_nest nests[MP_FUSION_MAX_PARTS];
   const mp_nest *parts[MP_FUSION_MAX_PARTS];
   mp_nest_ref *refs[MP_FUSION_MAX_PARTS];
   uint32_t *ids[MP_FUSION_MAX_PARTS], *gathered[MP_FUSION_MAX_PARTS];
   mp_order_replay left[MP_FUSION_MAX_PARTS];   /* each part's left-out lists */
   uint32_t n_gathered[MP_FUSION_MAX_PARTS];
   uint64_t all, most = 0, addr;
   uint32_t p, made = 0, earlier, later, ref;
   mp_cache_cfg cc;
   mp_memset(out, 0, sizeof *out);
   out->level = level;
   out->n_loops = k;
   out->repeated = repeated;
   if (!run->whatif_fuse || an->loops == NULL || an->formula == NULL || an->cache == NULL
       || k < 2 || k > MP_FUSION_MAX_PARTS || !mp_facts_cache_cfg(an, &cc))
      return;
   for (p = 0; p < k; p++, made++) {
      mp_order_replay o;
      uint32_t inner = MP_LOOP_NONE, instr = part_instr(an, loops[p], &inner);
      mp_memset(&o, 0, sizeof o);
      o.leave_gathers = 1;
      if (instr == UINT32_MAX) {
         char *w = mp_facts_loop_where(an, loops[p]);
         out->why_not = mp_asprintf("no replay: no access of the loop at %s has an affine "
                                    "formula", w);
         mp_free(w);
         break;
      }
      /* an element loop with short inner loops whole; else the nest
         down to its deepest walk, the loops' other bodies left out */
      o.leave_scatters = 1;
      o.largest = 1;
      refs[p] = mp_order_flat_nest(an, loops[p], &nests[p], &o, &ids[p]);
      if (refs[p] == NULL) {
         mp_order_replay_clear(&o);
         mp_memset(&o, 0, sizeof o);
         o.leave_gathers = 1;
         o.largest = 1;
         refs[p] = mp_order_nest(run, an, instr, inner, loops[p], &nests[p], &o, &ids[p]);
      }
      if (refs[p] == NULL) {
         out->why_not = o.why_not;
         o.why_not = NULL;
         mp_order_replay_clear(&o);
         break;
      }
      /* the references' variables, so that two variables sharing bytes
         in turn (one stack slot, two scopes' locals) are not taken for
         a dependence */
      for (ref = 0; ref < nests[p].n_refs; ref++)
         refs[p][ref].var = ids[p][ref] < an->n_instrs && an->instrs[ids[p][ref]].var
                                                          != UINT32_MAX
                            ? an->instrs[ids[p][ref]].var + 1 : 0;
      gathered[p] = o.gathered;
      n_gathered[p] = o.n_gathered;
      o.gathered = NULL;
      o.n_gathered = 0;
      mp_memset(&left[p], 0, sizeof left[p]);
      left[p].left_loaded = o.left_loaded;
      left[p].n_left_loaded = o.n_left_loaded;
      left[p].left_stored = o.left_stored;
      left[p].n_left_stored = o.n_left_stored;
      left[p].scattered = o.scattered;
      left[p].n_scattered = o.n_scattered;
      o.left_loaded = o.left_stored = o.scattered = NULL;
      o.n_left_loaded = o.n_left_stored = o.n_scattered = 0;
      mp_order_replay_clear(&o);
      out->n_instrs += o.n_instrs;
      out->n_gathered += n_gathered[p];
      out->n_scattered += left[p].n_scattered;
      parts[p] = &nests[p];
      if (nests[p].trips[0] > most)
         most = nests[p].trips[0];
   }
   /* a nest over the elements a flat loop walks pairs with it element
      by element, flattened */
   for (p = 0; made == k && p < k && !out->why_not; p++)
      if (8 * nests[p].trips[0] < most && collapses(&nests[p], most))
         mp_nest_flatten(&nests[p], refs[p]);
   for (p = 0, most = 0; made == k && p < k; p++)
      if (nests[p].trips[0] > most)
         most = nests[p].trips[0];
   for (p = 0; made == k && p < k && !out->why_not; p++)
      if (8 * nests[p].trips[0] < most) {
         char b1[32], b2[32];
         char *wp = mp_facts_loop_where(an, loops[p]);
         out->illegal = 1;
         out->why_not = mp_asprintf("no replay: the loop at %s runs %s iterations where "
                                    "another runs %s: their iterations do not pair up "
                                    "(more than 8 of one to one of the other)",
                                    wp, mp_commas(nests[p].trips[0], b1, sizeof b1),
                                    mp_commas(most, b2, sizeof b2));
         mp_free(wp);
      }
   if (made == k && !out->why_not) {
      one_layout(an, refs, nests, ids, k);
      /* the same first iterations of every loop in both orders */
      all = mp_fusion_accesses(parts, k, 0);
      if (all > MP_ORDER_REPLAY_BUDGET) {
         out->trips = most * MP_ORDER_REPLAY_BUDGET / all;
         if (out->trips == 0)
            out->trips = 1;
      }
      out->why_not = unknown_dependence(an, loops, k, nests, ids, gathered, n_gathered);
      if (out->why_not == NULL)
         out->why_not = scattered_dependence(an, loops, k, nests, ids, gathered, n_gathered,
                                             left);
      if (out->why_not == NULL)
         out->why_not = unseen_dependence(an, loops, k, nests, ids, left);
      if (out->why_not == NULL
          && breaks_dependence(an, nests, ids, k, out->trips, &earlier, &later, &ref, &addr)) {
         out->illegal = 1;
         out->why_not = dependence_text(an, loops, earlier, later, ids[later][ref]);
      }
      if (out->why_not == NULL) {
         out->r.made = mp_fusion_replay(parts, k, out->trips, 0, repeated, &cc,
                                        an->cache->latency, &out->r.before)
                       && mp_fusion_replay(parts, k, out->trips, 1, repeated, &cc,
                                           an->cache->latency, &out->r.after);
         out->r.complete = out->trips == 0;
         if (out->trips == 0)
            out->trips = most;
         if (!out->r.made)
            out->why_not = mp_asprintf("no replay: the loops make no access");
      }
   }
   for (p = 0; p < made; p++) {
      mp_free(refs[p]);
      mp_free(ids[p]);
      if (gathered[p])
         mp_free(gathered[p]);
      mp_order_replay_clear(&left[p]);
   }
}

char *mp_fusion_replay_text(const mp_fusion_outcome *o)
{
   char b[2][32];
   char *outcome, *text, *gathers;
   if (!o->r.made)
      return o->why_not ? mp_asprintf("; %s", o->why_not) : mp_strdup("mp.fusion.text", "");
   outcome = mp_replay_outcome(&o->r.before, &o->r.after, o->level);
   if (o->n_gathered && o->n_scattered)
      gathers = mp_asprintf(", %u load%s and %u store%s through an index left out",
                            o->n_gathered, o->n_gathered == 1 ? "" : "s", o->n_scattered,
                            o->n_scattered == 1 ? "" : "s");
   else if (o->n_gathered || o->n_scattered)
      gathers = mp_asprintf(", %u %s%s through an index left out",
                            o->n_gathered + o->n_scattered, o->n_gathered ? "load" : "store",
                            o->n_gathered + o->n_scattered == 1 ? "" : "s");
   else
      gathers = mp_strdup("mp.fusion.text", "");
   text = mp_asprintf("; replaying %sthe %u loops (%u memory instructions%s, %s accesses, "
                      "%s iterations of the fused loop%s) one after the other and fused: %s",
                      o->r.complete ? "" : "the first iterations of ", o->n_loops,
                      o->n_instrs, gathers, mp_commas(o->r.before.accesses, b[0], sizeof b[0]),
                      mp_commas(o->trips, b[1], sizeof b[1]),
                      o->repeated ? ", the cache warmed by a pass before" : "", outcome);
   mp_free(outcome);
   mp_free(gathers);
   return text;
}

void mp_fusion_outcome_clear(mp_fusion_outcome *o)
{
   if (o->why_not)
      mp_free(o->why_not);
   o->why_not = NULL;
}
