/*--------------------------------------------------------------------*/
/*--- memprof: advice on conflict misses: padding.                 ---*/
/*---                                           mp_rule_conflicts.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: conflict misses (MP_ADVICE_CONFLICT_SETS; the 3C model:
   a fully associative cache of the same size would have hit): the
   variable maps to the same sets as another variable, or as itself (a
   power-of-two stride), and they evict each other.
   Evidence: the level's conflict misses and their share of its misses
   (of those the prefetcher left, with one), one of the hottest sets
   and what it holds (mp_setdiag), and the padding's replay
   (mp_pad_replays).
   Fix: pad it: a cache line added to its leading dimension or between
   the colliding arrays; no power-of-two sizes and strides.  Or pad the
   partner, the other variable in its hottest set, when that replays
   better: the array whose leading dimension maps a walk onto few sets
   evicts the lines of those that share them.  When the
   walk behind the misses strides a line or more and a loop around it
   walks the variable contiguously (a column walk), interchanging the
   two cures the same accesses: both are replayed, the fix that saves
   more of its nest's cycles is the item's and the other its
   alternative, each saying how it holds as the problem grows (the
   interchange at any size; the padding while the lines its walks touch
   fit the level).
   Thresholds: a variable of MP_ADVICE_MIN_SHARE of the run;
   MP_ADV_MIN_EVENTS conflict misses at a level, and a quarter of its
   misses there, which is where padding pays; misses there worth a fix
   of their own (mp_adv_misses_matter).  The first level that qualifies
   is the one to fix; the misses of walks a stride advice fixes are
   that advice's.  A padding whose replay (--what-if=pad-conflicts)
   does not pay is rejected.
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_pad_replays.h"
#include "mp_util.h"

/* The variable sharing the hottest conflict set of level k with v
   (v itself when it conflicts with itself), or NULL; *set_out is that
   set. */
static const mp_var *conflict_partner(const mp_advisor *ad, const mp_var *v, uint32_t k,
                                      uint32_t *set_out)
{
   mp_setdiag_set top[8];
   uint32_t n, i, s;
   if (ad->an->cache == NULL || ad->an->cache->conflicts == NULL)
      return NULL;
   n = mp_setdiag_top(ad->an->cache->conflicts, k, top, 8);
   for (i = 0; i < n; i++) {
      uint64_t mine = 0, best = 0;
      uint32_t best_var = v->id;
      for (s = 0; s < MP_SETDIAG_SLOTS && top[i].slot[s].count; s++) {
         if (top[i].slot[s].var == v->id)
            mine = top[i].slot[s].count;
         else if (top[i].slot[s].count > best) {
            best = top[i].slot[s].count;
            best_var = top[i].slot[s].var;
         }
      }
      if (mine == 0)
         continue;
      *set_out = top[i].set;
      /* A partner with a tenth of v's conflicts there is a bystander:
         v conflicts with itself (a power-of-two stride). */
      if (best_var == v->id || 10 * best < mine)
         return v;
      return mp_vars_get(ad->vs, best_var);
   }
   return NULL;
}

/* The replay (mp_pad_replays) of variable 'pad' padded, for
   conflict-sets advice a at level k, on the nest of the dominant walk
   of a's lines with the most misses, into *o. */
static void replay_padding(mp_advisor *ad, const mp_advice *a, uint32_t pad, uint32_t k,
                           int partner, mp_order_replay *o)
{
   uint32_t instrs[MP_ADVICE_WHERE], n = 0, i;
   for (i = 0; i < a->n_where; i++) {
      const mp_line_counts *lc = mp_adv_var_line(ad, a->var, a->where[i]);
      int64_t s;
      uint64_t sure;
      if (lc && mp_line_stride_dominant(&lc->lstride, &s, &sure, &instrs[n]))
         n++;
   }
   mp_replay_padding(ad->run, ad->an, pad, instrs, n, k, partner, o);
}

/* The interchange that makes the walk of a's busiest line contiguous,
   if its stride is a line or more and a loop around it steps through
   the variable by less (mp_adv_contiguous_outer), replayed, as an
   alternative fix of a (mp_adv_add_alternative). */
static void interchange_alternative(mp_advisor *ad, mp_advice *a, size_t diagnosis_len,
                                    const mp_var *v)
{
   const mp_line_counts *lc = a->n_where ? mp_adv_var_line(ad, a->var, a->where[0]) : NULL;
   uint32_t instr, inner, with;
   int64_t s, step = 0;
   uint64_t sure;
   int formula = 0;
   char *wi, *ww;
   mp_order_replay o;
   mp_advice_alt alt;
   if (lc == NULL || ad->an->loops == NULL
       || !mp_line_stride_dominant(&lc->lstride, &s, &sure, &instr)
       || mp_adv_magnitude(s) < ad->run->line_size
       || (inner = mp_facts_instr_loop(ad->an, instr)) == MP_LOOP_NONE
       || (with = mp_adv_contiguous_outer(ad, instr, inner, &step, &formula)) == MP_LOOP_NONE)
      return;
   mp_replay_interchange(ad->run, ad->an, instr, inner, with, &o);
   if (!o.r.made) {
      mp_order_replay_clear(&o);
      return;
   }
   wi = mp_facts_loop_where(ad->an, inner);
   ww = mp_facts_loop_where(ad->an, with);
   mp_memset(&alt, 0, sizeof alt);
   alt.loop = inner;
   alt.with_loop = with;
   alt.fix = mp_asprintf("interchange the loop at %s with the loop at %s around it, so "
                         "that the innermost loop steps %lld B through %s instead of %lld",
                         wi, ww, (long long)step, v->name, (long long)s);
   alt.holds = mp_strdup("mp.advice.holds", "at any problem size: the walk becomes "
                         "contiguous");
   alt.evidence = mp_order_replay_text(&o);
   alt.replay = o.r;
   mp_order_replay_clear(&o);
   mp_free(wi);
   mp_free(ww);
   mp_adv_add_alternative(ad, a, diagnosis_len, &alt);
}

/* The partner's padding, when it does more than v's own: the array
   that maps the walk onto few sets (a power-of-two leading dimension
   walked across its rows) may be the partner, whose lines evict v's;
   padding v then moves nothing.  *o becomes the partner's replay and
   a's fix names it; returns the variable padded. */
static const mp_var *partner_padding(mp_advisor *ad, mp_advice *a, const mp_var *v,
                                     const mp_var *partner, uint32_t k, mp_order_replay *o)
{
   mp_order_replay theirs;
   if (partner == NULL || partner->id == v->id)
      return v;
   replay_padding(ad, a, partner->id, k, 1, &theirs);
   if (!theirs.r.made || (o->r.made && theirs.r.after.cycles >= o->r.after.cycles)) {
      mp_order_replay_clear(&theirs);
      return v;
   }
   mp_order_replay_clear(o);
   *o = theirs;
   mp_free(a->fix);
   a->fix = mp_asprintf("pad %s%s%s%s, whose lines %s's walk maps to the same sets: add "
                        "a cache line to its leading dimension or between the colliding "
                        "arrays, and avoid power-of-two sizes and strides (4 KiB aliasing)",
                        partner->name, partner->where ? " (" : "",
                        partner->where ? partner->where : "", partner->where ? ")" : "",
                        v->name);
   return partner;
}

/* The fixes of item a: padding (its own, or its partner's when that
   does more) and the interchange of its walk if there is one, both
   replayed, the one saving more first.  The reason to reject a if that
   one's replay refutes it, else NULL. */
static char *choose_fix(mp_advisor *ad, mp_advice *a, const mp_var *v, uint32_t k,
                        const mp_var *partner)
{
   size_t diagnosis_len = mp_strlen(a->evidence);
   mp_order_replay pad;
   const mp_var *padded;
   char *refuted;
   replay_padding(ad, a, v->id, k, partner != NULL && partner->id != v->id, &pad);
   padded = partner_padding(ad, a, v, partner, k, &pad);
   if (pad.r.made && a->n_where) {
      const mp_line_counts *lc = mp_adv_var_line(ad, a->var, a->where[0]);
      int64_t s;
      uint64_t sure;
      uint32_t instr;
      if (lc && mp_line_stride_dominant(&lc->lstride, &s, &sure, &instr))
         a->holds = mp_adv_padding_holds(ad, padded, &pad,
                                         mp_facts_instr_loop(ad->an, instr), k);
   }
   refuted = mp_adv_take_order_replay(ad, a, &pad, "of the padding");
   if (refuted)
      mp_free(refuted);
   interchange_alternative(ad, a, diagnosis_len, v);
   if (a->n_alt == 0 && a->holds) {
      /* with nothing to compare, the padding's holds is not said */
      mp_free(a->holds);
      a->holds = NULL;
   }
   return mp_adv_replay_refutes(ad, a->loop != MP_LOOP_NONE ? "of the interchange"
                                                           : "of the padding", &a->replay);
}

/* An item on the first level where v's conflict misses call for a
   padding, or none. */
void mp_rule_conflicts(mp_advisor *ad, const mp_var *v, double score)
{
   const mp_cache_counts *cc = v->cache;
   const mp_report_cache *rc = ad->an->cache;
   uint32_t k;
   if (cc == NULL || rc == NULL)
      return;
   for (k = 0; k < rc->n_levels; k++) {
      uint64_t c = mp_cache_counts_uncovered_cause(cc, k, MP_MISS_CONFLICT);
      uint64_t all = mp_cache_counts_unprefetched(cc, k);
      uint32_t set = 0;
      const mp_var *pv;
      const char *partner;
      char b1[32], b2[32], *of, *refuted;
      mp_advice *a;
      if (c < MP_ADV_MIN_EVENTS || 4 * c < all || !mp_adv_misses_matter(ad, v, k))
         continue;
      /* One diagnosis per access: the misses of walks whose loop order
         or layout is being fixed are that advice's (a column walk of a
         power-of-two matrix conflicts with itself too). */
      if (2 * mp_adv_misses_in_fixed_walks(ad, v, k) >= cc->misses[k])
         return;
      /* "of its 1,000 misses (50%) are conflict misses", or of the misses
         without the prefetcher, those it left */
      of = mp_asprintf(mp_adv_some_covered(cc, k) ? "of the %s misses it would have without "
                       "the prefetcher (%.0f%%) are conflict misses the prefetcher did "
                       "not cover" : "of its %s misses (%.0f%%) are conflict misses",
                       mp_commas(all, b2, sizeof b2), 100.0 * (double)c / (double)all);
      pv = conflict_partner(ad, v, k, &set);
      partner = pv ? pv->name : NULL;
      a = mp_adv_new(ad, MP_ADVICE_CONFLICT_SETS, v, score);
      a->text = mp_asprintf(
                  "conflict misses: %s maps to the same %s sets%s%s, which evict each other",
                  v->name, mp_report_level_name(k),
                  partner && mp_strcmp(partner, v->name) ? " as " : "",
                  partner && mp_strcmp(partner, v->name) ? partner : "");
      if (partner)
         a->evidence = mp_asprintf(
                     "%s: %s %s; one of the hottest sets, %u, holds %s%s%s",
                     mp_report_level_name(k), mp_commas(c, b1, sizeof b1), of, set,
                     v->name, mp_strcmp(partner, v->name) ? " and " : " alone",
                     mp_strcmp(partner, v->name) ? partner : "");
      else
         a->evidence = mp_asprintf("%s: %s %s", mp_report_level_name(k),
                                   mp_commas(c, b1, sizeof b1), of);
      mp_free(of);
      a->fix = mp_asprintf(
                  "pad it%s%s%s: add a cache line to its leading dimension or between the "
                  "colliding arrays, and avoid power-of-two sizes and strides (4 KiB "
                  "aliasing)", v->where ? " (" : "", v->where ? v->where : "",
                  v->where ? ")" : "");
      mp_adv_fill_where(ad->vs, a, mp_adv_by_l1_misses_read);
      refuted = choose_fix(ad, a, v, k, pv);
      if (refuted)
         mp_adv_reject_last(ad, refuted);
      return;   /* the first level is the one to fix */
   }
}
