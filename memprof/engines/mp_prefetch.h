/*--------------------------------------------------------------------*/
/*--- memprof: the hardware prefetcher's stream detectors.         ---*/
/*---                                                 mp_prefetch.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Owns the detectors of the simulated hardware prefetcher: per core, a
   table of N streams trained on the core's demand misses, which says
   which lines to prefetch after each one.  Two kinds, each simple and
   deterministic (docs/memprof.md, Prefetcher, has the model):

   stream  a stream per 4 KiB region (the page it stays in).  A miss
           one or two lines after the region's previous miss steps
           ascending, one or two lines before it descending; two steps in
           a row in the same direction confirm the stream, and from then
           on every miss in it asks for the next two lines in its
           direction (L+1, L+2 ascending), those within the region only.
           A miss further away restarts the region's stream.
   stride  a stream per instruction (its address; by region when the
           access has none), remembering the address of its last miss
           and the stride in bytes between its last two; the same
           nonzero stride seen twice in a row confirms it, and from then
           on every miss at A asks for the line of A + stride, if that
           line is another one and lies in A's 4 KiB region.

   A table holds N streams (MP_PREFETCH_DEFAULT_STREAMS by default); a
   miss that matches none takes the least recently used one.  Where the
   lines go, and what counts as a miss, is mp_cache's business: this
   file only detects.  No Valgrind header: unit-tested on the host.
*/
#ifndef MP_PREFETCH_H
#define MP_PREFETCH_H

#include "mp_platform.h"

typedef enum {
   MP_PREFETCH_NONE,
   MP_PREFETCH_STREAM,
   MP_PREFETCH_STRIDE
} mp_prefetch_kind;

#define MP_PREFETCH_DEFAULT_STREAMS 16   /* as the L2 streamer of Intel's
                                            cores since Sandy Bridge */
#define MP_PREFETCH_MAX_STREAMS     64   /* searched linearly per miss */
#define MP_PREFETCH_MAX_DEGREE      2    /* lines one miss asks for */
#define MP_PREFETCH_REGION_SHIFT    12   /* no stream leaves 4 KiB */

typedef struct {
   mp_prefetch_kind kind;
   uint32_t streams;    /* per core, 1..MP_PREFETCH_MAX_STREAMS; unused
                           with MP_PREFETCH_NONE */
} mp_prefetch_cfg;

typedef struct mp_prefetch mp_prefetch;

/* Detectors of cfg (not NONE) for cores cores and lines of line_size
   bytes (a power of two).  A core's table is allocated at its first
   miss. */
mp_prefetch *mp_prefetch_new(const mp_prefetch_cfg *cfg, uint32_t cores,
                             uint32_t line_size);
void mp_prefetch_free(mp_prefetch *p);

/* Core's demand miss at addr (the line missed is addr's), made by the
   instruction at pc (0: unknown).  Writes the line numbers (address /
   line size) to prefetch to out, in the order to fetch them, and
   returns how many (0..MP_PREFETCH_MAX_DEGREE).  Cost: a linear search
   of the core's N streams. */
uint32_t mp_prefetch_miss(mp_prefetch *p, uint32_t core, uint64_t addr, uint64_t pc,
                          uint64_t out[MP_PREFETCH_MAX_DEGREE]);

/* Parses "none", "stream", "stride", "stream,N" or "stride,N" into
   *out (N streams per core; MP_PREFETCH_DEFAULT_STREAMS if not given).
   Returns 0, or -1 with *err a one-line message saying what is wrong,
   in a static buffer valid until the next call. */
int mp_prefetch_parse(const char *spec, mp_prefetch_cfg *out, const char **err);

/* "none", "stream", "stride". */
const char *mp_prefetch_kind_name(mp_prefetch_kind kind);

/* Bytes allocated, for -v statistics. */
uint64_t mp_prefetch_bytes(const mp_prefetch *p);

#endif /* MP_PREFETCH_H */
