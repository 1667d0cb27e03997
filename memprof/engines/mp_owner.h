/*--------------------------------------------------------------------*/
/*--- memprof: whose code owns a variable.              mp_owner.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every variable has a class, the owner of the code that decides its
   layout: the program (the executable and the libraries it chose to
   link), the C runtime (the C library and the compilers' language
   runtimes), the dynamic linker, Valgrind's preloaded objects, or
   nobody known (unattributed memory).  The summary and the report
   rank the program's variables and fold the others per object; the
   advice speaks of the program's only.  The class of an object is
   decided here from its file name; the adapter tells which object
   owns each variable.  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_OWNER_H
#define MP_OWNER_H

#include "mp_platform.h"

typedef enum {
   MP_CLASS_PROGRAM,   /* the default: also user-named ranges */
   MP_CLASS_RUNTIME,
   MP_CLASS_LOADER,
   MP_CLASS_PRELOAD,
   MP_CLASS_OTHER,     /* unattributed memory, the --min-var-size fold */
   MP_CLASS_N
} mp_var_class;

/* "program", "runtime", "loader", "preload", "other": the JSON's. */
const char *mp_class_name(mp_var_class c);

/* The class of the object (or mapped file) at path, a full path or a
   file name: loader, preload, runtime, else program (see
   docs/memprof.md, "Whose data"). */
mp_var_class mp_class_of_object(const char *path);

/* The file name of path without its directory: a pointer into path. */
const char *mp_object_base(const char *path);

/* Whether a variable of class c is ranked with the program's data in
   the summary and the report (else it is folded per object unless
   --show-runtime=yes), and may get advice. */
static inline int mp_class_is_programs(mp_var_class c)
{
   return c == MP_CLASS_PROGRAM;
}

/* Whether fn, a function of a runtime object, builds an object for its
   caller, which then owns the block it allocates: the members of the
   C++ string class that the C++ runtime exports (std::string's
   constructors and appends run there, not inlined in the program). */
int mp_class_builds_for_caller(const char *fn);

#endif /* MP_OWNER_H */
