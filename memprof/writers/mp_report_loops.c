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
   the loops shown, their formulas, the structures, their DOT text and
   their replays are the results' (mp_results.h).
*/
#include "mp_report_loops.h"
#include "mp_util.h"

static void write_formula(mp_json *j, const mp_formula_result *f)
{
   mp_json_begin_object(j);
   mp_json_kv_string(j, "where", f->where);
   mp_json_kv_string(j, "variable", f->variable);
   mp_json_kv_string(j, "formula", f->terms);
   mp_json_kv_i64(j, "base", f->base);
   mp_json_kv_bool(j, "in_block", f->in_block);
   mp_json_kv_double(j, "fit", f->fit);
   mp_json_kv_u64(j, "accesses", f->accesses);
   mp_json_end_object(j);
}

static void write_loop(mp_json *j, const mp_results *res, uint32_t id)
{
   const mp_loop_result *lr = &res->loop[id];
   const mp_loop *l = lr->loop;
   const mp_streams_loop *st = lr->streams;
   uint32_t i;
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "id", id);
   mp_json_kv_string(j, "function", lr->function);
   mp_json_kv_string(j, "file", l->file);
   mp_json_kv_string(j, "class", lr->class_name);
   mp_json_kv_string(j, "object", lr->object);
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
   mp_json_kv_u64(j, "accesses", lr->accesses);
   mp_json_kv_u64(j, "streams", st ? st->max_streams : 0);
   mp_json_kv_double(j, "mean_streams", st && st->instances
                     ? (double)st->streams_sum / (double)st->instances : 0.0);
   mp_json_kv_bool(j, "flagged", lr->flagged);
   mp_json_key(j, "formulas");
   mp_json_begin_array(j);
   for (i = 0; i < lr->n_formulas; i++)
      write_formula(j, &lr->formulas[i]);
   mp_json_end_array(j);
   mp_json_end_object(j);
}

void mp_report_write_loops(mp_json *j, const mp_results *res)
{
   uint32_t i;
   mp_json_key(j, "loops");
   mp_json_begin_array(j);
   for (i = 0; i < res->n_loops_shown; i++)
      write_loop(j, res, res->loops_shown[i]);
   mp_json_end_array(j);
}

/*------------------------------------------------------------*/
/*--- Structures                                           ---*/
/*------------------------------------------------------------*/

void mp_report_write_struct(mp_json *j, const mp_structure *st)
{
   const mp_struct_layout *l = &st->layout;
   uint32_t i, k;
   mp_json_kv_u64(j, "size", l->size);
   mp_json_kv_bool(j, "overlapping", st->overlapping);
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

void mp_report_struct_dot(const mp_results *res, mp_report_emit_fn emit, void *arg)
{
   uint32_t i;
   /* In the order of the rows: the ranking of the report. */
   for (i = 0; i < res->n_rows; i++) {
      const mp_var *v = res->rows[i].var;
      const mp_structure *st = v ? res->var[v->id].structure : NULL;
      if (st && st->dot)
         emit(arg, st->dot, mp_strlen(st->dot));
   }
}
