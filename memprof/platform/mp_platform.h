/*--------------------------------------------------------------------*/
/*--- memprof: the one seam between the engines and their host.    ---*/
/*---                                                 mp_platform.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   The analysis engines (mp_rangemap, mp_json, mp_vars, mp_report, ...)
   include this header and nothing else from their environment.  Built
   inside the tool (the default) it maps allocation, assertion, printing
   and string helpers onto Valgrind's VG_(...) library; built with
   -DMP_HOST it maps them onto libc, so the very same engine files link
   into host test programs run under Check.

   Only freestanding compiler headers (stdint.h, stddef.h, stdarg.h) are
   used for types, so no libc is needed inside the tool.
*/
#ifndef MP_PLATFORM_H
#define MP_PLATFORM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef MP_HOST

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 'cc' is Valgrind's cost-centre string; the host has no use for it. */
#define mp_malloc(cc, n)       mp_host_xmalloc(n)
#define mp_calloc(cc, n, sz)   mp_host_xcalloc(n, sz)
#define mp_realloc(cc, p, n)   mp_host_xrealloc(p, n)
#define mp_strdup(cc, s)       mp_host_xstrdup(s)
#define mp_free(p)             free(p)
#define mp_assert(e)           assert(e)
#define mp_memset(d, c, n)     memset(d, c, n)
#define mp_memcpy(d, s, n)     memcpy(d, s, n)
#define mp_memcmp(a, b, n)     memcmp(a, b, n)
#define mp_strlen(s)           strlen(s)
#define mp_strcmp(a, b)        strcmp(a, b)
#define mp_strncmp(a, b, n)    strncmp(a, b, n)
#define mp_strstr(s, part)     strstr(s, part)
#define mp_snprintf            snprintf
#define mp_vsnprintf           vsnprintf
#define mp_vcbprintf           mp_host_vcbprintf

/* Zeroed memory for a large table of which a run may touch little (a
   simulated cache's ways, per-set counters): its pages cost neither
   time nor memory until written.  Freed with mp_free_table and the same
   size. */
#define mp_zalloc_table(cc, n) mp_host_xcalloc(1, n)
#define mp_free_table(p, n)    free(p)

static inline void *mp_host_xmalloc(size_t n)
{
   void *p = malloc(n ? n : 1);
   if (!p) { fprintf(stderr, "memprof: out of memory\n"); abort(); }
   return p;
}
static inline void *mp_host_xcalloc(size_t n, size_t sz)
{
   void *p = calloc(n ? n : 1, sz ? sz : 1);
   if (!p) { fprintf(stderr, "memprof: out of memory\n"); abort(); }
   return p;
}
static inline void *mp_host_xrealloc(void *q, size_t n)
{
   void *p = realloc(q, n ? n : 1);
   if (!p) { fprintf(stderr, "memprof: out of memory\n"); abort(); }
   return p;
}
static inline char *mp_host_xstrdup(const char *s)
{
   size_t n = strlen(s) + 1;
   char *p = mp_host_xmalloc(n);
   memcpy(p, s, n);
   return p;
}

/* As Valgrind's VG_(vcbprintf): the formatted text, one character at a
   time, to sink. */
static inline void mp_host_vcbprintf(void (*sink)(char c, void *opaque), void *opaque,
                                     const char *fmt, va_list ap)
{
   va_list aq;
   int n, i;
   char *s;
   va_copy(aq, ap);
   n = vsnprintf(NULL, 0, fmt, aq);
   va_end(aq);
   if (n <= 0)
      return;
   s = mp_host_xmalloc((size_t)n + 1);
   vsnprintf(s, (size_t)n + 1, fmt, ap);
   for (i = 0; i < n; i++)
      sink(s[i], opaque);
   free(s);
}

#else /* inside the Valgrind tool */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"          /* VKI_PAGE_SIZE */
#include "mp_vgcompat.h"           /* the Valgrind version's differences */

/* Out-of-memory is fatal inside VG_(malloc) itself, as in every tool. */
#define mp_malloc(cc, n)       VG_(malloc)(cc, n)
#define mp_calloc(cc, n, sz)   VG_(calloc)(cc, n, sz)
#define mp_realloc(cc, p, n)   VG_(realloc)(cc, p, n)
#define mp_strdup(cc, s)       VG_(strdup)(cc, s)
#define mp_free(p)             VG_(free)(p)
#define mp_assert(e)           tl_assert(e)
#define mp_memset(d, c, n)     VG_(memset)(d, c, n)
#define mp_memcpy(d, s, n)     VG_(memcpy)(d, s, n)
#define mp_memcmp(a, b, n)     VG_(memcmp)(a, b, n)
#define mp_strlen(s)           VG_(strlen)(s)
#define mp_strcmp(a, b)        VG_(strcmp)(a, b)
#define mp_strncmp(a, b, n)    VG_(strncmp)(a, b, n)
#define mp_strstr(s, part)     VG_(strstr)(s, part)
#define mp_snprintf            VG_(snprintf)
#define mp_vsnprintf           VG_(vsnprintf)
#define mp_vcbprintf           VG_(vcbprintf)

/* Fresh anonymous pages: zero without a memset, resident only once
   written (VG_(calloc) would write every byte at once). */
static inline void *mp_zalloc_table(const HChar *cc, SizeT n)
{
   UWord err;
   void *p = mp_vg_shadow_alloc(VG_PGROUNDUP(n ? n : 1), &err);
   if (p == NULL)
      mp_vg_out_of_memory(cc, n, err);
   return p;
}
static inline void mp_free_table(void *p, SizeT n)
{
   (void)VG_(am_munmap_valgrind)((Addr)p, VG_PGROUNDUP(n ? n : 1));
}

#endif /* MP_HOST */

#endif /* MP_PLATFORM_H */
