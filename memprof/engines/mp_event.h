/*--------------------------------------------------------------------*/
/*--- memprof: the access record, the seam between adapter and     ---*/
/*--- engines.                                          mp_event.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The adapter (mp_instrument.c) turns every guest data access into one
   of these and hands it to the engines, through the list of analyses
   (mp_analyses.h).  Engines never see VEX IR,
   ThreadIds or ExeContexts, only this record.  An access may straddle a
   cache-line boundary: it is passed whole (addr, size) and each engine
   splits it by its own line size (mp_event_first_line/last_line).
*/
#ifndef MP_EVENT_H
#define MP_EVENT_H

#include "mp_platform.h"

typedef struct {
   uint64_t addr;     /* first byte accessed */
   uint32_t size;     /* bytes, >= 1 (vectors up to 32, dirty helpers more) */
   uint32_t is_write; /* 0 load, 1 store; a modify is one load + one store */
   uint32_t tid;      /* Valgrind thread id, 1-based */
   uint32_t var;      /* variable id (mp_vars.h) */
   uint32_t loc;      /* source-location id of the instruction (mp_vars.h) */
   uint64_t iaddr;    /* guest address of the accessing instruction */
} mp_event;

/* Line numbers (addr / line_size) of the first and last byte touched;
   they differ exactly when the access straddles a line boundary. */
static inline uint64_t mp_event_first_line(const mp_event *e, uint32_t line_shift)
{
   return e->addr >> line_shift;
}
static inline uint64_t mp_event_last_line(const mp_event *e, uint32_t line_shift)
{
   return (e->addr + e->size - 1) >> line_shift;
}

#endif /* MP_EVENT_H */
