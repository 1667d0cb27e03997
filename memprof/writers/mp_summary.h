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
   keeps every variable: this is only what the summary shows.  No
   Valgrind header: unit-tested on the host.
*/
#ifndef MP_SUMMARY_H
#define MP_SUMMARY_H

#include "mp_results.h"

/* The variables of one object outside the program's data. */
typedef struct {
   mp_var_class cls;
   const char *object;     /* the object's file name; NULL: none (other) */
   mp_counts c;
   uint64_t cycles;
   uint32_t n_vars;        /* variables folded here, twins as one */
} mp_summary_fold;

typedef struct {
   mp_report_row *rows;    /* ranked, most cycles (or accesses) first */
   uint32_t n_rows;
   mp_summary_fold *folds; /* the same order */
   uint32_t n_folds;
} mp_summary;

/* From the report's rows (mp_report_rows; they must outlive it), by
   cycles when by_cycles, else by accesses. */
mp_summary *mp_summary_make(const mp_report_row *rows, uint32_t n_rows,
                            int show_runtime, int by_cycles);
void mp_summary_free(mp_summary *s);

#endif /* MP_SUMMARY_H */
