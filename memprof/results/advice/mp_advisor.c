/*--------------------------------------------------------------------*/
/*--- memprof: what the advice rules share.            mp_advisor.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_advisor.h.
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_owner.h"
#include "mp_util.h"

/*------------------------------------------------------------*/
/*--- Items                                                ---*/
/*------------------------------------------------------------*/

int mp_adv_programs_data(const mp_var *v)
{
   return mp_class_is_programs(v->cls) && !(v->kind == MP_VAR_OTHER && !v->named_by);
}

mp_advice *mp_adv_new(mp_advisor *ad, mp_advice_kind kind, const mp_var *v,
                      double score)
{
   mp_advice *a;
   if (ad->n == ad->cap) {
      ad->cap = ad->cap ? 2 * ad->cap : 16;
      ad->out = mp_realloc("mp.advice", ad->out, ad->cap * sizeof *ad->out);
   }
   a = &ad->out[ad->n++];
   mp_memset(a, 0, sizeof *a);
   a->kind = kind;
   a->var = v ? v->id : MP_ADVICE_NO_VAR;
   a->loop = a->with_loop = MP_LOOP_NONE;
   a->score = score;
   return a;
}

void mp_adv_reject_last(mp_advisor *ad, char *reason)
{
   if (ad->n_rej == ad->cap_rej) {
      ad->cap_rej = ad->cap_rej ? 2 * ad->cap_rej : 8;
      ad->rej = mp_realloc("mp.advice.rej", ad->rej, ad->cap_rej * sizeof *ad->rej);
   }
   ad->rej[ad->n_rej] = ad->out[--ad->n];
   ad->rej[ad->n_rej++].reason = reason;
}

uint64_t mp_adv_by_accesses(const mp_line_counts *lc) { return mp_counts_accesses(&lc->c); }
uint64_t mp_adv_by_l1_misses(const mp_line_counts *lc) { return lc->cache.misses[0]; }

uint64_t mp_adv_by_l1_misses_read(const mp_line_counts *lc)
{
   return lc->c.reads ? lc->cache.misses[0] : 0;
}

typedef struct {
   uint32_t var;
   mp_adv_line_metric metric;
   uint32_t loc[MP_ADVICE_WHERE];
   uint64_t val[MP_ADVICE_WHERE];
   uint32_t n;
} top_locs;

static void consider_line(const mp_line_counts *lc, void *arg)
{
   top_locs *t = arg;
   uint64_t m;
   uint32_t i;
   if (lc->var != t->var)
      return;
   m = t->metric(lc);
   if (m == 0)
      return;
   i = t->n < MP_ADVICE_WHERE ? t->n++ : MP_ADVICE_WHERE;
   while (i > 0 && (t->val[i - 1] < m || (t->val[i - 1] == m && t->loc[i - 1] > lc->loc))) {
      if (i < MP_ADVICE_WHERE) {
         t->val[i] = t->val[i - 1];
         t->loc[i] = t->loc[i - 1];
      }
      i--;
   }
   if (i < MP_ADVICE_WHERE) {
      t->val[i] = m;
      t->loc[i] = lc->loc;
   }
}

void mp_adv_fill_where(const mp_vars *vs, mp_advice *a, mp_adv_line_metric metric)
{
   top_locs t;
   uint32_t i;
   mp_memset(&t, 0, sizeof t);
   t.var = a->var;
   t.metric = metric;
   mp_vars_foreach_line(vs, consider_line, &t);
   if (t.n == 0 && metric != mp_adv_by_accesses) {
      t.metric = mp_adv_by_accesses;
      mp_vars_foreach_line(vs, consider_line, &t);
   }
   for (i = 0; i < t.n; i++)
      a->where[i] = t.loc[i];
   a->n_where = t.n;
}

/*------------------------------------------------------------*/
/*--- Replays                                              ---*/
/*------------------------------------------------------------*/

char *mp_adv_replay_refutes(const mp_advisor *ad, const char *what, const mp_replay *r)
{
   uint32_t gain = ad->run->whatif_min_gain;
   if (!r->made || ad->an->cache == NULL || r->before.cycles == 0)
      return NULL;
   if (r->after.cycles * 100 <= r->before.cycles * (uint64_t)(100 - gain))
      return NULL;
   return mp_asprintf("the replay %s saves less than %u%% of its cycles "
                      "(--what-if-min-gain=%u): the change would not pay", what,
                      gain, gain);
}

char *mp_adv_replay_text(const mp_advisor *ad, const char *what, const mp_replay *r)
{
   char b1[32], b2[32], b3[32], b4[32], b5[32];
   const mp_whatif_run *before = &r->before, *after = &r->after;
   long long pct;
   if (!r->made || ad->an->cache == NULL)
      return mp_strdup("mp.advice.replay", "");
   /* VG_(snprintf) has no %+.0f: the percentage is rounded by hand. */
   pct = before->cycles == 0 ? 0
       : (long long)((after->cycles >= before->cycles ? after->cycles - before->cycles
                                                       : before->cycles - after->cycles)
                     * 100 + before->cycles / 2) / (long long)before->cycles;
   return mp_asprintf("; replaying its %s%s accesses %s: L1 misses %s -> %s, "
               "cycles %s -> %s (%s%lld%%)",
               r->complete ? "" : "first ",
               mp_commas(before->accesses, b1, sizeof b1), what,
               mp_commas(before->misses[0], b2, sizeof b2), mp_commas(after->misses[0], b3, sizeof b3),
               mp_commas(before->cycles, b4, sizeof b4), mp_commas(after->cycles, b5, sizeof b5),
               after->cycles >= before->cycles ? "+" : "-", pct);
}

char *mp_adv_take_order_replay(mp_advisor *ad, mp_advice *a, mp_order_replay *o,
                               const char *what)
{
   char *text = mp_order_replay_text(o);
   char *more = mp_asprintf("%s%s", a->evidence, text);
   mp_free(a->evidence);
   mp_free(text);
   a->evidence = more;
   a->replay = o->r;
   mp_order_replay_clear(o);
   return mp_adv_replay_refutes(ad, what, &a->replay);
}

/*------------------------------------------------------------*/
/*--- Lines, loops and misses                              ---*/
/*------------------------------------------------------------*/

static void count_line(const mp_line_counts *lc, void *arg)
{
   mp_advisor *ad = arg;
   if (mp_counts_accesses(&lc->c))
      ad->first[lc->var + 1]++;
}

static void place_line(const mp_line_counts *lc, void *arg)
{
   mp_advisor *ad = arg;
   /* first[var] is used as the next free slot, then shifted back */
   if (mp_counts_accesses(&lc->c))
      ad->lines[ad->first[lc->var]++] = lc;
}

void mp_adv_index_lines(mp_advisor *ad, uint32_t n_vars)
{
   uint32_t i;
   ad->first = mp_calloc("mp.advice.first", n_vars + 2, sizeof *ad->first);
   mp_vars_foreach_line(ad->vs, count_line, ad);
   for (i = 1; i <= n_vars + 1; i++)
      ad->first[i] += ad->first[i - 1];
   ad->lines = mp_malloc("mp.advice.lines", (ad->first[n_vars] + 1) * sizeof *ad->lines);
   mp_vars_foreach_line(ad->vs, place_line, ad);
   for (i = n_vars; i > 0; i--)
      ad->first[i] = ad->first[i - 1];
   ad->first[0] = 0;
}

uint32_t mp_adv_line_loop(const mp_advisor *ad, const mp_line_counts *lc)
{
   int64_t s;
   uint64_t sure;
   uint32_t instr;
   if (!mp_line_stride_dominant(&lc->lstride, &s, &sure, &instr))
      return MP_LOOP_NONE;
   return mp_facts_instr_loop(ad->an, instr);
}

const mp_line_counts *mp_adv_var_line(const mp_advisor *ad, uint32_t var, uint32_t loc)
{
   uint32_t i;
   for (i = ad->first[var]; i < ad->first[var + 1]; i++)
      if (ad->lines[i]->loc == loc)
         return ad->lines[i];
   return NULL;
}

void mp_adv_note_fixed(mp_advisor *ad, uint32_t loop, uint32_t loc)
{
   if (ad->n_fixed == ad->cap_fixed) {
      ad->cap_fixed = ad->cap_fixed ? 2 * ad->cap_fixed : 8;
      ad->fixed_loop = mp_realloc("mp.advice.fl", ad->fixed_loop,
                                  ad->cap_fixed * sizeof *ad->fixed_loop);
      ad->fixed_loc = mp_realloc("mp.advice.fc", ad->fixed_loc,
                                 ad->cap_fixed * sizeof *ad->fixed_loc);
   }
   ad->fixed_loop[ad->n_fixed] = loop;
   ad->fixed_loc[ad->n_fixed++] = loc;
}

uint64_t mp_adv_misses_in_fixed_walks(const mp_advisor *ad, const mp_var *v, uint32_t k)
{
   uint64_t n = 0;
   uint32_t i, f;
   for (i = ad->first[v->id]; i < ad->first[v->id + 1]; i++) {
      const mp_line_counts *lc = ad->lines[i];
      uint32_t l = mp_adv_line_loop(ad, lc);
      for (f = 0; f < ad->n_fixed; f++)
         if (ad->fixed_loop[f] != MP_LOOP_NONE ? ad->fixed_loop[f] == l
                                               : ad->fixed_loc[f] == lc->loc) {
            n += lc->cache.misses[k];
            break;
         }
   }
   return n;
}

int mp_adv_misses_matter(const mp_advisor *ad, const mp_var *v, uint32_t k)
{
   const mp_cache_results *cr = ad->res->cache;
   if (cr == NULL || k >= cr->n_levels || v->cache == NULL)
      return 1;
   return (uint64_t)MP_ADV_MIN_MISS_SHARE * v->cache->misses[k] >= cr->level[k].totals.misses;
}

int mp_adv_some_covered(const mp_cache_counts *cc, uint32_t k)
{
   return mp_cache_counts_uncovered(cc, k) != mp_cache_counts_unprefetched(cc, k);
}
