/*--------------------------------------------------------------------*/
/*--- memprof: sharing and communication between threads.          ---*/
/*---                                                  mp_sharing.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   False and true sharing (MACPO 5.3, Sandberg & Kaxiras).  Per cache line,
   which threads read and wrote which bytes: a line written by one
   thread and accessed by another is shared.  Each pair of its threads
   of which one wrote shares it truly when a byte one wrote was touched
   by the other, falsely when their byte sets never met; the line is
   falsely shared when any pair is (the pathology to fix), truly shared
   when every pair is.  Byte sets are unions over the run, so this split does not
   depend on how Valgrind interleaved the threads.

   Communication follows the interleaving: when a thread touches a line
   for the first time since another thread wrote it, the line passed
   from the writer (its thread and the source line of its last write)
   to this reader: one transfer, true if the access reads or overwrites
   bytes the writer wrote, false otherwise.  Transfers are counted per
   (writer line, reader line, variable) pair and per (writer thread,
   reader thread) cell of the communication matrix.

   Valgrind runs one thread at a time, so the observed transfers count
   one serial interleaving.  The prediction (mp_sharing_predict) does
   not depend on it: from each thread's reads and writes of the line,
   and the lifetimes of the threads, it gives the transfers and
   invalidations of the most communicating interleaving, the one a
   parallel run approaches when the threads hit the line at the same
   time (the derivation is in mp_sharing.c).

   The placements (mp_sharing_false_at, after Predator's potential
   false sharing): from the same byte sets, whether a block moved to
   start at another offset of a line would have a falsely sharing pair
   of concurrent threads.  Freed blocks that two threads touched keep
   their lines, with the block, for it.

   The engine knows variables and source locations only by their ids
   (mp_vars.h).  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_SHARING_H
#define MP_SHARING_H

#include "mp_event.h"

/* Source locations remembered per (line, thread), for the report. */
#define MP_SHARING_LOCS      4
/* Variables remembered per line: adjacent variables falsely sharing a
   line are the classic case, more than four on one line is not. */
#define MP_SHARING_LINE_VARS 4

typedef struct mp_sharing mp_sharing;

/* What one thread did to one line. */
typedef struct mp_sharing_thread {
   uint32_t tid;                 /* thread number, 1 = main */
   uint32_t seen_epoch;          /* the line's epoch at this thread's last touch */
   uint64_t read_mask, write_mask;   /* bit b: byte group b of the line */
   uint64_t reads, writes;
   /* Of them, those to each variable of the line (its vars[i]): the
      prediction per variable counts a thread's own accesses to it. */
   uint32_t var_accesses[MP_SHARING_LINE_VARS], var_writes[MP_SHARING_LINE_VARS];
   uint32_t locs[MP_SHARING_LOCS];   /* distinct source locations, first seen */
   uint32_t n_locs;
   struct mp_sharing_thread *next;
} mp_sharing_thread;

/* One cache line as the report sees it. */
typedef struct {
   uint64_t line;                /* line number: address / line size */
   int      shared;              /* written by one thread, accessed by another */
   /* Pairs of threads, one of them writing, that touched disjoint bytes
      (falsely sharing) or a byte one wrote and the other touched
      (truly sharing). */
   uint32_t false_pairs, true_pairs;
   int      is_true;             /* shared with no falsely sharing pair:
                                    the line is "false" if any pair is */
   uint64_t transfers;           /* observed, in Valgrind's interleaving */
   /* Predicted for a parallel run (mp_sharing_predict): transfers, the
      true ones among them, invalidations. */
   uint64_t predicted, predicted_true, predicted_invalidations;
   uint32_t vars[MP_SHARING_LINE_VARS];
   /* The prediction for each variable: the transfers its own accesses
      would receive (and the invalidations its writes would make), so
      that an array whose last elements share the line with another
      thread's counter is not charged with the counter's transfers. */
   uint64_t var_predicted[MP_SHARING_LINE_VARS];
   uint64_t var_predicted_true[MP_SHARING_LINE_VARS];
   uint64_t var_predicted_invalidations[MP_SHARING_LINE_VARS];
   uint32_t n_vars;
   const mp_sharing_thread *threads;   /* list, most recent toucher first */
   uint32_t n_threads;
   /* For a line of a freed block (mp_sharing_forget): the block, id > 0
      numbering the frees, and its variable; 0 for a live line. */
   uint64_t freed_id, freed_start, freed_len;
   uint32_t freed_var;
} mp_sharing_line;

/* A communication hot-spot: writes at writer_loc reaching accesses at
   reader_loc of variable var. */
typedef struct {
   uint32_t writer_loc, reader_loc, var;
   uint64_t transfers, true_transfers;
} mp_sharing_pair;

/* One cell of the thread x thread matrix. */
typedef struct {
   uint32_t from, to;            /* writer thread, reader thread */
   uint64_t true_lines, false_lines;   /* transfers */
   uint64_t bytes;               /* reader bytes the writer had written */
} mp_sharing_cell;

/* Transfers one access made (for per-variable and per-line counts). */
typedef struct {
   uint32_t transfers, true_transfers;
} mp_sharing_outcome;

/* line_size: bytes, a power of two; byte groups are line_size / 64
   bytes wide for lines longer than 64 bytes, single bytes otherwise. */
mp_sharing *mp_sharing_new(uint32_t line_size);
void        mp_sharing_free(mp_sharing *s);

/* Records access e (every line it touches).  Cost: one hash probe per
   line, then a walk of the threads that touched the line (the accessing
   thread is moved to the front, so a thread running alone finds itself
   first). */
void mp_sharing_access(mp_sharing *s, const mp_event *e, mp_sharing_outcome *out);

/* Forgets the lines wholly inside [addr, addr+len) (a freed block of
   variable var; an unmapped range: MP_SHARING_NO_VAR).  When two
   threads or more touched them, they are retired instead: kept, with
   the block and its variable, for the report and the placements (the
   lines also hold the neighbours' accesses, so they cannot tell whose
   block it was).  Cost: one hash probe per line of the range. */
#define MP_SHARING_NO_VAR UINT32_MAX
void mp_sharing_forget(mp_sharing *s, uint64_t addr, uint64_t len, uint32_t var);

/* Calls fn on every line touched by two or more threads; the line
   record is valid during the call only. */
void mp_sharing_foreach_line(const mp_sharing *s,
                             void (*fn)(const mp_sharing_line *l, void *arg),
                             void *arg);

/* Calls fn on every line record: live ones, whatever their number of
   threads, and retired ones (freed_id > 0); only line, vars, threads,
   n_threads and the freed_* fields are set.  For the placements. */
void mp_sharing_foreach_record(const mp_sharing *s,
                               void (*fn)(const mp_sharing_line *l, void *arg),
                               void *arg);

/* A line of a block, for mp_sharing_false_at. */
typedef struct {
   uint64_t line;                      /* line number */
   const mp_sharing_thread *threads;
} mp_sharing_rec;

/* Predator's potential false sharing: whether the block
   [start, start+len), moved so that it starts placement bytes into a
   line, would have a falsely sharing pair of concurrent threads
   (mp_sharing_concurrent) on one of its lines: each thread's touched
   bytes of the block, as recs (its lines that have a record, ascending
   and distinct) hold them, rebinned into the lines they would fall in.
   Only the block's bytes count (a line's other variables stay where
   they are).  The shift is taken in whole byte groups.  Cost:
   O(records x threads^2) per placement; no line without a record is
   probed, however long the block.
   With predicted non-NULL, every moved line is looked at and
   *predicted gets a bound on the false transfers a parallel run would
   make there: on each moved line with a falsely sharing pair, summed
   over its threads j, min(N_j, sum of W_i) over the concurrent threads
   i that wrote none of j's bytes, N and W a thread's accesses and
   writes of the original lines the moved one is made of (the whole
   lines': an upper bound). */
int mp_sharing_false_at(const mp_sharing *s, const mp_sharing_rec *recs, uint32_t n,
                        uint64_t start, uint64_t len, uint32_t placement,
                        uint64_t *predicted);

/* Thread lifetimes, for the prediction: two threads can share a line
   in a parallel run only if one was created before the other ended.
   start: thread tid was created (not called for the main thread, which
   lives from the start); end: it ended.  Threads never started live from
   the start, threads never ended to the end.  O(1) amortised. */
void mp_sharing_thread_start(mp_sharing *s, uint32_t tid);
void mp_sharing_thread_end(mp_sharing *s, uint32_t tid);
/* Whether the lifetimes of threads a and b overlap. */
int  mp_sharing_concurrent(const mp_sharing *s, uint32_t a, uint32_t b);

/* What a parallel run would see on one line. */
typedef struct {
   uint64_t transfers, true_transfers, invalidations;
} mp_sharing_prediction;

/* The prediction for the line whose thread list is threads: for each
   thread j, with N_j its accesses and W_j its writes of the line, and
   the sums taken over the other threads alive at the same time as j,
     transfers to j     = min(N_j, sum W_i)
     invalidations by j = min(W_j, sum N_i)
   summed over j.  Each is the most any interleaving can produce (a
   transfer to j needs a write of another thread since j's previous
   access; an invalidating write of j an access of another thread since
   j's previous write), and the most communicating interleaving comes
   within one per thread of it (test_predict checks both by brute
   force).  Transfers to j are true in the
   proportion of the writes of threads that wrote a byte j touched.
   Cost: O(threads^2). */
void mp_sharing_predict(const mp_sharing *s, const mp_sharing_thread *threads,
                        mp_sharing_prediction *out);
/* The same with N_j and W_j (of thread j alone) those of j's accesses to
   the line's variable in slot 'slot' (mp_sharing_line.vars): the
   transfers that variable's accesses would receive, whoever's writes
   they follow. */
void mp_sharing_predict_var(const mp_sharing *s, const mp_sharing_thread *threads,
                            uint32_t slot, mp_sharing_prediction *out);

/* The communication pairs, most transfers first (ties: by locations);
   *n_out is their number.  The caller frees the array with mp_free. */
mp_sharing_pair *mp_sharing_pairs(const mp_sharing *s, uint32_t *n_out);

/* The nonzero matrix cells, ordered by (from, to); caller frees. */
mp_sharing_cell *mp_sharing_cells(const mp_sharing *s, uint32_t *n_out);

/* The bytes of the line that byte group b covers: [*first, *last]. */
void mp_sharing_group_bytes(const mp_sharing *s, uint32_t b,
                            uint32_t *first, uint32_t *last);
/* Bits in a mask (1 .. 64). */
uint32_t mp_sharing_groups(const mp_sharing *s);

/* Lines tracked and bytes of metadata, for -v statistics. */
uint64_t mp_sharing_lines(const mp_sharing *s);
uint64_t mp_sharing_bytes(const mp_sharing *s);

/* Forgets everything (a forked child starts from zero). */
void mp_sharing_reset(mp_sharing *s);

#endif /* MP_SHARING_H */
