/*--------------------------------------------------------------------*/
/*--- memprof: advice on false sharing, seen or at a placement.    ---*/
/*---                                       mp_rule_false_sharing.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: false sharing (MP_ADVICE_FALSE_SHARING): threads write
   different bytes of one cache line, which a parallel run moves
   between their cores for bytes the receiver does not use; or, where
   the variable's blocks lie no line is shared so, at another offset of
   a line that the allocator could give them (Predator's potential
   false sharing).
   Evidence: the false transfers predicted for a parallel run
   (mp_sharing_predict), or at the worst placement, each at the cycles
   of a transfer between cores; the padding's replay.
   Fix: pad the per-thread elements to the line size, or hand out
   contiguous blocks; align the blocks to the line.
   Thresholds: the transfers' cost must reach MP_ADVICE_MIN_SHARE of
   the run's memory cycles, the bar of every rule, but weighed on its
   own: under Valgrind, which runs one thread at a time, the variable's
   cycles miss the transfers a parallel run pays, so the variable's
   share of the run does not decide.  A padding whose replay saves less
   than --what-if-min-gain is rejected.
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_share.h"
#include "mp_summary.h"
#include "mp_util.h"

/* The placements of v's blocks that would share falsely, "+0, +16";
   an empty string when none would (or none was evaluated). */
static char *placement_list(const mp_share_var *sv)
{
   mp_strbuf b = MP_STRBUF_INIT;
   uint32_t i;
   for (i = 0; sv && i < sv->place_n; i++)
      if (sv->false_at >> i & 1)
         mp_strbuf_printf(&b, "%s+%u", b.len ? ", " : "", i * sv->place_step);
   return mp_strbuf_take(&b);
}

/* Predator's potential false sharing: no false transfers where v's
   blocks lie, but the allocator could have started a block at another
   offset of a line, where concurrent threads would write disjoint
   bytes of one line (mp_share_var.false_at): a build whose placement
   is lucky is warned too.  How often the lines would move there is
   bounded as the prediction bounds it (mp_sharing_false_at), from the
   counts of the lines the moved ones are made of, at the worst
   placement, and no more than the variable's accesses; the cost (at
   the cycles of a transfer) is weighed as mp_rule_false_sharing weighs
   the predicted transfers.  A large array split among threads in
   line-aligned chunks would share only the lines at the chunks' ends:
   a handful of transfers, no advice. */
static void rule_placement(mp_advisor *ad, const mp_var *v, uint32_t per_transfer)
{
   const mp_share_var *sv = mp_share_var_of(ad->share, v->id);
   uint32_t k = mp_share_false_placements(sv);
   uint64_t moves = mp_share_placement_worst(sv), cost;
   double score;
   char *at;
   char b1[32], b2[32];
   mp_advice *a;
   if (moves > mp_counts_accesses(&v->c))
      moves = mp_counts_accesses(&v->c);
   cost = moves * (per_transfer ? per_transfer : 1);
   if (k == 0 || cost == 0)
      return;
   score = (double)cost / (double)(ad->total + cost);
   if (score < MP_ADVICE_MIN_SHARE)
      return;
   a = mp_adv_new(ad, MP_ADVICE_FALSE_SHARING, v, score);
   a->text = mp_asprintf("false sharing at %u of %u placements of %s in a cache line, "
                         "none at its own", k, sv->place_n, v->name);
   at = placement_list(sv);
   a->evidence = mp_asprintf(
                  "its block%s start%s %u bytes into a line, where no two threads share "
                  "one; started at %s (another allocator, another build), concurrent "
                  "threads would write different bytes of one line, which a parallel "
                  "run would move up to %s times between cores at the worst of them "
                  "(predicted from each thread's accesses of the lines): %s %s, "
                  "%.0f%% of the run's",
                  sv->place_blocks == 1 ? "" : "s", sv->place_blocks == 1 ? "s" : "",
                  sv->place_current, at, mp_commas(moves, b2, sizeof b2),
                  mp_commas(cost, b1, sizeof b1),
                  ad->by_cycles ? "cycles" : "accesses' worth", 100.0 * score);
   mp_free(at);
   a->fix = mp_asprintf(
               "align %s%s%s%s to the line (aligned_alloc(%u, ...)) and pad its "
               "per-thread elements to the line size (alignas(%u)), so that no "
               "placement mixes two threads' data on a line", v->name,
               v->where ? " (" : "", v->where ? v->where : "", v->where ? ")" : "",
               ad->run->line_size, ad->run->line_size);
   mp_adv_fill_where(ad->vs, a, mp_adv_by_accesses);
}

/* False sharing (MACPO 5.4): a line of the variable written by one
   thread while another touched other bytes of it.  The byte sets make
   the classification exact whatever the interleaving, but a falsely
   shared line costs only as often as it moves: the rule weighs the
   false transfers predicted for a parallel run (mp_sharing_predict),
   each at the cycles of a transfer between cores, against the run's
   memory cycles (its accesses without a cache simulation, a transfer
   counting as one access), and speaks from MP_ADVICE_MIN_SHARE of them
   on, the bar of every rule.  A few bytes written once next to another
   thread's hot counter (a stdio buffer) move a couple of times: no
   advice, however hot the counter. */
void mp_rule_false_sharing(mp_advisor *ad, const mp_var *v, double var_score)
{
   uint64_t shared, tr, fa, pred, pred_false, inv, cost;
   uint32_t per_transfer = ad->by_cycles ? mp_facts_transfer_cycles(ad->an) : 1;
   double score;
   char *refuted;
   char b1[32], b2[32], b3[32], b4[32];
   mp_advice *a;
   (void)var_score;   /* the transfers' cost decides, not the variable's */
   if (ad->share == NULL)
      return;
   mp_share_var_lines(ad->share, v->id, &shared, &tr, &fa);
   mp_share_var_predicted(ad->share, v->id, &pred, &pred_false, &inv);
   /* A line holding several variables counts for each; none of them
      suffers more transfers than it makes accesses. */
   if (pred_false > mp_counts_accesses(&v->c))
      pred_false = mp_counts_accesses(&v->c);
   /* The lines may classify as true (the main thread reading every
      worker's slot at the end) while most predicted transfers are false
      (the workers' own slots): the prediction decides. */
   if (pred_false == 0) {
      rule_placement(ad, v, per_transfer);
      return;
   }
   cost = pred_false * (per_transfer ? per_transfer : 1);
   score = (double)cost / (double)(ad->total + cost);
   if (score < MP_ADVICE_MIN_SHARE)
      return;
   a = mp_adv_new(ad, MP_ADVICE_FALSE_SHARING, v, score);
   a->text = mp_asprintf(
               "false sharing: threads write different bytes of the same cache lines of %s",
               v->name);
   {
      const mp_replay *pad = &ad->res->var[v->id].pad;
      char *replay = mp_adv_replay_text(ad, "padded", pad);
      refuted = mp_adv_replay_refutes(ad, "of the padding", pad);
      a->evidence = mp_asprintf(
                  "%s of its %llu shared line%s falsely shared; a parallel run would move "
                  "them about %s times between cores for bytes the receiver does not use (predicted from each thread's "
                  "accesses; %s seen under Valgrind, which runs one thread at a time), "
                  "%s %s, %.0f%% of the run's%s",
                  mp_commas(fa, b1, sizeof b1), (unsigned long long)shared,
                  shared == 1 ? "" : "s", mp_commas(pred_false, b2, sizeof b2),
                  mp_commas(v->transfers - v->true_transfers, b3, sizeof b3),
                  mp_commas(cost, b4, sizeof b4),
                  ad->by_cycles ? "cycles" : "accesses' worth", 100.0 * score, replay);
      mp_free(replay);
      if (mp_share_false_placements(mp_share_var_of(ad->share, v->id))) {
         const mp_share_var *sv = mp_share_var_of(ad->share, v->id);
         char *at = placement_list(sv);
         char *more = mp_asprintf("%s; at %u of %u placements of its block%s in a "
                                  "line (%s)", a->evidence,
                                  mp_share_false_placements(sv), sv->place_n,
                                  sv->place_blocks == 1 ? "" : "s", at);
         mp_free(at);
         mp_free(a->evidence);
         a->evidence = more;
      }
      if (!ad->run->fair_sched
          && mp_summary_schedule_hid(pred_false, v->transfers - v->true_transfers)) {
         char *more = mp_asprintf("%s; Valgrind's schedule kept the threads apart: "
                                  "--fair-sched=yes interleaves them more often",
                                  a->evidence);
         mp_free(a->evidence);
         a->evidence = more;
      }
   }
   a->fix = mp_asprintf(
               "give each thread's data in %s%s%s%s cache lines of its own: pad "
               "per-thread elements to the line size (alignas(%u)), or hand out "
               "contiguous blocks instead of interleaved elements", v->name,
               v->where ? " (" : "", v->where ? v->where : "", v->where ? ")" : "",
               ad->run->line_size);
   /* The source lines by accesses: their observed transfers depend on
      Valgrind's interleaving, and so would the choice. */
   mp_adv_fill_where(ad->vs, a, mp_adv_by_accesses);
   if (refuted)
      mp_adv_reject_last(ad, refuted);
}
