/*--------------------------------------------------------------------*/
/*--- memprof: the locals of inlined functions.        mp_inlvars.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Valgrind's core gives no local of a function inlined into another
   (mp_dwarf_locals.h says why), so memprof reads them from the
   object's debug sections with its own reader, an object the first
   time a frame of it asks, and only the program's objects (built with
   -g), as the core's locals are asked for.  x86-64 only: the reader's
   registers are its DWARF numbers.
*/
#ifndef MP_INLVARS_H
#define MP_INLVARS_H

#include "pub_tool_basics.h"

#include "mp_dwarf_locals.h"

/* The locals of inlined functions in scope at code address ip, a
   program's: their number, and in *out an array of pointers to them
   (kept until exit; the caller frees the array with VG_(free)).  0 and
   NULL if none, or if the object's debug sections cannot be read. */
UInt mp_inlvars_at(Addr ip, const mp_dw_local ***out);

/* Its counts, under -v. */
void mp_inlvars_stats(void);

#endif
