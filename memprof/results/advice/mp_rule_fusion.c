/*--------------------------------------------------------------------*/
/*--- memprof: advice on reuses between adjacent loops: fusion.    ---*/
/*---                                              mp_rule_fusion.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: adjacent loops over the same data (MP_ADVICE_LOOP_FUSION).
   Each loop of a run of loops walks its arrays whole, and the next
   loop walks them again: every element is reused, but only after the
   whole of the loop before has gone through the cache, more than the
   level holds.  The reuse is carried by the loop around the run (a time
   step), or by none, which is why no tiling of one loop brings it
   closer; fusing the loops, one loop whose body runs each of theirs in
   turn, brings it down to one iteration.

   The carriers (mp_carriers.h) count, per variable, the far reuses
   whose earlier access lies in one child loop of the carrier and the
   later in another (mp_loops_siblings).  Those from a loop to one that
   runs after it (loop ids follow their first run) are what fusion
   shortens; those from a loop back to an earlier one come from the next
   iteration of the carrier, and only tiling it would.  A variable
   counts for a pair of loops when its capacity misses at a level call
   for a fix (as blocking's: MP_ADV_MIN_EVENTS, half of its misses, a
   share of the program's) and at least MIN_PAIRED of its reuses
   beyond the level, and a quarter of them, run from one loop of the
   pair to the other.  Pairs that share a loop under the same carrier
   are one group: a run of k loops over m arrays is one item, on its
   hottest array, scored by the share of the run its arrays take.  A
   pair with a loop between it that blocks it (below) groups only with
   pairs blocked too, and is dropped where it shares a loop with a
   group that is not: the arrays of a time step are reused across its
   whole body, and a fusion that holds should not be rejected for a
   partner many loops later.

   Evidence: the level, the arrays and their capacity misses, the
   reuses between the loops, and the replay of the loops fused
   (mp_fusion_replays.h).  A fusion that would move an access past
   one it depends on is rejected; one whose replay does not pay too,
   and one no replay could check (a loop without affine formulas), and
   one across a loop that ran between the two and wrote their data or
   read what they write (the replay sees the fused loops alone).
   Fix: fuse the loops.
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_fusion_replays.h"
#include "mp_owner.h"
#include "mp_util.h"

/* Reuses beyond the level from one loop of the pair to the other that
   make the pair a fusion's: fewer is no pattern. */
#define MIN_PAIRED 100
/* Pairs and groups met at most. */
#define MAX_PAIRS 64

/* Loops of one variable's pair, and what it brings. */
typedef struct {
   uint32_t carrier, from, to, var, level;
   uint32_t across[2];         /* the first and last loop run between them,
                                  or MP_LOOP_NONE */
   uint64_t reuses;            /* beyond the level, from 'from' to 'to' */
   uint32_t group;
   int blocked;                /* a loop between them blocks their fusion */
} pair;

typedef struct {
   pair p[MAX_PAIRS];
   uint32_t n;
} pairs;

/* Whether a source file is a header of the C++ library (libstdc++'s
   bits/: stl_vector.h, new_allocator.h, vector.tcc; or a standard
   header, which has no extension: vector, memory). */
static int library_header(const char *file)
{
   const char *base = file, *p;
   int dot = 0;
   for (p = file; *p; p++)
      if (*p == '/') {
         base = p + 1;
         dot = 0;
      } else if (*p == '.')
         dot = 1;
   return mp_strncmp(base, "stl_", 4) == 0 || mp_strcmp(base, "new_allocator.h") == 0
          || mp_strcmp(base, "alloc_traits.h") == 0 || mp_strcmp(base, "allocator.h") == 0
          || (p - base > 4 && mp_strcmp(p - 4, ".tcc") == 0) || !dot;
}

/* A loop the user writes: of the program's code, and not of the C++
   library's templates, called or inlined (a std::vector's fill), whose
   loops no one fuses by hand. */
static int users_loop(const mp_advisor *ad, uint32_t loop)
{
   const mp_loop *l;
   const char *fn;
   if (!mp_adv_programs_loop(ad, loop))
      return 0;
   l = mp_loops_get(ad->an->loops, loop);
   fn = ad->res->loop[loop].function;
   return !(fn && (mp_strncmp(fn, "std::", 5) == 0 || mp_strncmp(fn, "__gnu_cxx::", 11) == 0))
          && !(l->file && library_header(l->file));
}

/* Two loops the debug information cannot tell apart: one has a single
   line, among the other's (two compiled copies of a loop, or a part of
   one the compiler made a loop of). */
static int one_source_loop(const mp_advisor *ad, uint32_t a, uint32_t b)
{
   const mp_loop *x = mp_loops_get(ad->an->loops, a), *y = mp_loops_get(ad->an->loops, b);
   if (x->file == NULL || y->file == NULL || mp_strcmp(x->file, y->file) != 0)
      return 0;
   return (x->first_line == x->last_line && x->first_line >= y->first_line
           && x->first_line <= y->last_line)
          || (y->first_line == y->last_line && y->first_line >= x->first_line
              && y->first_line <= x->last_line);
}

/* The first level where v's capacity misses call for a fix, or
   UINT32_MAX. */
static uint32_t level_to_fix(const mp_advisor *ad, const mp_var *v)
{
   const mp_cache_counts *cc = v->cache;
   uint32_t k;
   for (k = 0; cc && k < ad->an->cache->n_levels; k++) {
      uint64_t cap = mp_cache_counts_uncovered_cause(cc, k, MP_MISS_CAPACITY);
      uint64_t all = mp_cache_counts_unprefetched(cc, k);
      if (cap >= MP_ADV_MIN_EVENTS && 2 * cap >= all && mp_adv_misses_matter(ad, v, k))
         return k;
   }
   return UINT32_MAX;
}

/* The loop that stands for 'loop' in a pair: itself, or, for a
   backward jump never taken (the compiler placed a block, such as the
   frees after a loop, before the code that jumps to it), the busiest
   of the loops inside it, since such a "loop" is straight code around
   them; MP_LOOP_NONE when none of them iterated either. */
static uint32_t stand_in(const mp_advisor *ad, uint32_t loop)
{
   const mp_loops *ls = ad->an->loops;
   while (loop != MP_LOOP_NONE && loop < ad->res->n_loops
          && mp_loops_get(ls, loop)->iterations == 0) {
      uint32_t i, best = MP_LOOP_NONE;
      for (i = 0; i < ad->res->n_loops; i++)
         if (mp_loops_get(ls, i)->parent == loop
             && (best == MP_LOOP_NONE || ad->res->loop[i].accesses > ad->res->loop[best].accesses))
            best = i;
      loop = best;
   }
   return loop;
}

/* v's pairs of loops, added to ps. */
static void gather(const mp_advisor *ad, const mp_var *v, pairs *ps)
{
   const mp_var_carriers *vc = mp_carriers_of(ad->an->carriers, v->id);
   uint32_t k = level_to_fix(ad, v), i;
   uint64_t lines, known, carried;
   if (vc == NULL || k == UINT32_MAX)
      return;
   lines = ad->an->cache->level[k].size / ad->an->cache->level[k].line;
   mp_carriers_top(vc, lines, NULL, NULL, &known, &carried);
   for (i = 0; i < vc->n_pairs && ps->n < MAX_PAIRS; i++) {
      const mp_loop_pair *lp = &vc->pair[i];
      uint64_t n = mp_carrier_beyond(&lp->k, lines);
      uint32_t from = stand_in(ad, lp->from), to = stand_in(ad, lp->to);
      if (from == MP_LOOP_NONE || to == MP_LOOP_NONE || from == to || lp->from >= lp->to
          || n < MIN_PAIRED || 4 * n < known || !users_loop(ad, from) || !users_loop(ad, to)
          || one_source_loop(ad, from, to))
         continue;
      ps->p[ps->n].carrier = lp->k.loop;
      ps->p[ps->n].from = from;
      ps->p[ps->n].to = to;
      ps->p[ps->n].across[0] = stand_in(ad, lp->across[0]);
      ps->p[ps->n].across[1] = stand_in(ad, lp->across[1]);
      ps->p[ps->n].var = v->id;
      ps->p[ps->n].level = k;
      ps->p[ps->n].reuses = n;
      ps->p[ps->n].group = ps->n;
      ps->n++;
   }
}

static int shares_loop(const pair *a, const pair *b)
{
   return a->carrier == b->carrier && (a->from == b->from || a->from == b->to
                                       || a->to == b->from || a->to == b->to);
}

/* Pairs sharing a loop under one carrier, both blocked or neither, get
   one group: the lowest index among them. */
static void group(pairs *ps)
{
   uint32_t i, j, changed = 1;
   while (changed) {
      changed = 0;
      for (i = 0; i < ps->n; i++)
         for (j = 0; j < ps->n; j++)
            if (ps->p[j].group < ps->p[i].group && ps->p[j].blocked == ps->p[i].blocked
                && shares_loop(&ps->p[i], &ps->p[j])) {
               ps->p[i].group = ps->p[j].group;
               changed = 1;
            }
   }
}

/* Whether group g is of blocked pairs one of which shares a loop with
   a pair that is not: the fusion without them is the item. */
static int overshadowed(const pairs *ps, uint32_t g)
{
   uint32_t i, j;
   for (i = 0; i < ps->n; i++)
      for (j = 0; ps->p[i].group == g && ps->p[i].blocked && j < ps->n; j++)
         if (!ps->p[j].blocked && shares_loop(&ps->p[i], &ps->p[j]))
            return 1;
   return 0;
}

static int member(const uint32_t *set, uint32_t n, uint32_t x)
{
   uint32_t i;
   for (i = 0; i < n && set[i] != x; i++)
      ;
   return i < n;
}

static void add_unique(uint32_t *set, uint32_t *n, uint32_t max, uint32_t x)
{
   if (!member(set, *n, x) && *n < max)
      set[(*n)++] = x;
}

static int by_id(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   return x < y ? -1 : x > y;
}

/* "a, b and c" of the variables' names. */
static char *names_of(const mp_advisor *ad, const uint32_t *vars, uint32_t n)
{
   mp_strbuf b = MP_STRBUF_INIT;
   uint32_t i;
   for (i = 0; i < n; i++)
      mp_strbuf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
                       mp_vars_get(ad->vs, vars[i])->name);
   return mp_strbuf_take(&b);
}

/* "f.c:10-12 and f.c:14-16"; copies of one source loop (a function
   inlined at several calls) said once, where the first runs, with
   their number: "f.c:10-12 (2 copies) and f.c:14-16". */
static char *loops_of(const mp_advisor *ad, const uint32_t *loops, uint32_t n)
{
   mp_strbuf b = MP_STRBUF_INIT;
   char *w[MP_ADVICE_FUSED];
   uint32_t i, j, copies, said = 0, places = 0;
   for (i = 0; i < n; i++)
      w[i] = mp_facts_loop_where(ad->an, loops[i]);
   for (i = 0; i < n; i++) {
      for (j = 0; j < i && mp_strcmp(w[j], w[i]) != 0; j++)
         ;
      places += j == i;
   }
   for (i = 0; i < n; i++) {
      for (j = 0; j < i && mp_strcmp(w[j], w[i]) != 0; j++)
         ;
      if (j < i)
         continue;
      for (copies = 1, j = i + 1; j < n; j++)
         copies += mp_strcmp(w[j], w[i]) == 0;
      said++;
      mp_strbuf_printf(&b, "%s%s", said == 1 ? "" : said == places ? " and " : ", ", w[i]);
      if (copies > 1)
         mp_strbuf_printf(&b, " (%u copies)", copies);
   }
   for (i = 0; i < n; i++)
      mp_free(w[i]);
   return mp_strbuf_take(&b);
}

/* Whether loops x and y may depend on each other (mp_loops_may_depend). */
static int may_depend(const mp_advisor *ad, uint32_t x, uint32_t y)
{
   return mp_loops_may_depend(mp_loops_get(ad->an->loops, x), mp_loops_get(ad->an->loops, y));
}

/* A variable through which loop 'across' may depend on one of the
   loops[0..n) (their instructions' last variables), to name it;
   UINT32_MAX: none is known (a frame's unnamed bytes). */
static uint32_t shared_with(const mp_advisor *ad, const uint32_t *loops, uint32_t n,
                            uint32_t across)
{
   const mp_finished *an = ad->an;
   const mp_loop *between = mp_loops_get(an->loops, across);
   uint32_t i, j;
   for (i = 0; an->instrs != NULL && i < an->n_instrs; i++) {
      const mp_instr_fact *f = &an->instrs[i];
      if (!f->known || f->var == UINT32_MAX || f->loop == MP_LOOP_NONE
          || !mp_loops_touched(between, f->var))
         continue;
      for (j = 0; j < n; j++)
         if (mp_loops_within(an->loops, f->loop, loops[j])
             && (mp_loops_written(between, f->var)
                 || mp_loops_written(mp_loops_get(an->loops, loops[j]), f->var)))
            return f->var;
   }
   return UINT32_MAX;
}

/* Whether loop 'across', run between loops 'from' and 'to' of the
   loops[0..n), can move out of the fused loop: before it when no loop
   of the group up to 'from' (by their first runs) depends on it, or
   after it when none from 'to' on does.  A table of constants the
   code between the loops fills, that the earlier loop never reads, is
   set up before it.  Returns "before", "after" or NULL: it cannot. */
static const char *movable(const mp_advisor *ad, const uint32_t *loops, uint32_t n,
                           uint32_t from, uint32_t to, uint32_t across)
{
   int before = 1, after = 1;
   uint32_t j;
   for (j = 0; j < n; j++) {
      if (loops[j] <= from && may_depend(ad, loops[j], across))
         before = 0;
      if (loops[j] >= to && may_depend(ad, loops[j], across))
         after = 0;
   }
   return before ? "before" : after ? "after" : NULL;
}

/* Whether loop l is one of the loops[0..n) or inside one: fused with
   them.  (The loops are found as they run: until its outer loop's
   first back edge, an inner loop's first run is one of the carrier's
   own, between the loops of a pair.) */
static int fused_with(const mp_advisor *ad, const uint32_t *loops, uint32_t n, uint32_t l)
{
   uint32_t j;
   for (j = 0; j < n && !mp_loops_within(ad->an->loops, l, loops[j]); j++)
      ;
   return j < n;
}

/* Whether loop l is the loader's: its lazy binding of a function runs
   at the function's first call, wherever that is (srad's first exp(),
   in the second loop's first iteration, before that loop is known to
   be one), and touches the program's data only through the stack it
   runs on: a fusion moves no call past it. */
static int lazy_binding(const mp_advisor *ad, uint32_t l)
{
   return ad->res->loop[l].cls == MP_CLASS_LOADER;
}

/* A loop run between two loops of group g, not itself one of the
   group's loops[0..n) nor inside one (a loop of the group between two
   others is fused too), that one of them depends on and that cannot
   move out of the fused loop, with *shared the variable they share
   (UINT32_MAX: not known); MP_LOOP_NONE if none did.  Those that can
   move are said in *moves: "the loop at f.c:1-2 before it, ...", or
   NULL. */
static uint32_t crossed_loop(const mp_advisor *ad, const pairs *ps, uint32_t g,
                             const uint32_t *loops, uint32_t n, uint32_t *shared,
                             char **moves)
{
   mp_strbuf b = MP_STRBUF_INIT;
   uint32_t i, j, moved[2 * MAX_PAIRS], n_moved = 0;
   *moves = NULL;
   for (i = 0; i < 2 * ps->n; i++) {
      const pair *p = &ps->p[i / 2];
      uint32_t across = p->across[i % 2];
      const char *side;
      char *w;
      if (p->group != g || across == MP_LOOP_NONE || fused_with(ad, loops, n, across)
          || lazy_binding(ad, across))
         continue;
      for (j = 0; j < n && !may_depend(ad, loops[j], across); j++)
         ;
      if (j == n)
         continue;
      side = movable(ad, loops, n, p->from, p->to, across);
      if (side == NULL) {
         mp_free(mp_strbuf_take(&b));
         *shared = shared_with(ad, loops, n, across);
         return across;
      }
      if (member(moved, n_moved, across))
         continue;
      moved[n_moved++] = across;
      w = mp_facts_loop_where(ad->an, across);
      mp_strbuf_printf(&b, "%sthe loop at %s %s it", n_moved == 1 ? "" : ", ", w, side);
      mp_free(w);
   }
   *moves = n_moved ? mp_strbuf_take(&b) : NULL;
   return MP_LOOP_NONE;
}

/* Whether a loop between pair p's two loops blocks their fusion alone
   (crossed_loop on the pair as a group of two). */
static int blocked_pair(const mp_advisor *ad, const pair *p)
{
   uint32_t loops[2], shared, across;
   pairs one;
   char *moves;
   loops[0] = p->from < p->to ? p->from : p->to;
   loops[1] = p->from < p->to ? p->to : p->from;
   one.p[0] = *p;
   one.p[0].group = 0;
   one.n = 1;
   across = crossed_loop(ad, &one, 0, loops, 2, &shared, &moves);
   mp_free(moves);
   return across != MP_LOOP_NONE;
}

/* Item a replayed fused (its evidence ends with the replay); the
   reason it is rejected, or NULL. */
static char *replay_refutes(mp_advisor *ad, mp_advice *a, const uint32_t *loops,
                            uint32_t n, int repeated, uint32_t level)
{
   mp_fusion_outcome fo;
   char *refuted;
   mp_replay_fusion(ad->run, ad->an, loops, n, repeated, level, &fo);
   mp_adv_take_replay(a, mp_fusion_replay_text(&fo), &fo.r);
   /* Unchecked, a fusion is a guess about loops the debug information
      may not tell apart (compiled copies, a callee's loop beside its
      caller's): it is given only when its replay holds it. */
   if (fo.illegal || (!fo.r.made && fo.why_not))
      refuted = mp_asprintf("%s%s", fo.illegal ? "" : "no fusion was replayed: ",
                            mp_strncmp(fo.why_not, "no replay: ", 11) == 0
                            ? fo.why_not + 11 : fo.why_not);
   else
      refuted = mp_adv_replay_refutes(ad, "of the fusion", &a->replay);
   mp_fusion_outcome_clear(&fo);
   return refuted;
}

/* The item of group g. */
static void advise_group(mp_advisor *ad, const pairs *ps, uint32_t g, const double *score)
{
   uint32_t loops[MP_ADVICE_FUSED], vars[MP_ADVICE_FUSED], n_loops = 0, n_vars = 0, i;
   uint32_t level = UINT32_MAX, carrier = MP_LOOP_NONE, top = UINT32_MAX;
   uint32_t across, shared = UINT32_MAX;
   uint64_t reuses = 0, cap = 0;
   double sum = 0.0;
   char b1[32], b2[32], b3[32], b4[32], *names, *where, *around, *refuted, *moves;
   mp_advice *a;
   for (i = 0; i < ps->n; i++) {
      const pair *p = &ps->p[i];
      if (p->group != g)
         continue;
      add_unique(loops, &n_loops, MP_ADVICE_FUSED, p->from);
      add_unique(loops, &n_loops, MP_ADVICE_FUSED, p->to);
      add_unique(vars, &n_vars, MP_ADVICE_FUSED, p->var);
      if (p->level < level)
         level = p->level;
      carrier = p->carrier;
      reuses += p->reuses;
   }
   mp_sort(loops, n_loops, sizeof *loops, by_id);
   across = crossed_loop(ad, ps, g, loops, n_loops, &shared, &moves);
   for (i = 0; i < n_vars; i++) {
      const mp_var *v = mp_vars_get(ad->vs, vars[i]);
      sum += score[vars[i]];
      cap += mp_cache_counts_uncovered_cause(v->cache, level, MP_MISS_CAPACITY);
      if (top == UINT32_MAX || score[vars[i]] > score[top])
         top = vars[i];
   }
   names = names_of(ad, vars, n_vars);
   where = loops_of(ad, loops, n_loops);
   /* a loop of the runtime around main repeats nothing */
   if (!mp_adv_programs_loop(ad, carrier))
      carrier = MP_LOOP_NONE;
   if (carrier != MP_LOOP_NONE) {
      char *w = mp_facts_loop_where(ad->an, carrier);
      around = mp_asprintf(", in the same iteration of the loop at %s around them", w);
      mp_free(w);
   } else
      around = mp_strdup("mp.advice.fusion", "");
   a = mp_adv_new(ad, MP_ADVICE_LOOP_FUSION, mp_vars_get(ad->vs, top), sum > 1.0 ? 1.0 : sum);
   a->loop = loops[0];
   a->with_loop = loops[1];
   mp_memcpy(a->fused, loops, n_loops * sizeof *loops);
   a->n_fused = n_loops;
   mp_adv_fill_where(ad->vs, a, mp_adv_by_l1_misses_read);
   a->text = mp_asprintf("adjacent loops over the same data: the loops at %s each walk %s "
                         "whole, and the next loop comes back to them only after more "
                         "than %s holds", where, names, mp_report_level_name(level));
   a->evidence = mp_asprintf(
                  "%s: %s capacity misses of %s, %s holds %s lines; %s of their reuses "
                  "beyond %s lines run from one of these loops to the next%s",
                  mp_report_level_name(level), mp_commas(cap, b1, sizeof b1), names,
                  mp_report_level_name(level),
                  mp_commas(ad->an->cache->level[level].size
                            / ad->an->cache->level[level].line, b2, sizeof b2),
                  mp_commas(reuses, b3, sizeof b3),
                  mp_commas(ad->an->cache->level[level].size
                            / ad->an->cache->level[level].line, b4, sizeof b4), around);
   a->fix = mp_asprintf("fuse the loops at %s into one loop whose body runs each of theirs "
                        "in turn, so that each element of %s is used again while its line "
                        "is still in %s%s%s%s", where, names, mp_report_level_name(level),
                        moves ? "; move " : "", moves ? moves : "",
                        moves ? " (it runs between them, and no loop on that side depends "
                                "on it)" : "");
   mp_free(moves);
   if (across != MP_LOOP_NONE) {
      /* The replay sees the fused loops' accesses alone: a loop between
         them (an FFT called between a copy-in and a copy-out over its
         scratch) may read what the first wrote and write what the
         second reads. */
      char *w = mp_facts_loop_where(ad->an, across);
      const char *fn = mp_vars_location_fn(ad->vs, mp_loops_get(ad->an->loops, across)->fn);
      char *what = shared == UINT32_MAX
                   ? mp_strdup("mp.advice.fusion", "accesses unnamed bytes of a frame they "
                               "access too, one side writing")
                   : mp_asprintf("%s %s too",
                                 mp_loops_written(mp_loops_get(ad->an->loops, across), shared)
                                 ? "writes" : "reads", mp_vars_get(ad->vs, shared)->name);
      refuted = mp_asprintf("the loop at %s%s%s runs between them and %s: fused, the later "
                            "loop's accesses would move before its",
                            w, fn ? ", in " : "", fn ? fn : "", what);
      mp_free(what);
      mp_free(w);
   } else
      refuted = replay_refutes(ad, a, loops, n_loops, carrier != MP_LOOP_NONE, level);
   mp_free(names);
   mp_free(where);
   mp_free(around);
   if (refuted)
      mp_adv_reject_last(ad, refuted);
}

void mp_rule_fusion(mp_advisor *ad)
{
   uint32_t i, n = mp_vars_count(ad->vs);
   pairs *ps;
   if (ad->an->carriers == NULL || ad->an->cache == NULL || ad->an->loops == NULL
       || ad->total == 0)
      return;
   ps = mp_calloc("mp.advice.fusion", 1, sizeof *ps);
   for (i = 0; i < n; i++) {
      const mp_var *v = mp_vars_get(ad->vs, i);
      if (mp_adv_programs_data(v) && ad->hot[i])
         gather(ad, v, ps);
   }
   for (i = 0; i < ps->n; i++)
      ps->p[i].blocked = blocked_pair(ad, &ps->p[i]);
   group(ps);
   for (i = 0; i < ps->n; i++)
      if (ps->p[i].group == i && !overshadowed(ps, i))
         advise_group(ad, ps, i, ad->score);
   mp_free(ps);
}
