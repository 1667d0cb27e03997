/*--------------------------------------------------------------------*/
/*--- memprof: the report's rows and their source lines.  mp_rows.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The rows (accessed variables ranked, small ones folded into one),
   each with its kind's and class's names and its accesses, and each
   row's source lines with their text, their accesses and the dominant
   stride of their instructions.  Made once by mp_results_build.  No
   Valgrind header: unit-tested on the host.
*/
#ifndef MP_ROWS_H
#define MP_ROWS_H

#include "mp_results_types.h"

/* The rows to report (accessed variables, small ones folded), with
   their stall cycles beyond an L1 hit of l1_latency cycles, sorted by
   stall cycles, then estimated cycles when by_cycles, else by accesses,
   descending, then by name; *n_out is their number.  The caller frees
   the array with mp_free. */
mp_report_row *mp_report_rows(const mp_vars *vs, uint64_t min_var_size,
                              int by_cycles, uint32_t l1_latency, uint32_t *n_out);

/* A variable needs this many lines in a sample of the lines
   (--sample=lines) for its counts to be estimated. */
#define MP_SAMPLE_MIN_LINES 2

/* --sample=lines, n_sets sets sampled, 1 in 2^shift: the rows'
   intervals from their variables' counts by line and by set, and
   whether each has enough lines in the sample (any, when every line
   is: shift 0); sorted again (rows too few to estimate last).  The
   rows' counts are the estimates already (mp_vars_scale), but for the
   cycles, which become the exact accesses at l1_latency plus the
   estimated stall. */
void mp_report_rows_estimate(mp_report_row *rows, uint32_t n, uint32_t shift, uint32_t n_sets,
                             uint32_t l1_latency, int by_cycles);

/* Row from's estimate merged into to's (twins of one variable): their
   sampled lines and the ends of their intervals summed. */
void mp_report_row_add_estimate(mp_report_row *to, const mp_report_row *from);

/* The stall cycles of cache counts cc beyond an L1 hit of l1_latency
   cycles: the cycles less l1_latency per access that reached L1. */
uint64_t mp_report_stall(const mp_cache_counts *cc, uint32_t l1_latency);

/* Sorts rows in that order. */
void mp_report_sort_rows(mp_report_row *rows, uint32_t n, int by_cycles);

/* The rows' source lines, by row, then by accesses, descending; a
   folded row's records at one location merged.  The dominant stride of
   a line's instructions is placed in its loop when an->loops tells.
   *n_out is their number; the caller frees the array with mp_free. */
mp_line_result *mp_rows_lines(const mp_finished *an, const mp_report_row *rows,
                              uint32_t n_rows, uint64_t *n_out);

#endif /* MP_ROWS_H */
