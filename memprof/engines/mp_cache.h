/*--------------------------------------------------------------------*/
/*--- memprof: the multilevel cache hierarchy simulation.          ---*/
/*---                                                   mp_cache.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   One to three levels of set-associative LRU caches, write-allocate,
   write-back, per-core private or shared instances, with simplified
   write-invalidate coherence between instances.  Each
   access returns where it was served from, which levels it missed and
   why (cold / capacity / conflict / coherence, or capacity-or-conflict
   when the split is sampled), the write-backs and
   the invalidations it caused; the caller attributes them to the
   accessing variable.  For the reuse factor, the engine reports every
   line leaving a cache (eviction, invalidation, end of run) with the
   owner tag of the access that filled it and its hits since the fill.

   The model and its cost per access are described at the top of
   mp_cache.c (the LRU core) and of the files of each part it names
   (miss causes, cold bits, coherence, the L1 oracle, the prefetcher's
   hook, the configuration), which share the private mp_cache_int.h.
   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_CACHE_H
#define MP_CACHE_H

#include "mp_platform.h"
#include "mp_prefetch.h"

#define MP_CACHE_MAX_LEVELS 3
#define MP_CACHE_MAX_CORES  1024
#define MP_CACHE_MIN_LINE   8      /* bytes */

typedef struct {
   const char *name;     /* "L1", ... for messages; NULL: "L<k+1>"; copied */
   uint64_t size;        /* bytes; nonzero */
   uint32_t assoc;       /* ways per set; size/line makes it fully associative */
   uint32_t line;        /* bytes per line: a power of two >= MP_CACHE_MIN_LINE,
                            the same at every level */
   uint32_t shared_by;   /* cores per instance: 1 private, = cores one shared
                            cache; divides cores, and is a multiple of the
                            level above's (an instance lies within one
                            instance of every deeper level) */
} mp_cache_level_cfg;

typedef struct {
   uint32_t n_levels;                          /* 1..MP_CACHE_MAX_LEVELS */
   mp_cache_level_cfg level[MP_CACHE_MAX_LEVELS];
   uint32_t cores;                             /* 1..MP_CACHE_MAX_CORES */
   /* Called once per fill of a line, when the line leaves the cache
      instance (eviction, invalidation, mp_cache_finish): level is
      0-based, owner the tag of the access that filled it, hits the
      hits on the line at that level since that fill.  May be NULL. */
   void (*on_retire)(void *arg, uint32_t level, uint32_t owner, uint64_t hits);
   /* Called for every copy another core's write invalidates (before its
      on_retire), with the owner tag of the access that filled it: the
      invalidations a variable suffers.  May be NULL. */
   void (*on_invalidate)(void *arg, uint32_t level, uint32_t owner);
   void *retire_arg;
   /* Sampling of the conflict/capacity split, 0: exact.  With s > 0, in
      each level with more than one set and at least
      MP_CACHE_SAMPLE_MIN_LINES lines per instance, only the lines in a
      1/2^s sample (by a hash of the line number) feed the fully-
      associative shadow, which has lines >> s entries; the others'
      capacity-or-conflict misses are MP_MISS_UNCLASSIFIED.  Everything
      else (hits, misses, cold and coherence misses, write-backs, the
      cache contents) is as with 0.  At most MP_CACHE_MAX_SAMPLE_SHIFT;
      a level's shadow keeps at least MP_CACHE_SAMPLE_MIN_SHADOW lines
      (the shift is lowered for it if need be). */
   uint32_t sample_shift;
   /* The accesses fed are a sample of whole sets (--sample=lines): those
      of 1 in 2^s of the L1's sets, and so of every deeper level's (a
      deeper level has at least the L1's sets, and a line's set there
      keeps its L1 set's number in its low bits).  Each sampled set then
      behaves as in the full run; only the fully-associative shadows,
      which see every set's lines at once, are scaled to what the sample
      fills of them: lines >> s entries (SHARDS's scaled cache).  At most
      log2 of the L1's sets; no prefetcher (it trains across sets) and
      no L1 oracle.  0: every access is fed.  sampled_sets (the caller's,
      read while the cache lives) says which of the L1's sets are in the
      sample, 1 byte each: the caller feeds only accesses whose first
      line is, and of an access straddling lines the others' are
      skipped, so that no set outside the sample is ever filled. */
   uint32_t set_sample_shift;
   const uint8_t *sampled_sets;
   /* The hardware prefetcher, one per core (MP_PREFETCH_NONE, zero: no
      prefetcher).  It trains on the core's demand misses: the accesses
      that miss L1, and those that hit a line a prefetch brought into L1
      that no access has touched since (those would have missed without
      it).  It prefetches into L2, or into L1 when there is one level
      (mp_cache_prefetch_level): a prefetch is not an access; it looks
      the line up there, and if absent brings it in as a read miss would,
      through the normal fill of that level and of the levels below that
      miss it (LRU eviction, write-backs counted), marking it prefetched
      at each; a prefetch of a line already there does nothing. */
   mp_prefetch_cfg prefetch;
} mp_cache_cfg;

/* --miss-causes=sampled: 1/16 of the lines.  The smallest sampled level
   then keeps a 1,024-line shadow (a 1 MiB cache of 64-byte lines), and
   an L3 of 32 MiB one of 32K lines: 1.5 MiB of host memory instead of
   24, touched 16 times less often. */
#define MP_CACHE_SAMPLED_SHIFT     4
#define MP_CACHE_MAX_SAMPLE_SHIFT  16
/* Smaller levels (an L1, most L2s) stay exact: their shadow is small
   enough to stay in the host's caches (under 768 KiB), so sampling would
   save little, and a sample of it would be too few lines to estimate
   from. */
#define MP_CACHE_SAMPLE_MIN_LINES  16384
#define MP_CACHE_SAMPLE_MIN_SHADOW 1024

typedef enum {
   MP_MISS_NONE,
   MP_MISS_COLD,        /* no core of the instance accessed the line before
                           (without a prefetcher: it was never there) */
   MP_MISS_CAPACITY,    /* a fully-associative LRU cache of the same size
                           would have missed too */
   MP_MISS_CONFLICT,    /* ... would have hit */
   MP_MISS_COHERENCE,   /* the line was invalidated here by another
                           core's write and not refilled since */
   MP_MISS_UNCLASSIFIED,/* capacity or conflict, not told apart: the line
                           is outside the level's sample (sample_shift);
                           see mp_cache_split_unclassified */
   MP_MISS_N_CAUSES
} mp_miss_cause;

/* What one access did.  For an access straddling lines, a level counts
   one miss if any of its lines missed there (as Cachegrind counts). */
typedef struct {
   uint32_t served_by;      /* deepest level any line reached: 0..n_levels-1,
                               n_levels = memory */
   uint8_t  missed[MP_CACHE_MAX_LEVELS];     /* 1 if some line missed level k */
   uint8_t  cause[MP_CACHE_MAX_LEVELS];      /* mp_miss_cause of the first line
                                                missing level k, else NONE */
   uint32_t writebacks[MP_CACHE_MAX_LEVELS]; /* dirty lines evicted from level k */
   uint32_t invalidations;  /* copies removed from other cores' caches,
                               by the access or by its prefetches */
   /* 1 if a line of the access hit level k on a line that a prefetch
      brought there and that no access had touched since: a hit the
      prefetcher provided (without it, a miss).  That touch ends the
      line's prefetched state: it counts as the line's fill, not as a
      hit of the reuse factor, and the line's owner becomes the
      access's.  Only with a prefetcher. */
   uint8_t  prefetched[MP_CACHE_MAX_LEVELS];
   /* 1 if the access touched one line and hit it in L1 in a way that an
      access with the same owner filled: that owner has touched the line
      before, which the caller's footprint need not look up again. */
   uint8_t  owner_hit;
} mp_cache_outcome;

/* Totals of one level over all its instances, summed from the outcomes
   (accesses and misses count accesses, not lines, as Cachegrind). */
typedef struct {
   uint64_t accesses;        /* accesses that reached the level */
   uint64_t misses;          /* ... and missed it */
   uint64_t cause[MP_MISS_N_CAUSES];  /* misses by cause; [MP_MISS_NONE] is 0 */
   uint64_t writebacks;      /* dirty lines evicted from the level */
   uint64_t invalidations;   /* copies invalidated at the level */
   uint64_t prefetched;      /* hits (accesses - misses) with
                                outcome.prefetched set at the level */
} mp_cache_totals;

/* What the prefetcher did, at its level (mp_cache_prefetch_level). */
typedef struct {
   uint64_t requests;   /* lines the detectors asked for */
   uint64_t issued;     /* ... that were not in the level: brought in */
   uint64_t useful;     /* issued lines that a demand access then touched
                           there (outcome.prefetched) */
   uint64_t useless;    /* issued lines that left the level untouched:
                           evicted, invalidated, or still there at
                           mp_cache_finish (after which issued = useful
                           + useless) */
} mp_cache_prefetch_totals;

typedef struct mp_cache mp_cache;

/* Builds the hierarchy, empty.  On a bad configuration returns NULL and
   sets *err to a one-line message naming the level and the problem
   ("L2: 3 sets is not a power of two"); the message lives in a static
   buffer, valid until the next call of this file's functions. */
mp_cache *mp_cache_new(const mp_cache_cfg *cfg, const char **err);

/* Simulates one access of size bytes at addr by core (< cores); size 0
   counts as 1.  owner is the caller's tag (a variable id) remembered by
   the lines this access fills.  pc: the address of the accessing
   instruction, or 0 if unknown (the stride prefetcher's key).  Fills
   *out. */
void mp_cache_access(mp_cache *c, uint32_t core, uint64_t addr, uint32_t size,
                     int is_write, uint32_t owner, uint64_t pc, mp_cache_outcome *out);

/* Whether a fully associative LRU cache of cap lines, fed core's
   accesses, holds line now, lines [first, line) of the same access
   having just been accessed (first == line: none): the capacity or
   conflict verdict of an L1 miss of line. */
typedef int (*mp_cache_l1_oracle)(void *arg, uint32_t core, uint64_t first,
                                  uint64_t line, uint64_t cap);

/* The L1's lines, the capacity its miss causes are judged against. */
uint64_t mp_cache_l1_lines(const mp_cache *c);

/* Before the first access: the L1 instances keep no shadow of their own
   (stepped at every access, hits included) and ask fn at each miss
   instead.  For an oracle that knows each core's accesses, such as a
   reuse-distance history while one thread runs per core, the verdicts
   are the same.  Returns 0, and changes nothing, where the L1 has no
   exact shadow to spare (one set, a sampled shadow) or a prefetcher
   fills it. */
int mp_cache_set_l1_oracle(mp_cache *c, mp_cache_l1_oracle fn, void *arg);

/* The oracle, and its arg, if one is set, else NULL. */
mp_cache_l1_oracle mp_cache_get_l1_oracle(const mp_cache *c, void **arg);

/* Ends the oracle: from now on the L1 instances keep their shadows,
   core's holding lines[0..n) (n <= mp_cache_l1_lines, least recently
   used first, what the oracle held) and the others' empty, which is
   right when only core has accessed. */
void mp_cache_l1_shadows(mp_cache *c, uint32_t core, const uint64_t *lines, uint32_t n);

/* Ends the run: retires every resident line through on_retire (dirty
   lines are not counted as write-backs).  No access may follow. */
void mp_cache_finish(mp_cache *c);

void mp_cache_free(mp_cache *c);

/* Per-level totals so far (level 0-based, < n_levels), with the
   unclassified misses of a sampled level divided between conflict and
   capacity (mp_cache_split_unclassified with the level's own counts):
   cause[MP_MISS_UNCLASSIFIED] is 0. */
void mp_cache_get_totals(const mp_cache *c, uint32_t level, mp_cache_totals *t);

/* The same as counted: a sampled level's conflict and capacity misses
   are the sampled lines' only, the others' are in
   cause[MP_MISS_UNCLASSIFIED]. */
void mp_cache_get_raw_totals(const mp_cache *c, uint32_t level, mp_cache_totals *t);

/* Replaces level's raw totals with *t: those an analysis helper
   process (mp_helper.h), which simulated the accesses, counted. */
void mp_cache_set_raw_totals(mp_cache *c, uint32_t level, const mp_cache_totals *t);

/* The configuration's sample_shift, and the shift in effect at level
   (0: its causes are exact). */
uint32_t mp_cache_sample_shift(const mp_cache *c);
uint32_t mp_cache_level_sample_shift(const mp_cache *c, uint32_t level);

/* The estimated split: divides cause[MP_MISS_UNCLASSIFIED] between
   cause[MP_MISS_CONFLICT] and cause[MP_MISS_CAPACITY] in the proportion
   of those two, or, when both are 0, of ref's (the level's raw totals;
   may be NULL); with no classified miss in either, all go to capacity
   (no evidence of a conflict).  Rounded so that the causes still sum to
   the misses; cause[MP_MISS_UNCLASSIFIED] is 0 after. */
void mp_cache_split_unclassified(uint64_t cause[MP_MISS_N_CAUSES],
                                 const uint64_t ref[MP_MISS_N_CAUSES]);

/* The prefetcher's configuration (kind MP_PREFETCH_NONE: none), the
   level it fills (0-based: 1, or 0 with one level), and its totals so
   far (zeros without one). */
const mp_prefetch_cfg *mp_cache_prefetch_config(const mp_cache *c);
uint32_t mp_cache_prefetch_level(const mp_cache *c);
void mp_cache_get_prefetch_totals(const mp_cache *c, mp_cache_prefetch_totals *t);

/* Bytes of metadata allocated, for -v statistics and tests. */
uint64_t mp_cache_bytes(const mp_cache *c);

/* Address space that the tables of one instance of level k take (its
   ways and shadow, allocated at the first access of one of its cores,
   resident only where written), for a cfg that passes mp_cache_new's
   checks except the bound below.  The caller can check before the
   program runs that the system grants that much. */
uint64_t mp_cache_instance_table_bytes(const mp_cache_cfg *cfg, uint32_t k);

/* mp_cache_new refuses a hierarchy whose tables, over all the instances
   of every level, would take more.  Per
   line of a level, its ways take 32 bytes and its shadow 16 (exact) or
   about 2 (sampled 1/16): an L3 of 16 GiB with 64-byte lines takes 8.5
   GiB with the sampled miss causes, 12 GiB with exact ones. */
#define MP_CACHE_MAX_TABLE_BYTES (32ULL << 30)

#endif /* MP_CACHE_H */
