/*--------------------------------------------------------------------*/
/*--- memprof: advice on pages placed on the wrong NUMA node.      ---*/
/*---                                                mp_rule_numa.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: NUMA first touch (MP_ADVICE_NUMA_FIRST_TOUCH, MACPO 5.4,
   Listing 3): one thread's first touch placed all of a variable's
   pages on its socket, and threads on other sockets use them remotely.
   Evidence: the variable's NUMA hit ratio, its remote accesses, and
   the thread that placed its pages and on which socket.
   Fix: a parallel first touch (each thread initialises the part it
   later computes on), or pages interleaved (numactl --interleave=all).
   Thresholds: a variable of MP_ADVICE_MIN_SHARE of the run, used by
   two threads or more and placed by one; MP_ADV_MIN_EVENTS remote
   accesses (fewer is noise), and 10% of its accesses remote, where a
   memory-bound loop starts to notice (remote latency 1.5x local and
   more).
*/
#include "mp_advisor.h"
#include "mp_util.h"

void mp_rule_numa(mp_advisor *ad, const mp_var *v, double score)
{
   const mp_numa_counts *n = v->numa;
   uint64_t all;
   char b1[32], b2[32], b3[32];
   mp_advice *a;
   if (n == NULL || v->n_threads < 2 || n->n_placers != 1)
      return;
   all = n->local + n->remote;
   if (n->remote < MP_ADV_MIN_EVENTS || n->remote * 10 < all)
      return;
   a = mp_adv_new(ad, MP_ADVICE_NUMA_FIRST_TOUCH, v, score);
   a->text = mp_asprintf(
               "NUMA: one thread placed all of %s on its socket, other sockets use it remotely",
               v->name);
   a->evidence = mp_asprintf(
               "NUMA hit ratio %.1f%%: %s of %s accesses remote; thread %u placed all %s of "
               "its pages on socket %u", 100.0 * (double)n->local / (double)all,
               mp_commas(n->remote, b1, sizeof b1), mp_commas(all, b2, sizeof b2),
               n->placer[0].tid, mp_commas(n->placer[0].pages, b3, sizeof b3),
               n->placer[0].socket);
   a->fix = mp_asprintf(
               "initialise it in parallel, each thread first touching the part it later "
               "computes on (parallel first touch), or interleave its pages "
               "(numactl --interleave=all)");
   mp_adv_fill_where(ad->vs, a, mp_adv_by_accesses);
}
