/*--------------------------------------------------------------------*/
/*--- memprof: the results, built once at exit.        mp_results.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The rows (variables ranked, small ones folded), each row's source
   lines, and mp_results_build, which makes every result in an order
   where each reads only what is made before it: rows and lines, the
   sharing summary, the structures, the replays, then the advice, which
   weighs them all.  Runs once, at exit: clarity over speed, but
   linear-ish in the number of per-location records.
*/
#include "mp_results.h"
#include "mp_advice.h"
#include "mp_facts.h"
#include "mp_replays.h"
#include "mp_share.h"
#include "mp_util.h"

/*------------------------------------------------------------*/
/*--- Rows                                                 ---*/
/*------------------------------------------------------------*/

static const char *row_name(const mp_report_row *r)
{
   return r->var ? r->var->name : "other";
}

static int sort_by_cycles;

/* Descending cycles (with a cache simulation) or accesses, then name,
   then id: a total order, so the output does not depend on the sort's
   stability. */
static int cmp_rows(const void *a_, const void *b_)
{
   const mp_report_row *a = a_, *b = b_;
   uint64_t na = mp_counts_accesses(&a->c), nb = mp_counts_accesses(&b->c);
   int c;
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





/* Variables named by the user (MEMPROF_NAME_RANGE) are never folded:
   the user asked to see them. */
mp_report_row *mp_report_rows(const mp_vars *vs, uint64_t min_var_size,
                              int by_cycles, uint32_t *n_out)
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
         if (v->cache)
            mp_cache_counts_add(&fold.cache, v->cache);
         fold.lines += v->lines;
         fold.size += v->size;
         for (w = 0; w < MP_MAX_THREADS / 64; w++)
            fold_threads[w] |= v->threads[w];
         continue;
      }
      rows[k].var = v;
      rows[k].c = v->c;
      if (v->cache)
         rows[k].cache = *v->cache;
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
   mp_report_sort_rows(rows, k, by_cycles);
   *n_out = k;
   return rows;
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
   mp_memcpy(g->recs[g->n].cache_misses, lc->cache_misses, sizeof lc->cache_misses);
   g->recs[g->n].cycles = lc->cycles;
   mp_memcpy(g->recs[g->n].reuse_sum, lc->reuse_sum, sizeof lc->reuse_sum);
   mp_memcpy(g->recs[g->n].reuse_n, lc->reuse_n, sizeof lc->reuse_n);
   g->recs[g->n].reuse_cold = lc->reuse_cold;
   g->recs[g->n].invalidations = lc->invalidations;
   g->recs[g->n].coherence_misses = lc->coherence_misses;
   g->recs[g->n].transfers = lc->transfers;
   g->recs[g->n].reuse_bins = (const uint64_t (*)[MP_REUSE_N_BINS])lc->reuse_bins;
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

/*------------------------------------------------------------*/
/*--- Building                                             ---*/
/*------------------------------------------------------------*/

/* The structure of every variable with enough accesses (folded ones
   too: the advice weighs every variable), and the replays of its split
   and of padding its falsely shared lines.  Padding removes the false
   transfers: worth a replay only where a parallel run would have
   some. */
static void build_var_results(mp_results *res, const mp_adapter_queries *ask)
{
   uint32_t i;
   for (i = 0; i < res->n_vars; i++) {
      const mp_var *v = mp_vars_get(res->vs, i);
      mp_var_results *vr = &res->var[i];
      const mp_share_var *sv = mp_share_var_of(res->share, i);
      if (mp_counts_accesses(&v->c) >= MP_STRUCT_MIN_ACCESSES) {
         vr->structure = mp_facts_structure(res->an, ask, i);
         if (vr->structure)
            mp_replay_split(res->run, res->an, i, &vr->structure->layout, &vr->split);
      }
      if (sv && sv->predicted > sv->predicted_true)
         mp_replay_pad(res->run, res->an, i, sv->predicted - sv->predicted_true, &vr->pad);
   }
}

/* The class of every loop's code, as a variable's: its head's object
   decides.  Loops of the C runtime or the loader get no advice and are
   folded in the annotator's Loops section, as their variables are. */
static void build_loop_owners(mp_results *res, const mp_adapter_queries *ask)
{
   uint32_t i;
   res->n_loops = mp_loops_count(res->an->loops);
   res->loop = mp_calloc("mp.results.loops", res->n_loops + 1, sizeof *res->loop);
   for (i = 0; i < res->n_loops; i++) {
      const char *path = ask && ask->code_object
                         ? ask->code_object(mp_loops_get(res->an->loops, i)->head) : NULL;
      res->loop[i].cls = path ? mp_class_of_object(path) : MP_CLASS_PROGRAM;
      if (path)
         res->loop[i].object = mp_strdup("mp.results.loopobj", mp_object_base(path));
   }
}

mp_results *mp_results_build(const mp_run *run, const mp_finished *an,
                             const mp_adapter_queries *ask)
{
   mp_results *res = mp_calloc("mp.results", 1, sizeof *res);
   uint32_t i;
   uint64_t at = 0;
   res->run = run;
   res->an = an;
   res->vs = an->vars;
   res->by_cycles = an->cache != NULL;
   res->rows = mp_report_rows(res->vs, run->min_var_size, res->by_cycles, &res->n_rows);
   res->lines = gather_lines(res->vs, res->rows, res->n_rows, &res->n_lines);
   res->first_line = mp_calloc("mp.results.first", res->n_rows + 1, sizeof *res->first_line);
   for (i = 0; i < res->n_rows; i++) {
      res->first_line[i] = at;
      while (at < res->n_lines && res->lines[at].row == i)
         at++;
   }
   res->first_line[res->n_rows] = at;
   if (an->sharing)
      res->share = mp_share_summarise(an->sharing, res->vs, ask ? ask->block_of : NULL,
                                      run->line_size);
   res->n_vars = mp_vars_count(res->vs);
   res->var = mp_calloc("mp.results.vars", res->n_vars + 1, sizeof *res->var);
   build_var_results(res, ask);
   if (an->loops)
      build_loop_owners(res, ask);
   res->advice = mp_advise(res, &res->n_advice, &res->rejected, &res->n_rejected);
   return res;
}

void mp_results_free(mp_results *res)
{
   uint32_t i;
   if (res == NULL)
      return;
   mp_advice_free(res->advice, res->n_advice);
   mp_advice_free(res->rejected, res->n_rejected);
   for (i = 0; i < res->n_vars; i++)
      mp_structure_free(res->var[i].structure);
   mp_free(res->var);
   for (i = 0; i < res->n_loops; i++)
      if (res->loop[i].object)
         mp_free(res->loop[i].object);
   if (res->loop)
      mp_free(res->loop);
   mp_share_free(res->share);
   if (res->lines)
      mp_free(res->lines);
   mp_free(res->first_line);
   mp_free(res->rows);
   mp_free(res);
}
