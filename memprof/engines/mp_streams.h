/*--------------------------------------------------------------------*/
/*--- memprof: concurrent streams per loop.            mp_streams.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   MACPO's stream count (section 5.2): a hardware prefetcher
   follows a limited number of streams at once, so a loop that walks
   more arrays in step than that (MACPO saw a penalty above 6; the
   default threshold is 16, --prefetch-streams) is better split (loop
   fission).  MACPO counts the arrays referenced in a loop body at
   compile time; memprof measures them at run time:

   - An execution instance of a loop is one entry-to-exit run of it by
     one thread (mp_loops gives the (loop, instance) pairs).
   - Within one instance, the accesses of one (instruction, variable)
     pair form a stream when their successive addresses differ by a
     constant non-zero stride: at least two equal non-zero differences,
     and no other difference except the first one.  The first is
     tolerated as a warm-up, as a prefetcher trains on a couple of
     accesses and ignores what came before: the first access of an
     instance may be off the pattern (a first element handled apart, a
     start computed elsewhere, an instance boundary seen one access
     late at superblock granularity), and one off-pattern start should
     not hide a stream that is regular from then on.  So a0, a0+100,
     a0+108, a0+116 is a stream of stride 8, but a0, a0+100, a0+108 is
     not (one difference alone shows no regularity).  Any other change
     of stride, or a stride of 0, means no stream for that instance.
   - The streams of an instance are counted when it ends.  Per loop:
     instances, the streams summed over them (for the mean), the most in
     one instance, and the instances above the threshold.  A loop is
     flagged when its most streams in one instance exceed the threshold.
   - Ownership: an access belongs to the innermost active loop only
     (the caller passes that loop).  Enclosing loops do not add their
     inner loops' streams: MACPO's point is how many streams a
     prefetcher must follow *at the same time*, and two inner loops run
     one after the other (the fissioned form) are not concurrent; adding
     them up would flag exactly the code that fission produced.  An
     enclosing loop still owns the accesses of its own body (b[i] in
     "for i { b[i]; for j ... }"), over its whole instance.
   - A prefetcher follows the lines a program walks, not its
     instructions: the load and the store of a[i] += x, or the 8 loads
     of a loop unrolled by 8 (a[i], ..., a[i + 7]), walk one stream.
     At an instance's end its regular sequences of one variable and one
     stride whose last accesses lie in the same page (MP_STREAMS_PAGE,
     the region a hardware streamer tracks one stream in) count as one;
     rows of one array a page or more apart are as many streams.

   Cost: O(1) expected per access (a direct index on thread and loop,
   then one open-addressing probe on (instruction, variable)); per
   instance end with two streams or more, a pass over its table and a
   sort of its streams, no more than its accesses (each stream took
   three).
   Memory: per (thread, loop) ever active, a table as large as the most
   (instruction, variable) pairs one instance of it touched.
*/
#ifndef MP_STREAMS_H
#define MP_STREAMS_H

#include "mp_platform.h"

#define MP_STREAMS_DEFAULT_THRESHOLD 16
#define MP_STREAMS_PAGE 4096

typedef struct {
   uint32_t threshold;       /* streams; a loop above it is flagged, >= 1 */
} mp_streams_cfg;

typedef struct {
   uint64_t instances;       /* finished instances, also those with no access */
   uint64_t streams_sum;     /* streams summed over them */
   uint32_t max_streams;     /* most streams in one instance */
   uint64_t over_threshold;  /* instances with more streams than the threshold */
   uint64_t accesses;        /* accesses seen in the loop's instances */
} mp_streams_loop;

typedef struct mp_streams mp_streams;

/* NULL and *err set on a bad configuration. */
mp_streams *mp_streams_new(const mp_streams_cfg *cfg, const char **err);
void        mp_streams_free(mp_streams *s);
const mp_streams_cfg *mp_streams_config(const mp_streams *s);

/* An access by thread tid, in instance 'instance' of loop (its
   innermost active loop), by instruction instr to variable var.  An
   access carrying a new instance of a loop whose previous instance was
   never ended ends that one first. */
void mp_streams_access(mp_streams *s, uint32_t tid, uint32_t loop, uint64_t instance,
                       uint64_t instr, uint32_t var, uint64_t addr);

/* The instance has ended (mp_loops' exit hook).  An instance with no
   access counts with 0 streams. */
void mp_streams_loop_end(mp_streams *s, uint32_t tid, uint32_t loop, uint64_t instance);

/* Ends every open instance (before the report). */
void mp_streams_flush(mp_streams *s);

/* The loop's counts, NULL if nothing was seen of it. */
const mp_streams_loop *mp_streams_get(const mp_streams *s, uint32_t loop);

/* Is the loop above the threshold (most streams in one instance)? */
int mp_streams_flagged(const mp_streams *s, uint32_t loop);

#endif /* MP_STREAMS_H */
