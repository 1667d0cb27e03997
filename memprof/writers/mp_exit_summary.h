/*--------------------------------------------------------------------*/
/*--- memprof: the summary printed at exit.       mp_exit_summary.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The exit summary, from the results: how the run was sampled, the
   accesses, the simulated hierarchy's totals, the top variables (the
   ranking is the results' mp_summary), the data outside the program's
   by object, false sharing and NUMA, the top of the advice, and where
   the output went.  Only writes, through the caller's print: no
   Valgrind header (the adapter prints on Valgrind's log).
*/
#ifndef MP_EXIT_SUMMARY_H
#define MP_EXIT_SUMMARY_H

#include "mp_results.h"

/* Takes one line of the summary, with its newline. */
typedef void (*mp_exit_print_fn)(void *arg, const char *line);

/* The summary of res; output names the output file, written whole
   (written) or not. */
void mp_exit_summary(const mp_results *res, const char *output, int written,
                     mp_exit_print_fn print, void *arg);

#endif /* MP_EXIT_SUMMARY_H */
