/*--------------------------------------------------------------------*/
/*--- memprof: what the advice rules share.            mp_advisor.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Private to the files of results/advice/, which find it beside them
   (no include path names this folder): the advisor, the state one
   mp_advise shares between the rules, the thresholds more than one
   rule uses, the rules' helpers (mp_advisor.c) and the rules, one file
   each (README.md), which the pathology table runs (mp_pathologies.c).

   What the rules rely on, and keep:
   - a rule only appends items to ad->out (mp_adv_new), and may move
     the one it made last, and only that one, to ad->rej
     (mp_adv_reject_last): the items before it are other rules';
   - ad->lines and ad->first index each variable's per-location records
     that have accesses, in mp_vars_foreach_line's order, and do not
     change while the rules run;
   - ad->total (the run's memory cycles, or its accesses without a
     cache simulation) is above 0 whenever a rule on a variable runs;
   - the walks' rule (mp_rule_strides.c) runs over all the variables
     before any other rule runs on one, and notes the walks its advice
     fixes (mp_adv_note_fixed): the rules on misses (conflicts,
     blocking) leave their misses to it (mp_adv_misses_in_fixed_walks);
   - on each variable the no-source rule runs after every other, and
     may take the items they made on it (from ad->var_from);
   - with a prefetcher (--prefetch), the rules on misses count only
     those it did not cover (mp_cache_counts_uncovered): a miss whose
     line a prefetch had brought into a deeper level costs that
     level's hit, and on hardware the prefetcher hides most of that
     too.  They compare them with the misses the level would have had
     without it (mp_cache_counts_unprefetched: with the prefetched
     hits at the level and above, which never reached the levels
     below), so a loop whose misses the prefetcher mostly covers (a
     stream) is not blamed, at any level (an L3 included, which sees
     only the misses left); the ranking uses the cycles, which count a
     prefetched hit at its level's latency.  Without a prefetcher both
     are the plain misses.
   An item's strings are allocated; mp_advice_free frees them.
   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_ADVISOR_H
#define MP_ADVISOR_H

#include "mp_advice.h"
#include "mp_order_replays.h"

/* A rule needs this many events before it speaks: fewer is noise
   (start-up code, one cold pass). */
#define MP_ADV_MIN_EVENTS 1000
/* A level's misses of one variable worth a fix of its own: a hundredth
   of the program's there.  Under that, blocking or padding it saves
   too little to show (heat-3d's frame of main: 7,604 L1 misses of
   5.9M, from 22M hits, got blocking advice for its spills). */
#define MP_ADV_MIN_MISS_SHARE 100

typedef struct {
   const mp_vars *vs;
   const mp_run *run;
   const mp_finished *an;
   const mp_results *res;
   const mp_share_summary *share;
   uint64_t total;               /* the run's memory cycles, or accesses */
   int by_cycles;                /* total counts cycles */
   uint64_t accesses;            /* the run's accesses, whatever total counts */
   const double *score;          /* per variable, its share of total */
   /* Per variable: hot, its score or its share of the run's memory
      stall cycles MP_ADVICE_MIN_SHARE or more.  Arrays whose accesses
      are few but mostly miss (temporaries written by one loop and read
      by the next) have a small share of the cycles, which L1 hits
      make, and a large one of the stall. */
   const uint8_t *hot;
   mp_advice *out;
   uint32_t n, cap;
   mp_advice *rej;               /* rejected by their replay */
   uint32_t n_rej, cap_rej;
   /* The per-location records, grouped by variable: var's are
      lines[first[var] .. first[var + 1] - 1]. */
   const mp_line_counts **lines;
   uint32_t *first;
   /* The walks a stride advice fixes: their innermost loops and, when
      no loop is known, their source locations (blocking leaves alone
      the misses they cause). */
   uint32_t *fixed_loop, *fixed_loc;
   uint32_t n_fixed, cap_fixed;
   /* The items no source line names, gathered per object until their
      no-source items are made (mp_rule_no_source.c). */
   struct mp_adv_no_source_group *no_src;
   uint32_t n_no_src;
   /* out[var_from .. n - 1]: the items made on the variable the rules
      of the second pass are on. */
   uint32_t var_from;
} mp_advisor;

/*------------------------------------------------------------*/
/*--- Items                                                ---*/
/*------------------------------------------------------------*/

/* Whether the rules speak of v: "other" is not a data structure anyone
   can fix, nor is one whose layout the C runtime, the dynamic linker
   or Valgrind decides (_rtld_local, stdio's buffers), debug
   information or not. */
int mp_adv_programs_data(const mp_var *v);

/* Whether loop is of the program's code (not a loop of the C runtime
   around main, nor MP_LOOP_NONE). */
int mp_adv_programs_loop(const mp_advisor *ad, uint32_t loop);

/* A new item about v, or about no variable (v NULL: a loop's). */
mp_advice *mp_adv_new(mp_advisor *ad, mp_advice_kind kind, const mp_var *v,
                      double score);

/* Moves the advice made last to the rejected list, with its reason
   (taken). */
void mp_adv_reject_last(mp_advisor *ad, char *reason);

/* What ranks a variable's source lines for an item (mp_adv_fill_where). */
typedef uint64_t (*mp_adv_line_metric)(const mp_line_counts *lc);
uint64_t mp_adv_by_accesses(const mp_line_counts *lc);
uint64_t mp_adv_by_l1_misses(const mp_line_counts *lc);
/* A line that only writes the variable is a fill (an initialisation):
   its misses are the fill's, which no tiling or padding of the kernel
   saves. */
uint64_t mp_adv_by_l1_misses_read(const mp_line_counts *lc);

/* The source lines of var with the most of metric, then by accesses. */
void mp_adv_fill_where(const mp_vars *vs, mp_advice *a, mp_adv_line_metric metric);

/*------------------------------------------------------------*/
/*--- Replays                                              ---*/
/*------------------------------------------------------------*/

/* A layout change is advised only if its replay saves at least
   --what-if-min-gain percent of the variable's cycles: a replay that
   shows no gain, or a loss, contradicts the advice.  NULL if it pays
   (or no replay was made: nothing contradicts the rule), else the
   reason, allocated. */
char *mp_adv_replay_refutes(const mp_advisor *ad, const char *what, const mp_replay *r);

/* "; replaying its 12,288 accesses split: L1 misses 8,192 -> 4,096,
   cycles 1,2M -> 0,6M (-50%)", or "" when no replay was made; the
   caller frees it. */
char *mp_adv_replay_text(const mp_advisor *ad, const char *what, const mp_replay *r);

/* Ends a's evidence with a replay's clause (taken: "; replaying ...",
   "; no replay: why", or "") and keeps the replay r with it. */
void mp_adv_take_replay(mp_advice *a, char *clause, const mp_replay *r);

/* Ends a loop advice's evidence with its nest's replay (or why there
   is none) and keeps the replay with it; the reason to reject it if
   the replay refutes it, else NULL.  o is cleared. */
char *mp_adv_take_order_replay(mp_advisor *ad, mp_advice *a, mp_order_replay *o,
                               const char *what);

/* Another fix of the accesses item a is about, replayed: alt (its fix,
   holds, loops and replay filled, its evidence the replay's clause,
   "; replaying ..."; taken).  a's own replay is in a->replay and its
   clause ends a->evidence from diagnosis_len on.  The fix saving more
   of its nest's cycles becomes the item's (its clause ending the
   evidence), the other its alternative (an alternative's evidence is
   its clause alone).  An alternative that does not pay
   (mp_adv_replay_refutes) is no fix, and is dropped.  Returns whether
   they swapped. */
int mp_adv_add_alternative(mp_advisor *ad, mp_advice *a, size_t diagnosis_len,
                           mp_advice_alt *alt);

/* The padding of v's rows against its conflict misses at level k, on
   the nest of instruction instr's walk (mp_pad_replays), as an
   alternative fix of item a (mp_adv_add_alternative); nothing when no
   padding could be replayed.  partner: v collides with another
   variable. */
void mp_adv_padding_alternative(mp_advisor *ad, mp_advice *a, size_t diagnosis_len,
                                const mp_var *v, uint32_t instr, uint32_t k, int partner);

/* "while the 48 lines its walks touch ... fit in L1's 64 lines": how a
   padding of v holds, from the replay o of its walk's nest, whose
   innermost loop is inner (allocated, or NULL). */
char *mp_adv_padding_holds(const mp_advisor *ad, const mp_var *v, const mp_order_replay *o,
                           uint32_t inner, uint32_t k);

/*------------------------------------------------------------*/
/*--- Lines, loops and misses                              ---*/
/*------------------------------------------------------------*/

/* Fills ad->lines and ad->first from the variables' line records. */
void mp_adv_index_lines(mp_advisor *ad, uint32_t n_vars);

/* The innermost loop of the instructions that made the line's dominant
   stride, MP_LOOP_NONE if unknown. */
uint32_t mp_adv_line_loop(const mp_advisor *ad, const mp_line_counts *lc);

/* The record of var at location loc, or NULL. */
const mp_line_counts *mp_adv_var_line(const mp_advisor *ad, uint32_t var, uint32_t loc);

/* Notes a walk that a stride advice fixes: its innermost loop, or
   MP_LOOP_NONE and its source location. */
void mp_adv_note_fixed(mp_advisor *ad, uint32_t loop, uint32_t loc);

/* v's misses at level k made in walks that a stride advice fixes: in
   their loops (a column walk's misses, and those it inflicts on the
   arrays walked beside it), or at their lines when no loop is known. */
uint64_t mp_adv_misses_in_fixed_walks(const mp_advisor *ad, const mp_var *v, uint32_t k);

/* Whether v's misses at level k are a share of the program's there
   that a fix of v alone would show (MP_ADV_MIN_MISS_SHARE). */
int mp_adv_misses_matter(const mp_advisor *ad, const mp_var *v, uint32_t k);

/* |x| */
uint64_t mp_adv_magnitude(int64_t x);

/* The loop around inner whose counter moves instruction instr by less
   than a cache line (by its access formula): the one to make
   innermost, so that the walk is contiguous.  *step is that move;
   *formula says whether a formula gave any enclosing loop's step.
   MP_LOOP_NONE if none. */
uint32_t mp_adv_contiguous_outer(const mp_advisor *ad, uint32_t instr, uint32_t inner,
                                 int64_t *step, int *formula);

/* Whether the prefetcher covered some of cc's misses at level k: the
   evidence then says that its counts are of the misses left. */
int mp_adv_some_covered(const mp_cache_counts *cc, uint32_t k);

/*------------------------------------------------------------*/
/*--- The rules                                            ---*/
/*------------------------------------------------------------*/

/* The pathology table (mp_pathologies.c) runs them.  A rule on a
   variable reads v's metrics and makes items on it, or none; score is
   v's share of the run (its cycles, or accesses, over ad->total).  A
   rule on the run runs once, after the rules on the variables. */
typedef void (*mp_adv_var_rule)(mp_advisor *ad, const mp_var *v, double score);
typedef void (*mp_adv_run_rule)(mp_advisor *ad);

/* mp_rule_false_sharing.c: false sharing, seen or at a placement. */
void mp_rule_false_sharing(mp_advisor *ad, const mp_var *v, double var_score);
/* mp_rule_numa.c: pages placed by one thread's first touch, used from
   other sockets. */
void mp_rule_numa(mp_advisor *ad, const mp_var *v, double score);
/* mp_rule_strides.c: long strides, line by line: loop-interchange or
   long-stride. */
void mp_rule_strides(mp_advisor *ad, const mp_var *v, double var_score);
/* mp_rule_conflicts.c: conflict misses: padding. */
void mp_rule_conflicts(mp_advisor *ad, const mp_var *v, double score);
/* mp_rule_blocking.c: capacity misses: blocking. */
void mp_rule_blocking(mp_advisor *ad, const mp_var *v, double score);
/* mp_rule_fusion.c: far reuses between adjacent loops, on the run:
   loop fusion. */
void mp_rule_fusion(mp_advisor *ad);
/* mp_rule_split.c: structure splitting. */
void mp_rule_split(mp_advisor *ad, const mp_var *v, double score);
/* mp_rule_streams.c: too many streams in one loop, on the run. */
void mp_rule_streams(mp_advisor *ad);
/* mp_rule_no_source.c: the items on v just made (from ad->var_from)
   whose busiest line has no source line go into their object's group;
   then, on the run, one no-source item per group. */
void mp_rule_no_source_gather(mp_advisor *ad, const mp_var *v, double var_score);
void mp_rule_no_source(mp_advisor *ad);

#endif /* MP_ADVISOR_H */
