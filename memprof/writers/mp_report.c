/*--------------------------------------------------------------------*/
/*--- memprof: the output file's JSON document.         mp_report.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Format version 1 (docs/json-format.md has every field):
     { "memprof": 1, "tool_version", "command", "pid",
       "config": { "line", "collect_atstart", "toggle_collect",
                   "min_var_size" },
       "totals": { "reads", "writes", "read_bytes", "write_bytes",
                   "accesses", "variables", "threads" },
       "variables": [ { "name", "kind", "class", "where", "size", "reads",
                        "writes", "read_bytes", "write_bytes", "threads",
                        "lines", heap: "blocks", "alloc_bytes",
                        "alloc_stack"; "named_by"; stack: "function";
                        "object";
                        "folded"; "strides": { "load": [H1..HK],
                        "store": [H1..HK], "negative", "dominant",
                        "classes" };
                        "per_line": [ { "where", "fn", "reads", ...,
                                        "strides": {classes} } ] } ] }
   with the cache simulation: config "levels" [{name, size, assoc, line,
   shared_by, latency}], "prefetch" {kind, streams, level},
   "memory_latency", "cores", "cores_per_socket",
   "levels_source"; variables[] "cache" {L1: {hits, misses, cold,
   capacity, conflict, coherence, writebacks, prefetched, covered, fills,
   reused_fills, fill_hits, hits_per_fill, reused_share}, ...}, "served",
   "invalidations", "cycles", "cpa"; per_line "misses" {L1, ...},
   "cycles", "cpa"; a summary (a variable on one line) "misses" {L1,
   ...}, "cycles"; totals "cache" {L1: {accesses, hits, misses, causes,
   writebacks, invalidations, prefetched, mpki, conflict_sets: [{set,
   conflicts, variables: [{name, conflicts, error}]}]}}, "prefetch"
   {requests, issued, useful, useless}, "tlb" {accesses, misses, mpki}
   (the prefetcher's counts only when config.prefetch.kind is not none)
   (with --TLB, also config.tlb and variables[].tlb {hits, misses}),
   "instructions", "cycles", "cpa" (mpki and
   instructions only when collection covered the whole run);
   with reuse distances: config "reuse" {sample, weight, estimated};
   variables[] "reuse" {private: H, shared: H, cold, mean_private,
   mean_shared, median_private: [lo, hi], median_shared}, per_line
   "reuse" {mean_private, mean_shared, private: H, shared: H, cold};
   and config.strides = { "history", "mode", "threshold" }; a histogram H
   is the list of its nonzero bins [lo, hi, count], hi null for infinity.
   Only writes: every value is one mp_results_build made (rows, lines,
   totals, structures, replays, advice); no engine is called here.
*/
#include "mp_report.h"
#include "mp_advice.h"
#include "mp_report_loops.h"
#include "mp_report_threads.h"
#include "mp_summary.h"
#include "mp_util.h"

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

static void write_counts(mp_json *j, const mp_counts *c)
{
   mp_json_kv_u64(j, "reads", c->reads);
   mp_json_kv_u64(j, "writes", c->writes);
   mp_json_kv_u64(j, "read_bytes", c->read_bytes);
   mp_json_kv_u64(j, "write_bytes", c->write_bytes);
}

static void write_prefetch_config(mp_json *j, const mp_cache_results *cr)
{
   if (!cr->prefetch_kind)
      return;
   mp_json_key(j, "prefetch");
   mp_json_begin_object(j);
   mp_json_kv_string(j, "kind", cr->prefetch_kind);
   if (cr->prefetching) {
      mp_json_kv_u64(j, "streams", cr->prefetch_streams);
      mp_json_kv_string(j, "level", cr->prefetch_level);
   }
   mp_json_end_object(j);
}

/* A sampling schedule and what it analysed: the window, the period
   (or largest gap) under gap_key, the windows begun, the instructions
   of the run and of the windows, and their quotient. */
static void write_schedule(mp_json *j, const mp_run *run, const char *gap_key)
{
   mp_json_kv_u64(j, "window", run->window);
   mp_json_kv_u64(j, gap_key, run->window_gap);
   mp_json_kv_u64(j, "windows", run->windows);
   mp_json_kv_u64(j, "instructions", run->instructions_all);
   mp_json_kv_u64(j, "instructions_analysed", run->instructions_analysed);
   mp_json_kv_double(j, "scale", run->instructions_analysed
                     ? (double)run->instructions_all / (double)run->instructions_analysed
                     : 0.0);
}

/* config.detail: how the detail analyses (strides, loops) saw the
   run: every access, or the accesses of windows of instructions. */
static void write_detail(mp_json *j, const mp_run *run)
{
   int windows = run->window_mode && mp_strcmp(run->window_mode, "detail") == 0;
   mp_json_key(j, "detail");
   mp_json_begin_object(j);
   mp_json_key(j, "analyses");
   mp_json_begin_array(j);
   if (run->detail_strides)
      mp_json_string(j, "strides");
   if (run->detail_loops)
      mp_json_string(j, "loops");
   mp_json_end_array(j);
   mp_json_kv_string(j, "sample", windows ? "windows" : "off");
   if (windows) {
      write_schedule(j, run, "period");
      if (run->detail_strides)
         mp_json_kv_u64(j, "weight", run->detail_weight);
      if (run->detail_loops)
         mp_json_kv_u64(j, "accesses", run->detail_loop_accesses);
   }
   mp_json_end_object(j);
}

static void write_levels(mp_json *j, const mp_cache_results *cr)
{
   uint32_t k;
   mp_json_key(j, "levels");
   mp_json_begin_array(j);
   for (k = 0; k < cr->n_levels; k++) {
      const mp_level_results *l = &cr->level[k];
      mp_json_begin_object(j);
      mp_json_kv_string(j, "name", l->name);
      mp_json_kv_u64(j, "size", l->cfg.size);
      mp_json_kv_u64(j, "assoc", l->cfg.assoc);
      mp_json_kv_u64(j, "line", l->cfg.line);
      mp_json_kv_u64(j, "shared_by", l->cfg.shared_by);
      mp_json_kv_u64(j, "latency", l->latency);
      if (l->cause_sample_rate > 0)
         mp_json_kv_double(j, "cause_sample_rate", l->cause_sample_rate);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   if (cr->miss_causes)
      mp_json_kv_string(j, "miss_causes", cr->miss_causes);
   write_prefetch_config(j, cr);
   mp_json_kv_u64(j, "memory_latency", cr->memory_latency);
   mp_json_kv_u64(j, "cores", cr->cores);
   mp_json_kv_u64(j, "cores_per_socket", cr->cores_per_socket);
   mp_json_kv_string(j, "levels_source", cr->source);
   if (cr->tlb) {
      mp_json_key(j, "tlb");
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "entries", cr->tlb_entries);
      mp_json_kv_u64(j, "assoc", cr->tlb_assoc);
      mp_json_kv_u64(j, "page", cr->tlb_page);
      mp_json_end_object(j);
   }
   if (cr->fallback_why)
      mp_json_kv_string(j, "levels_fallback_reason", cr->fallback_why);
}

/* MP_MISS_UNCLASSIFIED is not written: mp_hierarchy_estimate_causes
   (the variables) and mp_cache_get_totals (the levels) have divided
   those misses between capacity and conflict before the report. */
static const char *const cause_names[MP_MISS_N_CAUSES] = {
   NULL, "cold", "capacity", "conflict", "coherence", NULL
};

/* variables[].cache: per level hits, misses by cause, write-backs and
   the reuse factor; then where the accesses were served and the cycles. */
static void write_var_cache(mp_json *j, const mp_cache_counts *cc,
                            const mp_cache_results *cr, uint64_t accesses)
{
   uint32_t k, c;
   mp_json_key(j, "cache");
   mp_json_begin_object(j);
   for (k = 0; k < cr->n_levels; k++) {
      mp_json_key(j, cr->level[k].name);
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "hits", cc->hits[k]);
      mp_json_kv_u64(j, "misses", cc->misses[k]);
      for (c = 1; c <= MP_MISS_COHERENCE; c++)
         mp_json_kv_u64(j, cause_names[c], cc->cause[k][c]);
      mp_json_kv_u64(j, "writebacks", cc->writebacks[k]);
      if (cr->prefetching) {
         uint64_t covered = 0;
         for (c = 0; c < MP_MISS_N_CAUSES; c++)
            covered += cc->covered[k][c];
         mp_json_kv_u64(j, "prefetched", cc->prefetched[k]);
         mp_json_kv_u64(j, "covered", covered);
      }
      mp_json_kv_u64(j, "fills", cc->fills[k]);
      mp_json_kv_u64(j, "reused_fills", cc->reused_fills[k]);
      mp_json_kv_u64(j, "fill_hits", cc->fill_hits[k]);
      if (cc->fills[k]) {
         mp_json_kv_double(j, "hits_per_fill", (double)cc->fill_hits[k] / cc->fills[k]);
         mp_json_kv_double(j, "reused_share", (double)cc->reused_fills[k] / cc->fills[k]);
      }
      mp_json_end_object(j);
   }
   mp_json_end_object(j);
   mp_json_key(j, "served");
   mp_json_begin_object(j);
   for (k = 0; k < cr->n_levels; k++)
      mp_json_kv_u64(j, cr->level[k].name, cc->served[k]);
   mp_json_kv_u64(j, "mem", cc->served[cr->n_levels]);
   mp_json_end_object(j);
   mp_json_kv_u64(j, "invalidations", cc->invalidations);
   if (cr->tlb) {
      mp_json_key(j, "tlb");
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "hits", cc->tlb_hits);
      mp_json_kv_u64(j, "misses", cc->tlb_misses);
      mp_json_end_object(j);
   }
   mp_json_kv_u64(j, "cycles", cc->cycles);
   mp_json_kv_double(j, "cpa", accesses ? (double)cc->cycles / accesses : 0.0);
}

/* The sets of a level with the most conflict misses, and who collides. */
static void write_conflict_sets(mp_json *j, const mp_level_results *l)
{
   uint32_t i, s;
   mp_json_key(j, "conflict_sets");
   mp_json_begin_array(j);
   for (i = 0; i < l->n_conflict_sets; i++) {
      const mp_conflict_set *cs = &l->conflict_sets[i];
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "set", cs->set);
      mp_json_kv_u64(j, "conflicts", cs->conflicts);
      mp_json_key(j, "variables");
      mp_json_begin_array(j);
      for (s = 0; s < cs->n_vars; s++) {
         mp_json_begin_object(j);
         mp_json_kv_string(j, "name", cs->vars[s].name);
         mp_json_kv_u64(j, "conflicts", cs->vars[s].conflicts);
         if (cs->vars[s].error)
            mp_json_kv_u64(j, "error", cs->vars[s].error);
         mp_json_end_object(j);
      }
      mp_json_end_array(j);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
}

static void write_mpki(mp_json *j, const mp_cache_results *cr, uint64_t misses)
{
   if (cr->instructions)
      mp_json_kv_double(j, "mpki", 1000.0 * (double)misses / (double)cr->instructions);
}

static void write_totals_cache(mp_json *j, const mp_cache_results *cr)
{
   uint32_t k, c;
   mp_json_key(j, "cache");
   mp_json_begin_object(j);
   for (k = 0; k < cr->n_levels; k++) {
      const mp_level_results *l = &cr->level[k];
      const mp_cache_totals *t = &l->totals;
      mp_json_key(j, l->name);
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "accesses", t->accesses);
      mp_json_kv_u64(j, "hits", t->accesses - t->misses);
      mp_json_kv_u64(j, "misses", t->misses);
      for (c = 1; c <= MP_MISS_COHERENCE; c++)
         mp_json_kv_u64(j, cause_names[c], t->cause[c]);
      mp_json_kv_u64(j, "writebacks", t->writebacks);
      mp_json_kv_u64(j, "invalidations", t->invalidations);
      if (cr->prefetching)
         mp_json_kv_u64(j, "prefetched", t->prefetched);
      write_mpki(j, cr, t->misses);
      if (cr->conflict_sets)
         write_conflict_sets(j, l);
      mp_json_end_object(j);
   }
   mp_json_end_object(j);
   if (cr->prefetching) {
      mp_json_key(j, "prefetch");
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "requests", cr->prefetch.requests);
      mp_json_kv_u64(j, "issued", cr->prefetch.issued);
      mp_json_kv_u64(j, "useful", cr->prefetch.useful);
      mp_json_kv_u64(j, "useless", cr->prefetch.useless);
      mp_json_end_object(j);
   }
   if (cr->instructions)
      mp_json_kv_u64(j, "instructions", cr->instructions);
   if (cr->tlb) {
      mp_json_key(j, "tlb");
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "accesses", cr->tlb_totals.accesses);
      mp_json_kv_u64(j, "misses", cr->tlb_totals.misses);
      write_mpki(j, cr, cr->tlb_totals.misses);
      mp_json_end_object(j);
   }
}

/* config.program: the rule that told the program's objects from the
   system's, and the objects (and mapped files) whose variables it
   made the program's. */
static void write_program_config(mp_json *j, const mp_results *res)
{
   uint32_t i;
   mp_json_key(j, "program");
   mp_json_begin_object(j);
   mp_json_kv_string(j, "tree", res->run->program_tree);
   mp_json_key(j, "patterns");
   mp_json_begin_array(j);
   for (i = 0; i < res->run->n_program_patterns; i++)
      mp_json_string(j, res->run->program_patterns[i]);
   mp_json_end_array(j);
   mp_json_key(j, "objects");
   mp_json_begin_array(j);
   for (i = 0; i < res->n_program_objects; i++)
      mp_json_string(j, res->program_objects[i]);
   mp_json_end_array(j);
   mp_json_end_object(j);
}

static void write_config(mp_json *j, const mp_results *res)
{
   uint32_t i;
   mp_json_key(j, "config");
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "line", res->run->line_size);
   mp_json_kv_bool(j, "collect_atstart", res->run->collect_atstart);
   mp_json_key(j, "toggle_collect");
   mp_json_begin_array(j);
   for (i = 0; i < res->run->n_toggle_collect; i++)
      mp_json_string(j, res->run->toggle_collect[i]);
   mp_json_end_array(j);
   mp_json_kv_u64(j, "min_var_size", res->run->min_var_size);
   write_program_config(j, res);
   mp_json_kv_bool(j, "output_all", res->run->output_all);
   if (res->cache)
      write_levels(j, res->cache);
   if (res->reuse) {
      mp_json_key(j, "reuse");
      mp_json_begin_object(j);
      mp_json_kv_string(j, "sample", res->run->reuse_sampling);
      if (res->run->reuse_rate > 0)
         mp_json_kv_double(j, "rate", res->run->reuse_rate);
      if (res->run->reuse_window > 0) {
         mp_json_kv_u64(j, "window", res->run->reuse_window);
         mp_json_kv_u64(j, "max_gap", res->run->reuse_max_gap);
      }
      mp_json_kv_double(j, "weight", res->reuse->weight);
      mp_json_kv_bool(j, "estimated", res->reuse->weight != 1.0);
      mp_json_end_object(j);
   }
   if (res->run->detail_strides || res->run->detail_loops)
      write_detail(j, res->run);
   if (res->run->line_sample) {
      /* Every count of the file but the detail analyses' (config.detail)
         and the reuse histograms' (config.reuse.weight) is an estimate:
         what the sample counted times scale. */
      mp_json_key(j, "sampling");
      mp_json_begin_object(j);
      mp_json_kv_string(j, "mode", "lines");
      mp_json_kv_double(j, "rate", 1.0 / (double)(1ULL << res->run->line_sample_shift));
      mp_json_kv_u64(j, "sets", res->run->sample_sets);
      mp_json_kv_u64(j, "l1_sets", res->run->l1_sets);
      mp_json_kv_u64(j, "scale", 1ULL << res->run->line_sample_shift);
      mp_json_kv_u64(j, "min_lines", MP_SAMPLE_MIN_LINES);
      mp_json_kv_u64(j, "unattributed_accesses", res->run->unattributed_accesses);
      mp_json_end_object(j);
   } else if (res->run->window_mode && mp_strcmp(res->run->window_mode, "detail") != 0) {
      mp_json_key(j, "sampling");
      mp_json_begin_object(j);
      mp_json_kv_string(j, "mode", res->run->window_mode);
      write_schedule(j, res->run,
                     mp_strcmp(res->run->window_mode, "periodic") == 0 ? "period" : "max_gap");
      mp_json_end_object(j);
   }
   if (res->cache)
      mp_json_kv_u64(j, "sockets", res->run->sockets);
   if (res->run->page_size)
      mp_json_kv_u64(j, "page_size", res->run->page_size);
   if (res->run->sharing_enabled)
      mp_json_kv_bool(j, "sharing", res->share != NULL);
   if (res->stride) {
      const mp_stride_cfg *sc = &res->stride->cfg;
      mp_json_key(j, "strides");
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "history", sc->k);
      mp_json_kv_string(j, "mode", sc->mode == MP_STRIDE_FILTERED ? "filtered" : "all");
      mp_json_kv_u64(j, "threshold", sc->threshold);
      mp_json_end_object(j);
   }
   mp_json_end_object(j);
}

static void write_totals(mp_json *j, const mp_results *res)
{
   const mp_totals *t = &res->totals;
   mp_json_key(j, "totals");
   mp_json_begin_object(j);
   write_counts(j, &t->c);
   mp_json_kv_u64(j, "accesses", t->accesses);
   mp_json_kv_u64(j, "variables", res->n_file_entries);
   mp_json_kv_u64(j, "threads", t->threads);
   if (res->cache) {
      write_totals_cache(j, res->cache);
      mp_json_kv_u64(j, "cycles", t->cycles);
      mp_json_kv_double(j, "cpa", t->accesses ? (double)t->cycles / t->accesses : 0.0);
   }
   mp_json_end_object(j);
}

static void write_heap_site(mp_json *j, const mp_var *v)
{
   uint32_t k;
   mp_json_kv_u64(j, "blocks", v->blocks);
   mp_json_kv_u64(j, "alloc_bytes", v->alloc_bytes);
   mp_json_key(j, "alloc_stack");
   mp_json_begin_array(j);
   for (k = 0; k < v->n_alloc_stack; k++)
      mp_json_string(j, v->alloc_stack[k]);
   mp_json_end_array(j);
}

static const char *const class_names[MP_STRIDE_N_CLASSES] = {
   "zero", "unit", "within_line", "beyond_line"
};

static void write_classes(mp_json *j, const uint64_t *classes)
{
   uint32_t c;
   mp_json_begin_object(j);
   for (c = 0; c < MP_STRIDE_N_CLASSES; c++)
      mp_json_kv_u64(j, class_names[c], classes[c]);
   mp_json_end_object(j);
}

/* One bin of a histogram: [lo, hi, count], hi null for infinity. */
static void write_bin(mp_json *j, uint64_t lo, uint64_t hi, uint64_t count)
{
   mp_json_begin_array(j);
   mp_json_u64(j, lo);
   if (hi == UINT64_MAX)
      mp_json_null(j);
   else
      mp_json_u64(j, hi);
   mp_json_u64(j, count);
   mp_json_end_array(j);
}

/* One stride histogram: its nonzero bins. */
static void write_histogram(mp_json *j, const mp_stride_results *sr, const uint64_t *bins)
{
   uint32_t b;
   mp_json_begin_array(j);
   for (b = 0; b < MP_STRIDE_N_BINS; b++)
      if (bins[b] != 0)
         write_bin(j, sr->bin_lo[b], sr->bin_hi[b], bins[b]);
   mp_json_end_array(j);
}

static void write_kind(mp_json *j, const char *key, const mp_stride_results *sr,
                       const mp_stride_hists *h)
{
   uint32_t k;
   mp_json_key(j, key);
   mp_json_begin_array(j);
   for (k = 0; k < sr->cfg.k; k++)
      write_histogram(j, sr, MP_STRIDE_BINS(h, k));
   mp_json_end_array(j);
}

static void write_counts_per_k(mp_json *j, const char *key, const uint64_t *n,
                               uint32_t k_max)
{
   uint32_t k;
   mp_json_key(j, key);
   mp_json_begin_array(j);
   for (k = 0; k < k_max; k++)
      mp_json_u64(j, n[k]);
   mp_json_end_array(j);
}

static void write_strides(mp_json *j, const mp_stride_results *sr,
                          const mp_var_results *vr, uint32_t line)
{
   const mp_stride_var *d = vr->strides;
   uint32_t K = sr->cfg.k;
   if (!d)
      return;
   mp_json_key(j, "strides");
   mp_json_begin_object(j);
   write_kind(j, "load", sr, &d->load);
   write_kind(j, "store", sr, &d->store);
   mp_json_key(j, "negative");
   mp_json_begin_object(j);
   write_counts_per_k(j, "load", d->load.negative, K);
   write_counts_per_k(j, "store", d->store.negative, K);
   mp_json_end_object(j);
   if (vr->has_dominant) {
      mp_json_key(j, "dominant");
      mp_json_begin_object(j);
      mp_json_kv_i64(j, "bytes", vr->dominant);
      mp_json_kv_double(j, "lines", (double)vr->dominant / line);
      mp_json_kv_u64(j, "count", vr->dominant_count);
      mp_json_kv_double(j, "share", (double)vr->dominant_count / d->first_strides);
      mp_json_end_object(j);
   }
   mp_json_key(j, "classes");
   write_classes(j, d->classes);
   mp_json_end_object(j);
}

static uint64_t scaled(uint64_t n, double weight)
{
   return (uint64_t)((double)n * weight + 0.5);
}

/* A reuse histogram: its nonzero bins [lo, hi, count], counts scaled by
   the sampling weight. */
static void write_reuse_hist(mp_json *j, const mp_reuse_results *rr, const uint64_t *bins)
{
   uint32_t b;
   mp_json_begin_array(j);
   for (b = 0; b < MP_REUSE_N_BINS; b++)
      if (bins[b] != 0)
         write_bin(j, rr->bin_lo[b], rr->bin_hi[b], scaled(bins[b], rr->weight));
   mp_json_end_array(j);
}

/* The bin holding the median of a histogram, as [lo, hi], or nothing. */
static void write_median(mp_json *j, const char *key, const mp_reuse_results *rr,
                         const uint64_t *bins)
{
   uint64_t total = 0, seen = 0;
   uint32_t b;
   for (b = 0; b < MP_REUSE_N_BINS; b++)
      total += bins[b];
   if (total == 0)
      return;
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      seen += bins[b];
      if (2 * seen >= total)
         break;
   }
   mp_json_key(j, key);
   mp_json_begin_array(j);
   mp_json_u64(j, rr->bin_lo[b]);
   mp_json_u64(j, rr->bin_hi[b]);
   mp_json_end_array(j);
}

static void write_reuse(mp_json *j, const mp_reuse_counts *rc, const mp_reuse_results *rr)
{
   uint64_t np = 0, ns = 0;
   uint32_t b;
   for (b = 0; b < MP_REUSE_N_BINS; b++) {
      np += rc->private_bins[b];
      ns += rc->shared_bins[b];
   }
   mp_json_key(j, "reuse");
   mp_json_begin_object(j);
   mp_json_key(j, "private");
   write_reuse_hist(j, rr, rc->private_bins);
   mp_json_key(j, "shared");
   write_reuse_hist(j, rr, rc->shared_bins);
   mp_json_kv_u64(j, "cold", scaled(rc->cold, rr->weight));
   if (np)
      mp_json_kv_double(j, "mean_private", (double)rc->private_sum / np);
   if (ns)
      mp_json_kv_double(j, "mean_shared", (double)rc->shared_sum / ns);
   write_median(j, "median_private", rr, rc->private_bins);
   write_median(j, "median_shared", rr, rc->shared_bins);
   mp_json_end_object(j);
}

/* A replay: {"accesses", "complete", "before": {L1: misses, ...,
   "coherence", "cycles"}, "after": {...}} under key. */
static void write_run(mp_json *j, const char *key, const mp_results *res,
                      const mp_whatif_run *r)
{
   uint32_t k;
   mp_json_key(j, key);
   mp_json_begin_object(j);
   for (k = 0; k < res->cache->n_levels; k++)
      mp_json_kv_u64(j, res->cache->level[k].name, r->misses[k]);
   mp_json_kv_u64(j, "coherence", r->coherence[0]);
   mp_json_kv_u64(j, "cycles", r->cycles);
   mp_json_end_object(j);
}

static void write_replay(mp_json *j, const char *key, const mp_results *res,
                         const mp_replay *r)
{
   mp_json_key(j, key);
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "accesses", r->before.accesses);
   mp_json_kv_bool(j, "complete", r->complete);
   write_run(j, "before", res, &r->before);
   write_run(j, "after", res, &r->after);
   mp_json_end_object(j);
}

/* "stride": the dominant stride of the line's instructions, its share
   of their strides (of those it surely made), their number, and the
   loop it was made in. */
static void write_line_stride(mp_json *j, const mp_line_result *lr,
                              const mp_results *res)
{
   if (!lr->has_dominant)
      return;
   mp_json_key(j, "stride");
   mp_json_begin_object(j);
   mp_json_kv_i64(j, "bytes", lr->dominant);
   mp_json_kv_double(j, "share", (double)lr->dominant_sure / (double)lr->lstride.total);
   mp_json_kv_u64(j, "strides", lr->lstride.total);
   if (lr->dominant_loop != MP_LOOP_NONE) {
      mp_json_kv_u64(j, "loop", lr->dominant_loop);
      mp_json_kv_string(j, "loop_where", res->loop[lr->dominant_loop].where);
   }
   mp_json_end_object(j);
}

static const char *row_name(const mp_report_row *r)
{
   return r->var ? r->var->name : "other";
}

/* per_line[].reuse: a variable's own records only. */
static void write_line_reuse(mp_json *j, const mp_line_result *lr, const mp_reuse_results *rr)
{
   static const uint64_t no_bins[MP_REUSE_N_BINS];
   mp_json_key(j, "reuse");
   mp_json_begin_object(j);
   if (lr->reuse_n[0])
      mp_json_kv_double(j, "mean_private", (double)lr->reuse_sum[0] / lr->reuse_n[0]);
   if (lr->reuse_n[1])
      mp_json_kv_double(j, "mean_shared", (double)lr->reuse_sum[1] / lr->reuse_n[1]);
   mp_json_key(j, "private");
   write_reuse_hist(j, rr, lr->reuse_bins ? lr->reuse_bins[0] : no_bins);
   mp_json_key(j, "shared");
   write_reuse_hist(j, rr, lr->reuse_bins ? lr->reuse_bins[1] : no_bins);
   mp_json_kv_u64(j, "cold", scaled(lr->reuse_cold, rr->weight));
   mp_json_end_object(j);
}

/* One element of per_line; v is the row's variable (NULL: the fold). */
static void write_line(mp_json *j, const mp_results *res, const mp_line_result *lr,
                       const mp_var *v)
{
   mp_json_begin_object(j);
   mp_json_kv_string(j, "where", lr->where);
   mp_json_kv_string(j, "fn", lr->fn);
   write_counts(j, &lr->c);
   if (res->cache) {
      uint32_t lv;
      mp_json_key(j, "misses");
      mp_json_begin_object(j);
      for (lv = 0; lv < res->cache->n_levels; lv++)
         mp_json_kv_u64(j, res->cache->level[lv].name, lr->cache_misses[lv]);
      mp_json_end_object(j);
      mp_json_kv_u64(j, "cycles", lr->cycles);
      mp_json_kv_double(j, "cpa", lr->accesses ? (double)lr->cycles / lr->accesses : 0.0);
   }
   if (res->reuse && v)
      write_line_reuse(j, lr, res->reuse);
   if (res->share) {
      mp_json_kv_u64(j, "invalidations", lr->invalidations);
      mp_json_kv_u64(j, "coherence_misses", lr->coherence_misses);
      mp_json_kv_u64(j, "transfers", lr->transfers);
   }
   if (res->stride && v && lr->has_strides) {
      mp_json_key(j, "strides");
      write_classes(j, lr->stride_classes);
   }
   if (res->stride && v)
      write_line_stride(j, lr, res);
   mp_json_end_object(j);
}

/* An interval [lo, hi], rounded to whole counts. */
static void write_interval(mp_json *j, const char *key, const double ci[2])
{
   mp_json_key(j, key);
   mp_json_begin_array(j);
   mp_json_u64(j, (uint64_t)(ci[0] + 0.5));
   mp_json_u64(j, (uint64_t)(ci[1] + 0.5));
   mp_json_end_array(j);
}

/* --sample=lines: the row's lines in the sample, whether that is
   enough to estimate from, and the 95% intervals of its estimates
   (accesses, misses per level, cycles, stall cycles). */
static void write_estimate(mp_json *j, const mp_results *res, const mp_report_row *r)
{
   uint32_t lv;
   if (!r->has_ci)
      return;
   mp_json_kv_u64(j, "sampled_lines", r->sampled_lines);
   mp_json_kv_bool(j, "estimable", r->estimable);
   mp_json_key(j, "ci");
   mp_json_begin_object(j);
   write_interval(j, "accesses", r->ci_accesses);
   if (res->cache) {
      mp_json_key(j, "misses");
      mp_json_begin_object(j);
      for (lv = 0; lv < res->cache->n_levels; lv++)
         write_interval(j, res->cache->level[lv].name, r->ci_misses[lv]);
      mp_json_end_object(j);
      write_interval(j, "cycles", r->ci_cycles);
      write_interval(j, "stall_cycles", r->ci_stall);
   }
   mp_json_end_object(j);
}

/* A variable not held in full (mp_file_entry), on one line: who it
   is, its counts, its footprint, its cycles; no per-line records,
   analyses nor allocation stack. */
static void write_summary(mp_json *j, const mp_results *res, const mp_file_entry *e)
{
   const mp_report_row *r = &e->sum;
   const mp_var *v = r->var;
   mp_json_begin_object_line(j);
   mp_json_kv_string(j, "name", row_name(r));
   mp_json_kv_string(j, "kind", r->kind);
   mp_json_kv_string(j, "class", r->class_name);
   mp_json_kv_string(j, "where", v->where);
   mp_json_kv_u64(j, "size", r->size);
   write_counts(j, &r->c);
   mp_json_kv_u64(j, "threads", r->n_threads);
   mp_json_kv_u64(j, "lines", r->lines);
   if (v->kind == MP_VAR_HEAP) {
      mp_json_kv_u64(j, "blocks", e->blocks);
      mp_json_kv_u64(j, "alloc_bytes", e->alloc_bytes);
   }
   if (v->named_by)
      mp_json_kv_string(j, "named_by", v->named_by);
   if (v->function)
      mp_json_kv_string(j, "function", v->function);
   if (v->object)
      mp_json_kv_string(j, "object", v->object);
   if (res->cache) {
      /* Its misses per level, as a per_line row's: without them a
         reader could not make the levels' totals of the variables. */
      uint32_t lv;
      mp_json_key(j, "misses");
      mp_json_begin_object(j);
      for (lv = 0; lv < res->cache->n_levels; lv++)
         mp_json_kv_u64(j, res->cache->level[lv].name, r->cache.misses[lv]);
      mp_json_end_object(j);
      mp_json_kv_u64(j, "cycles", r->cache.cycles);
      mp_json_kv_u64(j, "stall_cycles", r->stall);
   }
   write_estimate(j, res, r);
   mp_json_kv_bool(j, "summary", 1);
   mp_json_end_object(j);
}

static void write_variable(mp_json *j, const mp_results *res, uint32_t row)
{
   const mp_report_row *r = &res->rows[row];
   const mp_var *v = r->var;
   const mp_var_results *vr = v ? &res->var[v->id] : NULL;
   uint64_t k;
   mp_json_begin_object(j);
   mp_json_kv_string(j, "name", row_name(r));
   if (vr && vr->label)
      mp_json_kv_string(j, "label", vr->label);
   mp_json_kv_string(j, "kind", r->kind);
   mp_json_kv_string(j, "class", r->class_name);
   mp_json_kv_string(j, "where", v ? v->where : NULL);
   mp_json_kv_u64(j, "size", r->size);
   write_counts(j, &r->c);
   mp_json_kv_u64(j, "threads", r->n_threads);
   mp_json_kv_u64(j, "lines", r->lines);
   if (v && v->kind == MP_VAR_HEAP)
      write_heap_site(j, v);
   if (v && v->named_by)
      mp_json_kv_string(j, "named_by", v->named_by);
   if (v && v->function)
      mp_json_kv_string(j, "function", v->function);
   if (v && v->object)
      mp_json_kv_string(j, "object", v->object);
   if (!v)
      mp_json_kv_bool(j, "folded", 1);
   if (res->cache) {
      write_var_cache(j, &r->cache, res->cache, r->accesses);
      mp_json_kv_u64(j, "stall_cycles", r->stall);
   }
   write_estimate(j, res, r);
   if (v && res->reuse) {
      static const mp_reuse_counts none;
      write_reuse(j, v->reuse ? v->reuse : &none, res->reuse);
   }
   if (v && res->stride)
      write_strides(j, res->stride, vr, res->run->line_size);
   if (v && res->share && mp_report_sharing_shown(res, v)) {
      mp_json_key(j, "sharing");
      mp_json_begin_object(j);
      mp_report_write_sharing(j, res, v);
      if (vr->pad.made)
         write_replay(j, "what_if_pad", res, &vr->pad);
      mp_json_end_object(j);
   }
   if (v && res->run->page_size)
      mp_report_write_numa(j, v);
   if (v && vr->structure) {
      mp_json_key(j, "struct");
      mp_json_begin_object(j);
      mp_report_write_struct(j, vr->structure);
      if (vr->split.made)
         write_replay(j, "what_if", res, &vr->split);
      mp_json_end_object(j);
   }
   mp_json_key(j, "per_line");
   mp_json_begin_array(j);
   for (k = res->first_line[row]; k < res->first_line[row + 1]; k++)
      write_line(j, res, &res->lines[k], v);
   mp_json_end_array(j);
   mp_json_end_object(j);
}

/* The other fixes of an item's accesses, each with its replay. */
static void write_alternatives(mp_json *j, const mp_advice *a, const mp_results *res)
{
   uint32_t k;
   mp_json_key(j, "alternatives");
   mp_json_begin_array(j);
   for (k = 0; k < a->n_alt; k++) {
      const mp_advice_alt *alt = &a->alt[k];
      mp_json_begin_object(j);
      if (alt->loop != MP_LOOP_NONE)
         mp_json_kv_u64(j, "loop", alt->loop);
      if (alt->with_loop != MP_LOOP_NONE)
         mp_json_kv_u64(j, "with_loop", alt->with_loop);
      mp_json_kv_string(j, "fix", alt->fix);
      mp_json_kv_string(j, "evidence", alt->evidence);
      if (alt->holds)
         mp_json_kv_string(j, "holds", alt->holds);
      if (alt->replay.made)
         write_replay(j, "replay", res, &alt->replay);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
}

/* "advice" or "rejected": each item, the loop of a loop's advice
   named by its first line. */
static void write_advice(mp_json *j, const mp_advice *a, uint32_t n, const mp_results *res)
{
   uint32_t i, w;
   mp_json_begin_array(j);
   for (i = 0; i < n; i++) {
      mp_json_begin_object(j);
      mp_json_kv_string(j, "kind", mp_advice_kind_name(a[i].kind));
      mp_json_kv_string(j, "variable", a[i].variable);
      mp_json_key(j, "where");
      mp_json_begin_array(j);
      for (w = 0; w < a[i].n_where; w++)
         mp_json_string(j, a[i].where_text[w]);
      if (a[i].var == MP_ADVICE_NO_VAR && a[i].loop != MP_LOOP_NONE && res->loop) {
         const mp_loop *l = res->loop[a[i].loop].loop;
         char *where = l->file ? mp_asprintf("%s:%u", l->file, l->first_line) : NULL;
         mp_json_string(j, where);
         if (where)
            mp_free(where);
      }
      mp_json_end_array(j);
      if (a[i].loop != MP_LOOP_NONE)
         mp_json_kv_u64(j, "loop", a[i].loop);
      if (a[i].with_loop != MP_LOOP_NONE)
         mp_json_kv_u64(j, "with_loop", a[i].with_loop);
      if (a[i].n_fused) {
         mp_json_key(j, "fused_loops");
         mp_json_begin_array(j);
         for (w = 0; w < a[i].n_fused; w++)
            mp_json_u64(j, a[i].fused[w]);
         mp_json_end_array(j);
      }
      mp_json_kv_string(j, "text", a[i].text);
      mp_json_kv_string(j, "evidence", a[i].evidence);
      mp_json_kv_string(j, "fix", a[i].fix);
      if (a[i].holds)
         mp_json_kv_string(j, "holds", a[i].holds);
      if (a[i].reason)
         mp_json_kv_string(j, "reason", a[i].reason);
      if (a[i].replay.made)
         write_replay(j, "replay", res, &a[i].replay);
      if (a[i].n_alt)
         write_alternatives(j, &a[i], res);
      mp_json_kv_bool(j, "replayed", a[i].replayed);
      mp_json_kv_double(j, "score", a[i].score);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
}

mp_json *mp_report_json(const mp_results *res)
{
   mp_json *j = mp_json_new();
   uint32_t i;

   mp_json_begin_object(j);
   mp_json_kv_u64(j, "memprof", MP_FORMAT_VERSION);
   mp_json_kv_string(j, "tool_version", res->run->tool_version);
   mp_json_kv_string(j, "command", res->run->command);
   mp_json_kv_u64(j, "pid", res->run->pid);
   if (res->run->end_by) {
      mp_json_key(j, "end");
      mp_json_begin_object(j);
      mp_json_kv_string(j, "by", res->run->end_by);
      if (mp_strcmp(res->run->end_by, "exit") == 0)
         mp_json_kv_u64(j, "status", (uint64_t)res->run->end_status);
      mp_json_end_object(j);
      mp_json_kv_bool(j, "partial", mp_strcmp(res->run->end_by, "signal") == 0);
   }
   write_config(j, res);
   write_totals(j, res);
   mp_json_key(j, "variables");
   mp_json_begin_array(j);
   for (i = 0; i < res->n_file_entries; i++) {
      const mp_file_entry *e = &res->file_entries[i];
      if (e->summary)
         write_summary(j, res, e);
      else
         write_variable(j, res, e->row);
   }
   mp_json_end_array(j);
   if (res->share)
      mp_report_write_communication(j, res->share);
   if (res->loop)
      mp_report_write_loops(j, res);
   mp_json_key(j, "advice");
   write_advice(j, res->advice, res->n_advice, res);
   mp_json_key(j, "rejected");
   write_advice(j, res->rejected, res->n_rejected, res);
   mp_json_end_object(j);
   return j;
}
