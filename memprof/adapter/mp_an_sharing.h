/*--------------------------------------------------------------------*/
/*--- memprof: the sharing analysis in the access list.            ---*/
/*---                                              mp_an_sharing.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The lifecycle of the sharing engine (mp_sharing.c: false and true
   sharing, transfers between threads) as one entry of the list in
   mp_analyses.h.  It is made when the program creates its second
   thread, not after the options: a single-threaded run pays nothing
   for it.
*/
#ifndef MP_AN_SHARING_H
#define MP_AN_SHARING_H

#include "pub_tool_libcprint.h"

#include "mp_an_ctx.h"
#include "mp_clo.h"
#include "mp_sharing.h"

/* NULL until the program creates its second thread (and with
   --sharing=no). */
extern mp_sharing *mp_g_sharing;

static inline Bool mp_an_sharing_on(void) { return mp_g_sharing != NULL; }

static inline void mp_an_sharing_access(mp_an_ctx *c)
{
   mp_sharing_outcome so;
   mp_sharing_access(mp_g_sharing, c->e, &so);
   if (so.transfers)
      mp_vars_sharing(mp_g_vars, c->e, c->lc, so.transfers, so.true_transfers);
}

/* The prediction meets only threads whose lifetimes in the program
   overlap: from the creation to the pthread_join that waits for the
   thread (the preload's wrapper), or to the end of the run for a
   thread never joined.  Not the exit: Valgrind runs one thread at a
   time, and a short worker may run to its exit before its sibling is
   created, though nothing in the program orders them. */
static inline void mp_an_sharing_thread_start(UInt serial)
{
   if (serial == 2 && mp_clo_sharing && mp_g_sharing == NULL)
      mp_g_sharing = mp_sharing_new(mp_vars_line_size(mp_g_vars));
   if (mp_g_sharing && serial >= 2)
      mp_sharing_thread_start(mp_g_sharing, serial);
}

static inline void mp_an_sharing_thread_joined(UInt serial)
{
   mp_sharing_thread_end(mp_g_sharing, serial);
}

static inline void mp_an_sharing_unmap(Addr a, SizeT len)
{
   mp_sharing_forget(mp_g_sharing, a, len, MP_SHARING_NO_VAR);
}

/* A freed block's lines may go to another thread's next block: its
   writers are no one's to communicate with any more. */
static inline void mp_an_sharing_free(Addr a, SizeT len, UInt var)
{
   mp_sharing_forget(mp_g_sharing, a, len, var);
}

static inline void mp_an_sharing_reset(void)
{
   mp_sharing_reset(mp_g_sharing);
}

static inline void mp_an_sharing_stats(void)
{
   VG_(dmsg)("memprof: sharing: %llu lines tracked, %llu bytes of metadata\n",
             (ULong)mp_sharing_lines(mp_g_sharing),
             (ULong)mp_sharing_bytes(mp_g_sharing));
}

#endif /* MP_AN_SHARING_H */
