/*--------------------------------------------------------------------*/
/*--- memprof: the requests the preload sends the tool.            ---*/
/*---                                                  mp_clreq.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The allocation wrappers of vgpreload_memprof (mp_preload.c) run on
   the simulated CPU and tell the tool, by client requests, what the
   program's own allocator did.  These requests are private to the two:
   they follow the public ones of memprof.h at a distance, so that the
   public list can grow.
*/
#ifndef MP_CLREQ_H
#define MP_CLREQ_H

#include "memprof.h"

typedef enum {
   /* A block of args[2] bytes at args[1] (NULL: the call failed) was
      returned by the allocation function at args[4] (its original, not
      the wrapper: whose allocator it is); args[3] is where
      posix_memalign stored it, else 0. */
   MP_USERREQ__ALLOC = VG_USERREQ_TOOL_BASE('M', 'P') + 0x100,
   /* args[1] is about to be freed. */
   MP_USERREQ__FREE,
   /* realloc(args[1], ...) is about to run: the old block's life ends
      now, as at a free, so that the allocator's copy is its own. */
   MP_USERREQ__REALLOC_BEGIN,
   /* realloc (the original at args[4]) returned args[1] for args[3]
      bytes; args[2] is the old block.  NULL with a size: the call
      failed and the old block lives on. */
   MP_USERREQ__REALLOC_END,
   /* pthread_create returned 0 and stored args[1], the new thread's
      pthread_t: the thread the calling thread created last. */
   MP_USERREQ__THREAD_CREATED,
   /* pthread_join(args[1]) returned 0: the thread is waited for. */
   MP_USERREQ__THREAD_JOINED
} mp_preload_request;

#endif /* MP_CLREQ_H */
