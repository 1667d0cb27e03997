/*--------------------------------------------------------------------*/
/*--- memprof: the host's data caches and cores.     mp_hostcache.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The default simulated hierarchy is the host's own: read from
   /sys/devices/system/cpu, validated, else a fixed fallback that the
   summary and the JSON name as such.
*/
#ifndef MP_HOSTCACHE_H
#define MP_HOSTCACHE_H

#include "pub_tool_basics.h"

typedef struct {
   ULong size;        /* bytes */
   UInt  assoc;
   UInt  line;        /* bytes */
   UInt  shared_by;   /* CPUs sharing one instance */
} mp_host_level;

typedef struct {
   UInt n_levels;             /* data/unified levels found, 1..3 */
   mp_host_level level[3];    /* L1d, L2, L3 */
   UInt cpus;                 /* online CPUs */
   const HChar *source;       /* "/sys/devices/system/cpu" or "fallback" */
   const HChar *why;          /* for the fallback: what was wrong, or NULL */
} mp_host_caches;

/* Fills *h; never fails (falls back, saying why). */
void mp_host_caches_detect(mp_host_caches *h);

/* Reads a small text file (of /sys or /proc) into buf, NUL-terminated,
   trailing newlines and spaces dropped; False if unreadable. */
Bool mp_host_read_text(const HChar *path, HChar *buf, Int n);

/* The CPUs this process may run on (its affinity, as taskset, a
   container or a batch job's binding set it: not the machine's), 1 if
   unknown. */
UInt mp_host_cpus_allowed(void);

#endif /* MP_HOSTCACHE_H */
