/*--------------------------------------------------------------------*/
/*--- memprof: the results, built once at exit.        mp_results.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   mp_results_build, which makes every result in an order where each
   reads only what is made before it: rows and lines (mp_rows), the
   totals (mp_totals), the sharing summary (mp_share), the structures
   and their replays, the loops (mp_loop_results), then the advice,
   which weighs them all, and what the exit summary shows
   (mp_summary).  Runs once, at exit: clarity over speed.
*/
#include "mp_results.h"
#include "mp_advice.h"
#include "mp_facts.h"
#include "mp_loop_results.h"
#include "mp_replays.h"
#include "mp_share.h"
#include "mp_summary.h"
#include "mp_totals.h"
#include "mp_util.h"

/*------------------------------------------------------------*/
/*--- Building                                             ---*/
/*------------------------------------------------------------*/

/* Its affinity graph as Graphviz DOT, titled with the variable's name. */
static char *structure_dot(const mp_structure *st, const char *title)
{
   const char *const *names = (const char *const *)st->names;
   size_t len = mp_structs_dot_buf(&st->layout, title, names, NULL, 0);
   char *text = mp_malloc("mp.results.dot", len + 1);
   mp_structs_dot_buf(&st->layout, title, names, text, len + 1);
   return text;
}

/* v's stride histograms and their dominant stride. */
static void var_strides(const mp_results *res, const mp_var *v, mp_var_results *vr)
{
   vr->strides = mp_stride_get(res->an->stride, v->id);
   if (vr->strides)
      vr->has_dominant = mp_stride_dominant(vr->strides, &vr->dominant,
                                            &vr->dominant_count);
}

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
      if (v->name)
         vr->label = mp_short_name(v->name);
      if (mp_counts_accesses(&v->c) >= MP_STRUCT_MIN_ACCESSES) {
         vr->structure = mp_facts_structure(res->an, ask, i);
         if (vr->structure)
            mp_replay_split(res->run, res->an, i, &vr->structure->layout, &vr->split);
         if (vr->structure && res->run->affinity_dot)
            vr->structure->dot = structure_dot(vr->structure, v->name);
      }
      if (sv && sv->predicted > sv->predicted_true)
         mp_replay_pad(res->run, res->an, i, sv->predicted - sv->predicted_true, &vr->pad);
      if (res->an->stride)
         var_strides(res, v, vr);
   }
}

/* Row i's lines: lines[first_line[i] .. first_line[i+1]). */
static void index_lines(mp_results *res)
{
   uint32_t i;
   uint64_t at = 0;
   res->first_line = mp_calloc("mp.results.first", res->n_rows + 1, sizeof *res->first_line);
   for (i = 0; i < res->n_rows; i++) {
      res->first_line[i] = at;
      while (at < res->n_lines && res->lines[at].row == i)
         at++;
   }
   res->first_line[res->n_rows] = at;
}

/* The names the advice's writers print: its variable's, its source
   lines'. */
static void name_advice(const mp_results *res, mp_advice *a, uint32_t n)
{
   uint32_t i, w;
   for (i = 0; i < n; i++) {
      a[i].variable = a[i].var == MP_ADVICE_NO_VAR ? NULL
                      : mp_vars_get(res->vs, a[i].var)->name;
      for (w = 0; w < a[i].n_where; w++)
         a[i].where_text[w] = mp_vars_location_where(res->vs, a[i].where[w]);
   }
}

/* The analyses as a whole: totals, the hierarchy, the scales of the
   reuse distances and strides. */
static void build_totals(mp_results *res)
{
   const mp_finished *an = res->an;
   mp_totals_count(res->vs, an->cache != NULL, &res->totals);
   if (an->cache)
      res->cache = mp_totals_cache(an->cache, res->vs);
   if (an->reuse)
      res->reuse = mp_totals_reuse(an->reuse);
   if (an->stride)
      res->stride = mp_totals_stride(an->stride);
}

mp_results *mp_results_build(const mp_run *run, const mp_finished *an,
                             const mp_adapter_queries *ask)
{
   mp_results *res = mp_calloc("mp.results", 1, sizeof *res);
   res->run = run;
   res->an = an;
   res->vs = an->vars;
   res->by_cycles = an->cache != NULL;
   res->rows = mp_report_rows(res->vs, run->min_var_size, res->by_cycles,
                              an->cache ? an->cache->latency[0] : 0, &res->n_rows);
   if (run->line_sample)
      mp_report_rows_estimate(res->rows, res->n_rows, run->line_sample_shift,
                              run->sample_sets, an->cache ? an->cache->latency[0] : 0,
                              res->by_cycles);
   res->lines = mp_rows_lines(an, res->rows, res->n_rows, &res->n_lines);
   index_lines(res);
   build_totals(res);
   if (an->sharing)
      res->share = mp_share_summarise(an->sharing, res->vs, ask ? ask->block_of : NULL,
                                      run->line_size);
   res->n_vars = mp_vars_count(res->vs);
   res->var = mp_calloc("mp.results.vars", res->n_vars + 1, sizeof *res->var);
   build_var_results(res, ask);
   if (an->loops)
      mp_loop_results_build(res, ask);
   res->advice = mp_advise(res, &res->n_advice, &res->rejected, &res->n_rejected);
   name_advice(res, res->advice, res->n_advice);
   name_advice(res, res->rejected, res->n_rejected);
   res->summary = mp_summary_make(res->rows, res->n_rows, run->show_runtime, res->by_cycles);
   mp_summary_threads(res->summary, res);
   res->file_entries = mp_summary_file_entries(res, &res->n_file_entries);
   res->program_objects = mp_summary_program_objects(res, &res->n_program_objects);
   return res;
}

void mp_results_free(mp_results *res)
{
   uint32_t i;
   if (res == NULL)
      return;
   mp_summary_free(res->summary);
   mp_free(res->file_entries);
   mp_free(res->program_objects);
   mp_advice_free(res->advice, res->n_advice);
   mp_advice_free(res->rejected, res->n_rejected);
   for (i = 0; i < res->n_vars; i++) {
      mp_structure_free(res->var[i].structure);
      if (res->var[i].label)
         mp_free(res->var[i].label);
   }
   mp_free(res->var);
   mp_loop_results_free(res);
   mp_share_free(res->share);
   if (res->cache)
      mp_free(res->cache);
   if (res->reuse)
      mp_free(res->reuse);
   if (res->stride)
      mp_free(res->stride);
   if (res->lines)
      mp_free(res->lines);
   mp_free(res->first_line);
   mp_free(res->rows);
   mp_free(res);
}
