/*--------------------------------------------------------------------*/
/*--- memprof: the summary printed at exit.       mp_exit_summary.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_exit_summary.h.  Counts are printed with thousands
   separators, as cg_annotate prints them; names as they may go to a
   terminal or a log line (control bytes as \xNN).
*/
#include "mp_exit_summary.h"
#include "mp_advice.h"
#include "mp_summary.h"
#include "mp_util.h"

#define SUMMARY_ADVICE 3   /* the top of the advice (all of it is in the file) */

typedef struct {
   mp_exit_print_fn print;
   void *arg;
   mp_strbuf line;
} printer;

/* Prints one line (fmt ends with its newline). */
static void say(printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(printer *p, const char *fmt, ...)
{
   va_list ap;
   p->line.len = 0;
   mp_strbuf_add(&p->line, "", 0);
   va_start(ap, fmt);
   mp_strbuf_vprintf(&p->line, fmt, ap);
   va_end(ap);
   p->print(p->arg, p->line.s);
}

/* name with control bytes (ESC sequences, newlines) as \xNN, in b;
   valid until b's next use. */
static const char *printable(mp_strbuf *b, const char *name)
{
   b->len = 0;
   mp_strbuf_add(b, "", 0);
   for (; *name; name++) {
      unsigned char c = (unsigned char)*name;
      if (c < 0x20 || c == 0x7f)
         mp_strbuf_printf(b, "\\x%02x", c);
      else
         mp_strbuf_add(b, name, 1);
   }
   return b->s;
}

static void free_buf(mp_strbuf *b)
{
   if (b->s)
      mp_free(b->s);
}

/* 1234567 -> "1,234,567". */
static const char *commas(uint64_t n, char *buf, size_t size)
{
   return mp_commas(n, buf, size);
}

static double percent(uint64_t part, uint64_t whole)
{
   return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*------------------------------------------------------------*/
/*--- The run                                              ---*/
/*------------------------------------------------------------*/

/* What the counts are of, when sampled. */
static void print_sampling(printer *p, const mp_run *run)
{
   char pc[16], b1[32], b2[32];
   mp_snprintf(pc, sizeof pc, "%.1f%%", percent(run->instructions_analysed,
                                                run->instructions_all));
   if (run->line_sample)
      say(p, "%s sampled: %s of %s instructions, in %s windows\n",
          run->detail_strides && run->detail_loops ? "Strides and loops"
          : run->detail_strides ? "Strides" : "Loops", pc,
          commas(run->instructions_all, b1, sizeof b1), commas(run->windows, b2, sizeof b2));
   else if (mp_strcmp(run->window_mode, "detail") == 0)
      say(p, "%s sampled: %s of %s instructions, in %s windows; "
          "the other counts are exact (--exact=yes: all)\n",
          run->detail_strides && run->detail_loops ? "Strides and loops"
          : run->detail_strides ? "Strides" : "Loops", pc,
          commas(run->instructions_all, b1, sizeof b1), commas(run->windows, b2, sizeof b2));
   else
      say(p, "Sampled (%s): %s of %s instructions analysed, in %s windows; "
          "the counts are of the windows\n", run->window_mode, pc,
          commas(run->instructions_all, b1, sizeof b1), commas(run->windows, b2, sizeof b2));
}

/* --sample=lines: what the counts are estimates of. */
static void print_line_sample(printer *p, const mp_run *run)
{
   char b1[32];
   say(p, "Sampled lines: 1 in %u (%u of the L1's %u sets), followed from start to exit; "
       "the counts are whole-run estimates, \xc2\xb1 their 95%% intervals; accesses "
       "exact per instruction\n", 1u << run->line_sample_shift, run->sample_sets,
       run->l1_sets);
   if (run->unattributed_accesses)
      say(p, "Sampled lines: %s accesses of instructions never in the sample nor in a "
          "window are no variable's\n",
          commas(run->unattributed_accesses, b1, sizeof b1));
}

/*------------------------------------------------------------*/
/*--- The simulated hierarchy                              ---*/
/*------------------------------------------------------------*/

static void print_level(printer *p, const mp_cache_results *cr, const mp_level_results *l)
{
   const mp_cache_totals *t = &l->totals;
   char b1[32], b2[32], b3[32], mpki[40] = "";
   if (cr->instructions)
      mp_snprintf(mpki, sizeof mpki, ", %.2f MPKI",
                  1000.0 * (double)t->misses / (double)cr->instructions);
   say(p, "%s (%s B, %u-way, %u B lines, shared by %u): %s accesses, %s misses (%.2f%%%s)\n",
       l->name, commas(l->cfg.size, b3, sizeof b3), l->cfg.assoc, l->cfg.line,
       l->cfg.shared_by, commas(t->accesses, b1, sizeof b1), commas(t->misses, b2, sizeof b2),
       percent(t->misses, t->accesses), mpki);
}

static void print_prefetcher(printer *p, const mp_cache_results *cr)
{
   const mp_cache_prefetch_totals *pt = &cr->prefetch;
   char b1[32], b2[32], b3[32], b4[32];
   say(p, "Prefetcher (%s, %u streams per core, into %s): %s lines asked, %s issued, "
       "%s useful (%.2f%%), %s useless\n", cr->prefetch_kind, cr->prefetch_streams,
       cr->prefetch_level, commas(pt->requests, b1, sizeof b1),
       commas(pt->issued, b2, sizeof b2), commas(pt->useful, b3, sizeof b3),
       percent(pt->useful, pt->issued), commas(pt->useless, b4, sizeof b4));
}

/* The level's hottest conflict set, worth a line only when it carries
   a real share of the level's misses (the JSON lists the hottest sets
   regardless). */
static void print_conflict_set(printer *p, const mp_level_results *l)
{
   const mp_conflict_set *top = &l->conflict_sets[0];
   char b1[32], b2[32];
   if (l->n_conflict_sets == 0 || top->n_vars == 0)
      return;
   if (top->conflicts < 100 || top->conflicts * 100 < l->totals.misses)
      return;
   say(p, "%s hottest conflict set %u: %s conflict misses, %s of them %s\n",
       l->name, top->set, commas(top->conflicts, b1, sizeof b1),
       commas(top->vars[0].conflicts, b2, sizeof b2), top->vars[0].name);
}

static void print_cache_totals(printer *p, const mp_cache_results *cr)
{
   uint32_t k;
   char b1[32], b2[32];
   for (k = 0; k < cr->n_levels; k++)
      print_level(p, cr, &cr->level[k]);
   if (cr->prefetching)
      print_prefetcher(p, cr);
   for (k = 0; k < cr->n_levels; k++)
      print_conflict_set(p, &cr->level[k]);
   if (cr->tlb)
      say(p, "TLB (%llu entries, %u-way, %u B pages): %s accesses, %s misses (%.2f%%)\n",
          (unsigned long long)cr->tlb_entries, cr->tlb_assoc, cr->tlb_page,
          commas(cr->tlb_totals.accesses, b1, sizeof b1),
          commas(cr->tlb_totals.misses, b2, sizeof b2),
          percent(cr->tlb_totals.misses, cr->tlb_totals.accesses));
   if (cr->fallback_why)
      say(p, "Cache geometry: fallback (%s)\n", cr->fallback_why);
}

/*------------------------------------------------------------*/
/*--- The variables                                        ---*/
/*------------------------------------------------------------*/

/* "±3.2%": the larger side of interval ci around est, in percent. */
static const char *plus_minus(uint64_t est, const double ci[2], char *buf)
{
   double e = (double)est, d = ci[1] - e > e - ci[0] ? ci[1] - e : e - ci[0];
   if (est == 0)
      mp_snprintf(buf, 16, "%s", d > 0.5 ? "\xc2\xb1?" : "\xc2\xb1" "0%");
   else if (d > e)
      mp_snprintf(buf, 16, "\xc2\xb1>100%%");
   else
      mp_snprintf(buf, 16, "\xc2\xb1%.*f%%", d < 0.1 * e ? 1 : 0, 100.0 * d / e);
   return buf;
}

/* One line of the ranked table. */
static void print_row(printer *p, const mp_results *res, const mp_report_row *r,
                      int with_class)
{
   const mp_var *v = r->var;
   const char *label = v && res->var[v->id].label ? res->var[v->id].label : v ? v->name : NULL;
   uint64_t n = r->accesses;
   char cols[160], b0[32], b1[32], b2[32], b3[32], cls[16], pm[16];
   mp_strbuf name = MP_STRBUF_INIT;
   if (res->by_cycles && r->has_ci && !r->estimable)
      mp_snprintf(cols, sizeof cols, "%15s %7s %15s %15s %6s %13s", "-", "", "-",
                  commas(n, b2, sizeof b2), "-", "-");
   else if (res->by_cycles && r->has_ci)
      mp_snprintf(cols, sizeof cols, "%15s %7s %15s %15s %6.1f %13s",
                  commas(r->stall, b0, sizeof b0), plus_minus(r->stall, r->ci_stall, pm),
                  commas(r->cache.cycles, b1, sizeof b1), commas(n, b2, sizeof b2),
                  n ? (double)r->cache.cycles / (double)n : 0.0,
                  commas(r->cache.misses[0], b3, sizeof b3));
   else if (res->by_cycles)
      mp_snprintf(cols, sizeof cols, "%15s %15s %15s %6.1f %13s",
                  commas(r->stall, b0, sizeof b0),
                  commas(r->cache.cycles, b1, sizeof b1), commas(n, b2, sizeof b2),
                  n ? (double)r->cache.cycles / (double)n : 0.0,
                  commas(r->cache.misses[0], b3, sizeof b3));
   else
      mp_snprintf(cols, sizeof cols, "%15s %15s %15s",
                  commas(n, b1, sizeof b1), commas(r->c.reads, b2, sizeof b2),
                  commas(r->c.writes, b3, sizeof b3));
   cls[0] = '\0';
   if (with_class)
      mp_snprintf(cls, sizeof cls, "%-8s ", r->class_name);
   say(p, "%s  %-6s %s%s%s%s%s%s\n", cols, r->kind, cls,
       v ? printable(&name, label) : "other (folded)",
       v && v->where ? " (" : "", v && v->where ? v->where : "",
       v && v->where ? ")" : "",
       r->has_ci && !r->estimable ? ": too few of its lines in the sample" : "");
   free_buf(&name);
}

static void print_top(printer *p, const mp_results *res)
{
   const mp_summary *sum = res->summary;
   uint32_t shown = sum->n_rows < res->run->summary_rows ? sum->n_rows : res->run->summary_rows;
   const char *cls = res->run->show_runtime ? "class    " : "";
   uint32_t i;
   if (shown == 0)
      return;
   say(p, "Top %u variables by %s:\n", shown,
       res->by_cycles ? "memory stall cycles (beyond an L1 hit)" : "accesses");
   if (res->by_cycles && res->run->line_sample)
      say(p, "%15s %7s %15s %15s %6s %13s  %-6s %svariable\n", "stall", "", "cycles",
          "accesses", "cpa", "L1 misses", "kind", cls);
   else if (res->by_cycles)
      say(p, "%15s %15s %15s %6s %13s  %-6s %svariable\n", "stall", "cycles", "accesses",
          "cpa", "L1 misses", "kind", cls);
   else
      say(p, "%15s %15s %15s  %-6s %svariable\n", "accesses", "reads", "writes", "kind", cls);
   for (i = 0; i < shown; i++)
      print_row(p, res, &sum->rows[i], res->run->show_runtime);
}

#define FOLD_LINES 10   /* an MPI run folds sixty objects: the rest summed */

/* " (12.5%)" of the summary's cycles (accesses), into buf. */
static const char *share(const mp_summary *s, uint64_t rank, char *buf, size_t size)
{
   mp_snprintf(buf, size, " (%.1f%%)", percent(rank, s->all_rank));
   return buf;
}

/* One fold: "libc.so.6 (runtime): 6,894 accesses, 156,036 cycles
   (12.5%), 42 variables; most: main_arena (3.1%)". */
static void print_fold(printer *p, const mp_results *res, const mp_summary_fold *f)
{
   const mp_summary *s = res->summary;
   char b1[32], b2[32], pc[32], top[32], cyc[96];
   mp_strbuf name = MP_STRBUF_INIT, top_name = MP_STRBUF_INIT;
   cyc[0] = '\0';
   if (res->by_cycles)
      mp_snprintf(cyc, sizeof cyc, ", %s cycles%s", commas(f->cycles, b2, sizeof b2),
                  share(s, f->cycles, pc, sizeof pc));
   else
      share(s, f->accesses, pc, sizeof pc);
   say(p, "  %s (%s): %s accesses%s, %u variable%s%s%s%s\n",
       f->object ? printable(&name, f->object) : "unattributed", f->class_name,
       commas(f->accesses, b1, sizeof b1), res->by_cycles ? cyc : pc,
       f->n_vars, f->n_vars == 1 ? "" : "s",
       f->top && f->n_vars > 1 ? "; most: " : "",
       f->top && f->n_vars > 1 ? printable(&top_name, f->top->name) : "",
       f->top && f->n_vars > 1 ? share(s, f->top_rank, top, sizeof top) : "");
   free_buf(&name);
   free_buf(&top_name);
}

/* The folds past the first FOLD_LINES, summed on one line. */
static void print_more_folds(printer *p, const mp_results *res)
{
   const mp_summary *s = res->summary;
   uint64_t accesses = 0, cycles = 0;
   uint32_t i, vars = 0;
   char b1[32], b2[32], pc[32];
   if (s->n_folds <= FOLD_LINES)
      return;
   for (i = FOLD_LINES; i < s->n_folds; i++) {
      accesses += s->folds[i].accesses;
      cycles += s->folds[i].cycles;
      vars += s->folds[i].n_vars;
   }
   if (res->by_cycles)
      say(p, "  %u object%s more: %s accesses, %s cycles%s, %u variable%s\n",
          s->n_folds - FOLD_LINES, s->n_folds - FOLD_LINES == 1 ? "" : "s",
          commas(accesses, b1, sizeof b1), commas(cycles, b2, sizeof b2),
          share(s, cycles, pc, sizeof pc), vars, vars == 1 ? "" : "s");
   else
      say(p, "  %u object%s more: %s accesses%s, %u variable%s\n",
          s->n_folds - FOLD_LINES, s->n_folds - FOLD_LINES == 1 ? "" : "s",
          commas(accesses, b1, sizeof b1), share(s, accesses, pc, sizeof pc),
          vars, vars == 1 ? "" : "s");
}

/* A library the system installed that costs more than the program's
   own data may be doing the program's work (libsqlite3 under the
   sqlite3 shell): say how to rank its variables. */
static void print_program_objects_hint(printer *p, const mp_results *res)
{
   const mp_summary *s = res->summary;
   const mp_summary_fold *f = NULL;
   mp_strbuf name = MP_STRBUF_INIT;
   char pc[32], own[32];
   const char *object;
   uint32_t i;
   for (i = 0; i < s->n_folds && !f; i++)
      if (s->folds[i].by_place)
         f = &s->folds[i];
   if (!f || (res->by_cycles ? f->cycles : f->accesses) <= s->program_rank)
      return;
   object = printable(&name, f->object);
   say(p, "  %s has more of the %s%s than the program's data%s: if it does the "
       "program's work, --program-objects=%s ranks its variables as the program's\n",
       object, res->by_cycles ? "cycles" : "accesses",
       share(s, res->by_cycles ? f->cycles : f->accesses, pc, sizeof pc),
       share(s, s->program_rank, own, sizeof own), object);
   free_buf(&name);
}

/* The data outside the program's, one line per object, the largest
   first. */
static void print_folds(printer *p, const mp_results *res)
{
   const mp_summary *s = res->summary;
   uint32_t i;
   if (s->n_folds == 0 || res->run->summary_rows == 0)
      return;
   say(p, "Not the program's data, by object (--show-runtime=yes ranks their variables):\n");
   for (i = 0; i < s->n_folds && i < FOLD_LINES; i++)
      print_fold(p, res, &s->folds[i]);
   print_more_folds(p, res);
   print_program_objects_hint(p, res);
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

/* The variables with the most false transfers predicted for a
   parallel run, then the most falsely shared lines; with the placements
   of their blocks that would share falsely, when there are. */
static void print_false_sharing(printer *p, const mp_summary *s)
{
   mp_strbuf line = MP_STRBUF_INIT, name = MP_STRBUF_INIT;
   char b1[32], b2[32], b3[48], b4[32], b5[48];
   uint32_t k;
   if (s->n_shared == 0) {
      say(p, "False sharing: none\n");
      return;
   }
   for (k = 0; k < s->n_shared; k++) {
      const mp_summary_shared *sh = &s->shared[k];
      mp_snprintf(b5, sizeof b5, "; at %u of %u placements", sh->false_placements,
                  sh->placements);
      if (sh->false_lines == 0 && sh->predicted_false == 0)
         /* Lucky: only another placement of its blocks shares. */
         mp_strbuf_printf(&line, "%s%s (false sharing at %u of %u placements, none "
                          "at its own (+%u))", k ? "; " : "",
                          printable(&name, sh->var->name), sh->false_placements,
                          sh->placements, sh->current);
      else
         mp_strbuf_printf(&line, "%s%s (%s/%s line%s false: %s false transfer%s "
                          "predicted, %s seen%s)", k ? "; " : "",
                          printable(&name, sh->var->name),
                          commas(sh->false_lines, b1, sizeof b1),
                          commas(sh->shared_lines, b3, sizeof b3),
                          sh->shared_lines == 1 ? "" : "s",
                          commas(sh->predicted_false, b2, sizeof b2),
                          sh->predicted_false == 1 ? "" : "s", commas(sh->seen, b4, sizeof b4),
                          sh->false_placements ? b5 : "");
   }
   say(p, "False sharing: %s\n", line.s);
   if (s->serial_schedule)
      say(p, "  (seen: under Valgrind, which runs one thread at a time; the "
          "prediction is a parallel run's%s)\n", s->serial_schedule == 1
          ? ".  --fair-sched=yes interleaves the threads more often" : "");
   free_buf(&line);
   free_buf(&name);
}

/* The hit ratio over all accesses, the most remote variable. */
static void print_numa(printer *p, const mp_summary *s)
{
   uint64_t local = s->numa_local, remote = s->numa_remote;
   char b1[32], b2[32], b3[48], b4[32];
   mp_strbuf name = MP_STRBUF_INIT;
   if (local + remote == 0)
      return;
   b3[0] = '\0';
   if (s->numa_worst)
      mp_snprintf(b3, sizeof b3, "(%s)", commas(s->numa_worst_remote, b4, sizeof b4));
   say(p, "NUMA: %.1f%% local (%s local, %s remote accesses)%s%s%s%s\n",
       percent(local, local + remote), commas(local, b1, sizeof b1),
       commas(remote, b2, sizeof b2),
       s->numa_worst ? "; most remote: " : "",
       s->numa_worst ? printable(&name, s->numa_worst->name) : "",
       s->numa_worst ? " " : "", b3);
   free_buf(&name);
}

/*------------------------------------------------------------*/
/*--- Advice                                               ---*/
/*------------------------------------------------------------*/

/* "or: FIX (replayed: cycles -29%; holds while ...)" */
static void print_alternative(printer *p, const mp_advice_alt *alt)
{
   const mp_whatif_run *b = &alt->replay.before, *af = &alt->replay.after;
   long long pct = b->cycles == 0 ? 0
                 : (long long)(((af->cycles >= b->cycles ? af->cycles - b->cycles
                                                         : b->cycles - af->cycles) * 100
                                + b->cycles / 2) / b->cycles);
   if (alt->replay.made)
      say(p, "     or: %s (replayed: cycles %s%lld%%%s%s)\n", alt->fix,
          af->cycles >= b->cycles ? "+" : "-", pct, alt->holds ? "; holds " : "",
          alt->holds ? alt->holds : "");
   else
      say(p, "     or: %s\n", alt->fix);
}

static void print_one_advice(printer *p, const mp_results *res, uint32_t i,
                             const mp_advice *a)
{
   uint32_t k;
   const char *where = a->n_where ? a->where_text[0] : NULL;
   const char *kind = mp_advice_kind_name(a->kind);
   mp_strbuf name = MP_STRBUF_INIT;
   if (a->var == MP_ADVICE_NO_VAR && a->loop != MP_LOOP_NONE && res->loop
       && res->loop[a->loop].loop->file) {
      const mp_loop *l = res->loop[a->loop].loop;
      say(p, "  %u. %s: loop at %s:%u-%u\n", i + 1, kind, l->file, l->first_line,
          l->last_line);
   } else if (a->var == MP_ADVICE_NO_VAR)
      say(p, "  %u. %s\n", i + 1, a->text);
   else
      say(p, "  %u. %s: %s%s%s%s%s\n", i + 1, kind, printable(&name, a->variable),
          where ? " (" : "", where ? where : "", where ? ")" : "",
          mp_advice_kind_replayable(a->kind) && !a->replayed ? " (not replayed)" : "");
   say(p, "     %s\n", a->evidence);
   say(p, "     fix: %s\n", a->fix);
   if (a->holds)
      say(p, "     holds %s\n", a->holds);
   for (k = 0; k < a->n_alt; k++)
      print_alternative(p, &a->alt[k]);
   free_buf(&name);
}

static void print_advice(printer *p, const mp_results *res)
{
   uint32_t n = res->n_advice, i;
   if (n > 0)
      say(p, "Advice (%u; the first %u, all in the output file):\n", n,
          n < SUMMARY_ADVICE ? n : SUMMARY_ADVICE);
   for (i = 0; i < n && i < SUMMARY_ADVICE; i++)
      print_one_advice(p, res, i, &res->advice[i]);
   if (res->n_rejected > 0)
      say(p, "Rejected by their checks: %u (in the output file, with the reasons)\n",
          res->n_rejected);
}

/* The OpenMP runtime's spin-waiting, which Valgrind's serial schedule
   stretches: say how much of the run it is and how to avoid it. */
static void print_openmp(printer *p, const mp_summary *s)
{
   char b1[32];
   say(p, "OpenMP: %s spin-waits at its barriers, and Valgrind runs one thread at a time, "
       "so a waiting thread spins through its time slice: %s accesses (%.1f%%) are the "
       "runtime's; rerun with OMP_WAIT_POLICY=passive (LLVM's runtime: KMP_BLOCKTIME=0) "
       "for the accesses, windows and advice of the program's own work\n",
       s->openmp_spin, commas(s->openmp_accesses, b1, sizeof b1),
       percent(s->openmp_accesses, s->all_accesses));
}

void mp_exit_summary(const mp_results *res, const char *output, int written,
                     mp_exit_print_fn print, void *arg)
{
   const mp_summary *sum = res->summary;
   printer p = { print, arg, MP_STRBUF_INIT };
   char b1[32], b2[32], b3[32];
   if (res->run->line_sample)
      print_line_sample(&p, res->run);
   if (res->run->window_mode)
      print_sampling(&p, res->run);
   say(&p, "Accesses: %s (%s reads, %s writes) to %u variables\n",
       commas(sum->reads + sum->writes, b1, sizeof b1), commas(sum->reads, b2, sizeof b2),
       commas(sum->writes, b3, sizeof b3), res->n_rows);
   if (res->cache)
      print_cache_totals(&p, res->cache);
   print_top(&p, res);
   print_folds(&p, res);
   if (sum->sharing)
      print_false_sharing(&p, sum);
   if (sum->numa)
      print_numa(&p, sum);
   if (sum->openmp_spin)
      print_openmp(&p, sum);
   print_advice(&p, res);
   if (written)
      say(&p, "Output: %s\n", output);
   free_buf(&p.line);
}
