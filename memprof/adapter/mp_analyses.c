/*--------------------------------------------------------------------*/
/*--- memprof: the list's cold steps, and the analyses' state.     ---*/
/*---                                                mp_analyses.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The steps of the list in mp_analyses.h that run off the access path
   (setup, threads, munmap, free, windows, fork, exit, -v), each expanded
   from the list, and the state of the analyses whose adapter is a
   header alone.  An analysis with a .c file of its own (mp_hierarchy.c,
   mp_loopnest.c) keeps its state there.
*/
#include "pub_tool_basics.h"

#include "mp_analyses.h"

mp_stride *mp_g_stride;
UInt mp_g_stride_window;
ULong mp_g_loops_accesses;
mp_sharing *mp_g_sharing;
mp_reuse *mp_g_reuse;
mp_numa *mp_g_numa;
UInt mp_g_numa_extra_cycles;
mp_whatif *mp_g_whatif;
UInt mp_g_scattered_level;
UInt mp_g_line_shift;

void mp_analyses_create(void)
{
#define MP_AN_CREATE(n, when) mp_an_##n##_create();
   MP_ANALYSES(MP_AN_CREATE)
#undef MP_AN_CREATE
}

/* Unconditional: a thread's start may be what turns an analysis on
   (sharing, at the second thread). */
void mp_analyses_thread_start(UInt serial)
{
#define MP_AN_THREAD_START(n, when) mp_an_##n##_thread_start(serial);
   MP_ANALYSES(MP_AN_THREAD_START)
#undef MP_AN_THREAD_START
}

void mp_analyses_thread_exit(UInt serial)
{
#define MP_AN_THREAD_EXIT(n, when) if (mp_an_##n##_on()) mp_an_##n##_thread_exit(serial);
   MP_ANALYSES(MP_AN_THREAD_EXIT)
#undef MP_AN_THREAD_EXIT
}

void mp_analyses_thread_joined(UInt serial)
{
   if (mp_an_sharing_on())
      mp_an_sharing_thread_joined(serial);
}

void mp_analyses_unmap(Addr a, SizeT len)
{
#define MP_AN_UNMAP(n, when) if (mp_an_##n##_on()) mp_an_##n##_unmap(a, len);
   MP_ANALYSES(MP_AN_UNMAP)
#undef MP_AN_UNMAP
}

void mp_analyses_free(Addr a, SizeT len)
{
#define MP_AN_FREE(n, when) if (mp_an_##n##_on()) mp_an_##n##_free(a, len);
   MP_ANALYSES(MP_AN_FREE)
#undef MP_AN_FREE
}

void mp_analyses_window_start(Bool detail_only)
{
#define MP_AN_WINDOW_START(n, when) \
   if (mp_an_##n##_on() && (!detail_only || (when) == MP_AN_DETAIL)) \
      mp_an_##n##_window_start();
   MP_ANALYSES(MP_AN_WINDOW_START)
#undef MP_AN_WINDOW_START
}

void mp_analyses_reset(void)
{
#define MP_AN_RESET(n, when) if (mp_an_##n##_on()) mp_an_##n##_reset();
   MP_ANALYSES(MP_AN_RESET)
#undef MP_AN_RESET
}

void mp_analyses_flush(void)
{
#define MP_AN_FLUSH(n, when) if (mp_an_##n##_on()) mp_an_##n##_flush();
   MP_ANALYSES(MP_AN_FLUSH)
#undef MP_AN_FLUSH
}

void mp_analyses_finish(void)
{
#define MP_AN_FINISH(n, when) if (mp_an_##n##_on()) mp_an_##n##_finish();
   MP_ANALYSES(MP_AN_FINISH)
#undef MP_AN_FINISH
   mp_analyses_flush();
}

void mp_analyses_stats(void)
{
#define MP_AN_STATS(n, when) if (mp_an_##n##_on()) mp_an_##n##_stats();
   MP_ANALYSES(MP_AN_STATS)
#undef MP_AN_STATS
}
