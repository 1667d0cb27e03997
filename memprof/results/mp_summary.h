/*--------------------------------------------------------------------*/
/*--- memprof: what the exit summary ranks.           mp_summary.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The exit summary ranks the program's data: the report's rows of the
   program's variables, rows with the same kind, name, where, function
   and object merged, and for heap sites the same frames up to the one
   that names them (two call chains reaching one allocation line are
   two sites, one line of the summary); the variables of the C runtime,
   the dynamic linker, Valgrind's preload and unattributed memory are
   folded into one line per object (mp_owner.h).  With show_runtime
   every row is ranked, merged alike, and nothing folded.  The JSON
   keeps every variable: this is only what the summary shows.  Then the
   variables worst for false sharing and the NUMA balance.  Made once by
   mp_results_build; the writer (mp_exit_summary.c) only prints it.  No
   Valgrind header: unit-tested on the host.
*/
#ifndef MP_SUMMARY_H
#define MP_SUMMARY_H

#include "mp_results_types.h"

#define MP_SUMMARY_SHARED_VARS 3

/* The variables of one object outside the program's data. */
typedef struct {
   mp_var_class cls;
   const char *class_name;
   const char *object;     /* the object's file name; NULL: none (other) */
   mp_counts c;
   uint64_t accesses;
   uint64_t cycles;
   uint64_t stall;         /* stall cycles beyond an L1 hit: the order */
   uint32_t n_vars;        /* variables folded here, twins as one */
   /* Its variable with the most cycles (accesses without a cache
      simulation): what the object spends them on. */
   const mp_var *top;      /* NULL: the --min-var-size fold */
   uint64_t top_rank;
   /* A library the system installed, folded by its place, not by its
      name (mp_class_by_place): it may be doing the program's work. */
   int by_place;
} mp_summary_fold;

/* A variable falsely shared: its falsely shared lines of its shared
   ones, the false transfers predicted for a parallel run (no more than
   its accesses) and those Valgrind's serial run saw; and of the
   placements of its blocks in a line (mp_share_var), how many would
   share falsely (0: none, or not evaluated) and its own.  A variable
   with no false sharing where its blocks lie is here when another
   placement would have some. */
typedef struct {
   const mp_var *var;
   uint64_t false_lines, shared_lines;
   uint64_t predicted_false, seen;
   uint32_t false_placements, placements, current;
   /* Ranks it: predicted_false; for a variable lucky where its blocks
      lie, its accesses, the most its lines could move elsewhere. */
   uint64_t rank;
} mp_summary_shared;

struct mp_summary {
   mp_report_row *rows;    /* ranked, most stall cycles (or accesses) first */
   uint32_t n_rows;
   mp_summary_fold *folds; /* the same order */
   uint32_t n_folds;
   uint64_t reads, writes; /* of every row of the report */
   /* The cycles (accesses without a cache simulation) of every row and
      of the program's: the shares of the folds. */
   uint64_t all_rank, program_rank;
   /* With the sharing analysis (sharing): the worst variables, most
      false transfers predicted first. */
   int sharing;
   mp_summary_shared shared[MP_SUMMARY_SHARED_VARS];
   uint32_t n_shared;
   /* A variable's seen false transfers are two orders of magnitude
      below the prediction: Valgrind's serial schedule kept its threads
      apart (1: say so, with --fair-sched=yes; 2: so it did although it
      ran with --fair-sched). */
   int serial_schedule;
   /* The OpenMP runtime spin-waited (several threads, no wait policy
      set): its name and the accesses of its data (its fold's), which
      Valgrind's one-thread-at-a-time schedule turns into long spins
      that are no work of the program's. */
   const char *openmp_spin;
   uint64_t openmp_accesses, all_accesses;
   /* With NUMA simulated (numa): accesses local and remote to their
      page's socket, and the variable with the most remote ones (NULL:
      none of the program's). */
   int numa;
   uint64_t numa_local, numa_remote;
   const mp_var *numa_worst;
   uint64_t numa_worst_remote;
};

/* From the report's rows (mp_report_rows; they must outlive it), by
   stall cycles then cycles when by_cycles, else by accesses. */
mp_summary *mp_summary_make(const mp_report_row *rows, uint32_t n_rows,
                            int show_runtime, int by_cycles);

/* Whether false transfers seen under Valgrind are two orders of
   magnitude below those predicted for a parallel run (and the
   prediction is not a handful): Valgrind ran the threads one after the
   other rather than interleaved. */
int mp_summary_schedule_hid(uint64_t predicted_false, uint64_t seen);

/* The false sharing, NUMA and OpenMP lines, from res's rows and
   sharing summary. */
void mp_summary_threads(mp_summary *s, const mp_results *res);

void mp_summary_free(mp_summary *s);

/* One entry of the output file's variables: a row held in full (what
   a report reads: the program's variables, the --min-var-size fold,
   with --show-runtime those above the report's threshold, every row
   with --output-all), or the summary of the others' twins (same
   class, kind, name, where, function and object: the rows
   memprof_annotate shows as one), their counts summed as it merges
   them.  Most cycles (accesses) first, the rows' order kept. */
struct mp_file_entry {
   uint32_t row;           /* in full: its row; a summary: its first twin */
   int summary;
   mp_report_row sum;      /* a summary: the twins' counts */
   uint64_t blocks, alloc_bytes;   /* a summary of heap sites: summed */
};

/* The report's default threshold (memprof_annotate --threshold): a
   variable with less of all the cycles (accesses) is not in its
   table. */
#define MP_DETAIL_THRESHOLD_PERMILLE 1

mp_file_entry *mp_summary_file_entries(const mp_results *res, uint32_t *n);

/* The objects of the program's variables (res->program_objects). */
const char **mp_summary_program_objects(const mp_results *res, uint32_t *n);

#endif /* MP_SUMMARY_H */
