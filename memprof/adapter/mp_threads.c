/*--------------------------------------------------------------------*/
/*--- memprof: the numbering of the guest's threads.   mp_threads.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Owns the tables of mp_threads.h: the creation numbers, and the core
   and reuse sharing group the simulated hierarchy gives each thread.
*/
#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "mp_hierarchy.h"
#include "mp_threads.h"

UInt *mp_g_thread_serial;
UInt *mp_g_thread_core;
UInt *mp_g_thread_group;
static UInt threads_created;

void mp_threads_init(void)
{
   mp_g_thread_serial = VG_(calloc)("mp.serials", VG_N_THREADS + 1, sizeof(UInt));
   mp_g_thread_core = VG_(calloc)("mp.cores", VG_N_THREADS + 1, sizeof(UInt));
   mp_g_thread_group = VG_(calloc)("mp.groups", VG_N_THREADS + 1, sizeof(UInt));
}

UInt mp_threads_number(ThreadId child)
{
   UInt serial = ++threads_created;

   mp_g_thread_serial[child] = serial;
   mp_g_thread_core[child] = mp_g_hier.cores ? mp_hierarchy_core_of(serial) : 0;
   mp_g_thread_group[child] = mp_g_hier.n_levels
      ? mp_g_thread_core[child] / mp_g_hier.level[mp_g_hier.n_levels - 1].shared_by : 0;
   return serial;
}
