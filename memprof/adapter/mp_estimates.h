/*--------------------------------------------------------------------*/
/*--- memprof: whole-run estimates from a sample of the lines.     ---*/
/*---                                                mp_estimates.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   With --sample=lines the analyses count the sampled lines' accesses
   only.  Before an output is built, mp_estimates_make turns the counts
   into whole-run estimates, in place: every count of the sample times
   2^shift (mp_vars_scale, and the levels' totals), then the accesses
   of each instruction that touched one variable replaced by its exact
   count, which the translated code keeps inline (mp_instr.executed),
   and those of instructions of several variables split among them by
   the same count (mp_estimates.c says how).
   mp_estimates_undo gives back the sample's counts exactly (the run
   may go on after an output written before an execve).  The intervals
   are the results layer's (mp_report_rows_estimate).
*/
#ifndef MP_ESTIMATES_H
#define MP_ESTIMATES_H

#include "pub_tool_basics.h"

void mp_estimates_make(void);
void mp_estimates_undo(void);

/* Of the exact counts, the accesses of instructions that never
   reached the access helper (none of their accesses in the sample nor
   in a detail window): whose variable is not known.  Valid after
   mp_estimates_make. */
ULong mp_estimates_unattributed(void);

#endif /* MP_ESTIMATES_H */
