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
#include "mp_pad_replays.h"
#include "mp_util.h"

/*------------------------------------------------------------*/
/*--- Items                                                ---*/
/*------------------------------------------------------------*/

int mp_adv_programs_data(const mp_var *v)
{
   return mp_class_is_programs(v->cls) && !(v->kind == MP_VAR_OTHER && !v->named_by);
}

int mp_adv_programs_loop(const mp_advisor *ad, uint32_t loop)
{
   return loop != MP_LOOP_NONE && mp_class_is_programs(ad->res->loop[loop].cls);
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

void mp_adv_take_replay(mp_advice *a, char *clause, const mp_replay *r)
{
   char *more = mp_asprintf("%s%s", a->evidence, clause);
   mp_free(a->evidence);
   mp_free(clause);
   a->evidence = more;
   a->replay = *r;
}

char *mp_adv_take_order_replay(mp_advisor *ad, mp_advice *a, mp_order_replay *o,
                               const char *what)
{
   mp_adv_take_replay(a, mp_order_replay_text(o), &o->r);
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

uint64_t mp_adv_magnitude(int64_t x)
{
   return x < 0 ? (uint64_t)-x : (uint64_t)x;
}

uint32_t mp_adv_contiguous_outer(const mp_advisor *ad, uint32_t instr, uint32_t inner,
                                 int64_t *step, int *formula)
{
   uint32_t p;
   *formula = 0;
   for (p = mp_loops_get(ad->an->loops, inner)->parent; p != MP_LOOP_NONE;
        p = mp_loops_get(ad->an->loops, p)->parent) {
      int known;
      int64_t st = mp_facts_instr_step(ad->an, instr, p, &known);
      if (!known)
         continue;
      *formula = 1;
      if (st != 0 && mp_adv_magnitude(st) < ad->run->line_size) {
         *step = st;
         return p;
      }
   }
   return MP_LOOP_NONE;
}

/* What a replay saves of its nest's cycles, -1 if none was made. */
static double saving(const mp_replay *r)
{
   if (!r->made || r->before.cycles == 0)
      return -1.0;
   return 1.0 - (double)r->after.cycles / (double)r->before.cycles;
}

/* s without a leading "; ", allocated */
static char *clause(const char *s)
{
   return mp_strdup("mp.advice.alt", mp_strncmp(s, "; ", 2) == 0 ? s + 2 : s);
}

int mp_adv_add_alternative(mp_advisor *ad, mp_advice *a, size_t diagnosis_len,
                           mp_advice_alt *alt)
{
   char *t = mp_adv_replay_refutes(ad, "", &alt->replay);
   int swap = saving(&alt->replay) > saving(&a->replay);
   if (t || a->n_alt == MP_ADVICE_ALTERNATIVES) {
      /* a change that does not pay is no fix */
      if (t)
         mp_free(t);
      mp_free(alt->fix);
      mp_free(alt->evidence);
      if (alt->holds)
         mp_free(alt->holds);
      return 0;
   }
   if (swap) {
      mp_advice_alt own;
      own.loop = a->loop;
      own.with_loop = a->with_loop;
      own.fix = a->fix;
      own.holds = a->holds;
      own.replay = a->replay;
      own.evidence = clause(a->evidence + diagnosis_len);
      a->evidence[diagnosis_len] = '\0';
      t = mp_asprintf("%s%s", a->evidence, alt->evidence);
      mp_free(a->evidence);
      mp_free(alt->evidence);
      a->evidence = t;
      a->loop = alt->loop;
      a->with_loop = alt->with_loop;
      a->fix = alt->fix;
      a->holds = alt->holds;
      a->replay = alt->replay;
      a->alt[a->n_alt++] = own;
      return 1;
   }
   t = clause(alt->evidence);
   mp_free(alt->evidence);
   alt->evidence = t;
   a->alt[a->n_alt++] = *alt;
   return 0;
}

char *mp_adv_padding_holds(const mp_advisor *ad, const mp_var *v, const mp_order_replay *o,
                           uint32_t inner, uint32_t k)
{
   uint64_t trips = o->n_loops ? o->full[o->n_loops - 1] : 0, lines;
   uint32_t id, walks = 0;
   char b1[32], b2[32];
   for (id = 0; id < ad->an->n_instrs && inner != MP_LOOP_NONE; id++) {
      int known;
      int64_t st;
      if (ad->an->instrs[id].var != v->id || mp_facts_instr_loop(ad->an, id) != inner)
         continue;
      st = mp_facts_instr_step(ad->an, id, inner, &known);
      walks += known && mp_adv_magnitude(st) >= ad->run->line_size;
   }
   if (walks == 0 || trips == 0 || ad->an->cache == NULL)
      return NULL;
   lines = ad->an->cache->level[k].size / ad->an->cache->level[k].line;
   return mp_asprintf("while the %s lines its walks touch in one execution of the loop "
                      "(%u walk%s of %llu iterations) fit in %s's %s lines",
                      mp_commas(walks * trips, b1, sizeof b1), walks, walks == 1 ? "" : "s",
                      (unsigned long long)trips, mp_report_level_name(k),
                      mp_commas(lines, b2, sizeof b2));
}

void mp_adv_padding_alternative(mp_advisor *ad, mp_advice *a, size_t diagnosis_len,
                                const mp_var *v, uint32_t instr, uint32_t k, int partner)
{
   mp_order_replay o;
   mp_advice_alt alt;
   mp_memset(&alt, 0, sizeof alt);
   mp_replay_padding(ad->run, ad->an, v->id, &instr, 1, k, partner, &o);
   if (!o.r.made) {
      mp_order_replay_clear(&o);
      return;
   }
   alt.loop = alt.with_loop = MP_LOOP_NONE;
   alt.fix = mp_asprintf("pad %s%s%s%s: add a cache line to its leading dimension, so that "
                         "its walk spreads over %s's sets", v->name, v->where ? " (" : "",
                         v->where ? v->where : "", v->where ? ")" : "",
                         mp_report_level_name(k));
   alt.holds = mp_adv_padding_holds(ad, v, &o, mp_facts_instr_loop(ad->an, instr), k);
   alt.evidence = mp_order_replay_text(&o);
   alt.replay = o.r;
   mp_order_replay_clear(&o);
   mp_adv_add_alternative(ad, a, diagnosis_len, &alt);
}
