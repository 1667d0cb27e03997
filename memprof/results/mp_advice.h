/*--------------------------------------------------------------------*/
/*--- memprof: the advice engine: pathologies and their fixes.     ---*/
/*---                                                   mp_advice.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   After PAMDA's pathology table and MACPO's process: rules
   over the metrics, each naming the pathology, the variable, the source
   lines, the evidence (the numbers that triggered it) and the known
   workaround.  A rule fires only for a variable that matters (at least
   MP_ADVICE_MIN_SHARE of the run's memory cycles, or of its accesses
   without a cache simulation, or of its memory stall cycles); the
   advice is ranked by the share of the cycles.
   False sharing is weighed instead by the cost of the transfers
   predicted for a parallel run (mp_sharing_predict).  A split, a
   padding, a loop interchange or a tiling whose what-if replay does not save
   what it promises is rejected, with the reason, instead of advised.
   The engine is in advice/: the pathology table and a file per rule
   (advice/README.md).
   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_ADVICE_H
#define MP_ADVICE_H

#include "mp_results_types.h"
#include "mp_share.h"

#define MP_ADVICE_MIN_SHARE 0.01   /* of the run's cycles (or accesses) */
#define MP_ADVICE_WHERE     3      /* source lines named per advice */
#define MP_ADVICE_FUSED     8      /* loops of one fusion, at most */
#define MP_ADVICE_ALTERNATIVES 2   /* other fixes of the same accesses */

typedef enum {
   MP_ADVICE_FALSE_SHARING,
   MP_ADVICE_NUMA_FIRST_TOUCH,
   MP_ADVICE_LOOP_INTERCHANGE,  /* a walk whose fix is the loop order */
   MP_ADVICE_CONFLICT_SETS,     /* before the stride: the more specific */
   MP_ADVICE_LONG_STRIDE,
   MP_ADVICE_BLOCKING,
   MP_ADVICE_LOOP_FUSION,       /* about loops: var is its hottest array */
   MP_ADVICE_STRUCTURE_SPLITTING,
   MP_ADVICE_TOO_MANY_STREAMS,  /* about a loop: var is MP_ADVICE_NO_VAR */
   MP_ADVICE_NO_SOURCE,         /* the items on data whose code has no lines,
                                   one per object: var is MP_ADVICE_NO_VAR;
                                   ranked after every other kind */
   MP_ADVICE_N_KINDS
} mp_advice_kind;

#define MP_ADVICE_NO_VAR UINT32_MAX

/* Another fix of the accesses an item is about, replayed too, which
   gained less than the item's own (a padding beside an interchange). */
typedef struct {
   uint32_t loop, with_loop;          /* as the item's, for this fix */
   char *fix;                         /* the workaround */
   char *evidence;                    /* its replay, or why none */
   char *holds;                       /* how it holds as the problem
                                         grows, or NULL */
   mp_replay replay;
} mp_advice_alt;

struct mp_advice {
   mp_advice_kind kind;
   uint32_t var;                      /* or MP_ADVICE_NO_VAR */
   uint32_t loop;                     /* the loop to change, MP_LOOP_NONE if none
                                         named (too-many-streams: the loop) */
   uint32_t with_loop;                /* loop-interchange: the loop to swap
                                         with loop; loop-fusion: the second
                                         loop fused; or MP_LOOP_NONE */
   uint32_t fused[MP_ADVICE_FUSED];   /* loop-fusion: the loops, in the
                                         order they run */
   uint32_t n_fused;
   uint32_t where[MP_ADVICE_WHERE];   /* location ids (mp_vars) */
   uint32_t n_where;
   /* As the writers print them (mp_results_build names them): the
      variable's name (NULL: none), the locations' "file:line" (or
      NULL). */
   const char *variable;
   const char *where_text[MP_ADVICE_WHERE];
   double   score;                    /* the variable's share of the run */
   char *text;                        /* the pathology, one line */
   char *evidence;                    /* the numbers */
   char *fix;                         /* the known workaround */
   char *reason;                      /* rejected advice: why, else NULL */
   mp_replay replay;                  /* loop-interchange, blocking,
                                         conflict-sets, loop-fusion: its
                                         nest's (or loops') replay
                                         (made 0: none) */
   int replayed;                      /* a what-if replay stands behind it:
                                         the loop kinds' own, the split or
                                         the padding of its variable */
   char *holds;                       /* how its fix holds as the problem
                                         grows, or NULL (said with
                                         alternatives) */
   mp_advice_alt alt[MP_ADVICE_ALTERNATIVES];
   uint32_t n_alt;                    /* best first: the item's own fix
                                         gained the most */
};

/* Whether a kind's fix is a change of loops or layout that a replay can
   check (interchange, long stride, conflict sets, blocking, fusion,
   fission): one without its replay ranks after every replayed item and
   is marked "not replayed". */
int mp_advice_kind_replayable(mp_advice_kind k);

/* "false-sharing", "numa-first-touch", ... as in the JSON. */
const char *mp_advice_kind_name(mp_advice_kind k);

/* Every piece of advice the results support, most important first;
   *n_out is their number.  It reads the results' rows, sharing
   summary, structures and replays (mp_results_build calls it last).
   If rejected is not NULL, *rejected gets the advice a rule found but
   its what-if replay did not support (each with its reason), *n_rejected
   their number.  The caller frees both with mp_advice_free. */
mp_advice *mp_advise(const mp_results *res, uint32_t *n_out,
                     mp_advice **rejected, uint32_t *n_rejected);

void mp_advice_free(mp_advice *a, uint32_t n);

#endif /* MP_ADVICE_H */
