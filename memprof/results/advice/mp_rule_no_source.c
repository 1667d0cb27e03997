/*--------------------------------------------------------------------*/
/*--- memprof: advice on data used by code without source lines.  ---*/
/*---                                           mp_rule_no_source.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: no source at hand (MP_ADVICE_NO_SOURCE): an item whose
   busiest line is in code without line information (a library without
   its debug information, a stripped program, a JIT's code): no line of
   it can be changed, no loop named.  Such items are not fixes to rank:
   they are gathered per object into one no-source item (var is
   MP_ADVICE_NO_VAR), ranked after every other kind.
   Evidence: the items gathered (kind, variable, share of the run) and
   the function of the first one's busiest code.
   Fix: install the object's debug information (a library the system
   installed) or build it with -g, and run again; or change how the
   program uses it.
   Thresholds: none of its own; the items gathered passed their rules'.
   A variable the program named (a client request: named_by) keeps its
   items.
*/
#include "mp_advisor.h"
#include "mp_owner.h"
#include "mp_util.h"

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

/* The items gathered for one object, which become one no-source
   item. */
typedef struct mp_adv_no_source_group {
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
static void gather_no_source(mp_advisor *ad, const mp_var *v, uint32_t i)
{
   const char *fn, *obj;
   no_source_group *g = NULL;
   mp_advice *a = &ad->out[i];
   uint32_t j;
   busiest_code(ad, v, &fn, &obj);
   for (j = 0; j < ad->n_no_src; j++)
      if (same_object(ad->no_src[j].object, obj))
         g = &ad->no_src[j];
   if (!g) {
      ad->no_src = mp_realloc("mp.advice.nosrc", ad->no_src,
                              (ad->n_no_src + 1) * sizeof *ad->no_src);
      g = &ad->no_src[ad->n_no_src++];
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

void mp_rule_no_source_gather(mp_advisor *ad, const mp_var *v, double var_score)
{
   uint32_t j;
   (void)var_score;   /* the items gathered keep their own */
   /* Advice whose busiest line is in code without line information
      (a stripped library's loop). */
   for (j = ad->n; j-- > ad->var_from;)
      if (!v->named_by && (ad->out[j].n_where == 0
                           || !mp_vars_location_where(ad->vs, ad->out[j].where[0])))
         gather_no_source(ad, v, j);
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

void mp_rule_no_source(mp_advisor *ad)
{
   uint32_t i;
   for (i = 0; i < ad->n_no_src; i++)
      add_no_source(ad, &ad->no_src[i]);
   if (ad->no_src)
      mp_free(ad->no_src);
}
