/*--------------------------------------------------------------------*/
/*--- memprof: advice on splitting a structure by its fields' use. ---*/
/*---                                               mp_rule_split.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: structure splitting (MP_ADVICE_STRUCTURE_SPLITTING,
   StructSlim): the fields of the variable's elements fall into groups
   used by different loops; each loop drags the other groups' bytes
   through the cache.
   Evidence: the groups of fields used together (latency-weighted
   affinity, mp_structs), the share of the variable's cycles they
   cover, and the split's replay: a split nobody measured is not
   advised.
   Fix: split the structure into one array per group.
   Thresholds: a variable of MP_ADVICE_MIN_SHARE of the run; two groups
   or more, and half the variable's cycles in fields the inference
   placed; elements that are records (is_record); a replay made, which
   must save --what-if-min-gain, or the split is rejected.
*/
#include "mp_advisor.h"
#include "mp_util.h"

/* Whether layout l is a record the program defines: at least 8 bytes
   with a field wider than a byte, and, for a heap site, blocks whose
   bytes are whole records.  A byte buffer of variable-length records
   (a sorter's, a parser's) shows "fields" at +0, +1, +2... that are
   only the bytes its loops happen to read at those offsets: no layout
   of the program to split. */
static int is_record(const mp_var *v, const mp_struct_layout *l)
{
   uint32_t i, wide = 0;
   if (l->size < 8)
      return 0;
   for (i = 0; i < l->n_fields; i++)
      wide += l->fields[i].size > 1;
   if (wide == 0)
      return 0;
   return v->kind != MP_VAR_HEAP || v->alloc_bytes % l->size == 0;
}

/* An item on v if the loops split its elements' fields, or none. */
void mp_rule_split(mp_advisor *ad, const mp_var *v, double score)
{
   const mp_structure *st = ad->res->var[v->id].structure;
   const mp_replay *split = &ad->res->var[v->id].split;
   char *replay, *refuted;
   mp_advice *a;
   if (st == NULL || st->layout.n_groups < 2 || st->layout.covered < 0.5
       || !is_record(v, &st->layout) || !split->made || ad->an->cache == NULL)
      return;
   replay = mp_adv_replay_text(ad, "split", split);
   refuted = mp_adv_replay_refutes(ad, "of the split", split);
   a = mp_adv_new(ad, MP_ADVICE_STRUCTURE_SPLITTING, v, score);
   a->text = mp_asprintf(
               "structure splitting: the loops use different fields of %s's elements",
               v->name);
   a->evidence = mp_asprintf(
               "fields used together (latency-weighted affinity): %s; they cover %.0f%% "
               "of its memory cycles%s", st->split, 100.0 * st->layout.covered, replay);
   a->fix = mp_asprintf(
               "split the structure%s%s%s into one array per group, %s, so that each "
               "loop brings only the fields it uses into the cache",
               v->where ? " (" : "", v->where ? v->where : "", v->where ? ")" : "",
               st->split);
   mp_free(replay);
   mp_adv_fill_where(ad->vs, a, mp_adv_by_l1_misses);
   if (refuted)
      mp_adv_reject_last(ad, refuted);
}
