/*--------------------------------------------------------------------*/
/*--- memprof: allocation wrappers, preloaded into the client.     ---*/
/*---                                                 mp_preload.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   memprof measures the program with its own allocator: the heap's
   addresses, glibc's per-thread arenas and the allocator's own loads
   and stores are those of a native run.  So the allocation functions
   are wrapped, not replaced (Valgrind's function wrapping, as Helgrind
   and DRD wrap pthreads): each wrapper calls the original and tells
   the tool what it returned, with the client requests of mp_clreq.h.

   A free is announced before the original runs (the address may be
   handed out again, to another thread, as soon as it returns); an
   allocation after.  realloc does both.  Allocation functions that
   call each other (operator new calls malloc) report the same block
   twice, innermost first; the tool keeps the first report.

   Wrapped, in the C library, the C++ runtimes and the objects named by
   --soname-synonyms=somalloc=... (jemalloc, tcmalloc, or NONE for an
   allocator linked into the executable): malloc, calloc, realloc,
   free, posix_memalign, aligned_alloc, memalign, valloc, pvalloc, and
   operator new/new[]/delete/delete[] in all their forms (nothrow,
   aligned, sized).  Everything else (reallocarray, strdup, the C++
   containers' allocators) reaches one of these.

   The threads' creation and joining are wrapped too (pthread_create
   and pthread_join, in the C library, or in libpthread before glibc
   2.34): a thread's lifetime in the program runs from its creation to
   the join that waits for it, whatever order Valgrind's scheduler ran
   the threads in, and the sharing prediction meets only threads whose
   lifetimes overlap.  std::thread::join and OpenMP's pool reach these.

   This code runs on the simulated CPU, in the client: no libc, no
   globals, nothing but the original call and the requests.
*/
#include <stddef.h>

#include "valgrind.h"
#include "mp_clreq.h"

/* Z-encoded sonames: libc.so*, libstdc++*, libc++*, and the synonym
   the user sets with --soname-synonyms=somalloc=. */
#define MP_LIBC       libcZdsoZa
#define MP_LIBSTDCXX  libstdcZpZpZa
#define MP_LIBCXX     libcZpZpZa
#define MP_SOMALLOC   VgSoSynsomalloc

#define WRAP(so, fn) I_WRAP_SONAME_FNNAME_ZU(so, fn)

/* Each wrapper needs its own prototype: -Wmissing-prototypes. */
#define ALLOC1(so, fn)                                                    \
   void *WRAP(so, fn)(size_t n);                                          \
   void *WRAP(so, fn)(size_t n)                                           \
   {                                                                      \
      OrigFn orig;                                                        \
      void *p;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_W(p, orig, n);                                            \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__ALLOC, p, n, 0,         \
                                      orig.nraddr, 0);                    \
      return p;                                                           \
   }

/* fn(size, x): operator new (nothrow or aligned); x is not a size. */
#define ALLOC2_SIZE_FIRST(so, fn)                                         \
   void *WRAP(so, fn)(size_t n, size_t x);                                \
   void *WRAP(so, fn)(size_t n, size_t x)                                 \
   {                                                                      \
      OrigFn orig;                                                        \
      void *p;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WW(p, orig, n, x);                                        \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__ALLOC, p, n, 0,         \
                                      orig.nraddr, 0);                    \
      return p;                                                           \
   }

/* fn(alignment, size): memalign, aligned_alloc. */
#define ALLOC2_SIZE_SECOND(so, fn)                                        \
   void *WRAP(so, fn)(size_t align, size_t n);                            \
   void *WRAP(so, fn)(size_t align, size_t n)                             \
   {                                                                      \
      OrigFn orig;                                                        \
      void *p;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WW(p, orig, align, n);                                    \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__ALLOC, p, n, 0,         \
                                      orig.nraddr, 0);                    \
      return p;                                                           \
   }

/* operator new(size, align, nothrow). */
#define ALLOC3(so, fn)                                                    \
   void *WRAP(so, fn)(size_t n, size_t align, void *nt);                  \
   void *WRAP(so, fn)(size_t n, size_t align, void *nt)                   \
   {                                                                      \
      OrigFn orig;                                                        \
      void *p;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WWW(p, orig, n, align, nt);                               \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__ALLOC, p, n, 0,         \
                                      orig.nraddr, 0);                    \
      return p;                                                           \
   }

#define CALLOC(so, fn)                                                    \
   void *WRAP(so, fn)(size_t nmemb, size_t size);                         \
   void *WRAP(so, fn)(size_t nmemb, size_t size)                          \
   {                                                                      \
      OrigFn orig;                                                        \
      void *p;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WW(p, orig, nmemb, size);                                 \
      /* a product that overflows has made the call fail */               \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__ALLOC, p, nmemb * size, \
                                      0, orig.nraddr, 0);                 \
      return p;                                                           \
   }

#define POSIX_MEMALIGN(so, fn)                                            \
   int WRAP(so, fn)(void **pp, size_t align, size_t n);                   \
   int WRAP(so, fn)(void **pp, size_t align, size_t n)                    \
   {                                                                      \
      OrigFn orig;                                                        \
      long err;                                                           \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WWW(err, orig, pp, align, n);                             \
      if (err == 0)                                                       \
         VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__ALLOC, *pp, n,       \
                                         pp, orig.nraddr, 0);             \
      return (int)err;                                                    \
   }

#define REALLOC(so, fn)                                                   \
   void *WRAP(so, fn)(void *old, size_t n);                               \
   void *WRAP(so, fn)(void *old, size_t n)                                \
   {                                                                      \
      OrigFn orig;                                                        \
      void *p;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__REALLOC_BEGIN, old,     \
                                      0, 0, 0, 0);                        \
      CALL_FN_W_WW(p, orig, old, n);                                      \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__REALLOC_END, p, old, n, \
                                      orig.nraddr, 0);                    \
      return p;                                                           \
   }

/* free(p), and operator delete with up to two more arguments (size,
   alignment, nothrow), passed on as they came. */
#define FREE1(so, fn)                                                     \
   void WRAP(so, fn)(void *p);                                            \
   void WRAP(so, fn)(void *p)                                             \
   {                                                                      \
      OrigFn orig;                                                        \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__FREE, p, 0, 0, 0, 0);   \
      CALL_FN_v_W(orig, p);                                               \
   }

#define FREE2(so, fn)                                                     \
   void WRAP(so, fn)(void *p, size_t x);                                  \
   void WRAP(so, fn)(void *p, size_t x)                                   \
   {                                                                      \
      OrigFn orig;                                                        \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__FREE, p, 0, 0, 0, 0);   \
      CALL_FN_v_WW(orig, p, x);                                           \
   }

#define FREE3(so, fn)                                                     \
   void WRAP(so, fn)(void *p, size_t x, size_t y);                        \
   void WRAP(so, fn)(void *p, size_t x, size_t y)                         \
   {                                                                      \
      OrigFn orig;                                                        \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__FREE, p, 0, 0, 0, 0);   \
      CALL_FN_v_WWW(orig, p, x, y);                                       \
   }

/* The C allocation functions of one object. */
#define C_FAMILY(so)                                                      \
   ALLOC1(so, malloc)                                                     \
   ALLOC1(so, valloc)                                                     \
   ALLOC1(so, pvalloc)                                                    \
   CALLOC(so, calloc)                                                     \
   ALLOC2_SIZE_SECOND(so, memalign)                                       \
   ALLOC2_SIZE_SECOND(so, aligned_alloc)                                  \
   POSIX_MEMALIGN(so, posix_memalign)                                     \
   REALLOC(so, realloc)                                                   \
   FREE1(so, free)

/* The C++ ones, by mangled name (x86-64: size_t is unsigned long). */
#define CXX_FAMILY(so)                                                    \
   ALLOC1(so, _Znwm)                                                      \
   ALLOC1(so, _Znam)                                                      \
   ALLOC2_SIZE_FIRST(so, _ZnwmRKSt9nothrow_t)                             \
   ALLOC2_SIZE_FIRST(so, _ZnamRKSt9nothrow_t)                             \
   ALLOC2_SIZE_FIRST(so, _ZnwmSt11align_val_t)                            \
   ALLOC2_SIZE_FIRST(so, _ZnamSt11align_val_t)                            \
   ALLOC3(so, _ZnwmSt11align_val_tRKSt9nothrow_t)                         \
   ALLOC3(so, _ZnamSt11align_val_tRKSt9nothrow_t)                         \
   FREE1(so, _ZdlPv)                                                      \
   FREE1(so, _ZdaPv)                                                      \
   FREE2(so, _ZdlPvm)                                                     \
   FREE2(so, _ZdaPvm)                                                     \
   FREE2(so, _ZdlPvRKSt9nothrow_t)                                        \
   FREE2(so, _ZdaPvRKSt9nothrow_t)                                        \
   FREE2(so, _ZdlPvSt11align_val_t)                                       \
   FREE2(so, _ZdaPvSt11align_val_t)                                       \
   FREE3(so, _ZdlPvmSt11align_val_t)                                      \
   FREE3(so, _ZdaPvmSt11align_val_t)                                      \
   FREE3(so, _ZdlPvSt11align_val_tRKSt9nothrow_t)                         \
   FREE3(so, _ZdaPvSt11align_val_tRKSt9nothrow_t)

C_FAMILY(MP_LIBC)
C_FAMILY(MP_SOMALLOC)
CXX_FAMILY(MP_LIBSTDCXX)
CXX_FAMILY(MP_LIBCXX)
CXX_FAMILY(MP_SOMALLOC)

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

/* Z-encoded: pthread_create and pthread_join, unversioned or versioned
   (glibc's "pthread_create@@GLIBC_2.34"), in libc.so* and
   libpthread.so*.  pthread_t is an unsigned long on Linux. */
#define THREAD_CREATE(so, fn)                                             \
   int I_WRAP_SONAME_FNNAME_ZZ(so, fn)(unsigned long *thread,             \
                                       void *attr, void *start, void *arg); \
   int I_WRAP_SONAME_FNNAME_ZZ(so, fn)(unsigned long *thread,             \
                                       void *attr, void *start, void *arg)  \
   {                                                                      \
      OrigFn orig;                                                        \
      int ret;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WWWW(ret, orig, thread, attr, start, arg);                \
      if (ret == 0)                                                       \
         VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__THREAD_CREATED,      \
                                         *thread, 0, 0, 0, 0);            \
      return ret;                                                         \
   }

#define THREAD_JOIN(so, fn)                                               \
   int I_WRAP_SONAME_FNNAME_ZZ(so, fn)(unsigned long thread, void **value); \
   int I_WRAP_SONAME_FNNAME_ZZ(so, fn)(unsigned long thread, void **value)  \
   {                                                                      \
      OrigFn orig;                                                        \
      int ret;                                                            \
      VALGRIND_GET_ORIG_FN(orig);                                         \
      CALL_FN_W_WW(ret, orig, thread, value);                             \
      if (ret == 0)                                                       \
         VALGRIND_DO_CLIENT_REQUEST_STMT(MP_USERREQ__THREAD_JOINED,       \
                                         thread, 0, 0, 0, 0);             \
      return ret;                                                         \
   }

#define MP_LIBPTHREAD libpthreadZdsoZa

THREAD_CREATE(libcZdsoZa, pthreadZucreate)
THREAD_CREATE(libcZdsoZa, pthreadZucreateZAZa)
THREAD_CREATE(MP_LIBPTHREAD, pthreadZucreate)
THREAD_CREATE(MP_LIBPTHREAD, pthreadZucreateZAZa)
THREAD_JOIN(libcZdsoZa, pthreadZujoin)
THREAD_JOIN(libcZdsoZa, pthreadZujoinZAZa)
THREAD_JOIN(MP_LIBPTHREAD, pthreadZujoin)
THREAD_JOIN(MP_LIBPTHREAD, pthreadZujoinZAZa)
