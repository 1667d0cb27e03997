/*--------------------------------------------------------------------*/
/*--- memprof: the report's sections on loops and structures.      ---*/
/*---                                             mp_report_loops.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   Used by mp_report.c, mp_advice.c and the adapter.  No Valgrind header.
*/
#ifndef MP_REPORT_LOOPS_H
#define MP_REPORT_LOOPS_H

#include "mp_report.h"

 /* Variables with fewer accesses get no structure analysis. */
#define MP_STRUCT_MIN_ACCESSES 1000

/* Top-level "loops" (cfg->loops, streams and formula set). */
void mp_report_write_loops(mp_json *j, const mp_vars *vs, const mp_report_config *cfg);

/* variables[].struct, if the variable looks like an array of structures. */
void mp_report_write_struct(mp_json *j, const mp_var *v, const mp_report_config *cfg);

/* The suggested split of v's structure as text ("{ a, c } / { b, d }",
   in *text, freed by the caller),
   its number of groups and the share of v's cycles the fields cover,
   and the what-if replay of the split (*replayed 0 when not made);
   0 if v is not an array of structures (or its fields overlap: vector
   accesses to a plain array). */
int mp_report_struct_split(const mp_var *v, const mp_report_config *cfg,
                           char **text, uint32_t *n_groups, double *covered,
                           mp_whatif_run *before, mp_whatif_run *after, int *replayed);

/* Replays v's recorded accesses as they were and with layout l split
   into one array per group (--what-if=split); 0 if not possible. */
int mp_report_whatif_split(const mp_var *v, const mp_report_config *cfg,
                           const mp_struct_layout *l,
                           mp_whatif_run *before, mp_whatif_run *after);

/* The affinity graphs of vars (those that are arrays of structures) as
   Graphviz DOT, one graph each, through emit. */
void mp_report_struct_dot(const mp_vars *vs, const mp_report_config *cfg,
                          const uint32_t *vars, uint32_t n_vars,
                          mp_structs_emit_fn emit, void *arg);

/* The innermost loop holding instruction instr (the adapter's id, as
   in mp_line_stride), MP_LOOP_NONE if none or without loops. */
uint32_t mp_report_instr_loop(const mp_report_config *cfg, uint32_t instr);

/* "file:first-last" of loop l (freed by the caller). */
char *mp_report_loop_where(const mp_report_config *cfg, uint32_t l);

/* The coefficient of instruction instr's access formula for the counter
   of loop l (which must enclose it); 0 with *known 0 if no fitting
   formula tells. */
int64_t mp_report_instr_step(const mp_report_config *cfg, uint32_t instr, uint32_t l,
                             int *known);

/* The size of v's structure when its fields fall into two groups or
   more (a split is suggested), else 0. */
uint64_t mp_report_struct_size(const mp_var *v, const mp_report_config *cfg);

#endif /* MP_REPORT_LOOPS_H */
