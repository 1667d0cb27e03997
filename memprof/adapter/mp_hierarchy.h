/*--------------------------------------------------------------------*/
/*--- memprof: the simulated machine: caches, cores, latencies.    ---*/
/*---                                                mp_hierarchy.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
*/
#ifndef MP_HIERARCHY_H
#define MP_HIERARCHY_H

#include "mp_setdiag.h"
#include "mp_tool.h"

typedef struct {
   mp_cache *cache;                 /* NULL with --cache-sim=no */
   mp_setdiag *conflicts;           /* conflict misses per set; with cache */
   mp_cache *tlb;                   /* data TLB per core (--TLB), or NULL */
   uint64_t tlb_entries;
   uint32_t tlb_assoc, tlb_page;
   UInt n_levels;
   mp_cache_level_cfg level[MP_CACHE_MAX_LEVELS];
   UInt latency[MP_CACHE_MAX_LEVELS + 1];  /* cycles; [n_levels]: memory */
   UInt cores, cores_per_socket;
   const HChar *source;             /* where the geometry came from */
   const HChar *fallback_why;       /* why the host's was not used, or NULL */
} mp_hierarchy;

extern mp_hierarchy mp_g_hier;

/* --sample=lines (mp_set_sample.h): one byte per L1 set, nonzero for a
   set of the sample; a line's L1 set is (address >> line shift) & the
   mask; a count over the sample stands for 2^mp_g_sample_shift.  NULL,
   0 and 0 in the other modes.  The instrumentation tests the table
   inline before calling the access helper. */
extern UChar *mp_g_sample_sets;
extern UWord  mp_g_sample_set_mask;
extern UInt   mp_g_sample_line_shift;
extern UInt   mp_g_sample_shift;
/* ... per L1 set its rank among the sampled sets + 1 (0: not sampled),
   the number of the L1's set bits and of sampled sets: the tables kept
   per line of memory (the reuse history, the footprint) number a
   sampled line by its rank in the sample (mp_set_sample.h). */
extern UInt  *mp_g_sample_rank;
extern UInt   mp_g_sample_set_bits;
extern UInt   mp_g_sample_n_sets;
/* ... and the counts of each sampled line (by its rank) and of each
   sampled set, kept by the process that simulates the caches, for the
   estimates' intervals. */
extern mp_line_sums *mp_g_line_sums;
extern mp_unit_sums *mp_g_set_sums;

/* Whether the access [a, a + size) has a line in the sample: its first,
   or for one wider than 8 bytes its last (as the generated code tests:
   mp_instrument.c). */
static inline Bool mp_sampled_access(Addr a, UInt size)
{
   return mp_g_sample_sets[(a >> mp_g_sample_line_shift) & mp_g_sample_set_mask]
          | (size > 8 && mp_g_sample_sets[((a + size - 1) >> mp_g_sample_line_shift)
                                          & mp_g_sample_set_mask]);
}

/* The cache counts of variable var, where the hierarchy counts them:
   its record in the variable table, or in an analysis helper process
   (mp_helper.h) the helper's own.  The fills' and invalidations' counts
   (made off the access path, in the cache's callbacks) and the TLB's go
   through it. */
extern mp_cache_counts *(*mp_g_hier_counts_of)(UInt var);

/* Builds the hierarchy from the options and the host; a bad geometry
   exits 1 with a message naming the option, before the client runs. */
void mp_hierarchy_init(void);

/* Empty the caches and the set diagnosis, and the TLB, with their
   totals (a forked child starts cold). */
void mp_hierarchy_reset(void);
void mp_hierarchy_reset_tlb(void);

/* Before the counts are reported: with sampled miss causes, divides
   the misses left unclassified between conflict and capacity, in every
   variable's counts (mp_vars_split_unclassified), and scales the set
   diagnosis to the level's estimated conflicts.  A no-op with exact
   causes; calling it again splits only what was counted since. */
void mp_hierarchy_estimate_causes(void);

/* Each level's misses by cause as counted (mp_cache_get_raw_totals):
   the proportions the sampled causes are split in. */
void mp_hierarchy_raw_causes(uint64_t raw[][MP_MISS_N_CAUSES]);

/* The core thread number 'thread' (1-based, creation order) runs on. */
UInt mp_hierarchy_core_of(UInt thread);

#endif /* MP_HIERARCHY_H */
