/*--------------------------------------------------------------------*/
/*--- memprof: the report's rows and their source lines.  mp_rows.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_rows.h.  Runs once, at exit: clarity over speed, but
   linear-ish in the number of per-location records.
*/
#include "mp_rows.h"
#include "mp_facts.h"
#include "mp_util.h"

/*------------------------------------------------------------*/
/*--- Rows                                                 ---*/
/*------------------------------------------------------------*/

static const char *row_name(const mp_report_row *r)
{
   return r->var ? r->var->name : "other";
}

static int sort_by_cycles;

/* Descending stall cycles then cycles (with a cache simulation) or
   accesses, then name, then id: a total order, so the output does not
   depend on the sort's stability.  Variables whose accesses all hit L1
   (no stall) rank after every one that misses, among themselves by
   cycles. */
static int cmp_rows(const void *a_, const void *b_)
{
   const mp_report_row *a = a_, *b = b_;
   uint64_t na = mp_counts_accesses(&a->c), nb = mp_counts_accesses(&b->c);
   int c;
   if (a->estimable != b->estimable)
      return a->estimable ? -1 : 1;
   /* too few lines to estimate their cycles: by their exact accesses */
   if (!a->estimable && na != nb)
      return na > nb ? -1 : 1;
   if (sort_by_cycles && a->stall != b->stall)
      return a->stall > b->stall ? -1 : 1;
   if (sort_by_cycles && a->cache.cycles != b->cache.cycles)
      return a->cache.cycles > b->cache.cycles ? -1 : 1;
   if (na != nb)
      return na > nb ? -1 : 1;
   c = mp_strcmp(row_name(a), row_name(b));
   if (c)
      return c;
   if (!a->var || !b->var)
      return a->var ? 1 : (b->var ? -1 : 0);
   return a->var->id < b->var->id ? -1 : (a->var->id > b->var->id);
}

/* With --min-var-size, "anything else" (kind other: unsymbolised object
   data and unknown memory) joins the fold, as do variables of a known
   size below the minimum. */
static int is_folded(const mp_var *v, uint64_t min_var_size)
{
   if (min_var_size == 0)
      return 0;
   return v->kind == MP_VAR_OTHER || v->size < min_var_size;
}

/* Held L1 hits count in hits[0] with their cycles, so every access
   the simulation saw is in hits[0] + misses[0]; the NUMA remote cost
   is in the cycles and so in the stall. */
uint64_t mp_report_stall(const mp_cache_counts *cc, uint32_t l1_latency)
{
   uint64_t at_l1 = (cc->hits[0] + cc->misses[0]) * (uint64_t)l1_latency;
   return cc->cycles > at_l1 ? cc->cycles - at_l1 : 0;
}

/* What a row's writers print of it besides its counts; the fold mixes
   every class: unattributed. */
static void name_row(mp_report_row *r, uint32_t l1_latency)
{
   r->kind = r->var ? mp_var_kind_name(r->var->kind) : "other";
   r->class_name = mp_class_name(r->var ? r->var->cls : MP_CLASS_OTHER);
   r->accesses = mp_counts_accesses(&r->c);
   r->stall = mp_report_stall(&r->cache, l1_latency);
   r->estimable = 1;
}


/* To r's sums of squared set sums, those of cache counts cc's. */
static void add_sample_sum_sq(mp_report_row *r, const mp_cache_counts *cc)
{
   uint32_t k;
   for (k = 0; k < MP_EST_N; k++)
      r->sample_sum_sq[k] += cc->sample_set_sum[k] * cc->sample_set_sum[k];
}

/* Variables named by the user (MEMPROF_NAME_RANGE) are never folded:
   the user asked to see them. */
mp_report_row *mp_report_rows(const mp_vars *vs, uint64_t min_var_size,
                              int by_cycles, uint32_t l1_latency, uint32_t *n_out)
{
   uint32_t n = mp_vars_count(vs), i, k = 0;
   mp_report_row *rows = mp_calloc("mp.report.rows", n + 1, sizeof *rows);
   mp_report_row fold;
   uint64_t fold_threads[MP_MAX_THREADS / 64];
   mp_memset(&fold, 0, sizeof fold);
   mp_memset(fold_threads, 0, sizeof fold_threads);
   for (i = 0; i < n; i++) {
      const mp_var *v = mp_vars_get(vs, i);
      if (mp_counts_accesses(&v->c) == 0)
         continue;
      if (is_folded(v, min_var_size) && !v->named_by) {
         uint32_t w;
         mp_counts_add(&fold.c, &v->c);
         if (v->cache) {
            mp_cache_counts_add(&fold.cache, v->cache);
            add_sample_sum_sq(&fold, v->cache);
         }
         fold.lines += v->lines;
         fold.size += v->size;
         for (w = 0; w < MP_MAX_THREADS / 64; w++)
            fold_threads[w] |= v->threads[w];
         continue;
      }
      rows[k].var = v;
      rows[k].c = v->c;
      if (v->cache) {
         rows[k].cache = *v->cache;
         add_sample_sum_sq(&rows[k], v->cache);
      }
      rows[k].lines = v->lines;
      rows[k].size = v->size;
      rows[k].n_threads = v->n_threads;
      k++;
   }
   if (mp_counts_accesses(&fold.c)) {
      uint32_t w;
      for (w = 0; w < MP_MAX_THREADS / 64; w++)
         fold.n_threads += __builtin_popcountll(fold_threads[w]);
      rows[k++] = fold;
   }
   for (i = 0; i < k; i++)
      name_row(&rows[i], l1_latency);
   mp_report_sort_rows(rows, k, by_cycles);
   *n_out = k;
   return rows;
}

/* The interval of row r's estimate est of metric k (mp_set_sample.h). */
static void interval(const mp_report_row *r, uint64_t est, uint32_t k, uint32_t shift,
                     uint32_t n_sets, double ci[2])
{
   mp_sample_spread s;
   s.lines = r->sampled_lines;
   s.line_sq = r->cache.sample_line_sq[k];
   s.sets = n_sets;
   s.set_sq = r->cache.sample_set_sq[k];
   s.set_sum_sq = r->sample_sum_sq[k];
   mp_set_sample_interval((double)est, &s, shift, &ci[0], &ci[1]);
}

void mp_report_rows_estimate(mp_report_row *rows, uint32_t n, uint32_t shift, uint32_t n_sets,
                             uint32_t l1_latency, int by_cycles)
{
   uint32_t i, k;
   for (i = 0; i < n; i++) {
      mp_report_row *r = &rows[i];
      r->has_ci = 1;
      r->sampled_lines = r->lines >> shift;
      r->estimable = shift == 0 || r->sampled_lines >= MP_SAMPLE_MIN_LINES;
      interval(r, r->accesses, MP_EST_ACCESSES, shift, n_sets, r->ci_accesses);
      for (k = 0; k < MP_CACHE_MAX_LEVELS; k++)
         interval(r, r->cache.misses[k], MP_EST_MISSES + k, shift, n_sets, r->ci_misses[k]);
      interval(r, r->stall, MP_EST_STALL, shift, n_sets, r->ci_stall);
      if (by_cycles) {
         /* Every access costs the L1's latency, beyond it the stall: with
            the accesses exact, only the stall is the sample's. */
         uint64_t at_l1 = r->accesses * (uint64_t)l1_latency;
         r->cache.cycles = r->stall + at_l1;
         r->ci_cycles[0] = r->ci_stall[0] + (double)at_l1;
         r->ci_cycles[1] = r->ci_stall[1] + (double)at_l1;
      } else {
         r->ci_cycles[0] = r->ci_cycles[1] = (double)r->cache.cycles;
      }
   }
   mp_report_sort_rows(rows, n, by_cycles);
}

static void add_interval(double to[2], const double from[2])
{
   to[0] += from[0];
   to[1] += from[1];
}

void mp_report_row_add_estimate(mp_report_row *to, const mp_report_row *from)
{
   uint32_t k;
   to->sampled_lines += from->sampled_lines;
   to->estimable = to->sampled_lines >= MP_SAMPLE_MIN_LINES;
   add_interval(to->ci_accesses, from->ci_accesses);
   for (k = 0; k < MP_CACHE_MAX_LEVELS; k++)
      add_interval(to->ci_misses[k], from->ci_misses[k]);
   add_interval(to->ci_cycles, from->ci_cycles);
   add_interval(to->ci_stall, from->ci_stall);
}

void mp_report_sort_rows(mp_report_row *rows, uint32_t n, int by_cycles)
{
   sort_by_cycles = by_cycles;
   mp_sort(rows, n, sizeof *rows, cmp_rows);
}

/*------------------------------------------------------------*/
/*--- Per-location records, grouped by row                 ---*/
/*------------------------------------------------------------*/


typedef struct {
   mp_line_result *recs;
   uint64_t n, cap;
   const uint32_t *row_of_var; /* var id -> row index + 1, 0: none */
} line_gather;

static void gather_line(const mp_line_counts *lc, void *arg)
{
   line_gather *g = arg;
   uint32_t row = g->row_of_var[lc->var];
   if (!row || mp_counts_accesses(&lc->c) == 0)
      return;
   if (g->n == g->cap) {
      g->cap = g->cap ? 2 * g->cap : 1024;
      g->recs = mp_realloc("mp.report.lines", g->recs, g->cap * sizeof(mp_line_result));
   }
   g->recs[g->n].row = row - 1;
   g->recs[g->n].loc = lc->loc;
   g->recs[g->n].c = lc->c;
   mp_memcpy(g->recs[g->n].stride_classes, lc->stride_classes,
             sizeof lc->stride_classes);
   g->recs[g->n].lstride = lc->lstride;
   mp_memcpy(g->recs[g->n].cache_misses, lc->cache.misses, sizeof lc->cache.misses);
   g->recs[g->n].cycles = lc->cache.cycles;
   mp_memcpy(g->recs[g->n].reuse_sum, lc->reuse.sum, sizeof lc->reuse.sum);
   mp_memcpy(g->recs[g->n].reuse_n, lc->reuse.n, sizeof lc->reuse.n);
   g->recs[g->n].reuse_cold = lc->reuse.cold;
   g->recs[g->n].invalidations = lc->cache.invalidations;
   g->recs[g->n].coherence_misses = lc->cache.coherence_misses;
   g->recs[g->n].transfers = lc->transfers;
   g->recs[g->n].reuse_bins = (const uint64_t (*)[MP_REUSE_N_BINS])lc->reuse.bins;
   g->recs[g->n].has_strides = 0;
   {
      uint32_t c;
      for (c = 0; c < MP_STRIDE_N_CLASSES; c++)
         g->recs[g->n].has_strides |= lc->stride_classes[c] != 0;
   }
   g->n++;
}

static int cmp_by_row_loc(const void *a_, const void *b_)
{
   const mp_line_result *a = a_, *b = b_;
   if (a->row != b->row) return a->row < b->row ? -1 : 1;
   if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
   return 0;
}

static int cmp_by_row_accesses(const void *a_, const void *b_)
{
   const mp_line_result *a = a_, *b = b_;
   uint64_t na = mp_counts_accesses(&a->c), nb = mp_counts_accesses(&b->c);
   if (a->row != b->row) return a->row < b->row ? -1 : 1;
   if (na != nb) return na > nb ? -1 : 1;
   if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
   return 0;
}

/* Sorted by row, then accesses descending; a folded row's records at
   the same location are merged into one. */
static mp_line_result *gather_lines(const mp_vars *vs, const mp_report_row *rows,
                              uint32_t n_rows, uint64_t *n_out)
{
   uint32_t n_vars = mp_vars_count(vs), i, fold_row = 0;
   uint32_t *row_of_var = mp_calloc("mp.report.rov", n_vars + 1, sizeof(uint32_t));
   line_gather g;
   uint64_t r, w;
   for (i = 0; i < n_rows; i++) {
      if (rows[i].var)
         row_of_var[rows[i].var->id] = i + 1;
      else
         fold_row = i + 1;
   }
   if (fold_row)
      for (i = 0; i < n_vars; i++)
         if (!row_of_var[i])
            row_of_var[i] = fold_row;
   mp_memset(&g, 0, sizeof g);
   g.row_of_var = row_of_var;
   mp_vars_foreach_line(vs, gather_line, &g);
   mp_sort(g.recs, g.n, sizeof(mp_line_result), cmp_by_row_loc);
   for (r = 0, w = 0; r < g.n; r++) {
      if (w > 0 && g.recs[w - 1].row == g.recs[r].row
          && g.recs[w - 1].loc == g.recs[r].loc) {
         uint32_t c;
         mp_counts_add(&g.recs[w - 1].c, &g.recs[r].c);
         for (c = 0; c < MP_STRIDE_N_CLASSES; c++)
            g.recs[w - 1].stride_classes[c] += g.recs[r].stride_classes[c];
         for (c = 0; c < MP_CACHE_MAX_LEVELS; c++)
            g.recs[w - 1].cache_misses[c] += g.recs[r].cache_misses[c];
         g.recs[w - 1].cycles += g.recs[r].cycles;
         for (c = 0; c < 2; c++) {
            g.recs[w - 1].reuse_sum[c] += g.recs[r].reuse_sum[c];
            g.recs[w - 1].reuse_n[c] += g.recs[r].reuse_n[c];
         }
         g.recs[w - 1].reuse_bins = NULL;   /* merged: the fold's */
         g.recs[w - 1].reuse_cold += g.recs[r].reuse_cold;
         g.recs[w - 1].invalidations += g.recs[r].invalidations;
         g.recs[w - 1].coherence_misses += g.recs[r].coherence_misses;
         g.recs[w - 1].transfers += g.recs[r].transfers;
         g.recs[w - 1].has_strides |= g.recs[r].has_strides;
      }
      else
         g.recs[w++] = g.recs[r];
   }
   mp_sort(g.recs, w, sizeof(mp_line_result), cmp_by_row_accesses);
   mp_free(row_of_var);
   *n_out = w;
   return g.recs;
}

/* The dominant stride of the line's instructions (of those it surely
   made) and the loop it was made in. */
static void describe_stride(const mp_finished *an, mp_line_result *lr)
{
   uint32_t instr;
   lr->dominant_loop = MP_LOOP_NONE;
   lr->has_dominant = mp_line_stride_dominant(&lr->lstride, &lr->dominant,
                                              &lr->dominant_sure, &instr);
   if (lr->has_dominant)
      lr->dominant_loop = mp_facts_instr_loop(an, instr);
}

mp_line_result *mp_rows_lines(const mp_finished *an, const mp_report_row *rows,
                              uint32_t n_rows, uint64_t *n_out)
{
   mp_line_result *lines = gather_lines(an->vars, rows, n_rows, n_out);
   uint64_t i;
   for (i = 0; i < *n_out; i++) {
      mp_line_result *lr = &lines[i];
      lr->where = mp_vars_location_where(an->vars, lr->loc);
      lr->fn = mp_vars_location_fn(an->vars, lr->loc);
      lr->accesses = mp_counts_accesses(&lr->c);
      if (an->stride)
         describe_stride(an, lr);
   }
   return lines;
}

