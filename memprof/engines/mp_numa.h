/*--------------------------------------------------------------------*/
/*--- memprof: NUMA page homes by first touch.           mp_numa.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   NUMA locality (MACPO 5.4).  Linux places a page on the NUMA node of the
   thread that first touches it; memprof does the same with simulated
   sockets: the first access to a page makes the accessing thread's
   socket its home, and every later access is local (same socket) or
   remote.  Per-variable counts are the caller's (mp_vars); this engine
   only remembers the homes.  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_NUMA_H
#define MP_NUMA_H

#include "mp_platform.h"

typedef struct mp_numa mp_numa;

/* page_size: bytes, a power of two. */
mp_numa *mp_numa_new(uint32_t page_size);
void     mp_numa_free(mp_numa *n);

/* The home socket of addr's page.  If the page was never touched, it
   becomes socket's and *first_touch is set to 1 (else 0).  Cost: O(1)
   expected, one probe of an open-addressing table (none when the page
   is the previous call's). */
uint32_t mp_numa_home(mp_numa *n, uint64_t addr, uint32_t socket, int *first_touch);

/* Forgets the homes of the pages wholly inside [addr, addr+len) (an
   munmap: the kernel frees them, a later touch places them again). */
void     mp_numa_forget(mp_numa *n, uint64_t addr, uint64_t len);

uint64_t mp_numa_pages(const mp_numa *n);      /* pages with a home */
uint64_t mp_numa_bytes(const mp_numa *n);      /* metadata, for -v */

/* Forgets every home (a forked child: its pages are copies, homes
   are set again by its own first touches, as the kernel's COW does). */
void     mp_numa_reset(mp_numa *n);

#endif /* MP_NUMA_H */
