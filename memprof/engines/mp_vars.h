/*--------------------------------------------------------------------*/
/*--- memprof: the variable table and its access counts.  mp_vars.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A "variable" is what memprof reports on: a global, a heap allocation
   site, a stack frame or named local, a user-named range, or "other".
   The table owns, per variable, the basic counts (reads, writes,
   bytes, accessing threads, distinct cache lines touched) and the same
   counts per source location of the accessing instruction.

   Which variable an address belongs to is the adapter's business (the
   registry in mp_registry.c / mp_heap.c, built on mp_rangemap); this
   file only counts.  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_VARS_H
#define MP_VARS_H

#include "mp_event.h"
#include "mp_cache.h"
#include "mp_owner.h"
#include "mp_reuse.h"
#include "mp_stride.h"
#include "mp_set_sample.h"

typedef enum {
   MP_VAR_GLOBAL,
   MP_VAR_HEAP,
   MP_VAR_STACK,
   MP_VAR_OTHER
} mp_var_kind;

/* Threads are Valgrind thread ids; Valgrind's default limit is 500. */
#define MP_MAX_THREADS 512

typedef struct {
   uint64_t reads, writes;           /* accesses */
   uint64_t read_bytes, write_bytes; /* bytes */
} mp_counts;

/* What the simulated cache hierarchy did for one variable;
   level k is 0-based, index n_levels of 'served' is memory. */
typedef struct {
   uint64_t hits[MP_CACHE_MAX_LEVELS];       /* accesses that reached level k and hit */
   uint64_t misses[MP_CACHE_MAX_LEVELS];
   uint64_t cause[MP_CACHE_MAX_LEVELS][MP_MISS_N_CAUSES];
   uint64_t writebacks[MP_CACHE_MAX_LEVELS]; /* dirty evictions its accesses caused */
   uint64_t fills[MP_CACHE_MAX_LEVELS];      /* lines its accesses filled, retired */
   uint64_t reused_fills[MP_CACHE_MAX_LEVELS]; /* ... hit at least once before leaving */
   uint64_t fill_hits[MP_CACHE_MAX_LEVELS];  /* hits on those lines while resident */
   uint64_t served[MP_CACHE_MAX_LEVELS + 1]; /* accesses served by level k / memory */
   /* With a prefetcher: of hits[k], those on a line a prefetch brought
      there, its first touch (mp_cache_outcome.prefetched): misses but
      for the prefetcher; and of misses[k] by cause, those then served
      by such a hit at a deeper level: misses the prefetcher covered,
      at that level's latency instead of the one below. */
   uint64_t prefetched[MP_CACHE_MAX_LEVELS];
   uint64_t covered[MP_CACHE_MAX_LEVELS][MP_MISS_N_CAUSES];
   uint64_t invalidations;                   /* other caches' copies its writes removed */
   uint64_t invalidations_suffered;          /* its copies other cores' writes removed */
   uint64_t tlb_hits, tlb_misses;            /* with --TLB */
   uint64_t cycles;                          /* estimated, from the latencies */
   /* --sample=lines: of the variable's counts of accesses, misses,
      cycles and stall in each sampled line, the sum of their squares;
      in each sampled set, their sum and the sum of their squares
      (mp_set_sample.h): the spreads its intervals come from.  Last, and
      not scaled: the fields before are uint64_t counts
      (mp_cache_counts_add). */
   double sample_line_sq[MP_EST_N];
   double sample_set_sum[MP_EST_N];
   double sample_set_sq[MP_EST_N];
} mp_cache_counts;

/* Reuse distances of one variable's accesses, one per cache
   line touched; raw counts (the caller scales them by the sampling
   weight when it reports). */
typedef struct {
   uint64_t private_bins[MP_REUSE_N_BINS];
   uint64_t shared_bins[MP_REUSE_N_BINS];
   uint64_t cold;
   uint64_t private_sum, shared_sum;   /* lines, for the means */
} mp_reuse_counts;

/* Reuse distances of one variable's accesses at one source location:
   [0] private, [1] shared (sum, count), cold, and their histograms
   (owned, made on the first reuse).  Its own record so that an analysis
   helper process (mp_helper.h) can count it apart and hand it back. */
typedef struct {
   uint64_t sum[2], n[2], cold;
   uint64_t (*bins)[MP_REUSE_N_BINS];   /* [2][MP_REUSE_N_BINS] */
} mp_line_reuse;

/* What the simulated cache did for one variable at one source location:
   misses per level, estimated cycles (NUMA's remote cost included),
   copies its writes invalidated in other cores' caches, and its L1
   misses on lines another core's write had invalidated.  Its own
   record so that an analysis helper process (mp_helper.h) can count it
   apart and hand it back. */
typedef struct {
   uint64_t misses[MP_CACHE_MAX_LEVELS];
   uint64_t cycles;
   uint64_t invalidations, coherence_misses;
} mp_line_cache;

/* Counts of one variable at one source location. */
typedef struct mp_line_counts {
   uint32_t var, loc;
   uint32_t id;                      /* 0, 1, ... in the order made */
   mp_counts c;
   /* first-histogram stride classes of the accesses here (mp_stride) */
   uint64_t stride_classes[MP_STRIDE_N_CLASSES];
   /* its instructions' own strides (mp_istride) */
   mp_line_stride lstride;
   mp_line_cache cache;              /* what the cache did here */
   mp_line_reuse reuse;              /* reuse distances here */
   /* its accesses that were a thread's first touch of a line after
      another thread's write (mp_sharing) */
   uint64_t transfers;
   /* --sample=lines: its accesses (loads, stores) seen in the detail
      windows, in the sample or not, never scaled: how an instruction
      of several variables splits among them (the adapter's estimates) */
   uint64_t in_window[2];
   struct mp_line_counts *hash_next;
} mp_line_counts;

/* Where one variable's pages live: accesses from the home
   socket of the page and from others; the pages its accesses placed,
   by placing thread. */
#define MP_NUMA_PLACERS 8
typedef struct {
   uint64_t local, remote;
   uint64_t remote_memory;    /* remote accesses served from memory */
   uint64_t pages;            /* pages first touched through it */
   struct { uint32_t tid, socket; uint64_t pages; } placer[MP_NUMA_PLACERS];
   uint32_t n_placers;        /* placers beyond the array are not named */
} mp_numa_counts;

typedef struct mp_var {
   uint32_t id;
   mp_var_kind kind;
   char *name;               /* owned */
   char *where;              /* owned; declaration or allocation site, or NULL */
   char *named_by;           /* owned; e.g. "MEMPROF_NAME_RANGE", or NULL */
   char *function;           /* owned; stack variables: their function */
   /* stack:<fn>: the bytes of fn's frames no named local holds (spill
      slots, locals the debug information does not place), not one
      datum: two accesses to it need not touch the same bytes. */
   int whole_frame;
   /* A function's static local whose symbol carried the compiler's
      number ("u1.3", now "u1"): mp_vars_name_static_locals names it
      after the function whose code accesses it most, main::u1. */
   int static_local;
   mp_var_class cls;         /* whose code owns it (mp_owner.h) */
   char *object;             /* owned; the owning object's file name, or NULL */
   uint64_t size;            /* bytes: symbol / range size, peak live bytes
                                of a heap site, declared size of a named
                                local, largest frame of stack:<fn> (with
                                the red zone it touched); 0 if unknown
                                (kind other) */
   /* heap sites only */
   uint64_t blocks;          /* blocks allocated at the site */
   uint64_t alloc_bytes;     /* bytes allocated in all */
   uint64_t live_bytes;      /* bytes live now */
   char **alloc_stack;       /* owned; n_alloc_stack frame descriptions */
   uint32_t n_alloc_stack;

   mp_counts c;
   mp_cache_counts *cache;   /* owned; NULL until simulated */
   mp_reuse_counts *reuse;   /* owned; NULL until mp_vars_reuse_totals
                                finds a reuse of it */
   mp_numa_counts *numa;     /* owned; NULL unless NUMA is simulated */
   uint64_t transfers, true_transfers;   /* lines passed to its accesses
                                            from another thread (mp_sharing) */
   uint64_t lines;           /* distinct cache lines touched (footprint) */
   uint32_t last_tid;
   uint32_t n_threads;
   uint64_t threads[MP_MAX_THREADS / 64]; /* bit t: thread t accessed */
} mp_var;

typedef struct mp_vars mp_vars;

/* line_size: bytes per cache line for the footprint; a power of two. */
mp_vars *mp_vars_new(uint32_t line_size);
void     mp_vars_free(mp_vars *vs);

/* Adds a variable; name/where are copied (where may be NULL). */
mp_var  *mp_vars_add(mp_vars *vs, mp_var_kind kind, const char *name,
                     const char *where, uint64_t size);
mp_var  *mp_vars_get(const mp_vars *vs, uint32_t id);
/* The owner of v: the object (or mapped file) at path, a full path or
   a file name, decides its class and names it; NULL (no object known)
   leaves it the program's, unnamed. */
void     mp_var_set_owner(mp_var *v, const char *path);
uint32_t mp_vars_count(const mp_vars *vs);
uint32_t mp_vars_line_size(const mp_vars *vs);
uint32_t mp_vars_line_shift(const mp_vars *vs);   /* log2 of the line size */
const char *mp_var_kind_name(mp_var_kind k);

/* Interns a source location (where = "file:line" or NULL, fn or NULL);
   the same pair always gives the same id.  Not for the hot path. */
uint32_t mp_vars_location(mp_vars *vs, const char *where, const char *fn);
const char *mp_vars_location_where(const mp_vars *vs, uint32_t loc);
const char *mp_vars_location_fn(const mp_vars *vs, uint32_t loc);
/* The object (file name) of the code at a location without line
   information, the first one set: where the advice points when there
   is no source line.  NULL if never set. */
void mp_vars_location_set_object(mp_vars *vs, uint32_t loc, const char *object);
const char *mp_vars_location_object(const mp_vars *vs, uint32_t loc);

/* The per-location counts of (var, loc), created on first use.  The
   pointer stays valid for the table's life, so the adapter may cache it
   per instruction and skip the lookup on the hot path. */
mp_line_counts *mp_vars_line_counts(mp_vars *vs, uint32_t var, uint32_t loc);

/* The counts of one instruction's accesses to its current variable
   that are not yet in the variable's and its (variable, line) records:
   the hot path adds to this record, which lives beside the
   instruction's other state (mp_instr), instead of to two records
   elsewhere (the variable's is a host cache miss on scattered
   accesses), and mp_vars_flush_held adds it where it belongs when the
   instruction moves to another variable and before anything reads the
   counts.  It also filters what the variable's records need only once:
   the thread last noted in its set of threads and the line last seen
   in its footprint.  Invariant: every count here is of the one
   variable the holder's line counts record (lc) is for. */
typedef struct {
   uint64_t reads, writes, read_bytes, write_bytes;
   /* L1 hits that filled, evicted, invalidated and prefetched nothing
      (most accesses): their hit, served and cycle counts */
   uint64_t l1_hits, l1_cycles;
   uint64_t last_line_plus1;   /* in the variable's footprint; 0: none */
   uint32_t tid_plus1;         /* in the variable's threads; 0: none */
} mp_held_counts;

/* Counts one access into h (of the variable h's line counts are for).
   Cost: O(1); one footprint probe per line touched, none when the line
   is the one h saw last (a walk touches a line many times in a row);
   the variable's record is read only for a new line or thread. */
void mp_vars_access(mp_vars *vs, const mp_event *e, mp_held_counts *h);

/* The same for an access of one line that the variable's footprint
   already holds, as the caller knows (the simulated L1 hit the line in
   a way this variable filled: mp_cache_outcome.owner_hit).  No footprint
   probe: on scattered accesses that probe is a host cache miss. */
void mp_vars_access_in_footprint(mp_vars *vs, const mp_event *e, mp_held_counts *h);

/* The same without the footprint, which an analysis helper process
   keeps (mp_helper.h): the counts alone. */
void mp_vars_access_counts(mp_vars *vs, const mp_event *e, mp_held_counts *h);

/* Adds line to var's footprint: 1 if it was not in it yet.  The
   variable's record is not touched (its lines count is the caller's). */
int mp_vars_footprint_add(mp_vars *vs, uint32_t var, uint64_t line);
/* A sample of whole sets (--sample=lines, mp_set_sample.h): rank[set]
   is an L1 set's rank among the sampled sets + 1 (0: not sampled;
   set = line & set_mask, set_mask + 1 = 2^set_bits sets, n_sets of them
   sampled; the caller's, kept).  From now on the footprint counts the
   lines of the sample alone (the other line of an access straddling
   two is none of it), and its shadow numbers a sampled line by its rank
   in the sample (its number above the set bits times n_sets, plus its
   set's rank), so that the shadow, kept by page of lines, costs per
   sampled line and not per page of the program's. */
void mp_vars_rank_lines(mp_vars *vs, const uint32_t *rank, uint64_t set_mask,
                        uint32_t set_bits, uint32_t n_sets);
/* The same for every line of access e: how many were new. */
uint32_t mp_vars_footprint_add_access(mp_vars *vs, const mp_event *e);
/* Var's distinct lines become lines (counted by a helper). */
void mp_vars_set_lines(mp_vars *vs, uint32_t var, uint64_t lines);

/* Adds h's counts to the records of var and lc (the counts of (var,
   loc)) and empties h.  Cost: O(1). */
void mp_vars_flush_held(mp_vars *vs, uint32_t var, mp_line_counts *lc, mp_held_counts *h);

/* Starts bringing into the host's cache what mp_vars_access(e, h) will
   read about the footprint, so that the caller can run the other
   analyses of e before it: on scattered accesses that read is a host
   cache miss, which then overlaps with theirs. */
void mp_vars_prefetch(const mp_vars *vs, const mp_event *e, const mp_held_counts *h);

/* Counts outcome o of one access into cc (its variable's) and lc (its
   (variable, location)'s): latency[k] is the cost in cycles of an
   access served by level k, latency[n_levels] of memory.  The inline
   path and the analysis helper process (which keeps its own records,
   by variable and line record id) count with this one function. */
void mp_cache_counts_outcome(mp_cache_counts *cc, mp_line_cache *lc,
                             const mp_cache_outcome *o, uint32_t n_levels,
                             const uint32_t *latency);

/* The same into the records of access e's variable and lc. */
void mp_vars_cache_access(mp_vars *vs, const mp_event *e, mp_line_counts *lc,
                          const mp_cache_outcome *o, uint32_t n_levels,
                          const uint32_t *latency);

/* The same, an L1 hit with nothing else to count held in h (the
   holder's lc must be e's). */
static inline void mp_vars_cache_access_held(mp_vars *vs, const mp_event *e,
                                             mp_line_counts *lc, mp_held_counts *h,
                                             const mp_cache_outcome *o, uint32_t n_levels,
                                             const uint32_t *latency)
{
   if (!o->missed[0] && !o->prefetched[0] && !o->invalidations) {
      h->l1_hits++;
      h->l1_cycles += latency[0];
   } else {
      mp_vars_cache_access(vs, e, lc, o, n_levels, latency);
   }
}

/* Adds hits L1 hits that counted nothing else, of cycles in all, to cc
   and lc: what an instruction (mp_held_counts) or a helper's line
   record held. */
void mp_cache_counts_l1_hits(mp_cache_counts *cc, mp_line_cache *lc, uint64_t hits,
                             uint64_t cycles);

/* Variable var's cache counts, made (zero) if it had none. */
mp_cache_counts *mp_vars_cache_counts(mp_vars *vs, uint32_t var);
/* Replaces them with *cc (counted by the analysis helper process). */
void mp_vars_cache_set(mp_vars *vs, uint32_t var, const mp_cache_counts *cc);

/* The data-TLB outcome of one access: missed or not. */
void mp_cache_counts_tlb(mp_cache_counts *cc, int missed);

/* A line the counts' variable filled left level 'level' after 'hits'
   hits: the reuse factor's data (mp_cache's on_retire). */
void mp_cache_counts_retire(mp_cache_counts *cc, uint32_t level, uint64_t hits);

/* For the advice, which must blame what the program, not the
   prefetcher, leaves to fix: the misses cc would have had at level k
   without the prefetcher, nearly: its misses there plus its prefetched
   hits there and above (each would have missed there and above, and
   reached level k; it may have hit there, and the misses its useless
   prefetches caused would not have been); and the misses at level k
   that no prefetch covered, in all and of cause c.  Without a
   prefetcher, misses[k] and cause[k][c]. */
static inline uint64_t mp_cache_counts_unprefetched(const mp_cache_counts *cc, uint32_t k)
{
   uint64_t n = cc->misses[k];
   uint32_t j;
   for (j = 0; j <= k; j++)
      n += cc->prefetched[j];
   return n;
}

static inline uint64_t mp_cache_counts_uncovered(const mp_cache_counts *cc, uint32_t k)
{
   uint64_t n = 0;
   uint32_t c;
   for (c = 0; c < MP_MISS_N_CAUSES; c++)
      n += cc->covered[k][c];
   return cc->misses[k] - n;
}

static inline uint64_t mp_cache_counts_uncovered_cause(const mp_cache_counts *cc, uint32_t k,
                                                       uint32_t c)
{
   /* The two splits of sampled causes are estimated apart: never below 0. */
   return cc->cause[k][c] > cc->covered[k][c] ? cc->cause[k][c] - cc->covered[k][c] : 0;
}

/* Divides every variable's unclassified misses (sampled miss causes,
   MP_MISS_UNCLASSIFIED) between conflict and capacity, level by level,
   in the proportion of its own classified ones, or of the level's
   (level_cause[k]: mp_cache_get_raw_totals) when it has none; see
   mp_cache_split_unclassified.  Called before the counts are reported;
   calling it again splits only what was counted since.
   mp_cache_counts_split: the same for one variable's counts. */
void mp_vars_split_unclassified(mp_vars *vs, uint32_t n_levels,
                                const uint64_t level_cause[][MP_MISS_N_CAUSES]);
void mp_cache_counts_split(mp_cache_counts *cc, uint32_t n_levels,
                           const uint64_t level_cause[][MP_MISS_N_CAUSES]);

/* Accounts the transfers access e made (mp_sharing_access). */
void mp_vars_sharing(mp_vars *vs, const mp_event *e, mp_line_counts *lc,
                     uint32_t transfers, uint32_t true_transfers);

/* Accounts access e's page: local or remote to its home socket; a
   remote access served from memory costs extra_cycles more than the
   local memory latency counted by mp_vars_cache_access.  first_touch:
   the access placed the page on 'socket'. */
void mp_vars_numa_access(mp_vars *vs, const mp_event *e, mp_line_counts *lc,
                         int remote, int from_memory, uint32_t extra_cycles,
                         int first_touch, uint32_t socket);

/* Accounts one reuse (kind MP_REUSE_COLD/PRIVATE/SHARED, distance in
   lines) of a line an access touched, in the access's per-location
   record lc only: the variable's own histograms are the sum of its
   records', made by mp_vars_reuse_totals.  Counting them per access
   too would touch the variable's 1 KiB of bins, a host cache miss on
   scattered accesses, for the same numbers. */
void mp_vars_reuse(mp_line_reuse *lr, int kind, uint64_t distance);
/* dst becomes a copy of src (bins included); for counts made apart. */
void mp_vars_reuse_set(mp_line_reuse *dst, const mp_line_reuse *src);
/* The line record of that id (mp_line_counts.id), NULL if none. */
mp_line_counts *mp_vars_line_by_id(const mp_vars *vs, uint32_t id);

/* Sets every variable's reuse counts (mp_var.reuse) to the sum of its
   per-location records' (before the report reads them; again later
   sums again from the records). */
void mp_vars_reuse_totals(mp_vars *vs);

/* Calls fn on every per-location record, in no particular order. */
void mp_vars_foreach_line(const mp_vars *vs,
                          void (*fn)(const mp_line_counts *lc, void *arg),
                          void *arg);

/* Names every accessed static local (static_local) fn::name, fn its
   function (the parameter list dropped) as the adapter set it, else
   that of its source location with the most accesses (then set as its
   function).  Once, at exit, before the report is built. */
void mp_vars_name_static_locals(mp_vars *vs);

/* No two program variables share a name: a named stack local whose
   name another program variable has (the heap site its pointer names,
   the local of another function) becomes function::name (cffts1::y0,
   main::small_block), as a static local is.  At exit, after
   mp_vars_name_static_locals; O(n log n). */
void mp_vars_qualify_shared_locals(mp_vars *vs);

/* Forgets every count (a forked child starts from zero); variables,
   their sizes and heap bookkeeping stay. */
void mp_vars_reset_counts(mp_vars *vs);

/* --sample=lines: multiplies by 2^shift, or with a negative shift
   divides back, every count that the sampled lines made (accesses and
   bytes, the cache's counts, the NUMA accesses, the sharing transfers,
   the footprint's lines; per variable and per source line), so that
   the results built from the table are whole-run estimates.  Left as
   they are: the reuse counts (weighted when reported, mp_reuse_weight),
   the NUMA pages (every page has lines in the sample), the detail
   analyses' own counts (strides: not in this table) and the sample's
   sums of squares.
   Multiplying then dividing gives back every count exactly. */
void mp_vars_scale(mp_vars *vs, int shift);

static inline uint64_t mp_counts_accesses(const mp_counts *c)
{
   return c->reads + c->writes;
}

static inline void mp_counts_add(mp_counts *to, const mp_counts *from)
{
   to->reads += from->reads;
   to->writes += from->writes;
   to->read_bytes += from->read_bytes;
   to->write_bytes += from->write_bytes;
}

static inline void mp_cache_counts_add(mp_cache_counts *to, const mp_cache_counts *from)
{
   const uint64_t *f = (const uint64_t *)from;
   uint64_t *t = (uint64_t *)to;
   size_t i;
   /* every field up to sample_line_sq is a uint64_t count */
   for (i = 0; i < offsetof(mp_cache_counts, sample_line_sq) / sizeof(uint64_t); i++)
      t[i] += f[i];
   for (i = 0; i < MP_EST_N; i++) {
      to->sample_line_sq[i] += from->sample_line_sq[i];
      to->sample_set_sum[i] += from->sample_set_sum[i];
      to->sample_set_sq[i] += from->sample_set_sq[i];
   }
}

#endif /* MP_VARS_H */
