/*
   memprof.h: client requests for memprof, a Valgrind tool that
   attributes memory accesses to data structures.

   Include this in the program under test.  Outside Valgrind every
   request is a no-op costing a few instructions, as Valgrind's own
   client requests.

   This file is part of memprof.  Like valgrind.h, it is licensed under
   a BSD-style licence so that any program may include it:

   Redistribution and use in source and binary forms, with or without
   modification, are permitted provided that the copyright notice and
   this permission notice are preserved.  THIS SOFTWARE IS PROVIDED
   "AS IS", WITHOUT ANY WARRANTY.
*/
#ifndef __MEMPROF_H
#define __MEMPROF_H

#include "valgrind.h"

typedef enum {
   VG_USERREQ__MEMPROF_START = VG_USERREQ_TOOL_BASE('M', 'P'),
   VG_USERREQ__MEMPROF_STOP,
   VG_USERREQ__MEMPROF_NAME_RANGE,
   VG_USERREQ__MEMPROF_UNNAME_RANGE
} Vg_MemprofClientRequest;

/* Start / stop collecting accesses (all threads).  With
   --collect-atstart=no, nothing is collected before MEMPROF_START. */
#define MEMPROF_START()                                                   \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__MEMPROF_START, 0, 0, 0, 0, 0)
#define MEMPROF_STOP()                                                    \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__MEMPROF_STOP, 0, 0, 0, 0, 0)

/* Reports the accesses to [addr, addr+len) as one variable called name
   (a pool, an arena, part of a big block).  A named range takes
   precedence over the heap block or global it lies in.  Naming a range
   that overlaps one named before is refused with a warning.  name is
   copied. */
#define MEMPROF_NAME_RANGE(addr, len, name)                               \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__MEMPROF_NAME_RANGE,        \
                                   (addr), (len), (name), 0, 0)

/* Ends the naming of the range that starts at addr (its counts stay in
   the report); later accesses go to the underlying variable again. */
#define MEMPROF_UNNAME_RANGE(addr)                                        \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__MEMPROF_UNNAME_RANGE,      \
                                   (addr), 0, 0, 0, 0)

#endif /* __MEMPROF_H */
