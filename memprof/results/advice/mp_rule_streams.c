/*--------------------------------------------------------------------*/
/*--- memprof: advice on loops that walk too many streams at once. ---*/
/*---                                             mp_rule_streams.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: too many streams (MP_ADVICE_TOO_MANY_STREAMS, MACPO 5.2):
   more concurrent strided streams in one loop than the hardware
   prefetcher tracks (--prefetch-streams, 16 by default).  The item is
   about a loop, not a variable (var is MP_ADVICE_NO_VAR); the rule
   runs once per run, over the loops (mp_streams).
   Evidence: the most concurrent streams in one execution of the loop,
   their mean, and in how many of its executions they were above the
   threshold.
   Fix: split the loop (loop fission), or merge arrays walked together
   into one array of structures.  The split is replayed with a stream
   prefetcher (mp_fission_replays.h): one that does not pay is rejected;
   one that could not be made (a body of gathers, a dependence) leaves
   the item a guess, said in its evidence.
   Thresholds: the loop's accesses must be MP_ADVICE_MIN_SHARE of the
   run's; the streams must be too many in half of its executions, the
   loop must iterate (twice per entry), and it must be the program's:
   the reasons are with each test below.
*/
#include "mp_advisor.h"
#include "mp_fission_replays.h"
#include "mp_owner.h"
#include "mp_util.h"

/* Item a on loop 'loop', replayed split into loops of at most
   'streams' references; rejected when that does not pay. */
static void replay_fission(mp_advisor *ad, mp_advice *a, uint32_t loop, uint32_t streams)
{
   mp_fission_outcome fo;
   char *refuted = NULL;
   mp_replay_fission(ad->run, ad->an, loop, streams, &fo);
   mp_adv_take_replay(a, mp_fission_replay_text(&fo), &fo.r);
   if (fo.illegal)
      refuted = mp_strdup("mp.advice.streams", fo.why_not + mp_strlen("no replay: "));
   else if (fo.r.made)
      refuted = mp_adv_replay_refutes(ad, "of the split", &a->replay);
   mp_fission_outcome_clear(&fo);
   if (refuted)
      mp_adv_reject_last(ad, refuted);
}

/* An item per loop of the program that walks too many streams at
   once. */
void mp_rule_streams(mp_advisor *ad)
{
   const mp_finished *an = ad->an;
   uint64_t total_accesses = ad->accesses;
   uint32_t n, i;
   if (an->loops == NULL || an->streams == NULL || total_accesses == 0)
      return;
   n = mp_loops_count(an->loops);
   for (i = 0; i < n; i++) {
      const mp_loop *l = mp_loops_get(an->loops, i);
      const mp_streams_loop *st = mp_streams_get(an->streams, i);
      const mp_loop_result *own = &ad->res->loop[i];
      double share;
      char *place;
      mp_advice *a;
      if (st == NULL || !mp_streams_flagged(an->streams, i))
         continue;
      /* Fission pays when the loop's executions walk too many streams,
         not when one of thousands did (the interpreter's dispatch loop
         of python3: 22 streams once, 0.0 on average). */
      if (2 * st->over_threshold < st->instances)
         continue;
      /* A loop-driven stream needs the loop to iterate: one that runs
         its body about once per execution (python3's Py_RunMain around
         the whole interpreter, 0.5 iterations, "241 streams") only
         encloses code whose instructions repeat for other reasons. */
      if (l->iterations < 2 * l->entries)
         continue;
      /* A loop of the C runtime or the loader (the one in
         __libc_start_main that runs main) is not the program's to
         split, as its variables are not the program's to change. */
      if (!mp_class_is_programs(own->cls))
         continue;
      share = (double)own->accesses / (double)total_accesses;
      if (share < MP_ADVICE_MIN_SHARE)
         continue;
      a = mp_adv_new(ad, MP_ADVICE_TOO_MANY_STREAMS, NULL, share);
      a->loop = i;
      if (l->file)
         place = mp_asprintf("the loop at %s:%u-%u", l->file, l->first_line, l->last_line);
      else {
         const char *fn = mp_vars_location_fn(ad->vs, l->fn);
         place = mp_asprintf("a loop in %s (%s%sno source at hand)", fn ? fn : "code without a symbol",
                             own->object ? own->object : "", own->object ? ": " : "");
      }
      a->text = mp_asprintf(
                  "too many streams: %s walks more arrays at once than the prefetcher "
                  "follows", place);
      mp_free(place);
      a->evidence = mp_asprintf(
                  "up to %u concurrent strided streams in one execution (mean %.1f), "
                  "above --prefetch-streams=%u in %llu of its %llu executions",
                  st->max_streams,
                  st->instances ? (double)st->streams_sum / (double)st->instances : 0.0,
                  mp_streams_config(an->streams)->threshold,
                  (unsigned long long)st->over_threshold,
                  (unsigned long long)st->instances);
      if (l->file)
         a->fix = mp_asprintf(
                  "split the loop (loop fission) so that each loop walks at most %u "
                  "arrays, or merge arrays walked together into one array of structures",
                  mp_streams_config(an->streams)->threshold);
      else
         a->fix = mp_asprintf(
                  "no source at hand: where the source of %s is, split the loop so "
                  "that each walks at most %u arrays", own->object ? own->object
                  : "this code", mp_streams_config(an->streams)->threshold);
      replay_fission(ad, a, i, mp_streams_config(an->streams)->threshold);
   }
}
