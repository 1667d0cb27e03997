/*--------------------------------------------------------------------*/
/*--- memprof: the stack locals of inlined functions, from DWARF.  ---*/
/*---                                             mp_dwarf_locals.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Valgrind's core drops the local variables of inlined functions: the
   DWARF gives an inlined copy's local its name and type only through
   DW_AT_abstract_origin, and the core's reader leaves such a local
   untyped and discards it.  An array a function inlined into main at
   -O2 keeps on the stack would then be reported as main's whole frame.
   This is memprof's own small reader for exactly those locals: from
   the debug sections of one object, as buffers, every DW_TAG_variable
   whose innermost function scope is a DW_TAG_inlined_subroutine and
   which lives in memory at a fixed offset from the CFA, the stack
   pointer or the frame pointer, with the code ranges where it does.

   Notes:
   - DWARF 2 to 5, 32- and 64-bit format, compile and partial units
     (type, skeleton and split units are passed over); gcc's and
     clang's output.  Little-endian objects only; the registers are
     x86-64's DWARF numbers (the caller asks only on that platform).
   - A location is accepted only as one operation: DW_OP_fbreg through
     a frame base of DW_OP_call_frame_cfa, DW_OP_reg6/7 or
     DW_OP_breg6/7, or DW_OP_breg7 / DW_OP_breg6 (rsp / rbp, the x86-64
     numbering) directly.  Anything else (a register, pieces, a
     computed value, a frame base that is a location list) is not a
     fixed place in memory, and the variable is left out.
   - A location list's entries are cut to the variable's scope; a
     DW_LLE_default_location entry is not used (it holds where no other
     entry does, which would need the list's complement): the variable
     is then named only where another entry places it.
   - A variable whose name, type or size cannot be told (a
     variable-length array, a declaration-only structure) is left out,
     as is one of an inlined function without a name.
   - Malformed input never makes it read outside the buffers or loop:
     every read is bounded by its section (a DIE's by its unit), a unit
     that cannot be decoded is skipped, chains of references are cut
     after a fixed number of hops.

   Cost: one pass over .debug_info, each DIE decoded once; each
   distinct abbreviation table parsed once.  Per local of an inlined
   function that lives in memory: its location list, a few DIEs more
   (its abstract origin, its type chain, at most 32 hops) and, once per
   distinct inlined function, its qualified name (a binary search among
   the object's namespaces and classes).  Linear in the sections' sizes;
   memory: the units' and abbreviations' tables, the namespaces and
   classes (offsets and names), and the records found.
*/
#ifndef MP_DWARF_LOCALS_H
#define MP_DWARF_LOCALS_H

#include "mp_platform.h"

/* The debug sections of one object, as read by the caller: .debug_<name>;
   ranges and loc are DWARF 2-4's.  Any may be NULL (size 0) when absent. */
typedef struct {
   const uint8_t *info, *abbrev, *str, *line_str, *str_offsets, *addr,
                 *rnglists, *loclists, *ranges, *loc;
   uint64_t info_size, abbrev_size, str_size, line_str_size, str_offsets_size, addr_size,
            rnglists_size, loclists_size, ranges_size, loc_size;
} mp_dwarf_sections;

/* What a local's address is relative to: the canonical frame address,
   the stack pointer (DWARF register 7, rsp on x86-64) or the frame
   pointer (register 6, rbp). */
typedef enum { MP_DW_CFA, MP_DW_SP, MP_DW_FP } mp_dw_base;

/* One local over one contiguous range of code where its location holds. */
typedef struct {
   uint64_t lo, hi;      /* [lo, hi): link-time code addresses where the local is
                            in scope at this location */
   char *name;           /* the local's source name */
   char *function;       /* the inlined function's name, qualified by the named
                            namespaces and classes declaring it ("ns::Klass::method") */
   uint64_t size;        /* the declared size, bytes (> 0) */
   mp_dw_base base;
   int64_t offset;       /* bytes: the local's first byte is at base + offset */
} mp_dw_local;

/* Reads the locals of inlined functions from s: returns how many, in
   *out (a new array, sorted by lo, then hi; NULL when none; free with
   mp_dwarf_locals_free).  Never crashes or loops on malformed or
   unsupported input: a unit it cannot decode is skipped (and counted
   in *n_skipped_units if that is non-NULL), a variable whose size or
   location it cannot tell is left out. */
size_t mp_dwarf_read_inlined_locals(const mp_dwarf_sections *s, mp_dw_local **out,
                                    size_t *n_skipped_units);
void mp_dwarf_locals_free(mp_dw_local *locals, size_t n);

#endif /* MP_DWARF_LOCALS_H */
