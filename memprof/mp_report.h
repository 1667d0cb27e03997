/*--------------------------------------------------------------------*/
/*--- memprof: the output file's JSON document.         mp_report.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Builds the JSON document of format version MP_FORMAT_VERSION from the
   variable table.  The format is documented field by field in
   docs/json-format.md; a metric that was not computed is absent, never
   zero-filled.  Variables smaller than min_var_size are folded into one
   "other" entry here, at output time, so the hot path never sees the
   option.
*/
#ifndef MP_REPORT_H
#define MP_REPORT_H

#include "mp_json.h"
#include "mp_formula.h"
#include "mp_loops.h"
#include "mp_sharing.h"
#include "mp_streams.h"
#include "mp_structs.h"
#include "mp_whatif.h"
#include "mp_setdiag.h"
#include "mp_vars.h"

#define MP_FORMAT_VERSION 1

/* The simulated hierarchy, as the report describes it. */
typedef struct {
   uint32_t n_levels;
   mp_cache_level_cfg level[MP_CACHE_MAX_LEVELS];
   uint32_t latency[MP_CACHE_MAX_LEVELS + 1];   /* cycles; [n_levels]: memory */
   uint32_t cores, cores_per_socket;
   const char *source;                          /* where the geometry came from */
   const char *fallback_why;                    /* or NULL */
   const mp_cache *cache;                       /* for the totals */
   uint64_t instructions;       /* guest instructions, for MPKI; 0: unknown */
   const mp_setdiag *conflicts; /* conflict misses per set, or NULL */
   const mp_cache *tlb;         /* the data TLB, or NULL */
   uint64_t tlb_entries;
   uint32_t tlb_assoc, tlb_page;
} mp_report_cache;

typedef struct {
   const char *tool_version;
   const char *command;          /* client command line */
   uint64_t pid;
   uint32_t line_size;           /* bytes, for the footprint */
   int collect_atstart;
   const char *const *toggle_collect;
   uint32_t n_toggle_collect;
   uint64_t min_var_size;        /* bytes */
   const mp_stride *stride;      /* stride histograms, or NULL: absent */
   const mp_report_cache *cache; /* cache simulation, or NULL: absent */
   const mp_reuse *reuse;        /* reuse distances, or NULL: absent */
   const char *reuse_sampling;   /* "off", "shards", "bursty" */
   double reuse_rate;            /* shards: fraction of lines, else 0 */
   uint32_t reuse_window, reuse_max_gap;  /* bursty: accesses, else 0 */
   /* --sample=periodic|windows: every count of the file is of the
      analysed windows.  window_mode NULL otherwise. */
   const char *window_mode;      /* "periodic" or "windows" */
   uint64_t window, window_gap;  /* instructions: W, and P or G */
   uint64_t windows;             /* windows begun */
   uint64_t instructions_all, instructions_analysed;
   int sharing_enabled;          /* --sharing=yes */
   const mp_sharing *sharing;    /* lines shared between threads, or NULL:
                                    no second thread (or --sharing=no) */
   uint32_t page_size;           /* NUMA simulated with this page size, or 0 */
   uint32_t sockets;
   /* Where the block holding addr starts (for line offsets in a
      variable), or 0 if unknown; may be NULL. */
   int (*block_of)(uint64_t addr, uint64_t *start);
   /* Loops, streams, formulas and structures (--loops), or all NULL. */
   const mp_loops *loops;
   const mp_streams *streams;
   const mp_formula *formula;
   const mp_structs *structs;
   /* What the adapter knows of instruction id (the low 32 bits of a
      formula's key): its source location, the
      variable it last touched ((uint32_t)-1 if none), its address and
      function (location ids); 0 if unknown. */
   int (*instr_info)(uint64_t id, uint32_t *loc, uint32_t *var, uint64_t *iaddr,
                     uint32_t *fn);
   /* The name of the field at offset of var's structure (debug info),
      allocated (freed with mp_free); NULL if unknown.  May be NULL. */
   char *(*field_name)(uint32_t var, uint64_t offset);
   /* Recorded accesses for what-if replays (--what-if), or NULL; which
      replays to make. */
   const mp_whatif *whatif;
   int whatif_split, whatif_pad;
   /* A split or padding whose replay saves less than this percentage
      of the variable's cycles is rejected, not advised. */
   uint32_t whatif_min_gain;
   /* How the process ended: "exit" (end_status its status), "signal"
      (killed: the counts are partial), "exec" (written before an
      execve), or NULL: not known (no "end" written). */
   const char *end_by;
   int end_status;
} mp_report_config;

/* The simulated hierarchy as an mp_cache configuration (no callbacks),
   for replays; 0 without a cache simulation. */
int mp_report_cache_cfg(const mp_report_config *cfg, mp_cache_cfg *out);

/* Writes a replay's result: {"accesses", "complete", "before": {L1: misses,
   ..., "cycles"}, "after": {...}} under key. */
void mp_report_write_whatif(mp_json *j, const char *key, const mp_report_config *cfg,
                            uint32_t var, const mp_whatif_run *before,
                            const mp_whatif_run *after);

/* One row of the report: a variable, or the fold of several. */
typedef struct {
   const mp_var *var;            /* the variable, or NULL for the fold */
   mp_counts c;
   mp_cache_counts cache;        /* zero without a cache simulation */
   uint64_t lines, size;
   uint32_t n_threads;
} mp_report_row;

/* The rows to report (accessed variables, small ones folded), sorted by
   estimated cycles when by_cycles, else by accesses, descending, then by
   name; *n_out is their number.  The caller frees the array with
   mp_free. */
mp_report_row *mp_report_rows(const mp_vars *vs, uint64_t min_var_size,
                              int by_cycles, uint32_t *n_out);

/* Sorts rows in that order. */
void mp_report_sort_rows(mp_report_row *rows, uint32_t n, int by_cycles);

/* Level name: "L1", "L2", "L3". */
const char *mp_report_level_name(uint32_t level);

/* The whole document.  The caller frees it with mp_json_free. */
mp_json *mp_report_json(const mp_vars *vs, const mp_report_config *cfg);

#endif /* MP_REPORT_H */
