/*--------------------------------------------------------------------*/
/*--- memprof: naming a heap variable from its source line.        ---*/
/*---                                                  mp_naming.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A heap variable is named after what the program calls it: the
   identifier the allocation's result is assigned to on the source line
   of the allocation call.  Pure text processing, unit-tested
   on the host.
*/
#ifndef MP_NAMING_H
#define MP_NAMING_H

#include "mp_platform.h"

/* Finds the name assigned on one source line:
     double *a = malloc(...);          -> a
     p->buf = (char *)calloc(n, 1);    -> p->buf
     grid[i] = malloc(...);            -> grid[i]
     int *v = new int[n];              -> v
     buf = realloc(buf, n);            -> buf
     *pp = malloc(n);                  -> *pp
     for (i = 0; i < n; i++) live[i] = malloc(s);   -> live[i]
     allocate(a(n), b(m))   (Fortran)  -> a      (the first object)
   Returns the name, whole, in a new allocation (freed with mp_free)
   when one is found, else NULL (e.g. a bare "return malloc(n);" or an
   assignment spread over several lines). */
char *mp_name_from_source_line(const char *line, int is_fortran);

/* The same for the nth (0-based) allocation of a line that holds
   several: statements split at ';' ("a = malloc(n); b = malloc(n);")
   and declarators at ',' ("double *a = malloc(n), *b = malloc(n);"),
   outside parentheses and quotes, counting only the pieces whose
   assignment makes a call or a 'new'.  nth 0 is the function above.
   In Fortran, the nth object of the ALLOCATE statement.  Returns NULL
   when the line has fewer such pieces. */
char *mp_name_from_source_line_nth(const char *line, int is_fortran, unsigned nth);

/* The block an out-parameter allocation function (fn, e.g.
   "posix_memalign") stores: its first argument's target, casts
   dropped:
     int err = posix_memalign(&ret, 64, n);     -> ret (never err)
     posix_memalign((void **)&s->buf, 64, n);   -> s->buf
     posix_memalign((void **)pp, 64, n);        -> *pp
   NULL if the line does not call fn. */
char *mp_name_from_out_param(const char *line, const char *fn);

/* The name a statement without an assignment gives the block a callee
   returned to it:
     DECL_2D_ARRAY(A, double, N, N);   -> A     (a declaration macro)
     s.v.resize(n);                    -> s.v   (a method of the object)
     std::vector<double> v(n);         -> v     (a constructor)
     my_alloc(&A, n);                  -> A     (an out-parameter)
   NULL for "return f(n);" (the block goes on to the caller) and when
   none applies. */
char *mp_name_from_statement(const char *line);

/* 1 if the line calls the function fn, as a debug information names
   it: by its own name, a whole word, its qualifiers, template arguments
   and parameters dropped, the call's template arguments allowed:
   "double *d = Allocate<Real_t>(n);" calls "Allocate<double>";
   "dom.AllocateNodes(n)" calls "Domain::AllocateNodes(int)". */
int mp_line_calls(const char *line, const char *fn);

/* 1 if the line returns the value of a call, a wrapper handing the
   block it allocated on to its caller:
     return malloc(n);
     template <class T> T *alloc(size_t n) { return static_cast<T *>(malloc(sizeof(T) * n)); }
   0 for "return p;" and for lines without a return. */
int mp_line_returns_call(const char *line);

/* Drops in place the suffixes a compiler appends to a symbol, which
   name nothing of the source: "kernel.constprop.0" -> "kernel",
   "cffts1._omp_fn.0" (GCC's outlined OpenMP region) -> "cffts1",
   "f(int) [clone .isra.0]" -> "f(int)", "buf.lto_priv.0" -> "buf",
   "u1.3" -> "u1" (GCC's number of a static local).  Returns 0 if
   nothing was dropped, 1 if a suffix was, 2 if the last was a plain
   number: the symbol of a function's static local. */
int mp_strip_compiler_suffix(char *name);

/* The source name of a C++ data symbol, which the symbol table keeps
   mangled: "_ZZ4mainE5table" -> "main::table" (a static local, its
   function's parameters dropped), "_ZN6Domain5countE" ->
   "Domain::count", "_ZN12_GLOBAL__N_13bufE" ->
   "(anonymous namespace)::buf", "_ZL3buf" -> "buf".  A new allocation
   (freed with mp_free), or NULL when sym is not such a symbol. */
char *mp_demangle_data(const char *sym);

/* 1 if the file name has a Fortran extension (.f, .f90, .F03, .for...). */
int mp_is_fortran_file(const char *file);

#endif /* MP_NAMING_H */
