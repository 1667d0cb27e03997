/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on loops and structures.      ---*/
/*---                                             mp_report_loops.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Writes the top-level "loops" (each loop's lines, trip counts,
   concurrent streams and the access formulas of its instructions) and
   variables[].struct (StructSlim's inferred structure, field affinity
   and suggested split), as docs/json-format.md describes them; and the
   same structures as Graphviz DOT for --affinity-dot.  Only writes:
   the structures and their replays are the results' (mp_results.h).
*/
#include "mp_report_loops.h"
#include "mp_facts.h"
#include "mp_util.h"

#define MAX_LOOPS          100   /* the busiest loops reported */
#define FORMULAS_PER_LOOP  10
#define MIN_FORMULA_ACCESSES 16  /* fewer: too little to call it a pattern */

typedef struct {
   uint32_t loop;
   uint64_t accesses;
} loop_rank;

typedef struct {
   uint32_t loop;
   uint32_t index;        /* mp_formula_at index */
   uint64_t accesses;
} formula_ref;

static int loop_rank_before(const loop_rank *a, const loop_rank *b)
{
   if (a->accesses != b->accesses)
      return a->accesses > b->accesses;
   return a->loop < b->loop;
}

static int formula_before(const formula_ref *a, const formula_ref *b)
{
   if (a->loop != b->loop)
      return a->loop < b->loop;
   if (a->accesses != b->accesses)
      return a->accesses > b->accesses;
   return a->index < b->index;
}

static int loop_rank_cmp(const void *a, const void *b)
{
   return loop_rank_before(a, b) ? -1 : loop_rank_before(b, a) ? 1 : 0;
}

static int formula_cmp(const void *a, const void *b)
{
   return formula_before(a, b) ? -1 : formula_before(b, a) ? 1 : 0;
}

/* A formula with a counter in it (a constant address is not a pattern
   worth a formula). */
static int has_counter(const mp_formula_instr *fi)
{
   uint32_t k;
   for (k = 0; k < fi->depth; k++)
      if ((fi->known >> k & 1) && fi->coef[k] != 0)
         return 1;
   return 0;
}

/* The formulas that fit, grouped by the innermost loop of their
   instruction, busiest first; *n_out their number. */
static formula_ref *fitting_formulas(const mp_results *res, uint32_t *n_out)
{
   uint32_t n = mp_formula_count(res->an->formula), i, k = 0;
   formula_ref *out = mp_malloc("mp.report.formulas", (n + 1) * sizeof *out);
   for (i = 0; i < n; i++) {
      const mp_formula_instr *fi = mp_formula_at(res->an->formula, i);
      uint32_t loop;
      if (fi->accesses < MIN_FORMULA_ACCESSES || !mp_formula_fits(fi, NULL)
          || !has_counter(fi)
          || (uint32_t)fi->instr >= res->an->n_instrs
          || !res->an->instrs[(uint32_t)fi->instr].known)
         continue;
      loop = mp_facts_instr_loop(res->an, (uint32_t)fi->instr);
      /* Records made before an enclosing loop was found are superseded
         by the one over the whole nest. */
      if (loop == MP_LOOP_NONE || mp_loops_get(res->an->loops, loop)->depth != fi->depth)
         continue;
      out[k].loop = loop;
      out[k].index = i;
      out[k].accesses = fi->accesses;
      k++;
   }
   mp_sort(out, k, sizeof *out, formula_cmp);
   *n_out = k;
   return out;
}

/* The formula's terms in the counters, without its constant (reported
   apart as the base): "8*i1 + 1088*i2 + 217600*i3", in a new
   allocation (freed with mp_free). */
static char *formula_terms(const mp_formula_instr *fi)
{
   char one, *buf, *cut;
   size_t size = (size_t)mp_formula_format(fi, &one, 1) + 1;
   buf = mp_malloc("mp.report.formula", size);
   mp_formula_format(fi, buf, size);
   cut = buf + mp_strlen(buf);
   while (cut > buf && !(cut[-1] == ' ' && cut - buf >= 2 && (cut[-2] == '+' || cut[-2] == '-')))
      cut--;
   /* cut is after "+ " or "- " of the last term: a constant has no '*' */
   if (cut > buf) {
      const char *p;
      int has_var = 0;
      for (p = cut; *p; p++)
         has_var |= *p == '*';
      if (!has_var && cut - buf >= 3)
         cut[-3] = '\0';
   }
   return buf;
}

static void write_formula(mp_json *j, const mp_vars *vs, const mp_results *res,
                          const mp_formula_instr *fi)
{
   char *text;
   double ratio = 0;
   /* the low 32 bits of the key: the instruction id */
   const mp_instr_fact *in = &res->an->instrs[(uint32_t)fi->instr];
   uint32_t var = in->var;
   text = formula_terms(fi);
   mp_formula_fits(fi, &ratio);
   mp_json_begin_object(j);
   mp_json_kv_string(j, "where", mp_vars_location_where(vs, in->loc));
   mp_json_kv_string(j, "variable", var < mp_vars_count(vs) ? mp_vars_get(vs, var)->name : NULL);
   mp_json_kv_string(j, "formula", text);
   mp_free(text);
   /* The address (or offset in the block) at all counters 0: counters
      count back edges, so with the loop test at the bottom (-O0) the
      first pass has counter 1 and the base is one step before. */
   mp_json_kv_i64(j, "base", mp_formula_base(fi));
   mp_json_kv_bool(j, "in_block", fi->has_block != 0);
   mp_json_kv_double(j, "fit", ratio);
   mp_json_kv_u64(j, "accesses", fi->accesses);
   mp_json_end_object(j);
}

static void write_loop(mp_json *j, const mp_vars *vs, const mp_results *res,
                       uint32_t id, const formula_ref *f, uint32_t n_f)
{
   const mp_loop *l = mp_loops_get(res->an->loops, id);
   const mp_streams_loop *st = mp_streams_get(res->an->streams, id);
   uint32_t i, shown = 0;
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "id", id);
   mp_json_kv_string(j, "function", mp_vars_location_fn(vs, l->fn));
   mp_json_kv_string(j, "file", l->file);
   mp_json_kv_string(j, "class", mp_class_name(res->loop[id].cls));
   mp_json_kv_string(j, "object", res->loop[id].object);
   mp_json_kv_u64(j, "first_line", l->first_line);
   mp_json_kv_u64(j, "last_line", l->last_line);
   mp_json_kv_u64(j, "depth", l->depth);
   mp_json_key(j, "parent");
   if (l->parent == MP_LOOP_NONE)
      mp_json_null(j);
   else
      mp_json_u64(j, l->parent);
   mp_json_kv_u64(j, "entries", l->entries);
   mp_json_kv_u64(j, "iterations", l->iterations);
   mp_json_kv_double(j, "mean_iterations",
                     l->entries ? (double)l->iterations / (double)l->entries : 0.0);
   mp_json_kv_u64(j, "max_iterations", l->max_iterations);
   mp_json_kv_u64(j, "accesses", st ? st->accesses : 0);
   mp_json_kv_u64(j, "streams", st ? st->max_streams : 0);
   mp_json_kv_double(j, "mean_streams", st && st->instances
                     ? (double)st->streams_sum / (double)st->instances : 0.0);
   mp_json_kv_bool(j, "flagged", mp_streams_flagged(res->an->streams, id));
   mp_json_key(j, "formulas");
   mp_json_begin_array(j);
   for (i = 0; i < n_f && shown < FORMULAS_PER_LOOP; i++)
      if (f[i].loop == id) {
         write_formula(j, vs, res, mp_formula_at(res->an->formula, f[i].index));
         shown++;
      }
   mp_json_end_array(j);
   mp_json_end_object(j);
}

void mp_report_write_loops(mp_json *j, const mp_vars *vs, const mp_results *res)
{
   uint32_t n = mp_loops_count(res->an->loops), i, k = 0, n_f;
   loop_rank *r = mp_malloc("mp.report.loops", (n + 1) * sizeof *r);
   formula_ref *f = fitting_formulas(res, &n_f);
   uint8_t *shown = mp_calloc("mp.report.loops", n + 1, 1);
   for (i = 0; i < n; i++) {
      const mp_loop *l = mp_loops_get(res->an->loops, i);
      const mp_streams_loop *st = mp_streams_get(res->an->streams, i);
      /* Loops that ran but did not access memory in the collected part
         (--toggle-collect) are left out, unless an inner loop needs them
         as its parent. */
      if (l->entries == 0 || st == NULL || st->accesses == 0)
         continue;
      r[k].loop = i;
      r[k].accesses = st->accesses;
      k++;
   }
   mp_sort(r, k, sizeof *r, loop_rank_cmp);
   for (i = 0; i < k && i < MAX_LOOPS; i++) {
      uint32_t p;
      shown[r[i].loop] = 1;
      for (p = mp_loops_get(res->an->loops, r[i].loop)->parent; p != MP_LOOP_NONE;
           p = mp_loops_get(res->an->loops, p)->parent)
         shown[p] = 1;
   }
   mp_json_key(j, "loops");
   mp_json_begin_array(j);
   for (i = 0; i < k && i < MAX_LOOPS; i++)
      write_loop(j, vs, res, r[i].loop, f, n_f);
   /* then the ancestors the busiest loops need, in id order */
   for (i = 0; i < n; i++) {
      uint32_t q;
      int listed = 0;
      if (!shown[i])
         continue;
      for (q = 0; q < k && q < MAX_LOOPS && !listed; q++)
         listed = r[q].loop == i;
      if (!listed)
         write_loop(j, vs, res, i, f, n_f);
   }
   mp_json_end_array(j);
   mp_free(shown);
   mp_free(r);
   mp_free(f);
}

/*------------------------------------------------------------*/
/*--- Structures                                           ---*/
/*------------------------------------------------------------*/

void mp_report_write_struct(mp_json *j, const mp_structure *st)
{
   const mp_struct_layout *l = &st->layout;
   uint32_t i, k;
   mp_json_kv_u64(j, "size", l->size);
   mp_json_kv_bool(j, "overlapping", mp_facts_fields_overlap(l));
   mp_json_kv_double(j, "covered", l->covered);
   mp_json_kv_bool(j, "by_count", l->by_count);
   mp_json_key(j, "fields");
   mp_json_begin_array(j);
   for (i = 0; i < l->n_fields; i++) {
      const mp_struct_field *f = &l->fields[i];
      mp_json_begin_object(j);
      mp_json_kv_u64(j, "offset", f->offset);
      mp_json_kv_string(j, "name", st->names[i]);
      mp_json_kv_u64(j, "size", f->size);
      mp_json_kv_u64(j, "accesses", f->accesses);
      mp_json_kv_double(j, "share", f->share);
      mp_json_key(j, "loops");
      mp_json_begin_array(j);
      for (k = 0; k < f->n_loops; k++)
         mp_json_u64(j, f->loops[k] - 1);   /* the engine's ids are loop + 1 */
      mp_json_end_array(j);
      mp_json_end_object(j);
   }
   mp_json_end_array(j);
   mp_json_key(j, "affinity");
   mp_json_begin_array(j);
   for (i = 0; i < l->n_fields; i++)
      for (k = i + 1; k < l->n_fields; k++) {
         mp_json_begin_array(j);
         mp_json_u64(j, i);
         mp_json_u64(j, k);
         mp_json_double(j, MP_STRUCT_AFF(l, i, k));
         mp_json_end_array(j);
      }
   mp_json_end_array(j);
   mp_json_key(j, "groups");
   mp_json_begin_array(j);
   for (i = 0; i < l->n_groups; i++) {
      mp_json_begin_array(j);
      for (k = l->group_start[i]; k < l->group_start[i + 1]; k++)
         mp_json_u64(j, l->fields[l->group_fields[k]].offset);
      mp_json_end_array(j);
   }
   mp_json_end_array(j);
   mp_json_kv_string(j, "split", st->split);
}

void mp_report_struct_dot(const mp_results *res, const uint32_t *vars, uint32_t n_vars,
                          mp_structs_emit_fn emit, void *arg)
{
   uint32_t i;
   for (i = 0; i < n_vars; i++) {
      const mp_structure *st = vars[i] < res->n_vars ? res->var[vars[i]].structure : NULL;
      if (st)
         mp_structs_dot(&st->layout, mp_vars_get(res->vs, vars[i])->name,
                        (const char *const *)st->names, emit, arg);
   }
}
