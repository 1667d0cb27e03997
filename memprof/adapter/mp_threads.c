/*--------------------------------------------------------------------*/
/*--- memprof: the numbering of the guest's threads.   mp_threads.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Owns the tables of mp_threads.h: the creation numbers, and the core
   and reuse sharing group the simulated hierarchy gives each thread;
   and the program's names for its threads (pthread_t), so that a
   pthread_join can be told which thread it waited for.  Valgrind
   reuses a ThreadId as soon as its thread exits, which may be before
   the join: the names are kept by creation number.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "mp_hierarchy.h"
#include "mp_threads.h"

UInt *mp_g_thread_serial;
UInt *mp_g_thread_core;
UInt *mp_g_thread_group;
static UInt threads_created;

/* ThreadId -> the ThreadId it created last, until pthread_create
   returns in it and names that thread. */
static ThreadId *last_child;

/* The named threads not yet joined, in creation order: a linear
   search, newest first, at each join (joins are rare). */
typedef struct {
   UWord pthread;
   UInt serial;
} named_thread;
static named_thread *named;
static UInt n_named, max_named;

void mp_threads_init(void)
{
   mp_g_thread_serial = VG_(calloc)("mp.serials", VG_N_THREADS + 1, sizeof(UInt));
   mp_g_thread_core = VG_(calloc)("mp.cores", VG_N_THREADS + 1, sizeof(UInt));
   mp_g_thread_group = VG_(calloc)("mp.groups", VG_N_THREADS + 1, sizeof(UInt));
   last_child = VG_(calloc)("mp.children", VG_N_THREADS + 1, sizeof(ThreadId));
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

void mp_threads_note_created(ThreadId parent, ThreadId child)
{
   last_child[parent] = child;
}

void mp_threads_named(ThreadId parent, UWord pthread)
{
   ThreadId child = last_child[parent];

   if (child == VG_INVALID_THREADID)
      return;
   last_child[parent] = VG_INVALID_THREADID;
   if (n_named == max_named) {
      max_named = max_named ? 2 * max_named : 64;
      named = VG_(realloc)("mp.named", named, max_named * sizeof *named);
   }
   named[n_named].pthread = pthread;
   named[n_named].serial = mp_g_thread_serial[child];
   n_named++;
}

UInt mp_threads_joined(UWord pthread)
{
   UInt i = n_named, serial;

   while (i > 0 && named[i - 1].pthread != pthread)
      i--;
   if (i == 0)
      return 0;
   serial = named[i - 1].serial;
   VG_(memmove)(&named[i - 1], &named[i], (n_named - i) * sizeof *named);
   n_named--;
   return serial;
}
