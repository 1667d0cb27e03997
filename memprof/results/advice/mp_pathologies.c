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

mp_advice *mp_advise(const mp_results *res, uint32_t *n_out,
                     mp_advice **rejected, uint32_t *n_rejected)
{
   mp_advisor ad;
   const mp_vars *vs = res->vs;
   uint64_t total = 0;
   uint32_t i, n = mp_vars_count(vs);
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
      /* Advice whose busiest line is in code without line information:
         gathered per object, below. */
      mp_rule_no_source_gather(&ad, v, from);
   }
   {
      uint64_t accesses = 0;
      for (i = 0; i < n; i++)
         accesses += mp_counts_accesses(&mp_vars_get(vs, i)->c);
      mp_rule_streams(&ad, accesses);
   }
   mp_rule_no_source(&ad);
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
