/*--------------------------------------------------------------------*/
/*--- memprof: multicore reuse distances, in cache lines.          ---*/
/*---                                                   mp_reuse.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   MACPO's multicore reuse distance (Table II and III of the
   paper).  The caller passes cache-line numbers; every access gets a
   kind and a distance in lines:

   - PRIVATE: the thread touched the line before and no other thread
     wrote it since; the distance is the number of distinct lines this
     thread touched since its own last access to the line (its private
     caches see only its own stream).
   - SHARED: another thread wrote the line since this thread's last
     access to it, or this thread never touched it but another thread of
     its sharing group did; the reuse is served from the cache the group
     shares, so the distance is the number of distinct lines in the
     group's merged stream since the last access to the line by any
     thread of the group.
   - COLD: no thread of the group touched the line before.

   Sharing groups are independent merged streams: a group is named by
   the caller at each access (e.g. the threads whose cores share an
   L3).  A line touched only by threads of other groups is cold for this
   group, whatever those threads did to it.  A write by a thread of any
   group (the same or another) makes the next access of every other
   thread that held the line SHARED: the write invalidated the private
   copies.  Reads by other threads never do.

   Exact by default.  Two sampling modes trade accuracy for speed and
   memory; in both the caller multiplies its counts by mp_reuse_weight()
   and says in its output that the histograms are estimates:
   - MP_REUSE_SHARDS (Waldspurger et al., FAST'15): spatial sampling;
     only lines whose hash falls below rate * 2^32 are tracked, all
     their accesses by every thread; distances are scaled by 1/rate, so
     distances below 1/rate are not resolved (they come out as 0 or as
     multiples of 1/rate), and a small hot set is represented by few
     lines: meant for large footprints.
   - MP_REUSE_BURSTY (MACPO's sampling windows): 'window' accesses (all
     threads counted together) are analysed, then a gap is skipped; gaps
     grow as window * 1, 2, 3, 5, 8, ... (Fibonacci) up to 'max_gap'
     accesses.  The analysed windows form one concatenated trace, as in
     MACPO's sampled trace files: a reuse that spans a gap is measured
     without the gap's lines (an underestimate), and a line first seen
     in a window after being touched only in gaps is reported cold.

   The engine keeps no histogram: the caller bins the distances with
   mp_reuse_bin() into its per-variable histograms.
*/
#ifndef MP_REUSE_H
#define MP_REUSE_H

#include "mp_platform.h"

/* Bins: 0, 1, 2-3, 4-7, ..., [2^63, 2^64-1]; bin 0 is distance 0,
   bin b >= 1 holds [2^(b-1), 2^b - 1]. */
#define MP_REUSE_N_BINS 65

typedef enum {
   MP_REUSE_EXACT,      /* every access, exact distances (the default) */
   MP_REUSE_SHARDS,     /* a 'rate' fraction of the lines */
   MP_REUSE_BURSTY      /* windows of accesses with Fibonacci gaps */
} mp_reuse_mode;

/* What mp_reuse_access returns. */
enum {
   MP_REUSE_COLD,       /* first touch of the line within the group */
   MP_REUSE_PRIVATE,    /* served by the thread's own stream */
   MP_REUSE_SHARED,     /* served by the group's merged stream */
   MP_REUSE_SKIPPED     /* sampled out: nothing recorded, no distance */
};

typedef struct {
   uint32_t n_threads_hint;   /* threads expected (tables grow past it); 0 ok */
   mp_reuse_mode mode;
   double rate;               /* SHARDS: fraction of lines tracked, (0, 1] */
   uint32_t window;           /* BURSTY: accesses analysed per window, >= 1 */
   uint32_t max_gap;          /* BURSTY: cap of a skipped gap, in accesses;
                                 0 analyses every access */
   uint32_t fed_shift;        /* EXACT: the lines fed are already a
                                 sample, 1 in 2^fed_shift of the lines (the
                                 caller's, e.g. whole cache sets): distances
                                 are multiplied by 2^fed_shift, and each
                                 result stands for as many (weight) */
   int tags;                  /* each thread's record of a line keeps a
                                 caller's tag (mp_reuse_access_tagged):
                                 4 bytes more per line of its pages */
} mp_reuse_cfg;

typedef struct {
   uint64_t accesses;         /* every access fed */
   uint64_t analysed;         /* accesses not SKIPPED */
   uint64_t compactions;      /* timestamp renumberings, all streams */
   uint32_t threads, groups;  /* streams made so far */
} mp_reuse_stats;

typedef struct mp_reuse mp_reuse;

/* NULL and *err set on a bad configuration. */
mp_reuse *mp_reuse_new(const mp_reuse_cfg *cfg, const char **err);
void      mp_reuse_free(mp_reuse *r);

/* Forgets every history and count (a forked child starts from zero);
   the configuration and the sampling schedule restart. */
void      mp_reuse_reset(mp_reuse *r);

/* One access by thread 'tid' (small: tables are indexed by it), in
   sharing group 'grp' (small), to cache line 'line' (any value but
   UINT64_MAX).  A thread is expected to stay in one group; if it moves,
   its private stream follows it and the new group's stream starts
   without its earlier accesses.  Returns the kind; *distance is set for
   PRIVATE and SHARED (lines, scaled by 1/rate in SHARDS mode) and to 0
   otherwise.  Cost: O(log footprint) amortized (see mp_reuse.c). */
/* Starts bringing into the host's cache the record of line in tid's
   history, which mp_reuse_access will read, so that the caller can run
   other work before that call: on scattered accesses the read is a
   host cache miss.  Changes nothing that mp_reuse_access computes. */
void mp_reuse_prefetch(mp_reuse *r, uint32_t tid, uint64_t line);

int mp_reuse_access(mp_reuse *r, uint32_t tid, uint32_t grp, uint64_t line,
                    int is_write, uint64_t *distance);

/* mp_reuse_access that also leaves 'tag' in thread tid's record of
   the line (cfg.tags must be set): what the caller needs to know, at a
   later reuse, of the access that came before it (say, when in the
   program's loops it happened).  *prev_tag is the tag the line's
   previous access by tid left, for a PRIVATE result; otherwise 'tag'.
   A reuse within one access (a line read again at once) passes the tag
   on.  An access through mp_reuse_access leaves the line's tag as it
   was.  Costs a read and a write of the tag beside mp_reuse_access's
   work (the tags follow the cells in each page of the table). */
int mp_reuse_access_tagged(mp_reuse *r, uint32_t tid, uint32_t grp, uint64_t line,
                           int is_write, uint32_t tag, uint64_t *distance,
                           uint32_t *prev_tag);

/* What each non-SKIPPED result stands for: 1 in exact mode (2^fed_shift
   with a sample fed), 1/rate in
   SHARDS mode, accesses / analysed (so far) in BURSTY mode.  Read it
   when reporting, not per access. */
double mp_reuse_weight(const mp_reuse *r);

/* Whether a fully associative LRU cache of cap lines, fed thread tid's
   accesses, holds line now, lines [first, line) of the same access
   counted as accessed just before it (first == line: none): whether
   tid last accessed line fewer than cap distinct lines ago.  Exact
   mode, for the cache's L1 oracle (mp_cache_l1_oracle), which asks
   before the access reaches the history.  It changes no distance; the
   access's mp_reuse_access for line, if it comes next, reuses its
   count instead of counting again. */
int mp_reuse_would_hold(mp_reuse *r, uint32_t tid, uint64_t first, uint64_t line,
                        uint64_t cap);

/* Fills lines with the up to n distinct lines thread tid accessed
   last, least recent first; returns how many.  O(lines tid touched). */
uint32_t mp_reuse_recent_lines(mp_reuse *r, uint32_t tid, uint64_t *lines, uint32_t n);

/* Thread tid has finished: its private stream is freed (thread numbers
   are never reused, so it has no private reuse left to measure); the
   merged stream of its group stays.  Without this, memory grows with
   every thread that ever ran. */
void mp_reuse_thread_exit(mp_reuse *r, uint32_t tid);

/* Metadata bytes held: bounded by the distinct lines per stream, not by
   the number of accesses. */
uint64_t mp_reuse_bytes(const mp_reuse *r);

void mp_reuse_get_stats(const mp_reuse *r, mp_reuse_stats *st);
/* The counts of a copy that ran in another process (the reuse
   helper, mp_helper.h) become this one's: mp_reuse_weight then answers
   as the copy would have (the configuration is the same). */
void mp_reuse_take_stats(mp_reuse *r, const mp_reuse_stats *st);

/* Bin of a distance, and the bounds [lo, hi] of a bin. */
uint32_t mp_reuse_bin(uint64_t d);
void     mp_reuse_bin_bounds(uint32_t bin, uint64_t *lo, uint64_t *hi);

#endif /* MP_REUSE_H */
