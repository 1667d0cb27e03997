/*--------------------------------------------------------------------*/
/*--- memprof: a structure's fields from its source text.          ---*/
/*---                                                  mp_srctype.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The structure-splitting advice knows a heap variable's fields by
   their offsets only: a heap block has no type in the debug
   information Valgrind reads.  Its source does: the line that names
   the block declares or casts the pointer ("struct particle *parts =
   malloc(...)", "Cell *c = new Cell[n]"), and the file (or a header
   it includes) defines the structure.  This reads both, for the
   plain structures HPC codes keep their data in: members of the C
   scalar types, pointers, fixed arrays and structures defined in the
   same text, laid out with the x86-64 and AArch64 natural alignment.
   Anything else (bit-fields, unions, templates, a size it cannot
   tell) makes it answer nothing rather than a wrong offset.  Pure
   text processing, unit-tested on the host.
*/
#ifndef MP_SRCTYPE_H
#define MP_SRCTYPE_H

#include "mp_platform.h"

/* One declared member: its name, offset and size in bytes, and the
   size of its elements when it is an array (0 otherwise). */
typedef struct {
   char *name;
   uint64_t offset, size, elem;
} mp_src_field;

/* The type a source line gives the block it names 'name': of
     T *name = ...            (a declaration, "struct T", "const T")
     name = (T *)malloc(...)  (a cast)
     name = new T[n]          (C++'s new)
   the T, without "struct"/"class"/"const", in a new allocation (freed
   with mp_free); NULL when the line tells none.  name may be a member
   path ("d->cells"): its last identifier is looked for. */
char *mp_src_pointee_type(const char *line, const char *name);

/* The members of the structure 'type' as defined in text ("struct T
   {...}", "class T {...}", "typedef struct [tag] {...} T;"), in
   declaration order, with their offsets; *size_out the structure's
   size.  NULL (and *n_out 0) when text does not define it or a member
   cannot be laid out.  Free with mp_src_fields_free. */
mp_src_field *mp_src_struct_fields(const char *text, const char *type,
                                   uint32_t *n_out, uint64_t *size_out);
void mp_src_fields_free(mp_src_field *f, uint32_t n);

/* The name a report gives the bytes [offset, offset + size) of such a
   structure: the member that holds them ("x"), "a..b" when they span
   members a to b, with an element index when they lie inside an array
   member ("pos[1]"); offset is taken modulo the structure's size.  A
   new allocation, or NULL when no member starts at or holds offset. */
char *mp_src_field_name(const mp_src_field *f, uint32_t n, uint64_t struct_size,
                        uint64_t offset, uint64_t size);

/* The function whose body in text declares the static local 'name'
   ("static dcomplex u0[NZ][NY][NX];" in main's body): its name, in a
   new allocation, or NULL when text declares no such static inside a
   function.  Static locals are named after it, not after the code that
   touches them, which may be a callee they were passed to. */
char *mp_src_static_owner(const char *text, const char *name);

/* Whether the class or structure 'cls' that text defines declares the
   data member 'member' ("double *m_x;", "std::vector<Real_t> m_x;"
   in its body, not in a method's): a block assigned to it in a method
   of cls is named cls::member. */
int mp_src_class_declares(const char *text, const char *cls, const char *member);

/* The class whose code holds line 'line' of text: the class or
   structure whose body holds it (a method defined inside), or X of a
   method defined outside, "... X::f(...) {"; innermost first.  A new
   allocation, or NULL.  Inlined at -O2, a method is known by its bare
   name ("alloc"): the source still says whose it is. */
char *mp_src_class_at(const char *text, uint32_t line);

#endif /* MP_SRCTYPE_H */
