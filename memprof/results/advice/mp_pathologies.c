/*--------------------------------------------------------------------*/
/*--- memprof: the advice engine: pathologies and their fixes.     ---*/
/*---                                              mp_pathologies.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   One rule per pathology (mp_advice.h), each a small function that
   reads one variable's metrics and either stays silent or fills one
   mp_advice; what the rules share is mp_advisor.h's.  The thresholds
   are written next to each rule with the reason for them;
   docs/memprof.md (ADVICE) lists them for users.  Runs once at exit:
   cost O(variables * per-line records).
*/
#include "mp_advisor.h"
#include "mp_owner.h"
#include "mp_util.h"

static const char *const kind_names[MP_ADVICE_N_KINDS] = {
   "false-sharing", "numa-first-touch", "loop-interchange", "conflict-sets",
   "long-stride", "blocking",
   "structure-splitting", "too-many-streams", "no-source"
};

const char *mp_advice_kind_name(mp_advice_kind k)
{
   return kind_names[k];
}

/*------------------------------------------------------------*/
/*--- Ranking                                              ---*/
/*------------------------------------------------------------*/

static int advice_before(const mp_advice *a, const mp_advice *b)
{
   /* not fixes: below every item that is */
   if ((a->kind == MP_ADVICE_NO_SOURCE) != (b->kind == MP_ADVICE_NO_SOURCE))
      return b->kind == MP_ADVICE_NO_SOURCE;
   if (a->score != b->score)
      return a->score > b->score;
   if (a->kind != b->kind)
      return a->kind < b->kind;
   if (a->var != b->var)
      return a->var < b->var;
   return a->loop < b->loop;
}

static int advice_cmp(const void *a, const void *b)
{
   return advice_before(a, b) ? -1 : advice_before(b, a) ? 1 : 0;
}

static const char *base_name(const char *path)
{
   const char *b = path;
   for (; *path; path++)
      if (*path == '/')
         b = path + 1;
   return b;
}

/* Where the accesses of a variable whose advice points at no source
   line were made: the function and object of its busiest line (by
   cycles, else accesses); the object is the variable's own when the
   code has no symbol (such code shares one location across objects). */
static void busiest_code(const mp_advisor *ad, const mp_var *v, const char **fn,
                         const char **obj)
{
   const mp_line_counts *top = NULL;
   uint32_t i;
   for (i = ad->first[v->id]; i < ad->first[v->id + 1]; i++) {
      const mp_line_counts *lc = ad->lines[i];
      uint64_t c = ad->by_cycles ? lc->cache.cycles : mp_counts_accesses(&lc->c);
      if (top == NULL || c > (ad->by_cycles ? top->cache.cycles : mp_counts_accesses(&top->c)))
         top = lc;
   }
   *fn = top ? mp_vars_location_fn(ad->vs, top->loc) : NULL;
   *obj = top && *fn ? mp_vars_location_object(ad->vs, top->loc) : NULL;
   if (!*obj)
      *obj = v->object;
}

/* An item whose accesses are all in code without line information (a
   library without its debug information): no line of it can be
   changed, no loop named.  Such items are not fixes to rank: they are
   gathered per object into one no-source item, after the others. */
typedef struct {
   const char *object;      /* NULL: code without a symbol */
   const char *fn;          /* the busiest function of the first item */
   mp_strbuf items;         /* "blocking of heap@x (12%), ..." */
   uint32_t n;
   double score;
} no_source_group;

static int same_object(const char *a, const char *b)
{
   return a == b || (a && b && mp_strcmp(a, b) == 0);
}

/* Moves ad->out[i], an item on v, into its object's group. */
static void gather_no_source(mp_advisor *ad, no_source_group **groups, uint32_t *n_groups,
                             const mp_var *v, uint32_t i)
{
   const char *fn, *obj;
   no_source_group *g = NULL;
   mp_advice *a = &ad->out[i];
   uint32_t j;
   busiest_code(ad, v, &fn, &obj);
   for (j = 0; j < *n_groups; j++)
      if (same_object((*groups)[j].object, obj))
         g = &(*groups)[j];
   if (!g) {
      *groups = mp_realloc("mp.advice.nosrc", *groups, (*n_groups + 1) * sizeof **groups);
      g = &(*groups)[(*n_groups)++];
      mp_memset(g, 0, sizeof *g);
      g->object = obj;
      g->fn = fn;
      {
         mp_strbuf empty = MP_STRBUF_INIT;
         g->items = empty;
      }
   }
   mp_strbuf_printf(&g->items, "%s%s of %s (%.1f%%)", g->n ? "; " : "",
                    mp_advice_kind_name(a->kind), v->name, 100.0 * a->score);
   g->n++;
   g->score += a->score;
   mp_free(a->text);
   mp_free(a->evidence);
   mp_free(a->fix);
   if (a->reason)
      mp_free(a->reason);
   ad->out[i] = ad->out[--ad->n];
}

static void add_no_source(mp_advisor *ad, no_source_group *g)
{
   const char *obj = g->object ? base_name(g->object) : NULL;
   char *items = mp_strbuf_take(&g->items);
   mp_advice *a = mp_adv_new(ad, MP_ADVICE_NO_SOURCE, NULL, g->score);
   a->text = mp_asprintf("no source at hand: %u advice item%s on data accessed by %s%s, "
                         "which has no line information", g->n, g->n == 1 ? "" : "s",
                         obj ? obj : "code without a symbol",
                         obj ? "" : " (no object known)");
   a->evidence = mp_asprintf("%s: %.1f%% of the run's %s%s%s", items, 100.0 * g->score,
                             ad->by_cycles ? "memory cycles" : "accesses",
                             g->fn ? "; the first's busiest code is in " : "",
                             g->fn ? g->fn : "");
   if (obj && mp_object_installed_by_system(g->object))
      a->fix = mp_asprintf("install the debug information of %s (on Debian its -dbgsym "
                           "package, or set DEBUGINFOD_URLS) and run again: the items then "
                           "name their source lines and loops; or change how the program "
                           "uses it", obj);
   else if (obj)
      a->fix = mp_asprintf("build %s with debug information (-g) and run again: the items "
                           "then name their source lines and loops", obj);
   else
      a->fix = mp_strdup("mp.advice.nosrc",
                         "find which object the code is in (a JIT's, or a stripped "
                         "program's) and build it with -g; or change how the program "
                         "uses it");
   mp_free(items);
}

mp_advice *mp_advise(const mp_results *res, uint32_t *n_out,
                     mp_advice **rejected, uint32_t *n_rejected)
{
   mp_advisor ad;
   const mp_vars *vs = res->vs;
   uint64_t total = 0;
   uint32_t i, n = mp_vars_count(vs);
   int by_cycles = res->an->cache != NULL;
   double *score;
   no_source_group *no_src = NULL;
   uint32_t n_no_src = 0, j;
   mp_memset(&ad, 0, sizeof ad);
   ad.vs = vs;
   ad.run = res->run;
   ad.an = res->an;
   ad.res = res;
   ad.share = res->share;
   mp_adv_index_lines(&ad, n);
   score = mp_calloc("mp.advice.score", n + 1, sizeof *score);
   for (i = 0; i < n; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      total += by_cycles ? (v->cache ? v->cache->cycles : 0) : mp_counts_accesses(&v->c);
   }
   ad.total = total;
   ad.by_cycles = by_cycles;
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      uint64_t mine = by_cycles ? (v->cache ? v->cache->cycles : 0)
                                : mp_counts_accesses(&v->c);
      score[i] = (double)mine / (double)total;
   }
   /* The walks first: blocking leaves alone the misses of a walk whose
      fix is its loop order or layout. */
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      if (!mp_class_is_programs(v->cls)
          || (v->kind == MP_VAR_OTHER && !v->named_by) || score[i] < MP_ADVICE_MIN_SHARE)
         continue;
      mp_rule_strides(&ad, v);
   }
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      uint32_t from = ad.n;
      /* "other" is not a data structure anyone can fix, nor is one
         whose layout the C runtime, the dynamic linker or Valgrind
         decides (_rtld_local, stdio's buffers), debug information or
         not. */
      if (!mp_class_is_programs(v->cls) || (v->kind == MP_VAR_OTHER && !v->named_by))
         continue;
      /* False sharing weighs its own predicted cost: under Valgrind the
         variable's cycles miss the transfers a parallel run pays. */
      mp_rule_false_sharing(&ad, v);
      if (score[i] >= MP_ADVICE_MIN_SHARE) {
         mp_rule_numa(&ad, v, score[i]);
         mp_rule_conflicts(&ad, v, score[i]);
         mp_rule_blocking(&ad, v, score[i]);
         mp_rule_split(&ad, v, score[i]);
      }
      /* Advice whose busiest line is in code without line information
         (a stripped library's loop): gathered per object, below. */
      for (j = ad.n; j-- > from;)
         if (!v->named_by && (ad.out[j].n_where == 0
                              || !mp_vars_location_where(vs, ad.out[j].where[0])))
            gather_no_source(&ad, &no_src, &n_no_src, v, j);
   }
   {
      uint64_t accesses = 0;
      for (i = 0; i < n; i++)
         accesses += mp_counts_accesses(&mp_vars_get(vs, i)->c);
      mp_rule_streams(&ad, accesses);
   }
   for (i = 0; i < n_no_src; i++)
      add_no_source(&ad, &no_src[i]);
   if (no_src)
      mp_free(no_src);
   mp_free(score);
   mp_free(ad.first);
   mp_free(ad.lines);
   if (ad.fixed_loop) mp_free(ad.fixed_loop);
   if (ad.fixed_loc) mp_free(ad.fixed_loc);
   mp_sort(ad.out, ad.n, sizeof *ad.out, advice_cmp);
   mp_sort(ad.rej, ad.n_rej, sizeof *ad.rej, advice_cmp);
   if (rejected) {
      *rejected = ad.rej;
      *n_rejected = ad.n_rej;
   } else
      mp_advice_free(ad.rej, ad.n_rej);
   *n_out = ad.n;
   return ad.out;
}

void mp_advice_free(mp_advice *a, uint32_t n)
{
   uint32_t i;
   for (i = 0; i < n; i++) {
      mp_free(a[i].text);
      mp_free(a[i].evidence);
      mp_free(a[i].fix);
      if (a[i].reason)
         mp_free(a[i].reason);
   }
   if (a)
      mp_free(a);
}
