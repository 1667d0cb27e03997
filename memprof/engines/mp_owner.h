/*--------------------------------------------------------------------*/
/*--- memprof: whose code owns a variable.              mp_owner.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Every variable has a class, the owner of the code that decides its
   layout: the program (the executable and the libraries built with
   it), the runtime (the C library, the compilers' language runtimes
   and every library the system installed: MPI, hwloc, libsqlite3),
   the dynamic linker, Valgrind's preloaded objects, or nobody known
   (unattributed memory).  The summary and the report
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

/* Whether object, a file name the runtime's class, is so by its place
   alone (a library the system installed), not by the name of the C
   library, a compiler's runtime or their data. */
int mp_class_by_place(const char *object);

/* The program's build tree: that of exe, the executable's absolute
   path ("." and ".." are resolved here).  Until it is set, only the
   system's library directories tell a system library by its place. */
void mp_owner_set_program(const char *exe);

/* Adds the comma-separated patterns of --program-objects: objects
   whose variables are the program's whatever the rules say (but the
   dynamic linker's and Valgrind's).  '*' matches any characters, '?'
   one; a pattern with a '/' matches the full path, else the file
   name.  NULL, or what is wrong with list (nothing is added then). */
const char *mp_owner_add_program_objects(const char *list);

/* The program's build tree ("/" ends it), or NULL when not set; the
   patterns, n_patterns of them. */
const char *mp_owner_tree(void);
const char *const *mp_owner_patterns(int *n_patterns);

/* Forgets the tree and the patterns (the unit tests' fresh start). */
void mp_owner_reset(void);

/* Whether the system installed the object at path (a full path): it
   lies under the system's library directories or in a system bin
   directory, whatever its class (--program-objects may make it the
   program's), so that its debug information is a package away. */
int mp_object_installed_by_system(const char *path);

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
