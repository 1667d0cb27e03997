/*--------------------------------------------------------------------*/
/*--- memprof: the differences between the Valgrind versions.      ---*/
/*---                                                 mp_vgcompat.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   memprof is built against the installed Valgrind's tool interface,
   which changes between releases.  Every difference memprof meets is
   bridged here, and only here, keyed on the version that valgrind.h
   states (__VALGRIND_MAJOR__, __VALGRIND_MINOR__); the rest of the tool
   calls the mp_vg_* names below.  Verified: Valgrind 3.19 and 3.24.
*/
#ifndef MP_VGCOMPAT_H
#define MP_VGCOMPAT_H

#include "valgrind.h"              /* __VALGRIND_MAJOR__, __VALGRIND_MINOR__ */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_mallocfree.h"

#if !defined(__VALGRIND_MAJOR__) || !defined(__VALGRIND_MINOR__)
#  error "valgrind.h states no version (__VALGRIND_MAJOR__/__VALGRIND_MINOR__)"
#endif

/* True when built against Valgrind MAJ.MIN or later. */
#define MP_VG_AT_LEAST(maj, min) \
   (__VALGRIND_MAJOR__ > (maj) \
    || (__VALGRIND_MAJOR__ == (maj) && __VALGRIND_MINOR__ >= (min)))

#if !MP_VG_AT_LEAST(3, 19)
#  error "memprof needs Valgrind 3.19 or later"
#endif

/* Fresh anonymous pages for a table, or NULL.  Valgrind 3.21 made
   VG_(am_shadow_alloc) return a SysRes instead of a pointer (NULL on
   failure), and gave VG_(out_of_memory_NORETURN) the failure's error
   number as a third argument. */
static inline void *mp_vg_shadow_alloc(SizeT n, UWord *err)
{
#if MP_VG_AT_LEAST(3, 21)
   SysRes sr = VG_(am_shadow_alloc)(n);
   if (sr_isError(sr)) {
      *err = sr_Err(sr);
      return NULL;
   }
   *err = 0;
   return (void *)sr_Res(sr);
#else
   *err = 0;
   return VG_(am_shadow_alloc)(n);
#endif
}

static inline __attribute__((noreturn))
void mp_vg_out_of_memory(const HChar *who, SizeT n, UWord err)
{
#if MP_VG_AT_LEAST(3, 21)
   VG_(out_of_memory_NORETURN)(who, n, err);
#else
   (void)err;
   VG_(out_of_memory_NORETURN)(who, n);
#endif
   __builtin_unreachable();
}

#endif /* MP_VGCOMPAT_H */
