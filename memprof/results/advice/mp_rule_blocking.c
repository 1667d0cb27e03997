/*--------------------------------------------------------------------*/
/*--- memprof: advice on capacity misses: blocking (tiling).       ---*/
/*---                                            mp_rule_blocking.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Pathology: capacity misses (MP_ADVICE_BLOCKING): a fully associative
   cache of the level's size would miss too, so the line was reused
   (not cold) only after more distinct lines than the level holds.
   Blocking brings that reuse distance under the capacity.  (A stream
   with no reuse has cold misses only.)

   Only the loop that carries the reuses (mp_carriers.h: the innermost
   loop active at both accesses) can be tiled to shorten them, and only
   if one loop carries most of them (read_carriers).  Reuses that no
   loop carries run from one loop nest to another (an initialisation
   loop, then the kernel that reads what it wrote): no tiling helps, and
   the item goes to 'rejected' with that reason (carrier_rejection).
   Without carriers (--loops=no, a sampled reuse mode, or too few of the
   far reuses seen in the detail windows) the rule speaks without them
   and says the carrier is unknown.  An item the carriers let stand is
   replayed tiled, and rejected if the replay does not pay.

   Evidence: the level's capacity misses and their share of its misses,
   the level's size in lines, what carries the reuses beyond it (or
   their median distance), and the tiling's replay (mp_order_replays).
   Fix: tile the loops inside the loop that carries the reuses, so that
   the data touched between two uses of a line falls under the level's
   size; without a carrier, block the loop nest around the accesses.
   Thresholds: a variable of MP_ADVICE_MIN_SHARE of the run;
   MP_ADV_MIN_EVENTS capacity misses at a level, and half the level's
   misses, where the loop nest, not the odd access, is to blame; misses
   there worth a fix of their own (mp_adv_misses_matter); MIN_CARRIED
   and MIN_PASSES below for the carriers' verdict.  The first level
   that qualifies is the one to fix; when most of its misses are made
   in walks a stride advice fixes, interchanging, not tiling, is the
   fix.
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_order_replays.h"
#include "mp_owner.h"
#include "mp_util.h"

/* A far reuse is counted for the carriers only if this many of the
   variable's reuses beyond the level are: fewer (most of them made
   outside the detail windows) is no verdict on the loops. */
#define MIN_CARRIED 100
/* Below this many capacity misses per line of the footprint, a
   variable whose carriers were not seen is walked once or twice after
   an earlier pass, not again and again. */
#define MIN_PASSES 4

/* The outermost loop around loop l, or l. */
static uint32_t outermost(const mp_advisor *ad, uint32_t l)
{
   while (mp_loops_get(ad->an->loops, l)->parent != MP_LOOP_NONE)
      l = mp_loops_get(ad->an->loops, l)->parent;
   return l;
}

/* " (the loop nest at f.c:10-20)" for the top line of a, or "". */
static char *nest_of(const mp_advisor *ad, const mp_advice *a)
{
   const mp_line_counts *lc;
   uint32_t l;
   char *w, *t;
   if (a->n_where == 0 || ad->an->loops == NULL
       || (lc = mp_adv_var_line(ad, a->var, a->where[0])) == NULL
       || (l = mp_adv_line_loop(ad, lc)) == MP_LOOP_NONE)
      return mp_strdup("mp.advice.nest", "");
   w = mp_facts_loop_where(ad->an, outermost(ad, l));
   t = mp_asprintf(" (the loop nest at %s)", w);
   mp_free(w);
   return t;
}

/* The bin holding the median of the reuses at distances of 'from'
   lines or more (the far reuses, those a cache of 'from' lines misses);
   0 if there are none. */
static int far_median(const uint64_t *bins, uint64_t from, uint64_t *lo, uint64_t *hi)
{
   uint64_t total = 0, seen = 0, l, h;
   uint32_t b;
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      mp_reuse_bin_bounds(b, &l, &h);
      if (h >= from)
         total += bins[b];
   }
   if (total == 0)
      return 0;
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      mp_reuse_bin_bounds(b, &l, &h);
      if (h < from)
         continue;
      seen += bins[b];
      if (2 * seen >= total)
         break;
   }
   mp_reuse_bin_bounds(b, lo, hi);
   return 1;
}

/* The reuses of lc at distances of 'from' lines or more. */
static uint64_t far_reuses_at(const mp_line_counts *lc, uint64_t from)
{
   uint64_t n = 0, lo, hi;
   uint32_t b;
   if (!lc->reuse.bins)
      return 0;
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      mp_reuse_bin_bounds(b, &lo, &hi);
      if (lo >= from)
         n += lc->reuse.bins[0][b];
   }
   return n;
}

/* The lines of v inside loop 'carrier' with the most private reuses
   beyond 'from' lines: where the capacity misses that tiling the
   carrier removes are taken.  The lines of the most L1 misses when
   none is known. */
static void fill_where_carried(mp_advisor *ad, mp_advice *a, const mp_var *v,
                               uint32_t carrier, uint64_t from)
{
   uint32_t i, j;
   uint64_t val[MP_ADVICE_WHERE];
   a->n_where = 0;
   for (i = ad->first[v->id]; i < ad->first[v->id + 1]; i++) {
      const mp_line_counts *lc = ad->lines[i];
      uint64_t n = far_reuses_at(lc, from);
      uint32_t l = mp_adv_line_loop(ad, lc);
      if (n == 0 || l == MP_LOOP_NONE || !mp_loops_within(ad->an->loops, l, carrier))
         continue;
      j = a->n_where < MP_ADVICE_WHERE ? a->n_where++ : MP_ADVICE_WHERE;
      while (j > 0 && val[j - 1] < n) {
         if (j < MP_ADVICE_WHERE) {
            val[j] = val[j - 1];
            a->where[j] = a->where[j - 1];
         }
         j--;
      }
      if (j < MP_ADVICE_WHERE) {
         val[j] = n;
         a->where[j] = lc->loc;
      }
   }
   if (a->n_where == 0)
      mp_adv_fill_where(ad->vs, a, mp_adv_by_l1_misses_read);
}

/* "4,096-8,191" (lines) for the median of the carrier's reuses at
   'from' lines or more; *factor: how many times 'from' its low end is
   (rounded up to a power of two), the shrink a tile must bring. */
static char *carried_median(const mp_carrier *k, uint64_t from, uint64_t *factor)
{
   uint64_t lo = 0, hi = 0;
   char b1[32], b2[32];
   far_median(k->bins, from, &lo, &hi);
   for (*factor = 1; *factor * from <= lo && *factor < ((uint64_t)1 << 40); *factor *= 2)
      ;
   return mp_asprintf("%s-%s", mp_commas(lo, b1, sizeof b1),
                      hi == UINT64_MAX ? "inf" : mp_commas(hi, b2, sizeof b2));
}

/* A loop of the runtime around main (__libc_start_main's) carries
   nothing the program can tile (mp_carriers_top). */
static int programs_loop(uint32_t loop, void *arg)
{
   return mp_adv_programs_loop(arg, loop);
}

/* The tiling's replay (mp_order_replays) for blocking a at level k, of
   the nest of the dominant instruction of its busiest line, appended
   to its evidence; the reason to reject a if it refutes it, or if it
   could not be made (the tile sizes, and whether any tile pays, are
   the replay's), else NULL. */
static char *replay_blocking(mp_advisor *ad, mp_advice *a, uint32_t k)
{
   const mp_line_counts *lc = a->n_where ? mp_adv_var_line(ad, a->var, a->where[0]) : NULL;
   mp_order_replay o;
   int64_t s;
   uint64_t sure;
   uint32_t instr;
   char *unmade = NULL, *refuted;
   if (lc == NULL || !mp_line_stride_dominant(&lc->lstride, &s, &sure, &instr)) {
      /* The line's accesses ran outside the detail windows (a checksum
         after each time step, a few thousand instructions in millions):
         no instruction of its walk to rebuild the nest from.  Still
         advised, ranked after the replayed items and marked, with the
         reason. */
      const char *w = a->n_where ? mp_vars_location_where(ad->vs, a->where[0]) : NULL;
      mp_replay none;
      mp_memset(&none, 0, sizeof none);
      mp_adv_take_replay(a, mp_asprintf("; no replay: the stride analysis saw no walk at %s "
                                        "(it follows the detail windows, --sample), so no "
                                        "loop nest of its accesses is known to tile",
                                        w ? w : "its busiest line"), &none);
      return NULL;
   }
   mp_replay_tiling(ad->run, ad->an, instr, k, a->loop, &o);
   if (!o.r.made && o.why_not != NULL)
      unmade = mp_asprintf("no tiling was replayed: %s",
                           mp_strncmp(o.why_not, "no replay: ", 11) == 0
                           ? o.why_not + 11 : o.why_not);
   /* NULL when no replay was made */
   refuted = mp_adv_take_order_replay(ad, a, &o, "of the tiling");
   return unmade ? unmade : refuted;
}

/* What the carriers (mp_carriers.h) say of a variable's reuses beyond a
   level's lines. */
typedef enum {
   CARRIER_UNKNOWN,   /* none tracked, or too few seen and the data walked
                         again and again: the rule speaks without them */
   CARRIER_LOOP,      /* one program loop carries more than half: tile in it */
   CARRIER_SPREAD,    /* a program loop carries the most, not half: rejected */
   CARRIER_NONE,      /* no loop carries the most: rejected */
   CARRIER_UNSEEN     /* too few seen, a pass or two over the data: rejected */
} carrier_verdict;

typedef struct {
   carrier_verdict verdict;
   const mp_carrier *top;          /* CARRIER_LOOP and _SPREAD: the loop */
   uint64_t known, carried;        /* reuses beyond, and those of top (or none) */
   uint64_t passes;                /* capacity misses per line of the footprint */
   int sampled;                    /* some far reuses had no carrier seen */
} carriers_read;

/* The carriers' verdict on v's reuses beyond 'lines', cap its capacity
   misses.  Without a verdict on them, the passes over the data decide:
   a capacity miss per line, or two, is one walk after another (a fill,
   then its use), more is the data walked again and again, which tiling
   can shorten. */
static carriers_read read_carriers(mp_advisor *ad, const mp_var *v, uint64_t lines,
                                   uint64_t cap)
{
   const mp_var_carriers *vc = ad->an->carriers
                               ? mp_carriers_of(ad->an->carriers, v->id) : NULL;
   carriers_read cr;
   mp_memset(&cr, 0, sizeof cr);
   cr.passes = cap / (v->lines ? v->lines : 1);
   if (vc) {
      cr.top = mp_carriers_top(vc, lines, programs_loop, ad, &cr.known, &cr.carried);
      cr.sampled = vc->unseen != 0;
   }
   if (ad->an->loops && cr.known >= MIN_CARRIED)
      cr.verdict = cr.top == NULL ? CARRIER_NONE
                 : 2 * cr.carried > cr.known ? CARRIER_LOOP : CARRIER_SPREAD;
   else
      cr.verdict = ad->an->carriers && cr.passes < MIN_PASSES ? CARRIER_UNSEEN
                                                             : CARRIER_UNKNOWN;
   return cr;
}

/* The end of the evidence: what carries the reuses beyond 'lines', or
   their median distance when that is not known.  With a carrier,
   *carrier_w is where its loop is (allocated) and *factor the shrink
   its tile must bring. */
static char *carried_evidence(mp_advisor *ad, const mp_var *v, const carriers_read *cr,
                              uint64_t lines, char **carrier_w, uint64_t *factor)
{
   char b1[32], b2[32], b3[32], *far, *more;
   const char *seen = cr->sampled ? " seen in the detail windows" : "";
   uint64_t lo, hi;
   double share = cr->known ? 100.0 * (double)cr->carried / (double)cr->known : 0.0;
   *carrier_w = NULL;
   if (cr->top && cr->verdict != CARRIER_UNKNOWN && cr->verdict != CARRIER_UNSEEN) {
      char *median = carried_median(cr->top, lines, factor);
      *carrier_w = mp_facts_loop_where(ad->an, cr->top->loop);
      far = mp_asprintf("; %.0f%% of its %s reuses beyond %s lines%s are carried by "
                        "the loop at %s (the innermost loop active at both accesses), "
                        "at a median of %s lines", share, mp_commas(cr->known, b1, sizeof b1),
                        mp_commas(lines, b2, sizeof b2), seen, *carrier_w, median);
      mp_free(median);
      return far;
   }
   if (cr->verdict == CARRIER_NONE)
      return mp_asprintf("; %.0f%% of its %s reuses beyond %s lines%s are carried by "
                         "no loop of the program: they run from one loop nest to another",
                         share, mp_commas(cr->known, b1, sizeof b1),
                         mp_commas(lines, b2, sizeof b2), seen);
   if (!v->reuse || !far_median(v->reuse->private_bins, lines, &lo, &hi))
      return mp_strdup("mp.advice.far", "");
   far = mp_asprintf("; the median of its reuses beyond %s lines is at %s-%s lines",
                     mp_commas(lines, b1, sizeof b1), mp_commas(lo, b2, sizeof b2),
                     hi == UINT64_MAX ? "inf" : mp_commas(hi, b3, sizeof b3));
   if (!ad->an->carriers)
      return far;
   more = mp_asprintf("%s; the loop carrying them is not known (too few seen in the "
                      "detail windows); %llu capacity misses per line of its footprint",
                      far, (unsigned long long)cr->passes);
   mp_free(far);
   return more;
}

/* Why the carriers refute tiling, allocated; NULL when they do not. */
static char *carrier_rejection(const carriers_read *cr, uint64_t lines, uint32_t k)
{
   char b1[32];
   switch (cr->verdict) {
   case CARRIER_NONE:
      return mp_asprintf("no loop carries most of its reuses beyond %s lines: they run "
                         "between separate loop nests (from an initialisation, or an "
                         "earlier phase, to this one), which no tiling brings closer",
                         mp_commas(lines, b1, sizeof b1));
   case CARRIER_SPREAD:
      return mp_asprintf("no one loop carries most of its reuses beyond %s lines (the "
                         "most, %.0f%%): no single loop's tiling brings them under %s's "
                         "size", mp_commas(lines, b1, sizeof b1),
                         100.0 * (double)cr->carried / (double)cr->known,
                         mp_report_level_name(k));
   case CARRIER_UNSEEN:
      return mp_asprintf("the loop carrying its reuses beyond %s lines was not seen (they "
                         "span the detail windows), and its capacity misses are %llu per "
                         "line of its footprint: a pass or two over its data after another "
                         "(a fill, then its use), which tiling would not shorten; "
                         "--exact=yes follows every access and names the carrier",
                         mp_commas(lines, b1, sizeof b1), (unsigned long long)cr->passes);
   default:
      return NULL;
   }
}

/* An item on the first level where v's capacity misses call for a
   tiling, or none. */
void mp_rule_blocking(mp_advisor *ad, const mp_var *v, double score)
{
   const mp_cache_counts *cc = v->cache;
   const mp_report_cache *hc = ad->an->cache;
   uint32_t k;
   if (cc == NULL || hc == NULL)
      return;
   for (k = 0; k < hc->n_levels; k++) {
      uint64_t cap = mp_cache_counts_uncovered_cause(cc, k, MP_MISS_CAPACITY);
      uint64_t all = mp_cache_counts_unprefetched(cc, k);
      uint64_t lines = hc->level[k].size / hc->level[k].line, factor = 1;
      char b1[32], b2[32], b3[32], *far, *carrier_w, *refuted;
      carriers_read cr;
      mp_advice *a;
      if (cap < MP_ADV_MIN_EVENTS || 2 * cap < all || !mp_adv_misses_matter(ad, v, k))
         continue;
      /* Most of them made in walks a stride advice fixes (a column
         walk, or the arrays walked beside it): interchanging, not
         tiling, is the fix. */
      if (2 * mp_adv_misses_in_fixed_walks(ad, v, k) >= cc->misses[k])
         return;
      cr = read_carriers(ad, v, lines, cap);
      far = carried_evidence(ad, v, &cr, lines, &carrier_w, &factor);
      a = mp_adv_new(ad, MP_ADVICE_BLOCKING, v, score);
      a->text = mp_asprintf(
                  "capacity misses: %s is reused, but only after more data than %s holds "
                  "has been touched", v->name, mp_report_level_name(k));
      if (mp_adv_some_covered(cc, k))
         a->evidence = mp_asprintf(
                     "%s: %s capacity misses the prefetcher did not cover (%.0f%% of the "
                     "%s misses it would have without it), %s holds %s lines%s",
                     mp_report_level_name(k), mp_commas(cap, b1, sizeof b1),
                     100.0 * (double)cap / (double)all, mp_commas(all, b3, sizeof b3),
                     mp_report_level_name(k), mp_commas(lines, b2, sizeof b2), far);
      else
         a->evidence = mp_asprintf(
                     "%s: %s capacity misses (%.0f%% of its misses), %s holds %s lines%s",
                     mp_report_level_name(k), mp_commas(cap, b1, sizeof b1),
                     100.0 * (double)cap / (double)all, mp_report_level_name(k),
                     mp_commas(lines, b2, sizeof b2), far);
      mp_free(far);
      if (carrier_w) {
         fill_where_carried(ad, a, v, cr.top->loop, lines);
         a->loop = cr.top->loop;
         a->fix = mp_asprintf(
                  "tile the loops inside the loop at %s, which carries the reuses, so "
                  "that the data touched between two uses of a line of %s falls under "
                  "%s's %s lines: tiles of about 1/%llu of the range those loops walk "
                  "now", carrier_w, v->name, mp_report_level_name(k),
                  mp_commas(lines, b1, sizeof b1), (unsigned long long)factor);
         mp_free(carrier_w);
      } else {
         char *nest;
         const char *w;
         mp_adv_fill_where(ad->vs, a, mp_adv_by_l1_misses_read);
         nest = nest_of(ad, a);
         w = a->n_where ? mp_vars_location_where(ad->vs, a->where[0]) : NULL;
         a->fix = mp_asprintf(
                  "block (tile) the loop nest around its accesses at %s%s so that the "
                  "data reused between iterations fits in %s (reuse distance below %llu "
                  "lines)", w ? w : "?", nest, mp_report_level_name(k),
                  (unsigned long long)lines);
         mp_free(nest);
      }
      refuted = carrier_rejection(&cr, lines, k);
      if (refuted == NULL)
         refuted = replay_blocking(ad, a, k);
      if (refuted)
         mp_adv_reject_last(ad, refuted);
      return;
   }
}
