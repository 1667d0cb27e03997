/*--------------------------------------------------------------------*/
/*--- memprof: sharing between threads, per variable.    mp_share.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Turns what mp_sharing saw per cache line into per-variable counts:
   shared, true and false lines, the transfers predicted for a parallel
   run (mp_sharing_predict), and the worst lines by that prediction,
   which does not depend on Valgrind's interleaving, each with its
   threads' bytes and source lines; and the communication between
   threads: the busiest pairs of source lines and the thread matrix;
   and the placements of each heap block two threads touched at which
   it would falsely share (mp_sharing_false_at).  A line holding
   several variables counts for each of them: two adjacent globals
   written by two threads both suffer the false sharing.  Built once by
   mp_results_build.  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_SHARE_H
#define MP_SHARE_H

#include "mp_results_types.h"

#define MP_SHARE_WORST_LINES 5
#define MP_SHARE_TOP_PAIRS   20

/* One thread's part of a worst line. */
typedef struct {
   uint32_t tid;
   uint64_t reads, writes;
   uint64_t read_mask, write_mask;      /* byte groups: mp_share_summary.group_* */
   const char *where[MP_SHARING_LOCS];  /* its source lines, each once (may be NULL) */
   uint32_t n_where;
} mp_share_thread;

typedef struct {
   uint64_t line;
   int is_true;
   uint32_t false_pairs, true_pairs;
   uint64_t transfers;
   uint64_t predicted, predicted_true, predicted_invalidations;
   const mp_sharing_thread *threads;
   uint32_t n_threads;
   mp_share_thread *by_tid;         /* the threads in thread order */
   uint32_t n_by_tid;
   int has_offset;                  /* offset known: */
   int64_t offset;                  /* of the line from its block's start */
} mp_share_line;

typedef struct {
   uint64_t shared, true_lines, false_lines;
   uint64_t predicted, predicted_true, predicted_invalidations;
   uint32_t touched;                /* a line of it was touched by 2+ threads */
   mp_share_line worst[MP_SHARE_WORST_LINES];   /* most transfers first */
   uint32_t n_worst;
   /* Predator's potential false sharing, for a heap variable whose
      blocks two threads touched (place_blocks of them, 0: none): the
      placements 0, place_step, ... of a block in a line (place_n of
      them), bit i of false_at set when some block placed at
      i * place_step would falsely share (mp_sharing_false_at);
      place_current: the first block's start modulo the line;
      place_predicted[i]: the bound on the false transfers a parallel
      run would make with the blocks placed at i * place_step, summed
      over the blocks (NULL without blocks). */
   uint32_t place_blocks, place_step, place_n, place_current;
   uint64_t false_at;
   uint64_t *place_predicted;
} mp_share_var;

/* A communication hot-spot: writes at one source line reaching
   accesses at another (mp_sharing_pair), as the report names it. */
typedef struct {
   const char *from, *from_fn, *to, *to_fn;   /* where and function, or NULL */
   const char *variable;
   uint64_t transfers, true_transfers;
} mp_share_pair;

struct mp_share_summary {
   const mp_sharing *sharing;
   mp_share_var *vars;              /* indexed by variable id */
   uint32_t n_vars;
   /* The bytes of a line each bit of a mask covers: bit b is bytes
      group_first[b] .. group_last[b]. */
   uint32_t n_groups;
   uint32_t group_first[64], group_last[64];
   mp_share_pair *pairs;            /* the busiest, most transfers first */
   uint32_t n_pairs;
   mp_sharing_cell *cells;          /* the matrix' nonzero cells, by (from, to) */
   uint32_t n_cells;
   uint32_t *threads;               /* the matrix' threads, ascending */
   uint32_t n_threads;
};

/* block_of (may be NULL) places each worst line in its block, and
   finds the live blocks to place anew. */
mp_share_summary *mp_share_summarise(const mp_sharing *s, const mp_vars *vs,
                                     int (*block_of)(uint64_t addr, uint64_t *start,
                                                     uint64_t *len, uint32_t *var),
                                     uint32_t line_size);

/* How many of var's placements would falsely share (0 when none was
   evaluated). */
uint32_t mp_share_false_placements(const mp_share_var *sv);
void mp_share_free(mp_share_summary *ss);

/* The most false transfers any placement of var's blocks would make
   (mp_share_var.place_predicted), 0 if none. */
uint64_t mp_share_placement_worst(const mp_share_var *sv);

/* var's summary, or NULL (ss NULL, or var unknown to it). */
const mp_share_var *mp_share_var_of(const mp_share_summary *ss, uint32_t var);

/* Lines of var touched by two threads or more, and of those the true
   and the falsely shared ones; zeros when ss is NULL. */
void mp_share_var_lines(const mp_share_summary *ss, uint32_t var,
                        uint64_t *shared, uint64_t *true_lines, uint64_t *false_lines);

/* The transfers a parallel run would have (mp_sharing_predict) on its
   shared lines, and the false transfers among them; zeros when ss is
   NULL. */
void mp_share_var_predicted(const mp_share_summary *ss, uint32_t var,
                            uint64_t *transfers, uint64_t *false_transfers,
                            uint64_t *invalidations);

#endif /* MP_SHARE_H */
