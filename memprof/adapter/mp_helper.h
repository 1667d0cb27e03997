/*--------------------------------------------------------------------*/
/*--- memprof: the analysis helper process and its access stream.  ---*/
/*---                                                  mp_helper.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Valgrind runs the program on one host thread; an analysis that
   needs only the stream of accesses can run on another core.  With
   --analysis-procs (auto: when this process may use two cores or
   more), the reuse-distance analysis (mp_an_reuse.h, with the carriers
   of its far reuses) and the simulated hierarchy (mp_an_hier.h: the
   caches, the TLB, the conflict sets) run in helper processes forked
   before the program starts, one each, or both in one helper with
   --analysis-procs=1.  Valgrind's process, the producer, resolves each
   access as before and appends one 16-byte record to a ring in memory
   every process shares; each helper reads every record in order and
   runs, for its analyses, the same code the inline path runs
   (mp_an_reuse_lines, mp_an_cache_simulate), on its copy of the engines
   made before the fork.  At the end (and before an execve) each hands
   its counts back through a pipe of its own, and they become the
   producer's (mp_vars_reuse_set, mp_carriers_take, mp_vars_cache_set,
   mp_cache_set_raw_totals, mp_setdiag_put, ...): the report is built
   as without a helper, and every number is the same.

   The hierarchy runs apart only where nothing on the access path reads
   what it decides: without NUMA (whose remote cost needs the level that
   served the access) and without a prefetcher (trained on the
   instruction's address, which the record does not carry).  The
   loops' structure analysis (mp_structs) adds each access's cycles to
   its stream: a struct record after the access names the stream, and
   the helper adds the cycles there.  In Valgrind's process an L1 hit no
   longer spares the footprint its probe, and no instruction is marked
   scattered: speed only.

   The records, in the producer's order:
     access      address, line record id, size, load or store, and
                 whether the carriers are counted (a detail window)
     thread      the thread (serial, reuse group, core) of the accesses
                 after
     line        a line record's id and its variable (once per record)
     frames      a thread's active loops, the loop epoch and the epoch
                 before which accesses were unseen, when they changed
                 since that thread's last (mp_loops_changes): all the
                 carriers read of the loops.  Only the frames past those
                 the last record of the same thread had: a loop entered
                 or left is one or two records more, not the stack
     struct      the structure stream the last access counted in
     exit        a thread ended (its private reuse stream goes)
     sync, end   hand the counts back; end: and stop

   The ring: 2^18 records (4 MiB) and a header, shared; the producer
   publishes its position every 4,096 records and at sync and end, and
   each helper its own every 4,096.  The producer may write until it
   would overwrite a record the slowest helper has not read: then it
   waits (1 ms polls of its end of the helper's pipe, which also tell it
   the helper died); an empty ring makes a helper wait the same way on
   its end.  Cost per access on the producer's side: a 16-byte store and
   a compare.

   The guest never sees a helper: it is forked twice (not the
   program's child: a wait loop never reaps it), blocks every signal (a
   kill(0, ...) or a terminal's ^C does not reach it), closes the
   program's descriptors, and exits when the producer's end of its pipe
   closes (its end, or its death by any signal).  The producer's ends
   live in Valgrind's reserved range, close-on-exec, and the pipe that
   Valgrind's fork leaves open is closed.  A forked child of
   the program analyses its own accesses inline.  A helper that dies
   is reported once, and the report then has none of its analyses.
*/
#ifndef MP_HELPER_H
#define MP_HELPER_H

#include "pub_tool_basics.h"

#include "mp_vars.h"

/* True while the reuse analysis, the hierarchy, runs in a helper; the
   producer writes the records while either does. */
extern Bool mp_g_reuse_apart;
extern Bool mp_g_hier_apart;
extern Bool mp_g_stream_on;

/* Decides from the options and the machine which analyses run apart,
   before the analyses are made (the reuse history lends the cache its
   L1 shadow only when both run here). */
void mp_helper_plan(void);
/* Forks the helpers, after the analyses are made; on failure says why
   and leaves the analyses inline. */
void mp_helper_start(void);

/*--- The producer's side ---*/

typedef struct {
   ULong a;            /* access: address; others: their argument */
   UInt  b;            /* access: line record id; others: their second */
   UInt  meta;         /* kind (MP_REC_*) | flags | size << 8 */
} mp_stream_rec;

enum {
   MP_REC_ACCESS, MP_REC_THREAD, MP_REC_LINE, MP_REC_FRAMES, MP_REC_BOUND,
   MP_REC_FRAME, MP_REC_STRUCT, MP_REC_EXIT, MP_REC_SYNC, MP_REC_END
};
#define MP_REC_KIND   0x0fu
#define MP_REC_WRITE  0x10u
#define MP_REC_TAGGED 0x20u

typedef struct {
   mp_stream_rec *ring;
   ULong mask;
   ULong head;          /* records written */
   ULong room;          /* head may reach this before mp_helper_make_room */
   UInt  serial;        /* the thread of the last thread record */
   UInt  frames_serial; /* the thread of the last frames record ... */
   ULong frames_changes;/* ... and mp_loops_changes then */
} mp_stream;

extern mp_stream mp_g_stream;
extern const uint64_t *mp_g_loop_changes;  /* mp_loops_changes, with the carriers */

void mp_helper_make_room(void);
/* A thread's accesses follow: its serial, and the reuse group and core
   of Valgrind's thread tid (looked up here, off the access path). */
void mp_helper_thread(UInt serial, ThreadId tid);
void mp_helper_frames(UInt serial);
/* A line record the helper is to count for (its first use). */
void mp_helper_line_record(const mp_line_counts *lc);
void mp_helper_thread_exit(UInt serial);
/* Every helper's counts so far: the reuse distances' become the
   producer's at once, the hierarchy's at the cache's flush step
   (mp_helper_take_hierarchy), after the instructions' held counts
   reached their records (--helper-check compares them there).  end: the
   run's end, after which the helpers stop; else an execve's output. */
void mp_helper_collect(Bool end);
void mp_helper_take_hierarchy(void);
/* A forked child of the program: it analyses inline. */
void mp_helper_fork_child(void);
/* The reuse helper ran and handed its counts back; the bytes its
   history took, the hierarchy's (for -v). */
Bool  mp_helper_ran(void);
ULong mp_helper_reuse_bytes(void);
ULong mp_helper_cache_bytes(void);
void  mp_helper_stats(void);

static inline void mp_helper_put(ULong a, UInt b, UInt meta)
{
   mp_stream_rec *r;
   if (UNLIKELY(mp_g_stream.head == mp_g_stream.room))
      mp_helper_make_room();
   r = &mp_g_stream.ring[mp_g_stream.head & mp_g_stream.mask];
   r->a = a;
   r->b = b;
   r->meta = meta;
   mp_g_stream.head++;
}

/* One access for the helpers: the thread, the loops if the carriers
   are counted, then the access. */
static inline void mp_helper_access(Addr a, UInt size, Bool is_write, UInt lc_id,
                                    UInt serial, ThreadId tid, Bool tagged)
{
   if (UNLIKELY(serial != mp_g_stream.serial))
      mp_helper_thread(serial, tid);
   if (tagged && UNLIKELY(*mp_g_loop_changes != mp_g_stream.frames_changes
                          || serial != mp_g_stream.frames_serial))
      mp_helper_frames(serial);
   mp_helper_put(a, lc_id, MP_REC_ACCESS | (is_write ? MP_REC_WRITE : 0)
                           | (tagged ? MP_REC_TAGGED : 0) | (size << 8));
}

#endif /* MP_HELPER_H */
