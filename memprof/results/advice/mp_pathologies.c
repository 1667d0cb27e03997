/*--------------------------------------------------------------------*/
/*--- memprof: the advice engine: pathologies and their fixes.     ---*/
/*---                                              mp_pathologies.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   One rule per pathology (mp_advice.h), each a small function that
   reads one variable's metrics and either stays silent or fills one
   mp_advice; what the rules share is mp_advisor.h's.  The thresholds
   are written next to each rule with the reason for them;
   docs/memprof.md (ADVICE) lists them for users.  Runs once at exit:
   cost O(variables * per-line records).
*/
#include "mp_advisor.h"
#include "mp_facts.h"
#include "mp_owner.h"
#include "mp_order_replays.h"
#include "mp_util.h"

static const char *const kind_names[MP_ADVICE_N_KINDS] = {
   "false-sharing", "numa-first-touch", "loop-interchange", "conflict-sets",
   "long-stride", "blocking",
   "structure-splitting", "too-many-streams", "no-source"
};

const char *mp_advice_kind_name(mp_advice_kind k)
{
   return kind_names[k];
}

/*------------------------------------------------------------*/
/*--- Lines and loops                                      ---*/
/*------------------------------------------------------------*/

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

/*------------------------------------------------------------*/
/*--- The rules                                            ---*/
/*------------------------------------------------------------*/

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

/* Whether loop l is 'outer' or lies inside it. */
static int within(const mp_advisor *ad, uint32_t l, uint32_t outer)
{
   for (; l != MP_LOOP_NONE; l = mp_loops_get(ad->an->loops, l)->parent)
      if (l == outer)
         return 1;
   return 0;
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
      if (n == 0 || l == MP_LOOP_NONE || !within(ad, l, carrier))
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
   const mp_advisor *ad = arg;
   return mp_class_is_programs(ad->res->loop[loop].cls);
}

/* A far reuse is counted for the carriers only if this many of the
   variable's reuses beyond the level are: fewer (most of them made
   outside the detail windows) is no verdict on the loops. */
#define MIN_CARRIED 100
/* Below this many capacity misses per line of the footprint, a
   variable whose carriers were not seen is walked once or twice after
   an earlier pass, not again and again. */
#define MIN_PASSES 4

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
   if (lc == NULL || !mp_line_stride_dominant(&lc->lstride, &s, &sure, &instr))
      return NULL;
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

/* Capacity misses: a fully associative cache of the level's size would
   miss too, so the line was reused (not cold) only after more distinct
   lines than the level holds.  Blocking brings that reuse distance under
   the capacity.  (A stream with no reuse has cold misses only.)  Half
   the level's misses is where the loop nest, not the odd access, is to
   blame.

   Only the loop that carries the reuses (mp_carriers.h: the innermost
   loop active at both accesses) can be tiled to shorten them, and only
   if one loop carries most of them (read_carriers).  Reuses that no
   loop carries run from one loop nest to another (an initialisation
   loop, then the kernel that reads what it wrote): no tiling helps, and
   the item goes to 'rejected' with that reason (carrier_rejection).
   Without carriers (--loops=no, a sampled reuse mode, or too few of the
   far reuses seen in the detail windows) the rule speaks as before and
   says the carrier is unknown.  An item the carriers let stand is
   replayed tiled, and rejected if the replay does not pay. */
static void rule_blocking(mp_advisor *ad, const mp_var *v, double score)
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

/* Whether layout l is a record the program defines: at least 8 bytes
   with a field wider than a byte, and, for a heap site, blocks whose
   bytes are whole records.  A byte buffer of variable-length records
   (a sorter's, a parser's) shows "fields" at +0, +1, +2... that are
   only the bytes its loops happen to read at those offsets: no layout
   of the program to split. */
static int is_record(const mp_var *v, const mp_struct_layout *l)
{
   uint32_t i, wide = 0;
   if (l->size < 8)
      return 0;
   for (i = 0; i < l->n_fields; i++)
      wide += l->fields[i].size > 1;
   if (wide == 0)
      return 0;
   return v->kind != MP_VAR_HEAP || v->alloc_bytes % l->size == 0;
}

/* Structure splitting (StructSlim): the fields of the variable's
   elements fall into groups used by different loops; each loop drags
   the other groups' bytes through the cache.  Half the variable's
   cycles must be in fields the inference placed, the elements must be
   records (is_record), and the split must have been replayed: its
   evidence is the replay's gain, and a split nobody measured is not
   advised. */
static void rule_split(mp_advisor *ad, const mp_var *v, double score)
{
   const mp_structure *st = ad->res->var[v->id].structure;
   const mp_replay *split = &ad->res->var[v->id].split;
   char *replay, *refuted;
   mp_advice *a;
   if (st == NULL || st->layout.n_groups < 2 || st->layout.covered < 0.5
       || !is_record(v, &st->layout) || !split->made || ad->an->cache == NULL)
      return;
   replay = mp_adv_replay_text(ad, "split", split);
   refuted = mp_adv_replay_refutes(ad, "of the split", split);
   a = mp_adv_new(ad, MP_ADVICE_STRUCTURE_SPLITTING, v, score);
   a->text = mp_asprintf(
               "structure splitting: the loops use different fields of %s's elements",
               v->name);
   a->evidence = mp_asprintf(
               "fields used together (latency-weighted affinity): %s; they cover %.0f%% "
               "of its memory cycles%s", st->split, 100.0 * st->layout.covered, replay);
   a->fix = mp_asprintf(
               "split the structure%s%s%s into one array per group, %s, so that each "
               "loop brings only the fields it uses into the cache",
               v->where ? " (" : "", v->where ? v->where : "", v->where ? ")" : "",
               st->split);
   mp_free(replay);
   mp_adv_fill_where(ad->vs, a, mp_adv_by_l1_misses);
   if (refuted)
      mp_adv_reject_last(ad, refuted);
}

/* More concurrent strided streams in one loop than the hardware
   prefetcher tracks (MACPO 5.2: --prefetch-streams, 16 by default). */
static void rule_streams(mp_advisor *ad, uint64_t total_accesses)
{
   const mp_finished *an = ad->an;
   uint32_t n, i;
   if (an->loops == NULL || an->streams == NULL || total_accesses == 0)
      return;
   n = mp_loops_count(an->loops);
   for (i = 0; i < n; i++) {
      const mp_loop *l = mp_loops_get(an->loops, i);
      const mp_streams_loop *st = mp_streams_get(an->streams, i);
      const mp_loop_result *own = &ad->res->loop[i];
      double share;
      char *place;
      mp_advice *a;
      if (st == NULL || !mp_streams_flagged(an->streams, i))
         continue;
      /* Fission pays when the loop's executions walk too many streams,
         not when one of thousands did (the interpreter's dispatch loop
         of python3: 22 streams once, 0.0 on average). */
      if (2 * st->over_threshold < st->instances)
         continue;
      /* A loop-driven stream needs the loop to iterate: one that runs
         its body about once per execution (python3's Py_RunMain around
         the whole interpreter, 0.5 iterations, "241 streams") only
         encloses code whose instructions repeat for other reasons. */
      if (l->iterations < 2 * l->entries)
         continue;
      /* A loop of the C runtime or the loader (the one in
         __libc_start_main that runs main) is not the program's to
         split, as its variables are not the program's to change. */
      if (!mp_class_is_programs(own->cls))
         continue;
      share = (double)st->accesses / (double)total_accesses;
      if (share < MP_ADVICE_MIN_SHARE)
         continue;
      a = mp_adv_new(ad, MP_ADVICE_TOO_MANY_STREAMS, NULL, share);
      a->loop = i;
      if (l->file)
         place = mp_asprintf("the loop at %s:%u-%u", l->file, l->first_line, l->last_line);
      else {
         const char *fn = mp_vars_location_fn(ad->vs, l->fn);
         place = mp_asprintf("a loop in %s (%s%sno source at hand)", fn ? fn : "code without a symbol",
                             own->object ? own->object : "", own->object ? ": " : "");
      }
      a->text = mp_asprintf(
                  "too many streams: %s walks more arrays at once than the prefetcher "
                  "follows", place);
      mp_free(place);
      a->evidence = mp_asprintf(
                  "up to %u concurrent strided streams in one execution (mean %.1f), "
                  "above --prefetch-streams=%u in %llu of its %llu executions",
                  st->max_streams,
                  st->instances ? (double)st->streams_sum / (double)st->instances : 0.0,
                  mp_streams_config(an->streams)->threshold,
                  (unsigned long long)st->over_threshold,
                  (unsigned long long)st->instances);
      if (l->file)
         a->fix = mp_asprintf(
                  "split the loop (loop fission) so that each loop walks at most %u "
                  "arrays, or merge arrays walked together into one array of structures",
                  mp_streams_config(an->streams)->threshold);
      else
         a->fix = mp_asprintf(
                  "no source at hand: where the source of %s is, split the loop so "
                  "that each walks at most %u arrays", own->object ? own->object
                  : "this code", mp_streams_config(an->streams)->threshold);
   }
}

/*------------------------------------------------------------*/
/*--- Ranking                                              ---*/
/*------------------------------------------------------------*/

static int advice_before(const mp_advice *a, const mp_advice *b)
{
   /* not fixes: below every item that is */
   if ((a->kind == MP_ADVICE_NO_SOURCE) != (b->kind == MP_ADVICE_NO_SOURCE))
      return b->kind == MP_ADVICE_NO_SOURCE;
   if (a->score != b->score)
      return a->score > b->score;
   if (a->kind != b->kind)
      return a->kind < b->kind;
   if (a->var != b->var)
      return a->var < b->var;
   return a->loop < b->loop;
}

static int advice_cmp(const void *a, const void *b)
{
   return advice_before(a, b) ? -1 : advice_before(b, a) ? 1 : 0;
}

static const char *base_name(const char *path)
{
   const char *b = path;
   for (; *path; path++)
      if (*path == '/')
         b = path + 1;
   return b;
}

/* Where the accesses of a variable whose advice points at no source
   line were made: the function and object of its busiest line (by
   cycles, else accesses); the object is the variable's own when the
   code has no symbol (such code shares one location across objects). */
static void busiest_code(const mp_advisor *ad, const mp_var *v, const char **fn,
                         const char **obj)
{
   const mp_line_counts *top = NULL;
   uint32_t i;
   for (i = ad->first[v->id]; i < ad->first[v->id + 1]; i++) {
      const mp_line_counts *lc = ad->lines[i];
      uint64_t c = ad->by_cycles ? lc->cache.cycles : mp_counts_accesses(&lc->c);
      if (top == NULL || c > (ad->by_cycles ? top->cache.cycles : mp_counts_accesses(&top->c)))
         top = lc;
   }
   *fn = top ? mp_vars_location_fn(ad->vs, top->loc) : NULL;
   *obj = top && *fn ? mp_vars_location_object(ad->vs, top->loc) : NULL;
   if (!*obj)
      *obj = v->object;
}

/* An item whose accesses are all in code without line information (a
   library without its debug information): no line of it can be
   changed, no loop named.  Such items are not fixes to rank: they are
   gathered per object into one no-source item, after the others. */
typedef struct {
   const char *object;      /* NULL: code without a symbol */
   const char *fn;          /* the busiest function of the first item */
   mp_strbuf items;         /* "blocking of heap@x (12%), ..." */
   uint32_t n;
   double score;
} no_source_group;

static int same_object(const char *a, const char *b)
{
   return a == b || (a && b && mp_strcmp(a, b) == 0);
}

/* Moves ad->out[i], an item on v, into its object's group. */
static void gather_no_source(mp_advisor *ad, no_source_group **groups, uint32_t *n_groups,
                             const mp_var *v, uint32_t i)
{
   const char *fn, *obj;
   no_source_group *g = NULL;
   mp_advice *a = &ad->out[i];
   uint32_t j;
   busiest_code(ad, v, &fn, &obj);
   for (j = 0; j < *n_groups; j++)
      if (same_object((*groups)[j].object, obj))
         g = &(*groups)[j];
   if (!g) {
      *groups = mp_realloc("mp.advice.nosrc", *groups, (*n_groups + 1) * sizeof **groups);
      g = &(*groups)[(*n_groups)++];
      mp_memset(g, 0, sizeof *g);
      g->object = obj;
      g->fn = fn;
      {
         mp_strbuf empty = MP_STRBUF_INIT;
         g->items = empty;
      }
   }
   mp_strbuf_printf(&g->items, "%s%s of %s (%.1f%%)", g->n ? "; " : "",
                    mp_advice_kind_name(a->kind), v->name, 100.0 * a->score);
   g->n++;
   g->score += a->score;
   mp_free(a->text);
   mp_free(a->evidence);
   mp_free(a->fix);
   if (a->reason)
      mp_free(a->reason);
   ad->out[i] = ad->out[--ad->n];
}

static void add_no_source(mp_advisor *ad, no_source_group *g)
{
   const char *obj = g->object ? base_name(g->object) : NULL;
   char *items = mp_strbuf_take(&g->items);
   mp_advice *a = mp_adv_new(ad, MP_ADVICE_NO_SOURCE, NULL, g->score);
   a->text = mp_asprintf("no source at hand: %u advice item%s on data accessed by %s%s, "
                         "which has no line information", g->n, g->n == 1 ? "" : "s",
                         obj ? obj : "code without a symbol",
                         obj ? "" : " (no object known)");
   a->evidence = mp_asprintf("%s: %.1f%% of the run's %s%s%s", items, 100.0 * g->score,
                             ad->by_cycles ? "memory cycles" : "accesses",
                             g->fn ? "; the first's busiest code is in " : "",
                             g->fn ? g->fn : "");
   if (obj && mp_object_installed_by_system(g->object))
      a->fix = mp_asprintf("install the debug information of %s (on Debian its -dbgsym "
                           "package, or set DEBUGINFOD_URLS) and run again: the items then "
                           "name their source lines and loops; or change how the program "
                           "uses it", obj);
   else if (obj)
      a->fix = mp_asprintf("build %s with debug information (-g) and run again: the items "
                           "then name their source lines and loops", obj);
   else
      a->fix = mp_strdup("mp.advice.nosrc",
                         "find which object the code is in (a JIT's, or a stripped "
                         "program's) and build it with -g; or change how the program "
                         "uses it");
   mp_free(items);
}

mp_advice *mp_advise(const mp_results *res, uint32_t *n_out,
                     mp_advice **rejected, uint32_t *n_rejected)
{
   mp_advisor ad;
   const mp_vars *vs = res->vs;
   uint64_t total = 0;
   uint32_t i, n = mp_vars_count(vs);
   int by_cycles = res->an->cache != NULL;
   double *score;
   no_source_group *no_src = NULL;
   uint32_t n_no_src = 0, j;
   mp_memset(&ad, 0, sizeof ad);
   ad.vs = vs;
   ad.run = res->run;
   ad.an = res->an;
   ad.res = res;
   ad.share = res->share;
   mp_adv_index_lines(&ad, n);
   score = mp_calloc("mp.advice.score", n + 1, sizeof *score);
   for (i = 0; i < n; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      total += by_cycles ? (v->cache ? v->cache->cycles : 0) : mp_counts_accesses(&v->c);
   }
   ad.total = total;
   ad.by_cycles = by_cycles;
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      uint64_t mine = by_cycles ? (v->cache ? v->cache->cycles : 0)
                                : mp_counts_accesses(&v->c);
      score[i] = (double)mine / (double)total;
   }
   /* The walks first: blocking leaves alone the misses of a walk whose
      fix is its loop order or layout. */
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      if (!mp_class_is_programs(v->cls)
          || (v->kind == MP_VAR_OTHER && !v->named_by) || score[i] < MP_ADVICE_MIN_SHARE)
         continue;
      mp_rule_strides(&ad, v);
   }
   for (i = 0; i < n && total > 0; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      uint32_t from = ad.n;
      /* "other" is not a data structure anyone can fix, nor is one
         whose layout the C runtime, the dynamic linker or Valgrind
         decides (_rtld_local, stdio's buffers), debug information or
         not. */
      if (!mp_class_is_programs(v->cls) || (v->kind == MP_VAR_OTHER && !v->named_by))
         continue;
      /* False sharing weighs its own predicted cost: under Valgrind the
         variable's cycles miss the transfers a parallel run pays. */
      mp_rule_false_sharing(&ad, v);
      if (score[i] >= MP_ADVICE_MIN_SHARE) {
         mp_rule_numa(&ad, v, score[i]);
         mp_rule_conflicts(&ad, v, score[i]);
         rule_blocking(&ad, v, score[i]);
         rule_split(&ad, v, score[i]);
      }
      /* Advice whose busiest line is in code without line information
         (a stripped library's loop): gathered per object, below. */
      for (j = ad.n; j-- > from;)
         if (!v->named_by && (ad.out[j].n_where == 0
                              || !mp_vars_location_where(vs, ad.out[j].where[0])))
            gather_no_source(&ad, &no_src, &n_no_src, v, j);
   }
   {
      uint64_t accesses = 0;
      for (i = 0; i < n; i++)
         accesses += mp_counts_accesses(&mp_vars_get(vs, i)->c);
      rule_streams(&ad, accesses);
   }
   for (i = 0; i < n_no_src; i++)
      add_no_source(&ad, &no_src[i]);
   if (no_src)
      mp_free(no_src);
   mp_free(score);
   mp_free(ad.first);
   mp_free(ad.lines);
   if (ad.fixed_loop) mp_free(ad.fixed_loop);
   if (ad.fixed_loc) mp_free(ad.fixed_loc);
   mp_sort(ad.out, ad.n, sizeof *ad.out, advice_cmp);
   mp_sort(ad.rej, ad.n_rej, sizeof *ad.rej, advice_cmp);
   if (rejected) {
      *rejected = ad.rej;
      *n_rejected = ad.n_rej;
   } else
      mp_advice_free(ad.rej, ad.n_rej);
   *n_out = ad.n;
   return ad.out;
}

void mp_advice_free(mp_advice *a, uint32_t n)
{
   uint32_t i;
   for (i = 0; i < n; i++) {
      mp_free(a[i].text);
      mp_free(a[i].evidence);
      mp_free(a[i].fix);
      if (a[i].reason)
         mp_free(a[i].reason);
   }
   if (a)
      mp_free(a);
}
