/*--------------------------------------------------------------------*/
/*--- memprof: advice on long strides: loop order or layout.       ---*/
/*---                                             mp_rule_strides.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: long strides, line by line (MACPO 5.1, PAMDA): the
   instructions of a source line walk the variable a cache line or more
   at a time (their own stride, mp_istride: not the variable's, which
   mixes its loops), and each access misses the L1: a line brought in
   for one element and left.  It owns two kinds, as the fix depends on
   the loops around the walk:
   - a loop around it steps through the variable by less than a line
     (its access formula says so): interchange the two (the column walk
     of a row-major matrix, the row walk of a Fortran one):
     loop-interchange (MP_ADVICE_LOOP_INTERCHANGE), unless the nest's
     replay in the interchanged order does not pay (rejected);
   - without formulas, the loop around it is named, as the one to try;
   - no loop around it walks the variable contiguously (or there is no
     loop around it): only a change of layout makes the walk
     contiguous: long-stride (MP_ADVICE_LONG_STRIDE).
   Evidence: the line's dominant stride and its share of the line's
   strides, its L1 misses, the loop the access formula steps along,
   and the interchange's replay.  When the variable's L1 misses are
   conflict misses too (the conflict rule's thresholds), padding its
   rows may cure the same walk: it is replayed as well, the fix saving
   more of the nest's cycles is the item's and the other its
   alternative (mp_adv_add_alternative), each saying how it holds as
   the problem grows.
   Thresholds: a stride of the variable's structure size (a split
   suggested) is left to structure-splitting, and a walk whose misses
   the prefetcher mostly covers is not blamed.  The dominant stride
   must be at least half of the line's strides (those it surely made),
   MP_ADV_MIN_EVENTS of them, and at least half of the line's accesses
   L1 misses (MP_ADV_MIN_EVENTS or more); the line must hold
   MP_ADVICE_MIN_SHARE of the run's cycles (its score).
   The walks its advice fixes are noted (mp_adv_note_fixed): the rules
   on misses, which run after it, leave their misses to it.
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_order_replays.h"
#include "mp_util.h"

/* The interchange's replay (mp_order_replays) appended to a's evidence
   and kept in a->replay; the reason to reject a if the replay refutes
   it, else NULL. */
static char *replay_interchange(mp_advisor *ad, mp_advice *a, uint32_t instr)
{
   mp_order_replay o;
   mp_replay_interchange(ad->run, ad->an, instr, a->loop, a->with_loop, &o);
   return mp_adv_take_order_replay(ad, a, &o, "of the interchange");
}

/* Whether v's L1 misses are conflict misses enough for padding to be
   a fix beside the interchange (the conflict rule's thresholds). */
static int conflicted(const mp_advisor *ad, const mp_var *v)
{
   const mp_cache_counts *cc = v->cache;
   uint64_t c, all;
   if (cc == NULL || ad->an->cache == NULL)
      return 0;
   c = mp_cache_counts_uncovered_cause(cc, 0, MP_MISS_CONFLICT);
   all = mp_cache_counts_unprefetched(cc, 0);
   return c >= MP_ADV_MIN_EVENTS && 4 * c >= all;
}

/* An item per source line of v whose walk strides a cache line or
   more (the header says when, and of which kind). */
void mp_rule_strides(mp_advisor *ad, const mp_var *v, double var_score)
{
   const mp_finished *an = ad->an;
   const mp_cache_counts *cc = v->cache;
   uint32_t i;
   uint64_t element;
   (void)var_score;   /* each line's share of the run decides */
   if (an->stride == NULL)
      return;
   /* A walk from one structure to the next, using some of its fields,
      is the structure split's (its replay decides). */
   element = mp_facts_struct_size(an, v->id);
   /* A stride the prefetcher follows: it covers most of the misses. */
   if (cc && an->cache
       && 2 * mp_cache_counts_uncovered(cc, 0) < mp_cache_counts_unprefetched(cc, 0))
      return;
   for (i = ad->first[v->id]; i < ad->first[v->id + 1]; i++) {
      const mp_line_counts *lc = ad->lines[i];
      const char *line = mp_vars_location_where(ad->vs, lc->loc);
      uint64_t sure, acc = mp_counts_accesses(&lc->c), cost;
      uint32_t instr, inner, with = MP_LOOP_NONE;
      int64_t s, step = 0;
      int formula = 0;
      double score;
      char b1[32], b2[32], b3[32], *misses, *inner_w, *with_w, *form, *refuted = NULL;
      mp_advice *a;
      if (line == NULL || !mp_line_stride_dominant(&lc->lstride, &s, &sure, &instr)
          || mp_adv_magnitude(s) < ad->run->line_size || mp_adv_magnitude(s) == element || sure < MP_ADV_MIN_EVENTS
          || 2 * sure < lc->lstride.total)
         continue;
      if (an->cache && (lc->cache.misses[0] < MP_ADV_MIN_EVENTS || 2 * lc->cache.misses[0] < acc))
         continue;
      cost = an->cache ? lc->cache.cycles : acc;
      score = (double)cost / (double)ad->total;
      if (score < MP_ADVICE_MIN_SHARE)
         continue;
      inner = mp_facts_instr_loop(an, instr);
      if (inner != MP_LOOP_NONE) {
         with = mp_adv_contiguous_outer(ad, instr, inner, &step, &formula);
         if (with == MP_LOOP_NONE && !formula)
            with = mp_loops_get(an->loops, inner)->parent;
      }
      misses = an->cache && cc
         ? mp_asprintf("; %s L1 misses in its %s accesses, %.0f%% of %s's",
                       mp_commas(lc->cache.misses[0], b1, sizeof b1),
                       mp_commas(acc, b2, sizeof b2),
                       cc->misses[0] ? 100.0 * (double)lc->cache.misses[0]
                                       / (double)cc->misses[0] : 0.0, v->name)
         : mp_strdup("mp.advice.m", "");
      inner_w = inner != MP_LOOP_NONE ? mp_facts_loop_where(an, inner) : NULL;
      with_w = with != MP_LOOP_NONE ? mp_facts_loop_where(an, with) : NULL;
      form = formula && with != MP_LOOP_NONE
         ? mp_asprintf("; its access formula steps %lld B along the loop at %s",
                       (long long)step, with_w)
         : mp_strdup("mp.advice.f", "");
      a = mp_adv_new(ad, with != MP_LOOP_NONE ? MP_ADVICE_LOOP_INTERCHANGE
                                             : MP_ADVICE_LONG_STRIDE, v, score);
      a->loop = inner;
      a->with_loop = with;
      a->where[0] = lc->loc;
      a->n_where = 1;
      if (with != MP_LOOP_NONE)
         a->text = mp_asprintf(
                     "loop order: at %s the innermost loop (%s) walks %s %lld bytes at a "
                     "time, a cache line for each element", line, inner_w, v->name,
                     (long long)s);
      else
         a->text = mp_asprintf(
                     "long stride: %s is walked %lld bytes at a time at %s, a cache line "
                     "is used for one element and left", v->name, (long long)s, line);
      a->evidence = mp_asprintf(
                  "%s: stride %lld B (%.1f lines) in %.0f%% of its %s strides%s%s%s%s",
                  line, (long long)s, (double)s / ad->run->line_size,
                  100.0 * (double)sure / (double)lc->lstride.total,
                  mp_commas(lc->lstride.total, b3, sizeof b3),
                  inner_w ? ", in the loop at " : "", inner_w ? inner_w : "", misses, form);
      /* The fix before the replays: a padding that does more takes
         its place, and it becomes the padding's alternative. */
      if (with != MP_LOOP_NONE && formula)
         a->fix = mp_asprintf(
                     "interchange the loop at %s with the loop at %s around it, so that "
                     "the innermost loop steps %lld B through %s; or transpose %s so that "
                     "the walk at %s is contiguous", inner_w, with_w, (long long)step,
                     v->name, v->name, line);
      else if (with != MP_LOOP_NONE)
         a->fix = mp_asprintf(
                     "interchange the loop at %s with the loop at %s around it, if that "
                     "one moves through adjacent elements of %s; or transpose %s so that "
                     "the walk at %s is contiguous", inner_w, with_w, v->name, v->name,
                     line);
      else if (inner != MP_LOOP_NONE)
         a->fix = mp_asprintf(
                     "no loop around the one at %s walks %s contiguously: change its "
                     "layout so that the walk at %s is (transpose it; a structure of "
                     "arrays)", inner_w, v->name, line);
      else
         a->fix = mp_asprintf(
                     "make the innermost loop at %s walk %s contiguously: interchange the "
                     "loops, or change its layout (transpose it; a structure of arrays)",
                     line, v->name);
      if (with != MP_LOOP_NONE) {
         size_t diagnosis_len = mp_strlen(a->evidence);
         refuted = replay_interchange(ad, a, instr);
         if (a->replay.made && conflicted(ad, v)) {
            a->holds = mp_strdup("mp.advice.holds", "at any problem size: the walk becomes "
                                 "contiguous");
            if (refuted)
               mp_free(refuted);
            mp_adv_padding_alternative(ad, a, diagnosis_len, v, instr, 0, 0);
            if (a->n_alt == 0) {
               mp_free(a->holds);
               a->holds = NULL;
            }
            refuted = mp_adv_replay_refutes(ad, a->loop == inner && a->with_loop == with
                                                ? "of the interchange" : "of the padding",
                                            &a->replay);
         }
      }
      /* A refuted interchange fixes nothing: blocking may speak. */
      if (refuted)
         mp_adv_reject_last(ad, refuted);
      else
         mp_adv_note_fixed(ad, inner, lc->loc);
      mp_free(misses);
      mp_free(form);
      if (inner_w) mp_free(inner_w);
      if (with_w) mp_free(with_w);
   }
}
