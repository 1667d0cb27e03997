/*--------------------------------------------------------------------*/
/*--- memprof: what the results are made of.     mp_results_types.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The types every builder of the results and every writer shares:
   what the results are built from (the run, the finished analyses,
   the adapter's queries) and the results themselves, plain values:
   every one a writer prints, so that a writer calls no engine.  A header of
   types only, so that the builders (mp_facts, mp_share, mp_replays,
   mp_advice) and mp_results.c, which calls them all, include it and
   not each other.  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_RESULTS_TYPES_H
#define MP_RESULTS_TYPES_H

#include "mp_carriers.h"
#include "mp_formula.h"
#include "mp_loops.h"
#include "mp_setdiag.h"
#include "mp_sharing.h"
#include "mp_streams.h"
#include "mp_structs.h"
#include "mp_vars.h"
#include "mp_whatif.h"

/*------------------------------------------------------------*/
/*--- What the results are built from                      ---*/
/*------------------------------------------------------------*/

/* The simulated hierarchy: its geometry and the finished simulation. */
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

/* What the run was and how it was measured: plain data. */
typedef struct {
   const char *tool_version;
   const char *command;          /* client command line */
   uint64_t pid;
   uint32_t line_size;           /* bytes, for the footprint */
   int collect_atstart;
   const char *const *toggle_collect;
   uint32_t n_toggle_collect;
   uint64_t min_var_size;        /* bytes */
   int show_runtime;             /* the summary ranks every class */
   int output_all;               /* every variable in full (--output-all) */
   /* Which objects are the program's (mp_owner.h): the executable's
      build tree (NULL: not known) and the --program-objects patterns. */
   const char *program_tree;
   const char *const *program_patterns;
   uint32_t n_program_patterns;
   uint32_t summary_rows;        /* rows the exit summary shows (--summary) */
   int affinity_dot;             /* the structures' DOT is written */
   /* --sample=lines: the counts are estimates from a sample of 1 in
      2^line_sample_shift of the lines (sample_sets of the L1's
      l1_sets); line_sample 0 otherwise. */
   int line_sample;
   uint32_t line_sample_shift, sample_sets, l1_sets;
   /* ... and of the exact count of accesses, those whose instructions
      never reached the sample nor a detail window: no variable's. */
   uint64_t unattributed_accesses;
   const char *reuse_sampling;   /* "off", "shards", "bursty" */
   double reuse_rate;            /* shards: fraction of lines, else 0 */
   uint32_t reuse_window, reuse_max_gap;  /* bursty: accesses, else 0 */
   /* --sample=periodic|windows: every count of the file is of the
      analysed windows; --sample=detail: the counts of the detail
      analyses (strides, loops) only.  window_mode NULL otherwise. */
   const char *window_mode;      /* "periodic", "windows" or "detail" */
   uint64_t window, window_gap;  /* instructions: W, and P or G */
   uint64_t windows;             /* windows begun */
   uint64_t instructions_all, instructions_analysed;
   /* The detail analyses that ran: "strides" and "loops", as on; the
      accesses the loop analysis saw. */
   int detail_strides, detail_loops;
   uint64_t detail_loop_accesses;
   uint32_t detail_weight;       /* what a stride of a later window counts */
   int sharing_enabled;          /* --sharing=yes */
   uint32_t page_size;           /* NUMA simulated with this page size, or 0 */
   uint32_t sockets;
   int whatif_split, whatif_pad; /* which replays to make */
   int whatif_interchange;       /* loop-interchange advice replayed */
   int whatif_tile;              /* blocking advice replayed */
   int whatif_pad_conflicts;     /* conflict-sets advice replayed padded */
   int whatif_fuse;              /* loop-fusion advice replayed fused */
   int whatif_fission;           /* too-many-streams advice replayed split */
   /* A split, padding, interchange or tiling whose replay saves less than
      this percentage of the (variable's or nest's) cycles is rejected,
      not advised. */
   uint32_t whatif_min_gain;
   int fair_sched;               /* Valgrind ran with --fair-sched=yes|try */
   /* The OpenMP runtime the program loaded (its file name: libgomp,
      LLVM's libomp), or NULL; and whether the user chose how its
      threads wait (OMP_WAIT_POLICY, GOMP_SPINCOUNT, KMP_BLOCKTIME). */
   const char *openmp_runtime;
   int openmp_wait_set;
   /* How the process ended: "exit" (end_status its status), "signal"
      (killed: the counts are partial), "exec" (written before an
      execve), or NULL: not known (no "end" written). */
   const char *end_by;
   int end_status;
} mp_run;

/* What the adapter knew of one instrumented instruction. */
typedef struct {
   uint32_t loc;        /* source location (mp_vars_location) */
   uint32_t var;        /* the variable it last touched, UINT32_MAX: none */
   uint64_t iaddr;
   uint32_t fn;         /* location id of its function alone */
   int known;           /* 0: no such instruction */
   /* Its accesses (mp_instr.executed: with --sample=lines every one,
      else those the analyses saw), and the innermost loop of its
      function containing it (MP_LOOP_NONE: none). */
   uint64_t executed;
   uint32_t loop;
} mp_instr_fact;

/* The finished analyses, read-only from here on; an analysis that did
   not run is NULL (its sections are absent from the report). */
typedef struct {
   const mp_vars *vars;
   const mp_stride *stride;
   const mp_report_cache *cache;
   const mp_reuse *reuse;
   const mp_carriers *carriers;  /* loops carrying far reuses, or NULL */
   const mp_sharing *sharing;    /* NULL: no second thread (or --sharing=no) */
   /* Loops, streams, formulas and structures (--loops), or all NULL. */
   const mp_loops *loops;
   const mp_streams *streams;
   const mp_formula *formula;
   const mp_structs *structs;
   const mp_whatif *whatif;      /* recorded accesses (--what-if), or NULL */
   /* Instruction id (dense; the low 32 bits of a formula's key) ->
      what the adapter knew of it. */
   const mp_instr_fact *instrs;
   uint32_t n_instrs;
} mp_finished;

/* What only the adapter can answer, asked while the results are built
   (never by a writer); either may be NULL. */
typedef struct {
   /* Where the block holding addr starts, its length and its variable
      (var may be NULL); 0 if unknown. */
   int (*block_of)(uint64_t addr, uint64_t *start, uint64_t *len, uint32_t *var);
   /* The name of the bytes [offset, offset + size) of var's structure
      (the debug information, or the source's declaration of a heap
      site's type), allocated (freed with mp_free); NULL if unknown. */
   char *(*field_name)(uint32_t var, uint64_t offset, uint64_t size);
   /* The members of var's structure as its source declares them
      (ascending offsets), *n of them, in a structure of *size bytes;
      NULL if unknown.  The adapter's, valid until the results are
      built. */
   const mp_struct_unit *(*declared_members)(uint32_t var, uint32_t *n, uint64_t *size);
   /* The file of the object whose code is at iaddr, or NULL; the
      adapter's string, valid until the results are built. */
   const char *(*code_object)(uint64_t iaddr);
} mp_adapter_queries;

/*------------------------------------------------------------*/
/*--- The results                                          ---*/
/*------------------------------------------------------------*/

/* Plain data: every value a writer prints is here, made by
   mp_results_build; a writer calls no engine.  A char * is the
   results' own (mp_results_free frees it); a const char * is borrowed
   from what outlives the results: the variable table's names and
   source locations, the run's and the adapter's strings, an engine's
   constant names.  A const pointer to an engine's record (mp_var,
   mp_loop, mp_stride_var, ...) is read for its fields only. */

/* One row of the report: a variable, or the fold of several. */
typedef struct {
   const mp_var *var;            /* the variable, or NULL for the fold */
   const char *kind;             /* its kind's name, "other" for the fold */
   const char *class_name;       /* whose code (mp_owner.h); the fold's: "other" */
   mp_counts c;
   uint64_t accesses;            /* reads + writes */
   mp_cache_counts cache;        /* zero without a cache simulation */
   /* Memory stall cycles: what its accesses cost beyond an L1 hit,
      cache.cycles less the L1 latency of every simulated access.  What
      a change of layout can save, and so what the rows rank by: an
      access that hits L1 costs its latency whatever the layout. */
   uint64_t stall;
   uint64_t lines, size;
   uint32_t n_threads;
   /* --sample=lines: every count above is an estimate (mp_set_sample.h),
      has_ci set and each interval [lo, hi] at 95%.  estimable 0: the
      sample holds fewer than MP_SAMPLE_MIN_LINES of its lines
      (sampled_lines), too few to estimate from; such rows rank after
      the others and their counts are not shown as numbers. */
   int has_ci, estimable;
   uint64_t sampled_lines;
   /* Over its variables, the square of each one's
      cache.sample_set_sum: with cache.sample_set_sq, the spread between
      sets of each variable, summed (a fold's variables taken as
      independent). */
   double sample_sum_sq[MP_EST_N];
   double ci_accesses[2], ci_cycles[2], ci_stall[2];
   double ci_misses[MP_CACHE_MAX_LEVELS][2];
} mp_report_row;

/* One row's counts at one source location (a fold's records at one
   location merged). */
typedef struct {
   uint32_t row;       /* index into the sorted rows */
   uint32_t loc;
   const char *where, *fn;       /* the location: "file:line", function; or NULL */
   mp_counts c;
   uint64_t accesses;            /* reads + writes */
   uint64_t stride_classes[MP_STRIDE_N_CLASSES];
   int has_strides;              /* a stride class is not zero */
   mp_line_stride lstride;
   /* The dominant stride of the line's instructions, if one is
      (has_dominant): its bytes, the strides it surely made, and the
      loop it was made in (MP_LOOP_NONE: none known). */
   int has_dominant;
   int64_t dominant;
   uint64_t dominant_sure;
   uint32_t dominant_loop;
   uint64_t cache_misses[MP_CACHE_MAX_LEVELS];
   uint64_t cycles;
   uint64_t reuse_sum[2], reuse_n[2], reuse_cold;
   uint64_t invalidations, coherence_misses, transfers;
   /* the record's reuse histograms, or NULL; only a variable's own
      records are written, never merged ones (the fold's) */
   const uint64_t (*reuse_bins)[MP_REUSE_N_BINS];
} mp_line_result;

/* The whole run's counts, over every variable (folded ones too). */
typedef struct {
   mp_counts c;
   uint64_t accesses;
   uint32_t threads;             /* threads that accessed anything */
   uint64_t cycles;              /* estimated, with a cache simulation */
} mp_totals;

/* The sets of a level with the most conflict misses, and who collides. */
#define MP_RESULTS_CONFLICT_SETS 5

typedef struct {
   uint32_t set;
   uint64_t conflicts;
   struct {
      const char *name;          /* the variable's */
      uint64_t conflicts, error;
   } vars[MP_SETDIAG_SLOTS];
   uint32_t n_vars;
} mp_conflict_set;

/* One level of the simulated hierarchy: its geometry and what it did. */
typedef struct {
   const char *name;             /* "L1", ... */
   mp_cache_level_cfg cfg;
   uint32_t latency;             /* cycles */
   double cause_sample_rate;     /* lines whose miss causes were told
                                    apart; 0: not known (no simulation) */
   mp_cache_totals totals;
   mp_conflict_set conflict_sets[MP_RESULTS_CONFLICT_SETS];
   uint32_t n_conflict_sets;
} mp_level_results;

/* The simulated hierarchy as the report shows it. */
typedef struct {
   uint32_t n_levels;
   mp_level_results level[MP_CACHE_MAX_LEVELS];
   uint32_t memory_latency;
   uint32_t cores, cores_per_socket;
   const char *source, *fallback_why;  /* the adapter's (mp_report_cache) */
   const char *miss_causes;      /* "sampled", "exact"; NULL: no simulation */
   int conflict_sets;            /* the levels' conflict sets were found */
   /* The prefetcher: its kind's name (NULL: no simulation), streams
      per core and the level it fills; its counts are written only when
      prefetching. */
   const char *prefetch_kind;
   int prefetching;
   uint32_t prefetch_streams;
   const char *prefetch_level;
   mp_cache_prefetch_totals prefetch;
   uint64_t instructions;        /* for MPKI; 0: not known */
   int tlb;                      /* a data TLB was simulated: */
   uint64_t tlb_entries;
   uint32_t tlb_assoc, tlb_page;
   mp_cache_totals tlb_totals;
} mp_cache_results;

/* The reuse distances' scale: the sampling weight of the counts and
   each bin's bounds (lines; hi UINT64_MAX: infinity). */
typedef struct {
   double weight;
   uint64_t bin_lo[MP_REUSE_N_BINS], bin_hi[MP_REUSE_N_BINS];
} mp_reuse_results;

/* The stride analysis' configuration and each bin's bounds (bytes; hi
   UINT64_MAX: infinity). */
typedef struct {
   mp_stride_cfg cfg;
   uint64_t bin_lo[MP_STRIDE_N_BINS], bin_hi[MP_STRIDE_N_BINS];
} mp_stride_results;

/* A what-if replay of a variable's recorded accesses. */
typedef struct {
   int made;                     /* 0: not made (the rest is zero) */
   int complete;                 /* all the variable's accesses replayed */
   mp_whatif_run before, after;
} mp_replay;

/* An inferred structure (StructSlim), with its fields' names. */
typedef struct {
   mp_struct_layout layout;
   char **names;                 /* per field, from the debug info, or NULL */
   char *split;                  /* "{ a, c } / { b, d }" */
   int overlapping;              /* fields overlap (mp_facts_fields_overlap) */
   char *dot;                    /* its affinity graph as Graphviz DOT
                                    (with --affinity-dot), or NULL */
} mp_structure;

/* An access formula of a loop's instruction, as the report shows it. */
typedef struct {
   const char *where;            /* the instruction's source line */
   const char *variable;         /* the variable it last touched, or NULL */
   char *terms;                  /* "8*i1 + 1088*i2", without the constant */
   int64_t base;                 /* the address (or offset) at all counters 0 */
   int in_block;                 /* base is an offset in a heap block */
   double fit;                   /* share of the accesses it fits */
   uint64_t accesses;
} mp_formula_result;

/* A loop: whose code it is (its head's object), where, and what the
   report says of it. */
typedef struct {
   mp_var_class cls;
   const char *class_name;
   char *object;                 /* its file name, or NULL: not known */
   const mp_loop *loop;          /* the loop forest's record */
   const char *function;         /* its function's name, or NULL */
   char *where;                  /* "file:first-last" */
   const mp_streams_loop *streams;   /* its streams, or NULL */
   /* Accesses in its instances, its inner loops' apart: the streams'
      count; with --sample=lines, whose loop analysis sees the detail
      windows alone, at least the exact count of its own instructions'
      accesses (a callee's are not among them). */
   uint64_t accesses;
   int flagged;                  /* more streams than a prefetcher tracks */
   mp_formula_result *formulas;  /* its busiest (of a loop shown), or NULL */
   uint32_t n_formulas;
} mp_loop_result;

typedef struct mp_share_summary mp_share_summary;
typedef struct mp_advice mp_advice;
typedef struct mp_summary mp_summary;
typedef struct mp_file_entry mp_file_entry;

/* Per variable: what its sections and its advice read. */
typedef struct {
   /* The name a table shows (mp_short_name: a C++ frame without its
      parameter list), or NULL: the name itself. */
   char *label;
   mp_structure *structure;      /* inferred (enough accesses), or NULL */
   mp_replay split;              /* --what-if=split of that structure */
   mp_replay pad;                /* --what-if=pad of its falsely shared lines */
   /* Its stride histograms (with the stride analysis), or NULL, and
      their dominant stride if one is (has_dominant). */
   const mp_stride_var *strides;
   int has_dominant;
   int64_t dominant;
   uint64_t dominant_count;
} mp_var_results;

typedef struct mp_results {
   const mp_run *run;            /* plain data, the writers read it too */
   /* What the results are built from: the builders read them, never a
      writer. */
   const mp_finished *an;
   const mp_vars *vs;            /* an->vars */
   /* What the writers read. */
   int by_cycles;                /* rows ranked by cycles (a cache simulation) */
   mp_report_row *rows;          /* accessed variables, small ones folded */
   uint32_t n_rows;
   mp_line_result *lines;        /* by row, then by accesses, descending */
   uint64_t n_lines;
   uint64_t *first_line;         /* row i: lines[first_line[i] .. first_line[i+1]) */
   mp_totals totals;
   /* The analyses' results; NULL: the analysis did not run. */
   mp_cache_results *cache;
   mp_reuse_results *reuse;
   mp_stride_results *stride;
   mp_share_summary *share;      /* sharing between threads */
   mp_var_results *var;          /* by variable id */
   uint32_t n_vars;
   mp_loop_result *loop;         /* by loop id, or NULL without loops */
   uint32_t n_loops;
   uint32_t *loops_shown;        /* the loops the report lists, in its order */
   uint32_t n_loops_shown;
   mp_advice *advice, *rejected; /* ranked */
   uint32_t n_advice, n_rejected;
   mp_summary *summary;          /* what the exit summary shows */
   mp_file_entry *file_entries;  /* the output file's variables */
   uint32_t n_file_entries;
   /* The objects (and mapped files) of the program's variables, each
      once, in the rows' order. */
   const char **program_objects;
   uint32_t n_program_objects;
} mp_results;

/* Level name: "L1", "L2", "L3". */
static inline const char *mp_report_level_name(uint32_t level)
{
   static const char *const names[] = { "L1", "L2", "L3" };
   return level < 3 ? names[level] : "L?";
}

#endif /* MP_RESULTS_TYPES_H */
