/*--------------------------------------------------------------------*/
/*--- memprof: the pathology table, and the advice it makes.       ---*/
/*---                                              mp_pathologies.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The advice engine's driver (mp_advice.h): the pathology table, one
   entry per kind of advice with its name and its rule, each rule a
   file of its own (README.md); mp_advise runs the rules from it and
   ranks what they say.  The thresholds are written in each rule's file
   with the reason for them; docs/memprof.md (ADVICE) lists them for
   users.  Runs once at exit: cost O(variables * per-line records).
*/
#include "mp_advisor.h"
#include "mp_rows.h"
#include "mp_owner.h"
#include "mp_util.h"

/* Which variables a pathology's rule on variables runs on, and in
   which of the two passes over the program's variables. */
typedef enum {
   NO_VAR_RULE,        /* none: a rule on the run, or another kind's */
   FIRST_ON_HOT_VARS,  /* the first pass, on the variables of
                          MP_ADVICE_MIN_SHARE of the run or more */
   ON_EVERY_VAR,       /* the second pass, on every variable */
   ON_HOT_VARS         /* the second pass, on those of MP_ADVICE_MIN_SHARE */
} var_scope;

typedef struct {
   const char *name;          /* as in the JSON: mp_advice_kind_name */
   mp_adv_var_rule var_rule;  /* on a variable, or NULL */
   var_scope scope;
   mp_adv_run_rule run_rule;  /* on the run, after the variables, or NULL */
} pathology;

/* The pathology table, in the kinds' order (mp_advice.h): a new kind
   of advice is a kind there, an entry here and a rule in a file of its
   own.  The rules of a pass run in the table's order, on one variable
   after another; the rules on the run follow both passes, in the same
   order.  Keep the order: an item's place in the output can depend on
   when it was made (the ranking's sort is not stable where two items
   tie), and the rules depend on one another as said below. */
static const pathology pathologies[MP_ADVICE_N_KINDS] = {
   /* Weighs the transfers' own cost: under Valgrind the variable's
      cycles miss the transfers a parallel run pays. */
   [MP_ADVICE_FALSE_SHARING] =
      { "false-sharing", mp_rule_false_sharing, ON_EVERY_VAR, NULL },
   [MP_ADVICE_NUMA_FIRST_TOUCH] =
      { "numa-first-touch", mp_rule_numa, ON_HOT_VARS, NULL },
   /* The walks first: the rules on misses leave alone the misses of a
      walk whose fix is its loop order or layout.  The rule makes
      long-stride items too. */
   [MP_ADVICE_LOOP_INTERCHANGE] =
      { "loop-interchange", mp_rule_strides, FIRST_ON_HOT_VARS, NULL },
   [MP_ADVICE_CONFLICT_SETS] =
      { "conflict-sets", mp_rule_conflicts, ON_HOT_VARS, NULL },
   [MP_ADVICE_LONG_STRIDE] =
      { "long-stride", NULL, NO_VAR_RULE, NULL },
   [MP_ADVICE_BLOCKING] =
      { "blocking", mp_rule_blocking, ON_HOT_VARS, NULL },
   /* On the run: a fusion is about the loops and every array they
      stream, gathered over the variables. */
   [MP_ADVICE_LOOP_FUSION] =
      { "loop-fusion", NULL, NO_VAR_RULE, mp_rule_fusion },
   [MP_ADVICE_STRUCTURE_SPLITTING] =
      { "structure-splitting", mp_rule_split, ON_HOT_VARS, NULL },
   [MP_ADVICE_TOO_MANY_STREAMS] =
      { "too-many-streams", NULL, NO_VAR_RULE, mp_rule_streams },
   /* Last: it gathers the items the rules before it made on the
      variable, and makes its own after every other rule on the run. */
   [MP_ADVICE_NO_SOURCE] =
      { "no-source", mp_rule_no_source_gather, ON_EVERY_VAR, mp_rule_no_source },
};

const char *mp_advice_kind_name(mp_advice_kind k)
{
   return pathologies[k].name;
}

/* Runs on v, whose share of the run is score, the rules of the first
   pass (first) or of the second, in the table's order. */
static void run_var_rules(mp_advisor *ad, const mp_var *v, double score, int first)
{
   uint32_t k;
   for (k = 0; k < MP_ADVICE_N_KINDS; k++) {
      const pathology *p = &pathologies[k];
      if (p->var_rule == NULL || (p->scope == FIRST_ON_HOT_VARS) != first
          || (p->scope != ON_EVERY_VAR && !ad->hot[v->id]))
         continue;
      p->var_rule(ad, v, score);
   }
}

/*------------------------------------------------------------*/
/*--- Ranking                                              ---*/
/*------------------------------------------------------------*/

int mp_advice_kind_replayable(mp_advice_kind k)
{
   return k == MP_ADVICE_LOOP_INTERCHANGE || k == MP_ADVICE_LONG_STRIDE
          || k == MP_ADVICE_CONFLICT_SETS || k == MP_ADVICE_BLOCKING
          || k == MP_ADVICE_LOOP_FUSION || k == MP_ADVICE_TOO_MANY_STREAMS;
}

/* A loop fix no replay checked: a guess, after every verified item. */
static int unverified(const mp_advice *a)
{
   return mp_advice_kind_replayable(a->kind) && !a->replayed;
}

static int advice_before(const mp_advice *a, const mp_advice *b)
{
   /* not fixes: below every item that is */
   if ((a->kind == MP_ADVICE_NO_SOURCE) != (b->kind == MP_ADVICE_NO_SOURCE))
      return b->kind == MP_ADVICE_NO_SOURCE;
   if (unverified(a) != unverified(b))
      return unverified(b);
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

/* Whether a replay stands behind item a: its nest's, or its
   variable's split or padding. */
static int replayed(const mp_results *res, const mp_advice *a)
{
   const mp_var_results *vr = a->var == MP_ADVICE_NO_VAR ? NULL : &res->var[a->var];
   if (a->replay.made)
      return 1;
   if (a->kind == MP_ADVICE_STRUCTURE_SPLITTING)
      return vr && vr->split.made;
   if (a->kind == MP_ADVICE_FALSE_SHARING)
      return vr && vr->pad.made;
   return 0;
}

/* ad->hot: a variable of MP_ADVICE_MIN_SHARE of the run's cycles (its
   score) or of its memory stall cycles. */
static uint8_t *hot_vars(const mp_advisor *ad, const double *score, uint32_t n)
{
   uint8_t *hot = mp_calloc("mp.advice.hot", n + 1, 1);
   uint64_t *stall = mp_calloc("mp.advice.stall", n + 1, sizeof *stall), all = 0;
   uint32_t i, l1 = ad->an->cache ? ad->an->cache->latency[0] : 0;
   for (i = 0; i < n && ad->by_cycles; i++) {
      const mp_var *v = mp_vars_get(ad->vs, i);
      stall[i] = v->cache ? mp_report_stall(v->cache, l1) : 0;
      all += stall[i];
   }
   for (i = 0; i < n; i++)
      hot[i] = score[i] >= MP_ADVICE_MIN_SHARE
               || (all > 0 && (double)stall[i] >= MP_ADVICE_MIN_SHARE * (double)all);
   mp_free(stall);
   return hot;
}

mp_advice *mp_advise(const mp_results *res, uint32_t *n_out,
                     mp_advice **rejected, uint32_t *n_rejected)
{
   mp_advisor ad;
   const mp_vars *vs = res->vs;
   uint64_t total = 0, accesses = 0;
   uint32_t i, k, n = mp_vars_count(vs);
   int by_cycles = res->an->cache != NULL;
   double *score;
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
      accesses += mp_counts_accesses(&v->c);
   }
   ad.total = total;
   ad.by_cycles = by_cycles;
   ad.accesses = accesses;
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      uint64_t mine = by_cycles ? (v->cache ? v->cache->cycles : 0)
                                : mp_counts_accesses(&v->c);
      score[i] = (double)mine / (double)total;
   }
   ad.score = score;
   ad.hot = hot_vars(&ad, score, n);
   for (i = 0; i < n && total > 0; i++)
      if (mp_adv_programs_data(mp_vars_get(vs, i)))
         run_var_rules(&ad, mp_vars_get(vs, i), score[i], 1);
   for (i = 0; i < n && total > 0; i++)
      if (mp_adv_programs_data(mp_vars_get(vs, i))) {
         ad.var_from = ad.n;
         run_var_rules(&ad, mp_vars_get(vs, i), score[i], 0);
      }
   for (k = 0; k < MP_ADVICE_N_KINDS; k++)
      if (pathologies[k].run_rule)
         pathologies[k].run_rule(&ad);
   mp_free(score);
   mp_free((uint8_t *)ad.hot);
   mp_free(ad.first);
   mp_free(ad.lines);
   if (ad.fixed_loop) mp_free(ad.fixed_loop);
   if (ad.fixed_loc) mp_free(ad.fixed_loc);
   for (i = 0; i < ad.n; i++)
      ad.out[i].replayed = replayed(res, &ad.out[i]);
   for (i = 0; i < ad.n_rej; i++)
      ad.rej[i].replayed = replayed(res, &ad.rej[i]);
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
   uint32_t i, k;
   for (i = 0; i < n; i++) {
      mp_free(a[i].text);
      mp_free(a[i].evidence);
      mp_free(a[i].fix);
      if (a[i].reason)
         mp_free(a[i].reason);
      if (a[i].holds)
         mp_free(a[i].holds);
      for (k = 0; k < a[i].n_alt; k++) {
         mp_free(a[i].alt[k].fix);
         mp_free(a[i].alt[k].evidence);
         if (a[i].alt[k].holds)
            mp_free(a[i].alt[k].holds);
      }
   }
   if (a)
      mp_free(a);
}
