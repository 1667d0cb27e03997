/*--------------------------------------------------------------------*/
/*--- memprof: command-line options.                      mp_clo.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every option memprof takes is parsed in mp_clo.c and lives here as a
   clo_* variable; nothing else reads the command line.
*/
#ifndef MP_CLO_H
#define MP_CLO_H

#include "pub_tool_basics.h"
#include "mp_cache.h"
#include "mp_prefetch.h"

#define MP_MAX_TOGGLE_PATTERNS 64

extern const HChar *mp_clo_out_file;      /* --memprof-out-file */
extern Int          mp_clo_summary;       /* --summary */
extern Bool         mp_clo_show_runtime;  /* --show-runtime */
extern Bool         mp_clo_output_all;    /* --output-all */
extern Bool         mp_clo_collect_atstart;
extern const HChar *mp_clo_toggle_collect[MP_MAX_TOGGLE_PATTERNS];
extern Int          mp_clo_n_toggle_collect;
/* --alloc-fn: functions taken as allocation functions, as in Massif */
#define MP_MAX_ALLOC_FNS 64
extern const HChar *mp_clo_alloc_fns[MP_MAX_ALLOC_FNS];
extern Int          mp_clo_n_alloc_fns;
extern ULong        mp_clo_min_var_size;  /* --min-var-size, bytes */
/* The simulated machine; 0 or NULL: the host's / the default. */
#define MP_MAX_THREAD_MAP 256
extern Bool         mp_clo_cache_sim;         /* --cache-sim */
extern Bool         mp_clo_miss_causes_sampled; /* --miss-causes=sampled */
extern const HChar *mp_clo_level[3];          /* --L1= --L2= --L3= */
extern const HChar *mp_clo_tlb;               /* --TLB=entries,assoc,page, or NULL */
extern Int          mp_clo_cores;             /* --cores */
extern Int          mp_clo_cores_per_socket;  /* --cores-per-socket */
extern Int          mp_clo_L2_shared_by;      /* --L2-shared-by */
extern Int          mp_clo_L3_shared_by;      /* --L3-shared-by */
extern UInt         mp_clo_latency[5];        /* --latency: L1 L2 L3 mem remote, cycles */
extern UInt         mp_clo_thread_map[MP_MAX_THREAD_MAP][2]; /* --thread-map: thread, core */
extern Int          mp_clo_n_thread_map;
extern const HChar *mp_clo_thread_map_arg;    /* its value, for messages */
extern Bool         mp_clo_reuse;             /* --reuse */
extern Int          mp_clo_analysis_procs;    /* --analysis-procs, -1: auto */
extern Bool         mp_clo_helper_check;      /* --helper-check (debug) */
extern Bool         mp_clo_sharing;           /* --sharing */
extern Bool         mp_clo_sharing_given;     /* --sharing was given */
extern Bool         mp_clo_strides;           /* --strides */
extern Bool         mp_clo_loops;             /* --loops */
extern UInt         mp_clo_prefetch_streams;  /* --prefetch-streams */
extern mp_prefetch_cfg mp_clo_prefetch;       /* --prefetch */
extern const HChar *mp_clo_affinity_dot;      /* --affinity-dot, or NULL */
extern Bool         mp_clo_whatif_split;      /* --what-if=split */
extern Bool         mp_clo_whatif_pad;        /* --what-if=pad */
extern Bool         mp_clo_whatif_interchange; /* --what-if=interchange */
extern Bool         mp_clo_whatif_tile;        /* --what-if=tile */
extern Bool         mp_clo_whatif_fuse;        /* --what-if=fuse */
extern Bool         mp_clo_whatif_fission;     /* --what-if=fission */
extern Bool         mp_clo_whatif_pad_conflicts; /* --what-if=pad-conflicts */
extern UInt         mp_clo_whatif_min_gain;   /* --what-if-min-gain, percent */
extern UInt         mp_clo_page_size;         /* --page-size, bytes, a power of two */
/* --sample: 0 off, 1 shards, 2 bursty (the reuse analysis alone), or
   the whole analysis in windows of instructions (periodic, windows),
   or the detail analyses alone in windows (detail, the default): */
#define MP_SAMPLE_PERIODIC 3
#define MP_SAMPLE_WINDOWS  4
#define MP_SAMPLE_DETAIL   5
/* ... or a sample of the cache lines, whole sets of the L1, followed by
   every per-line analysis from start to exit, the detail analyses in
   detail's windows (lines): */
#define MP_SAMPLE_LINES    6
#define MP_LINES_RATE      (1.0 / 32)    /* lines' default R ... */
#define MP_LINES_PERIOD    10000000ULL   /* ... and its detail windows' P (F: 0,
                                            no longer first window: its cost
                                            would weigh on runs of a few
                                            hundred million instructions) */
#define MP_DETAIL_WINDOW   100000ULL     /* detail's default W, P and F */
#define MP_DETAIL_PERIOD   1000000ULL
#define MP_DETAIL_FIRST    10000000ULL
extern Int          mp_clo_sample_mode;
extern Bool         mp_clo_sample_given;      /* --sample was given */
extern Bool         mp_clo_exact;             /* --exact=yes */
extern double       mp_clo_sample_rate;       /* shards, lines: fraction of lines */
extern UInt         mp_clo_sample_window;     /* bursty: accesses per window */
extern UInt         mp_clo_sample_max_gap;    /* bursty: largest gap, accesses */
extern ULong        mp_clo_window_len;        /* periodic/windows: instructions */
extern ULong        mp_clo_window_gap;        /* periodic: period; windows: largest gap */
extern ULong        mp_clo_window_first;      /* detail: the first window's length */
extern Int          mp_clo_stride_history;    /* --stride-history, K */
extern Bool         mp_clo_stride_filtered;   /* --stride-mode=filtered */
extern ULong        mp_clo_stride_threshold;  /* --stride-threshold, bytes */

Bool mp_clo_process(const HChar *arg);

/* Refuses --option=value as the core refuses a bad option during the
   parsing: on stderr, "Bad option: --option=value", then why (printf
   style, one line), then where to look; exit status 1.  A NULL value
   names the option alone (a level taken from the host).  For the checks
   that need every option (mp_main.c runs them before Valgrind prints
   its banner). */
void mp_bad_option(const HChar *option, const HChar *value, const HChar *format, ...)
   PRINTF_CHECK(3, 4) __attribute__((noreturn));
/* Valgrind's own --trace-children=yes|no, as the core read it. */
Bool mp_clo_trace_children(void);
/* Valgrind's own --fair-sched=yes|try (not no). */
Bool mp_clo_fair_sched(void);
/* Level k's geometry (0-based) from --L<k+1>=, which was given, into
   l->size, assoc and line: "size,assoc,line" (size in bytes, optionally
   with a k/K, m/M or g/G suffix; assoc and line plain numbers), or
   "none" into zeros.  Only the syntax is checked here (a value that is
   not a geometry is refused as a bad option); mp_cache_new checks the
   geometry.  l->name and shared_by are left alone. */
void mp_clo_cache_level(UInt k, mp_cache_level_cfg *l);
void mp_clo_print_usage(void);
void mp_clo_print_debug_usage(void);

#endif /* MP_CLO_H */
