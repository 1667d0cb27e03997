/*--------------------------------------------------------------------*/
/*--- memprof: the numbering of the guest's threads.   mp_threads.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Valgrind reuses a ThreadId once its thread has exited; the analyses
   need a name that is never reused.  Each thread gets its creation
   number (1 = main), the simulated core it runs on and the reuse
   sharing group of that core (threads share reuse through the last
   level's instance).  Both the instrumenter (per access) and the loop
   nest (per back edge and return) read them, so they live here, below
   both.  The tables are indexed by ThreadId and read directly on the
   hot path: one load each.
*/
#ifndef MP_THREADS_H
#define MP_THREADS_H

#include "pub_tool_basics.h"

extern UInt *mp_g_thread_serial;   /* ThreadId -> creation number */
extern UInt *mp_g_thread_core;     /* ThreadId -> simulated core */
extern UInt *mp_g_thread_group;    /* ThreadId -> reuse sharing group */

/* Allocates the tables; before the first thread is numbered. */
void mp_threads_init(void);

/* Numbers a new thread: its creation number, core and group.  Returns
   the creation number. */
UInt mp_threads_number(ThreadId child);

/* The program's names for its threads: the calling thread created a
   thread the program knows as pthread (pthread_create returned it);
   then the program waited for the thread it knows as pthread
   (pthread_join returned): its creation number, or 0 if none is known
   by that name (a thread created before the preload was seen).  The
   newest thread of that name wins: the C library may give a name
   again once its thread has been joined. */
void mp_threads_note_created(ThreadId parent, ThreadId child);
void mp_threads_named(ThreadId parent, UWord pthread);
UInt mp_threads_joined(UWord pthread);

/* The creation number of a thread (1 = main). */
static inline UInt mp_thread_serial(ThreadId tid)
{
   return mp_g_thread_serial[tid];
}

#endif /* MP_THREADS_H */
