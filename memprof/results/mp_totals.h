/*--------------------------------------------------------------------*/
/*--- memprof: what the run did as a whole.             mp_totals.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The run's totals over every variable, and what the writers print of
   the analyses as a whole: the simulated hierarchy's geometry, totals
   per level, hottest conflict sets, prefetcher and TLB; the reuse
   distances' sampling weight and bins; the stride analysis'
   configuration and bins.  Made once by mp_results_build, as values.
   No Valgrind header: unit-tested on the host.
*/
#ifndef MP_TOTALS_H
#define MP_TOTALS_H

#include "mp_results_types.h"

/* Counts, threads and (with cycles) estimated cycles of every
   variable. */
void mp_totals_count(const mp_vars *vs, int cycles, mp_totals *out);

/* The hierarchy rc simulated; the caller frees it with mp_free. */
mp_cache_results *mp_totals_cache(const mp_report_cache *rc, const mp_vars *vs);

/* The scale of reuse distances r measured; freed with mp_free. */
mp_reuse_results *mp_totals_reuse(const mp_reuse *r);

/* The configuration and bins of the stride analysis st; freed with
   mp_free. */
mp_stride_results *mp_totals_stride(const mp_stride *st);

#endif /* MP_TOTALS_H */
