/*--------------------------------------------------------------------*/
/*--- memprof: the replays of the loop-order advice.                ---*/
/*---                                              mp_order_replays.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_order_replays.h.

   Cost: one pass over the instructions per advice (those outside the
   innermost loop's address range are passed over at once), and two
   replays of at most MP_ORDER_REPLAY_BUDGET accesses each.
*/
#include "mp_order_replays.h"
#include "mp_facts.h"
#include "mp_util.h"

/* The back edges of l's longest execution.  Not the mean: with the
   whole analysis sampled in windows (--sample=periodic|windows), an
   execution open at a window's edge is cut there, and the mean of an
   outer loop is of the pieces; a whole execution inside a window has
   the nest's extent.  A triangular nest is so replayed as its square. */
static uint64_t back_edges(const mp_loop *l)
{
   uint64_t mean = l->entries ? (l->iterations + l->entries / 2) / l->entries : 0;
   return l->max_iterations > mean ? l->max_iterations : mean;
}

/* The loops from with (chain[0]) down to inner (chain[n - 1]); 0 if
   with does not enclose inner within MP_NEST_MAX_LOOPS levels.  With
   inner itself, the chain of one loop. */
static uint32_t chain_of(const mp_loops *loops, uint32_t inner, uint32_t with,
                         uint32_t *chain)
{
   uint32_t d_in = mp_loops_get(loops, inner)->depth, d_with = mp_loops_get(loops, with)->depth;
   uint32_t n, k, l = inner;
   if (d_in < d_with || d_in - d_with + 1 > MP_NEST_MAX_LOOPS)
      return 0;
   n = d_in - d_with + 1;
   chain[0] = MP_LOOP_NONE;
   for (k = n; k-- > 0; l = mp_loops_get(loops, l)->parent) {
      if (l == MP_LOOP_NONE)
         return 0;
      chain[k] = l;
   }
   return chain[0] == with ? n : 0;
}

/* The formula of id in its innermost loop at depth, if id is in loop. */
static const mp_formula_instr *formula_in(const mp_finished *an, uint32_t id,
                                         uint32_t loop, const mp_loop *lp)
{
   const mp_instr_fact *f = &an->instrs[id];
   if (!f->known || f->fn != lp->fn || f->iaddr < lp->head || f->iaddr > lp->tail
       || mp_facts_instr_loop(an, id) != loop)
      return NULL;
   return mp_formula_get(an->formula, (uint64_t)lp->depth << 32 | id);
}

static void add_var(uint32_t **set, uint32_t *n, uint32_t var)
{
   *set = mp_realloc("mp.order.left", *set, (*n + 1) * sizeof **set);
   (*set)[(*n)++] = var;
}

/* Whether fi's location is the same at every iteration of every loop
   around it, by a formula known at each depth: a counter or a sum kept
   in memory (-O0), each loop's own state rather than data another loop
   could depend on. */
static int stays_put(const mp_formula_instr *fi)
{
   uint32_t d;
   if (fi->coef == NULL || fi->depth == 0)
      return 0;
   for (d = 0; d < fi->depth; d++)
      if (!(fi->known >> d & 1) || fi->coef[d] != 0)
         return 0;
   return 1;
}

/* The memory instructions whose innermost loop is loop, left out of
   the nest's replay: counted in out->n_left, the variables of those
   that walk data noted. */
static void note_left(const mp_finished *an, uint32_t loop, mp_order_replay *out)
{
   const mp_loop *lp = mp_loops_get(an->loops, loop);
   uint32_t id;
   for (id = 0; id < an->n_instrs; id++) {
      const mp_formula_instr *fi = formula_in(an, id, loop, lp);
      if (fi == NULL)
         continue;
      out->n_left++;
      if (stays_put(fi))
         continue;
      if (fi->loads)
         add_var(&out->left_loaded, &out->n_left_loaded, an->instrs[id].var);
      if (fi->stores)
         add_var(&out->left_stored, &out->n_left_stored, an->instrs[id].var);
   }
}

/* Whether instruction id's formula stays on the same data through the
   iterations of the loop at depth index d (its coefficient there is
   known and 0): a sweep repeated by a time loop. */
static int same_data_each(const mp_formula_instr *fi, uint32_t d)
{
   return fi != NULL && fi->coef != NULL && d < fi->depth && (fi->known >> d & 1)
          && fi->coef[d] == 0;
}

/* Whether fi walks anything: a coefficient known and not 0.  A
   location no loop walks (a counter or an accumulator kept in memory,
   at -O0) is each loop's own state, as a compiler keeps it, not data
   that one sweep leaves for the next. */
static int walks(const mp_formula_instr *fi)
{
   uint32_t d;
   for (d = 0; fi->coef != NULL && d < fi->depth; d++)
      if ((fi->known >> d & 1) && fi->coef[d] != 0)
         return 1;
   return 0;
}

/* A loop that the nest's outermost loop (chain[0]) runs beside the nest
   and that depends on it across its iterations, or MP_LOOP_NONE: one
   of its instructions and one of the nest's (in any loop of the chain)
   access the same variable, one of them storing, and both the same
   data in every iteration of chain[0] (their coefficient along it is
   0): a time loop's sweeps, each reading what the other wrote in the
   step before.  Reordering chain[0]'s iterations against the inner
   loops (tiling across it, interchanging it) then moves accesses past
   ones they depend on, which is legal only with skewing; the replay,
   which checks no dependence, is not made.  A loop beside the nest
   that walks its own part of the data per iteration (gemm's row of C
   scaled before the product, gramschmidt's columns) is not such a
   loop: the loops can be split apart first; nor is one that shares
   only a scalar with it (walks).  *var_out: the variable. */
static uint32_t dependent_sibling(const mp_finished *an, const uint32_t *chain, uint32_t n,
                                  uint32_t *var_out)
{
   const mp_loop *top = mp_loops_get(an->loops, chain[0]);
   uint32_t d = top->depth - 1, id, nid, k;
   for (id = 0; id < an->n_instrs; id++) {
      uint32_t l = an->instrs[id].known ? mp_facts_instr_loop(an, id) : MP_LOOP_NONE;
      const mp_formula_instr *fs;
      if (l == MP_LOOP_NONE || !mp_loops_within(an->loops, l, chain[0]))
         continue;
      for (k = 0; k < n && chain[k] != l; k++)
         ;
      fs = k == n ? formula_in(an, id, l, mp_loops_get(an->loops, l)) : NULL;
      if (!same_data_each(fs, d) || an->instrs[id].var == UINT32_MAX)
         continue;
      for (nid = 0; nid < an->n_instrs; nid++) {
         uint32_t m = an->instrs[nid].known ? mp_facts_instr_loop(an, nid) : MP_LOOP_NONE;
         const mp_formula_instr *fn = NULL;
         for (k = 0; k < n && m != MP_LOOP_NONE; k++)
            if (chain[k] == m)
               fn = formula_in(an, nid, m, mp_loops_get(an->loops, m));
         if (fn != NULL && an->instrs[nid].var == an->instrs[id].var
             && (fs->stores || fn->stores) && same_data_each(fn, d)
             && (walks(fs) || walks(fn))) {
            *var_out = an->instrs[id].var;
            return l;
         }
      }
   }
   return MP_LOOP_NONE;
}

typedef struct {
   uint64_t pc;
   uint32_t id;
   const mp_formula_instr *fi;
} body_instr;

static int by_pc(const void *a, const void *b)
{
   const body_instr *x = a, *y = b;
   return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The address of fi at the counters v[0 .. depth-1] (outermost first). */
static uint64_t address_at(const mp_formula_instr *fi, const uint64_t *v)
{
   uint64_t a = fi->ref_block + (uint64_t)mp_formula_base(fi);
   uint32_t d;
   for (d = 0; d < fi->depth; d++)
      if (fi->known >> d & 1)
         a += (uint64_t)fi->coef[d] * v[d];
   return a;
}

/* Appends reference *n of instruction id (ids[*n] = id, if ids): fi's
   load (kind 0) or store (1) at base, its steps left to the caller. */
static mp_nest_ref *add_ref(mp_nest_ref *refs, uint32_t *n, uint32_t *ids, uint32_t id,
                            const mp_formula_instr *fi, int kind, uint64_t pc, uint64_t base)
{
   mp_nest_ref *r = &refs[*n];
   if (ids)
      ids[*n] = id;
   (*n)++;
   r->base = base;
   r->size = fi->size ? fi->size : 1;
   r->is_write = kind;
   r->pc = pc;
   return r;
}

/* The references of the body: per instruction, its load then its
   store, each at the nest's first iteration and stepping per loop of
   the chain; ids[r] (if ids) the instruction of reference r. */
static mp_nest_ref *make_refs(const body_instr *body, uint32_t n_body,
                              const uint32_t *chain_depth, uint32_t n_loops,
                              const uint64_t *start, uint32_t *n_out, uint32_t *ids)
{
   mp_nest_ref *refs = mp_calloc("mp.order.refs", 2 * n_body + 1, sizeof *refs);
   uint32_t i, k, n = 0;
   for (i = 0; i < n_body; i++) {
      const mp_formula_instr *fi = body[i].fi;
      int kind;
      for (kind = 0; kind < 2; kind++) {
         mp_nest_ref *r;
         if (kind == 0 ? !fi->loads : !fi->stores)
            continue;
         r = add_ref(refs, &n, ids, body[i].id, fi, kind, body[i].pc, address_at(fi, start));
         for (k = 0; k < n_loops; k++) {
            uint32_t d = chain_depth[k] - 1;
            r->step[k] = d < fi->depth && (fi->known >> d & 1) ? fi->coef[d] : 0;
         }
      }
   }
   *n_out = n;
   return refs;
}

/* The body's instructions with formulas, sorted by address, in
   *body_out; returns their number, or UINT32_MAX with *bad the one
   whose formula does not fit. */
static uint32_t gather_body(const mp_finished *an, uint32_t inner, body_instr **body_out,
                            uint32_t *bad, mp_order_replay *out)
{
   const mp_loop *lp = mp_loops_get(an->loops, inner);
   body_instr *body = NULL;
   uint32_t id, n = 0, cap = 0;
   for (id = 0; id < an->n_instrs; id++) {
      const mp_formula_instr *fi = formula_in(an, id, inner, lp);
      if (fi == NULL)
         continue;
      if ((!mp_formula_fits(fi, NULL) || fi->coef == NULL || fi->depth != lp->depth)
          && out->leave_gathers && !fi->stores) {
         out->gathered = mp_realloc("mp.order.gathered", out->gathered,
                                    (out->n_gathered + 1) * sizeof *out->gathered);
         out->gathered[out->n_gathered++] = an->instrs[id].var;
         continue;
      }
      if ((!mp_formula_fits(fi, NULL) || fi->coef == NULL || fi->depth != lp->depth)
          && out->leave_scatters) {
         out->scattered = mp_realloc("mp.order.scattered", out->scattered,
                                     (out->n_scattered + 1) * sizeof *out->scattered);
         out->scattered[out->n_scattered++] = an->instrs[id].var;
         continue;
      }
      if (!mp_formula_fits(fi, NULL) || fi->coef == NULL || fi->depth != lp->depth) {
         *bad = id;
         if (body)
            mp_free(body);
         return UINT32_MAX;
      }
      if (n == cap) {
         cap = cap ? 2 * cap : 16;
         body = mp_realloc("mp.order.body", body, cap * sizeof *body);
      }
      body[n].pc = an->instrs[id].iaddr;
      body[n].id = id;
      body[n++].fi = fi;
   }
   if (n)
      mp_sort(body, n, sizeof *body, by_pc);
   *body_out = body;
   return n;
}

/* Why an instruction of loop lp has no formula to replay (fi: its
   formula at lp's depth, or NULL), as a clause: its addresses missed
   the affine prediction (a gather, i & 63) or it never ran at lp's
   depth. */
static const char *why_unfitted(const mp_formula_instr *fi, const mp_loop *lp)
{
   if (fi == NULL || fi->coef == NULL || fi->depth != lp->depth)
      return ": it was not seen inside the loop's iterations";
   if (fi->mismatches >= fi->unresolved)
      return ": its addresses are no affine function of the loop counters (an index "
             "loaded in the loop, a wrap-around, a data-dependent step)";
   return ": its loop counters never moved one at a time";
}

mp_nest_ref *mp_order_nest(const mp_run *run, const mp_finished *an, uint32_t instr,
                           uint32_t inner, uint32_t outer, mp_nest *nest,
                           mp_order_replay *out, uint32_t **ids)
{
   uint32_t chain[MP_NEST_MAX_LOOPS], depth[MP_NEST_MAX_LOOPS], n_body, bad = 0, k;
   uint32_t n_refs = 0;
   const mp_formula_instr *dom;
   body_instr *body = NULL;
   mp_nest_ref *refs;
   uint64_t start[MP_FORMULA_MAX_DEPTH];
   mp_memset(nest, 0, sizeof *nest);
   nest->n_loops = chain_of(an->loops, inner, outer, chain);
   if (nest->n_loops == 0) {
      out->why_not = mp_asprintf("no replay: the loops are more than %u levels apart",
                                 MP_NEST_MAX_LOOPS - 1);
      return NULL;
   }
   dom = mp_formula_get(an->formula, (uint64_t)mp_loops_get(an->loops, inner)->depth << 32
                                     | instr);
   n_body = gather_body(an, inner, &body, &bad, out);
   if (n_body == UINT32_MAX || dom == NULL || !mp_formula_fits(dom, NULL)) {
      uint32_t id = n_body == UINT32_MAX ? bad : instr;
      const mp_loop *lp = mp_loops_get(an->loops, inner);
      const char *w = mp_vars_location_where(an->vars, an->instrs[id].loc);
      uint32_t var = an->instrs[id].var;
      /* In windows, an execution cut at a window's start restarts its
         counters there: the formulas of a nest that runs across
         windows do not fit. */
      /* The detail windows follow the loops throughout: only the
         periodic and windows modes cut their executions. */
      int cut = run->window_mode && mp_strcmp(run->window_mode, "detail") != 0;
      char *to = var != UINT32_MAX ? mp_asprintf(" to %s", mp_vars_get(an->vars, var)->name)
                                   : mp_strdup("mp.order.why", "");
      out->why_not = mp_asprintf("no replay: the access at %s%s has no affine formula "
                                 "in its loop%s", w ? w : "?", to, cut
                                 ? " (the loops were analysed in windows; "
                                   "--exact=yes analyses them whole)"
                                 : why_unfitted(mp_formula_get(an->formula,
                                                               (uint64_t)lp->depth << 32
                                                               | id), lp));
      mp_free(to);
      if (body)
         mp_free(body);
      return NULL;
   }
   if (!(dom->known >> (mp_loops_get(an->loops, outer)->depth - 1) & 1)) {
      char *w = mp_facts_loop_where(an, outer);
      out->why_not = mp_asprintf("no replay: its access formula does not say how the "
                                 "loop at %s moves it", w);
      mp_free(w);
      mp_free(body);
      return NULL;
   }
   /* A counter starts at 0 in a rotated loop, whose body runs before
      its first back edge, and at 1 in a loop entered at its test: the
      walk's first access seen tells which, unless it came later in the
      execution (a nest first seen in a later detail window), when 1 is
      taken, the replay losing at most one iteration.  A loop runs from
      there to its most back edges in one execution. */
   for (k = 0; k < dom->depth && k < MP_FORMULA_MAX_DEPTH; k++)
      start[k] = dom->ref[k] < 1 ? dom->ref[k] : 1;
   /* A formula fitted in one execution of the nest (mp_formula.h) is
      replayed with that execution's own trip counts: another call may
      run the loops further with other strides. */
   for (k = 0; k < nest->n_loops; k++) {
      const mp_loop *l = mp_loops_get(an->loops, chain[k]);
      uint64_t b = dom->execution && dom->hi && l->depth - 1 < dom->depth
                   ? dom->hi[l->depth - 1] : back_edges(l);
      uint64_t s = start[l->depth - 1];
      if (k == 0 && out->largest && l->max_iterations > b)
         b = l->max_iterations;
      depth[k] = l->depth;
      nest->trips[k] = out->full[k] = b + 1 > s ? b + 1 - s : 1;
      nest->order[k] = k;
   }
   if (ids)
      *ids = mp_calloc("mp.order.ids", 2 * n_body + 1, sizeof **ids);
   refs = make_refs(body, n_body, depth, nest->n_loops, start, &n_refs, ids ? *ids : NULL);
   nest->refs = refs;
   nest->n_refs = n_refs;
   nest->limit = MP_ORDER_REPLAY_BUDGET;
   out->n_instrs = n_body;
   out->n_loops = nest->n_loops;
   /* An imperfect nest: what runs between the loops (a sum kept in a
      register, stored after the inner loop) is not replayed, and is
      said to be left out. */
   for (k = 0; k + 1 < nest->n_loops; k++)
      note_left(an, chain[k], out);
   out->all = mp_nest_accesses(nest);
   out->r.complete = out->all <= nest->limit;
   if (body)
      mp_free(body);
   return refs;
}

/* The iterations of inner loop l at each entry (its first counter
   'start': 0 when its body runs before its first back edge), or 0 if
   they vary or exceed MP_ORDER_FLAT_TRIPS. */
static uint64_t flat_trips(const mp_loop *l, uint64_t start)
{
   uint64_t b;
   if (l->entries == 0 || l->iterations % l->entries != 0)
      return 0;
   b = l->iterations / l->entries;
   if (l->max_iterations != b || b + 1 - start > MP_ORDER_FLAT_TRIPS || b + 1 < start)
      return 0;
   return b + 1 - start;
}

/* One reference of a flat body: instruction id at the inner loops'
   counters given by 'copy', sorted by where it runs in an iteration of
   the flat loop (the head of the inner loop it is in, then the inner
   iteration, then its address). */
typedef struct {
   uint64_t at, copy, pc;
   uint32_t id;
   const mp_formula_instr *fi;
   uint64_t v[MP_FORMULA_MAX_DEPTH];
} flat_instr;

static int by_place(const void *a, const void *b)
{
   const flat_instr *x = a, *y = b;
   if (x->at != y->at)
      return x->at < y->at ? -1 : 1;
   if (x->copy != y->copy)
      return x->copy < y->copy ? -1 : 1;
   return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The copies of instruction id, in loop 'inner' within 'loop' (depth
   d0), appended to *fl: one per combination of the counters of the
   loops between; 0 if one of those loops is not short, or the copies
   are too many. */
static int add_copies(const mp_finished *an, uint32_t id, const mp_formula_instr *fi,
                      uint32_t inner, uint32_t loop, const uint64_t *start,
                      flat_instr **fl, uint32_t *n, uint32_t *cap)
{
   uint32_t d0 = mp_loops_get(an->loops, loop)->depth, chain[MP_FORMULA_MAX_DEPTH];
   uint64_t trips[MP_FORMULA_MAX_DEPTH], first[MP_FORMULA_MAX_DEPTH], copies = 1, c;
   uint64_t at = an->instrs[id].iaddr;
   uint32_t k, m = 0, l;
   for (l = inner; l != loop; l = mp_loops_get(an->loops, l)->parent) {
      const mp_loop *lp = mp_loops_get(an->loops, l);
      uint32_t d = lp->depth - 1;
      if (m == MP_FORMULA_MAX_DEPTH || d >= fi->depth)
         return 0;
      first[m] = fi->ref[d] < 1 ? fi->ref[d] : 1;
      trips[m] = flat_trips(lp, first[m]);
      if (trips[m] == 0)
         return 0;
      if (!(fi->known >> d & 1)) {
         /* no step along it: it ran at one iteration of that loop only
            (a rotated loop's code before its test), or is not known */
         if (fi->hi == NULL || fi->hi[d] != fi->ref[d])
            return 0;
         first[m] = fi->ref[d];
         trips[m] = 1;
      }
      copies *= trips[m];
      at = lp->head;         /* ends as the head of loop's child */
      chain[m++] = d;
   }
   if (copies > MP_ORDER_FLAT_COPIES)
      return 0;
   for (c = 0; c < copies; c++) {
      flat_instr *f;
      uint64_t rest = c;
      if (*n == *cap) {
         *cap = *cap ? 2 * *cap : 64;
         *fl = mp_realloc("mp.order.flat", *fl, *cap * sizeof **fl);
      }
      f = &(*fl)[(*n)++];
      f->at = at;
      f->copy = c;
      f->pc = an->instrs[id].iaddr;
      f->id = id;
      f->fi = fi;
      for (k = 0; k < MP_FORMULA_MAX_DEPTH; k++)
         f->v[k] = k < d0 ? start[k] : 0;
      /* the innermost loop's counter varies fastest */
      for (k = 0; k < m; k++) {
         f->v[chain[k]] = first[k] + rest % trips[k];
         rest /= trips[k];
      }
   }
   return 1;
}

mp_nest_ref *mp_order_flat_nest(const mp_finished *an, uint32_t loop,
                                mp_nest *nest, mp_order_replay *out, uint32_t **ids)
{
   const mp_loop *lp = mp_loops_get(an->loops, loop);
   uint32_t d0 = lp->depth, id, k, n = 0, cap = 0, n_refs = 0, inner_loops = 0, n_instrs = 0;
   const mp_formula_instr *dom = NULL;
   uint64_t start[MP_FORMULA_MAX_DEPTH], b;
   flat_instr *fl = NULL;
   mp_nest_ref *refs;
   mp_memset(nest, 0, sizeof *nest);
   for (k = 0; k < mp_loops_count(an->loops); k++)
      if (k != loop && mp_loops_get(an->loops, k)->parent == loop)
         inner_loops++;
   if (inner_loops == 0 || d0 > MP_FORMULA_MAX_DEPTH)
      return NULL;
   /* the counters around loop, and its own first, from its busiest
      instruction that fits (as mp_order_nest's dominant one) */
   for (id = 0; id < an->n_instrs; id++) {
      uint32_t l = an->instrs[id].known ? mp_facts_instr_loop(an, id) : MP_LOOP_NONE;
      const mp_formula_instr *fi;
      if (l == MP_LOOP_NONE || !mp_loops_within(an->loops, l, loop))
         continue;
      fi = formula_in(an, id, l, mp_loops_get(an->loops, l));
      if (fi != NULL && fi->coef != NULL && fi->depth >= d0 && (fi->known >> (d0 - 1) & 1)
          && mp_formula_fits(fi, NULL) && (dom == NULL || fi->accesses > dom->accesses))
         dom = fi;
   }
   if (dom == NULL)
      return NULL;
   for (k = 0; k < d0; k++)
      start[k] = dom->ref[k] < 1 ? dom->ref[k] : 1;
   for (id = 0; id < an->n_instrs; id++) {
      uint32_t l = an->instrs[id].known ? mp_facts_instr_loop(an, id) : MP_LOOP_NONE;
      const mp_formula_instr *fi;
      int fits;
      if (l == MP_LOOP_NONE || !mp_loops_within(an->loops, l, loop))
         continue;
      fi = formula_in(an, id, l, mp_loops_get(an->loops, l));
      if (fi == NULL)
         continue;
      fits = mp_formula_fits(fi, NULL) && fi->coef != NULL
             && fi->depth == mp_loops_get(an->loops, l)->depth;
      if (!fits && out->leave_gathers && !fi->stores) {
         out->gathered = mp_realloc("mp.order.gathered", out->gathered,
                                    (out->n_gathered + 1) * sizeof *out->gathered);
         out->gathered[out->n_gathered++] = an->instrs[id].var;
         continue;
      }
      if (!fits && out->leave_scatters) {
         out->scattered = mp_realloc("mp.order.scattered", out->scattered,
                                     (out->n_scattered + 1) * sizeof *out->scattered);
         out->scattered[out->n_scattered++] = an->instrs[id].var;
         continue;
      }
      /* a store without a formula, or one the loop does not move by a
         known step: the caller's nest leaves it out and says so */
      if (!fits || !(fi->known >> (d0 - 1) & 1))
         break;
      if (!add_copies(an, id, fi, l, loop, start, &fl, &n, &cap))
         break;
      n_instrs++;
   }
   if (id < an->n_instrs) {
      if (fl)
         mp_free(fl);
      return NULL;
   }
   if (n)
      mp_sort(fl, n, sizeof *fl, by_place);
   nest->n_loops = 1;
   /* one execution's trips, as mp_order_nest counts them */
   b = dom->execution && dom->hi ? dom->hi[d0 - 1] : back_edges(lp);
   if (out->largest && lp->max_iterations > b)
      b = lp->max_iterations;
   nest->trips[0] = out->full[0] = b + 1 > start[d0 - 1] ? b + 1 - start[d0 - 1] : 1;
   nest->order[0] = 0;
   refs = mp_calloc("mp.order.refs", 2 * n + 1, sizeof *refs);
   if (ids)
      *ids = mp_calloc("mp.order.ids", 2 * n + 1, sizeof **ids);
   for (k = 0; k < n; k++) {
      const mp_formula_instr *fi = fl[k].fi;
      int kind;
      for (kind = 0; kind < 2; kind++)
         if (kind == 0 ? fi->loads : fi->stores)
            add_ref(refs, &n_refs, ids ? *ids : NULL, fl[k].id, fi, kind, fl[k].pc,
                    address_at(fi, fl[k].v))->step[0] = fi->coef[d0 - 1];
   }
   nest->refs = refs;
   nest->n_refs = n_refs;
   nest->limit = MP_ORDER_REPLAY_BUDGET;
   out->n_instrs = n_instrs;
   out->n_loops = 1;
   out->all = mp_nest_accesses(nest);
   out->r.complete = out->all <= nest->limit;
   if (fl)
      mp_free(fl);
   return refs;
}

void mp_order_replay_both(const mp_finished *an, const mp_nest *nest,
                          const mp_nest *after, mp_order_replay *out)
{
   mp_cache_cfg cc;
   if (!mp_facts_cache_cfg(an, &cc))
      return;
   out->r.made = mp_nest_replay(nest, &cc, an->cache->latency, &out->r.before)
                 && mp_nest_replay(after, &cc, an->cache->latency, &out->r.after);
   if (!out->r.made)
      out->why_not = mp_asprintf("no replay: the nest makes no access");
}

/* A change of loop order from outer down to inner (an interchange, a
   tiling) that would move accesses past a loop beside the nest they
   depend on (dependent_sibling): 1, with out->why_not saying so.  A
   padding keeps the order and is not asked. */
static int reorders_dependence(const mp_finished *an, uint32_t inner, uint32_t outer,
                               mp_order_replay *out)
{
   uint32_t chain[MP_NEST_MAX_LOOPS], n = chain_of(an->loops, inner, outer, chain);
   uint32_t sib, var = 0;
   char *wo, *ws;
   const mp_var *v;
   if (n < 2 || (sib = dependent_sibling(an, chain, n, &var)) == MP_LOOP_NONE)
      return 0;
   wo = mp_facts_loop_where(an, chain[0]);
   ws = mp_facts_loop_where(an, sib);
   v = mp_vars_get(an->vars, var);
   out->why_not = mp_asprintf("no replay: the loop at %s also runs the loop at %s, and "
                              "both walk the same elements of %s in each of its "
                              "iterations, one of them storing: the change would move "
                              "accesses past ones they depend on (a time loop's sweeps "
                              "need skewing)", wo, ws, v ? v->name : "a variable");
   mp_free(wo);
   mp_free(ws);
   return 1;
}

/* mp_order_nest for a change of loop order: NULL also when the change
   would reorder accesses past a dependence (reorders_dependence). */
static mp_nest_ref *nest_to_reorder(const mp_run *run, const mp_finished *an, uint32_t instr,
                                    uint32_t inner, uint32_t outer, mp_nest *nest,
                                    mp_order_replay *out)
{
   mp_nest_ref *refs = mp_order_nest(run, an, instr, inner, outer, nest, out, NULL);
   if (refs != NULL && reorders_dependence(an, inner, outer, out)) {
      mp_free(refs);
      return NULL;
   }
   return refs;
}

void mp_replay_interchange(const mp_run *run, const mp_finished *an, uint32_t instr,
                           uint32_t inner, uint32_t with, mp_order_replay *out)
{
   mp_nest nest, after;
   mp_nest_ref *refs;
   mp_memset(out, 0, sizeof *out);
   if (!run->whatif_interchange || an->loops == NULL || an->formula == NULL
       || an->cache == NULL)
      return;
   refs = nest_to_reorder(run, an, instr, inner, with, &nest, out);
   if (refs == NULL)
      return;
   after = nest;
   after.order[0] = nest.n_loops - 1;
   after.order[nest.n_loops - 1] = 0;
   out->how = mp_strdup("mp.order.how", "interchanged");
   mp_order_replay_both(an, &nest, &after, out);
   mp_free(refs);
}

/* The loop around 'from' (inner or a loop around it) whose iterations
   come back to what one execution of 'from' walked with instruction
   instr, whose innermost loop is inner: the nearest whose step moves
   the access by no more than that walk's extent (a sweep repeated: 0;
   the next row of a stencil: one row).  MP_LOOP_NONE if none, or no
   formula says. */
static uint32_t returning_loop(const mp_finished *an, uint32_t instr, uint32_t inner,
                               uint32_t from)
{
   const mp_loop *in = mp_loops_get(an->loops, inner), *fl = mp_loops_get(an->loops, from);
   const mp_formula_instr *fi = mp_formula_get(an->formula,
                                               (uint64_t)in->depth << 32 | instr);
   uint64_t extent;
   uint32_t p, df = fl->depth - 1;
   if (fi == NULL || fi->coef == NULL || !mp_formula_fits(fi, NULL) || df >= fi->depth
       || !(fi->known >> df & 1))
      return MP_LOOP_NONE;
   extent = (back_edges(fl) + 1) * (uint64_t)(fi->coef[df] < 0 ? -fi->coef[df] : fi->coef[df]);
   for (p = fl->parent; p != MP_LOOP_NONE; p = mp_loops_get(an->loops, p)->parent) {
      uint32_t d = mp_loops_get(an->loops, p)->depth - 1;
      int64_t s = fi->coef[d];
      if (d < fi->depth && (fi->known >> d & 1)
          && (uint64_t)(s < 0 ? -s : s) <= extent)
         return p;
   }
   return MP_LOOP_NONE;
}

static uint64_t magnitude(int64_t s)
{
   return s < 0 ? (uint64_t)-s : (uint64_t)s;
}

/* a * b, or UINT64_MAX if that overflows. */
static uint64_t times(uint64_t a, uint64_t b)
{
   return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The bytes of the lines reference r touches in ta iterations of loop a
   around tb of loop b, either way round: along the loop it moves less
   on, a row of that loop's iterations times the bytes, at most a line,
   it moves per iteration (a line at least); along the other, as many
   rows as its iterations, its step apart (overlapping when closer).
   syrk's A[j][k] in tiles of k and j: rows of a column's lines.  A
   reference that stays put takes no room. */
static uint64_t ref_bytes(const mp_nest_ref *r, uint32_t a, uint32_t b, uint64_t ta,
                          uint64_t tb, uint64_t line)
{
   uint64_t ma = magnitude(r->step[a]), mb = magnitude(r->step[b]), row, rows, apart;
   if (ma == 0 && mb == 0)
      return 0;
   row = ma < mb ? times(ta, ma < line ? ma : line) : times(tb, mb < line ? mb : line);
   rows = ma < mb ? tb : ta;
   apart = ma < mb ? mb : ma;
   if (row < line)
      row = line;
   return row + times(rows - 1, apart < row ? apart : row);
}

/* The bytes of a tile of ta x tb iterations of the loop around the
   innermost and of the innermost, in one iteration of the carrier
   (loop 0): the loops between run whole in it. */
static uint64_t tile_bytes(const mp_nest *n, uint64_t ta, uint64_t tb, uint64_t line)
{
   uint32_t b = n->n_loops - 1, a = b - 1, r, p;
   uint64_t bytes = 0;
   for (r = 0; r < n->n_refs; r++) {
      uint64_t x = ref_bytes(&n->refs[r], a, b, ta, tb, line);
      bytes = bytes > UINT64_MAX - x ? UINT64_MAX : bytes + x;
   }
   for (p = 1; p < a; p++)
      bytes = times(bytes, n->trips[p]);
   return bytes;
}

/* The square-ish 2-D tiles: the largest t whose tile of t x t
   iterations (each side at most its loop's iterations) fills no more
   than half the level, in *ta x *tb; 0 if none of 2 x 2 does, or the
   whole of both loops does (no tile). */
static int square_tiles(const mp_nest *n, uint64_t half, uint64_t line, uint64_t *ta,
                        uint64_t *tb)
{
   uint64_t trips_a = n->trips[n->n_loops - 2], trips_b = n->trips[n->n_loops - 1];
   uint64_t lo = 2, hi = trips_a > trips_b ? trips_a : trips_b;
   if (n->n_loops < 3 || trips_a < 2 || trips_b < 2
       || tile_bytes(n, 2, 2, line) > half)
      return 0;
   /* The bytes grow with t: the last t that fits. */
   while (lo < hi) {
      uint64_t mid = lo + (hi - lo + 1) / 2;
      if (tile_bytes(n, mid < trips_a ? mid : trips_a, mid < trips_b ? mid : trips_b,
                     line) <= half)
         lo = mid;
      else
         hi = mid - 1;
   }
   *ta = lo < trips_a ? lo : trips_a;
   *tb = lo < trips_b ? lo : trips_b;
   return *ta < trips_a || *tb < trips_b;
}

/* The tiling replayed: loop 'first' of the nest (the innermost, or the
   one around it) in tiles of tile[0], and, if tile[1], the loop around
   that in tiles of tile[1]; the loops over the tiles outermost. */
static void tile_nest(const mp_finished *an, uint32_t inner, const mp_nest *nest,
                      uint32_t first, const uint64_t *tile, mp_order_replay *out)
{
   mp_nest after = *nest;
   uint32_t t, p, n_t = tile[1] ? 2 : 1, tiled = inner;
   char b[2][32], *w;
   for (p = first + 1; p < nest->n_loops; p++)
      tiled = mp_loops_get(an->loops, tiled)->parent;
   w = mp_facts_loop_where(an, tiled);
   for (t = 0; t < n_t; t++) {
      after.tiled[t] = first - t;
      after.tile[t] = out->tile[t] = tile[t];
      /* The outer loop's tiles outside the inner's. */
      after.order[n_t - 1 - t] = nest->n_loops + t;
   }
   for (p = 0; p < nest->n_loops; p++)
      after.order[p + n_t] = p;
   if (n_t == 1) {
      out->how = mp_asprintf("with the loop at %s in tiles of %s iterations, the loop "
                             "over its tiles outermost", w,
                             mp_commas(tile[0], b[0], sizeof b[0]));
   } else {
      char *wa = mp_facts_loop_where(an, mp_loops_get(an->loops, tiled)->parent);
      out->how = mp_asprintf("with the loops at %s and %s in tiles of %s x %s "
                             "iterations, the loops over the tiles outermost", wa, w,
                             mp_commas(tile[1], b[1], sizeof b[1]),
                             mp_commas(tile[0], b[0], sizeof b[0]));
      mp_free(wa);
   }
   mp_free(w);
   mp_order_replay_both(an, nest, &after, out);
}

/* One execution of the inner loop fits the level, so the reuses that
   miss are carried further out: by the loop that comes back to what
   the carrier's whole execution walked (2mm's C[k][j] under i, j and
   k: j's walk is the whole of C, and i comes back to it).  The loop
   just around the inner one is tiled so that a tile of it, with the
   inner loop whole, fills half the level, and the loop over its tiles
   goes outermost. */
static void tile_around(const mp_run *run, const mp_finished *an, uint32_t instr,
                       uint32_t inner, uint32_t carrier, uint64_t half, uint64_t line,
                       mp_order_replay *out)
{
   uint32_t outer = returning_loop(an, instr, inner, carrier), a;
   uint64_t lo = 1, hi, tile[MP_NEST_MAX_TILED] = { 0, 0 };
   mp_nest nest;
   mp_nest_ref *refs;
   refs = nest_to_reorder(run, an, instr, inner, outer, &nest, out);
   if (refs == NULL)
      return;
   a = nest.n_loops - 2;
   hi = nest.trips[a];
   /* The bytes grow with the tile: the last that fits. */
   while (lo < hi) {
      uint64_t mid = lo + (hi - lo + 1) / 2;
      if (tile_bytes(&nest, mid, nest.trips[a + 1], line) <= half)
         lo = mid;
      else
         hi = mid - 1;
   }
   if (lo < 2) {
      char *w = mp_facts_loop_where(an, mp_loops_get(an->loops, inner)->parent);
      out->why_not = mp_asprintf("no replay: two iterations of the loop at %s fill more "
                                 "than half of %s: no tile of it fits", w,
                                 mp_report_level_name(out->level));
      mp_free(w);
      mp_free(refs);
      return;
   }
   if (lo >= nest.trips[a]) {
      char *w = mp_facts_loop_where(an, outer);
      out->why_not = mp_asprintf("no replay: one iteration of the loop at %s fills less "
                                 "than half of %s: what it comes back to is already "
                                 "there", w, mp_report_level_name(out->level));
      mp_free(w);
      mp_free(refs);
      return;
   }
   tile[0] = lo;
   tile_nest(an, inner, &nest, a, tile, out);
   mp_free(refs);
}

/* Forgets o's lists without freeing them (another holds them). */
static void let_go_of_lists(mp_order_replay *o)
{
   o->gathered = o->scattered = o->left_loaded = o->left_stored = NULL;
   o->n_gathered = o->n_scattered = o->n_left_loaded = o->n_left_stored = 0;
}

void mp_replay_tiling(const mp_run *run, const mp_finished *an, uint32_t instr,
                      uint32_t level, uint32_t carried_by, mp_order_replay *out)
{
   const mp_report_cache *hc = an->cache;
   uint32_t inner, carrier, r, p;
   uint64_t per_iter = 0, tile[MP_NEST_MAX_TILED] = { 0, 0 }, half, line, ta, tb;
   mp_nest nest;
   mp_nest_ref *refs;
   mp_memset(out, 0, sizeof *out);
   if (!run->whatif_tile || an->loops == NULL || an->formula == NULL || hc == NULL
       || level >= hc->n_levels)
      return;
   inner = mp_facts_instr_loop(an, instr);
   if (inner == MP_LOOP_NONE || mp_loops_get(an->loops, inner)->parent == MP_LOOP_NONE) {
      out->why_not = mp_asprintf("no replay: its busiest line's walk is in no loop nest");
      return;
   }
   /* The loop the reuses were measured to be carried by, when it holds
      the walk; else the formula's guess: the nearest loop around that
      comes back to the walk's data. */
   carrier = carried_by != MP_LOOP_NONE && carried_by != inner
             && mp_loops_within(an->loops, inner, carried_by) ? carried_by
                                              : returning_loop(an, instr, inner, inner);
   /* Without a formula, mp_order_nest says which access lacks one. */
   refs = mp_order_nest(run, an, instr, inner,
                        carrier != MP_LOOP_NONE ? carrier
                                                : mp_loops_get(an->loops, inner)->parent,
                        &nest, out, NULL);
   if (refs != NULL && carrier == MP_LOOP_NONE) {
      out->why_not = mp_asprintf("no replay: by its access formula, no loop around its "
                                 "busiest line's walk comes back to its data");
      mp_free(refs);
      return;
   }
   if (refs == NULL)
      return;
   if (reorders_dependence(an, inner, carrier, out)) {
      mp_free(refs);
      return;
   }
   /* The tile: the iterations of the inner loop whose lines, in one
      iteration of the carrier (the loops between it and the inner loop
      run whole in it), fill half the level, so that the carrier reuses
      them there (a reference that stays put takes no room).  gemm's
      B[k][j] under i: a tile of j times all of k. */
   line = hc->level[level].line;
   half = hc->level[level].size / 2;
   for (r = 0; r < nest.n_refs; r++) {
      uint64_t m = magnitude(refs[r].step[nest.n_loops - 1]);
      per_iter += m < line ? m : line;
   }
   for (p = 1; p + 1 < nest.n_loops; p++)
      per_iter = times(per_iter, nest.trips[p]);
   tile[0] = per_iter ? half / per_iter : 0;
   /* Two iterations already too many: a column of a matrix, the loop
      around the inner loop run whole.  Both cut instead (syrk's
      A[j][k] under i: tiles of k and j). */
   out->level = level;
   if (tile[0] < 2 && per_iter && square_tiles(&nest, half, line, &ta, &tb)) {
      tile[0] = tb;
      tile[1] = ta;
      tile_nest(an, inner, &nest, nest.n_loops - 1, tile, out);
      mp_free(refs);
      return;
   }
   if (tile[0] >= nest.trips[nest.n_loops - 1] && nest.n_loops == 2
       && returning_loop(an, instr, inner, carrier) != MP_LOOP_NONE) {
      mp_free(refs);
      tile_around(run, an, instr, inner, carrier, half, line, out);
      return;
   }
   /* A tile of one iteration is no tile: the inner loop moved out. */
   if (tile[0] < 2 || tile[0] >= nest.trips[nest.n_loops - 1]) {
      char *w = mp_facts_loop_where(an, inner);
      out->why_not = tile[0] < 2
         ? mp_asprintf("no replay: two iterations of the loop at %s, in one of the loop "
                       "that comes back to the data, fill more than half of %s: no tile "
                       "of it fits%s", w, mp_report_level_name(level),
                       nest.n_loops < 3 ? ""
                       : nest.n_loops == 3 ? ", nor one of it and the loop around it"
                       : ", nor one of it and the loop around it (the loops between "
                         "would have to be tiled too)")
         : mp_asprintf("no replay: one execution of the loop at %s fills "
                       "less than half of %s: a tile would be the whole loop",
                       w, mp_report_level_name(level));
      mp_free(w);
      mp_free(refs);
      return;
   }
   tile_nest(an, inner, &nest, nest.n_loops - 1, tile, out);
   /* With a loop between running whole in each tile, a tile of the
      inner loop alone may be narrow (gemm's B[k][j] under i: 2 of j
      times all of k, less than a line of each row): square tiles of it
      and the loop around it are replayed too, and the tiling with the
      fewer cycles kept. */
   if (nest.n_loops >= 3 && square_tiles(&nest, half, line, &ta, &tb)) {
      mp_order_replay sq = *out;
      uint64_t square[MP_NEST_MAX_TILED] = { tb, ta };
      sq.how = sq.also = sq.why_not = NULL;
      tile_nest(an, inner, &nest, nest.n_loops - 1, square, &sq);
      /* The lists the nest's builder made are shared by the two: the
         one cleared lets go of them first. */
      if (sq.r.made && (!out->r.made || sq.r.after.cycles < out->r.after.cycles)) {
         let_go_of_lists(out);
         mp_order_replay_clear(out);
         *out = sq;
      } else {
         let_go_of_lists(&sq);
         mp_order_replay_clear(&sq);
      }
   }
   mp_free(refs);
}

char *mp_order_change(uint64_t a, uint64_t b)
{
   uint64_t d = b >= a ? b - a : a - b;
   return mp_asprintf("%s%llu%%", b >= a ? "+" : "-",
                      a ? (unsigned long long)((d * 100 + a / 2) / a) : 0ULL);
}

char *mp_replay_outcome(const mp_whatif_run *before, const mp_whatif_run *after,
                        uint32_t level)
{
   char b[4][32], *t;
   char *dm = mp_order_change(before->misses[level], after->misses[level]);
   char *dc = mp_order_change(before->cycles, after->cycles);
   t = mp_asprintf("%s misses %s -> %s (%s), cycles %s -> %s (%s)",
                   mp_report_level_name(level),
                   mp_commas(before->misses[level], b[0], sizeof b[0]),
                   mp_commas(after->misses[level], b[1], sizeof b[1]), dm,
                   mp_commas(before->cycles, b[2], sizeof b[2]),
                   mp_commas(after->cycles, b[3], sizeof b[3]), dc);
   mp_free(dm);
   mp_free(dc);
   return t;
}

char *mp_order_replay_text(const mp_order_replay *o)
{
   char b[2][32];
   mp_strbuf it = MP_STRBUF_INIT;
   char *text, *iters, *first, *left, *outcome;
   uint32_t k;
   if (!o->r.made)
      return o->why_not ? mp_asprintf("; %s", o->why_not)
                        : mp_strdup("mp.order.text", "");
   for (k = 0; k < o->n_loops; k++)
      mp_strbuf_printf(&it, "%s%s", k ? " x " : "", mp_commas(o->full[k], b[0], sizeof b[0]));
   iters = mp_strbuf_take(&it);
   outcome = mp_replay_outcome(&o->r.before, &o->r.after, o->level);
   if (o->r.complete)
      first = mp_strdup("mp.order.text", "");
   else
      first = mp_asprintf("the first %s accesses of each order of ",
                          mp_commas(o->r.before.accesses, b[0], sizeof b[0]));
   left = o->n_left ? mp_asprintf(", %u more in the loops around it left out",
                                   o->n_left)
                    : mp_strdup("mp.order.text", "");
   text = mp_asprintf("; replaying %sone execution of the nest (the %u memory "
                      "instruction%s of its innermost loop%s, %s iterations, %s accesses) "
                      "%s: %s%s", first,
                      o->n_instrs, o->n_instrs == 1 ? "" : "s", left, iters,
                      o->all == UINT64_MAX ? "too many to count"
                      : mp_commas(o->all, b[1], sizeof b[1]), o->how, outcome,
                      o->also ? o->also : "");
   mp_free(iters);
   mp_free(first);
   mp_free(left);
   mp_free(outcome);
   return text;
}

static void free_vars(uint32_t **set, uint32_t *n)
{
   if (*set)
      mp_free(*set);
   *set = NULL;
   *n = 0;
}

void mp_order_replay_clear(mp_order_replay *o)
{
   free_vars(&o->gathered, &o->n_gathered);
   free_vars(&o->scattered, &o->n_scattered);
   free_vars(&o->left_loaded, &o->n_left_loaded);
   free_vars(&o->left_stored, &o->n_left_stored);
   if (o->why_not)
      mp_free(o->why_not);
   if (o->how)
      mp_free(o->how);
   if (o->also)
      mp_free(o->also);
   o->why_not = o->how = o->also = NULL;
}
