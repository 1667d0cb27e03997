/*--------------------------------------------------------------------*/
/*--- memprof: structure splitting advice, after StructSlim.       ---*/
/*---                                                  mp_structs.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Roy & Liu's StructSlim (CGO 2016, seeds/002) on a full trace instead
   of PMU samples.  The engine owns, per variable, the
   streams that access it and, on request, infers the layout of the
   structure the variable is an array of:

   - a stream is one instruction accessing one variable in one loop
     (the paper's 4.2.1; the loop is part of the key because a loop may
     be discovered after its first iterations ran).  Its stride is the
     GCD of the differences between its successive offsets (Eq. 2, 3).
   - the structure size is the GCD of the strides of the variable's
     streams (Eq. 5), a field is an offset (addr - block start) mod size
     (Eq. 6), and the affinity of two fields is the share of their
     latency spent in loops that access both (Eq. 7).
   - fields whose affinity is high are grouped: each group is a
     structure of the suggested split.

   Where this departs from the paper, and why:
   - offsets, not raw addresses, are differenced: a heap variable is
     every block of an allocation site, and blocks are not aligned on
     the structure size, so only distances measured from each block's
     start stay multiples of the size when a stream moves between
     blocks.  Within one block the two are the same.
   - a stream whose stride is at most its access size walks contiguous
     bytes (an initialisation loop, memcpy, a plain array sweep); the
     paper treats stride 1 as "irregular, of no interest".  Such a
     stream is left out of the size GCD, which would otherwise collapse
     to the element size; if its offsets do not fall on one field it
     is reported as "mixed" (its cycles are the variable's but no
     field's).
   - cycles are the latency of the level that served each access,
     from the cache model, where StructSlim has PEBS-LL latencies.
     When a variable has no cycles at all (no cache model) the
     weights are access counts, Chilimbi-style.

   The engine knows offsets only; naming fields from DWARF is the
   adapter's job (mp_structs_dot takes optional names).
*/
#ifndef MP_STRUCTS_H
#define MP_STRUCTS_H

#include "mp_platform.h"

/* Default clustering threshold: two groups merge only if every pair of
   fields across them has an affinity >= this (see mp_structs_group). */
#define MP_STRUCTS_GROUP_THRESHOLD 0.5

/* One field of the inferred structure. */
typedef struct {
   uint64_t offset;        /* bytes from the structure's start, < size */
   uint32_t size;          /* bytes: the widest access seen at this offset */
   uint64_t accesses;
   uint64_t cycles;        /* memory cycles of its accesses */
   double   share;         /* cycles / the variable's cycles, 0..1 */
   uint64_t cycles_outside;/* of cycles, those outside any loop (loop 0) */
   uint32_t n_loops;       /* loops (ids != 0) that access the field */
   uint32_t *loops;        /* n_loops ids, ascending */
   uint64_t *loop_cycles;  /* n_loops: the field's cycles in each */
   uint32_t group;         /* index into the layout's groups */
} mp_struct_field;

/* What mp_structs_infer found for one variable.  Owned by the caller;
   release with mp_struct_layout_clear.  Every count named "cycles"
   here and in mp_struct_field is a memory-cycle sum, except when
   by_count is 1 (the variable had no cycles at all: no cache model),
   where it counts accesses instead. */
typedef struct {
   uint64_t size;          /* bytes: the structure size (Eq. 5) */
   uint32_t n_fields;
   mp_struct_field *fields;/* ascending offset */
   double *affinity;       /* n_fields * n_fields, row-major, symmetric,
                              1 on the diagonal: MP_STRUCT_AFF(l, i, j) */
   uint32_t n_groups;
   uint32_t *group_start;  /* n_groups + 1: group g is group_fields
                              [group_start[g] .. group_start[g+1]) */
   uint32_t *group_fields; /* n_fields field indices, ascending in each
                              group; groups ordered by their first field */
   uint64_t cycles;        /* every cycle of the variable, mixed included */
   uint64_t field_cycles;  /* of cycles, those attributed to a field */
   uint64_t mixed_cycles;  /* cycles - field_cycles */
   uint64_t mixed_accesses;
   double   covered;       /* field_cycles / cycles, 0..1 */
   uint32_t n_streams;     /* streams of the variable */
   uint32_t n_mixed;       /* of them, mixed */
   int      by_count;      /* 1: weights are access counts (no cycles) */
   double   threshold;     /* the one the groups were made with */
} mp_struct_layout;

#define MP_STRUCT_AFF(l, i, j) ((l)->affinity[(size_t)(i) * (l)->n_fields + (j)])

typedef struct mp_structs mp_structs;

mp_structs *mp_structs_new(void);
void        mp_structs_free(mp_structs *s);

/* Forgets every stream (a forked child starts from zero). */
void        mp_structs_reset(mp_structs *s);

/* One access of 'size' bytes at addr by instruction instr (a dense id)
   to variable var (a dense id), inside the block (heap block, global,
   array) that starts at block_start <= addr.  loop is the id of the
   instruction's innermost loop, 0 outside loops; cycles its estimated
   memory cycles.
   Cost: O(1) amortised, no hashing: a direct index by instr to the
   instruction's most recent stream; another (var, loop) of the same
   instruction walks a short move-to-front chain.  One division per
   access; Euclid's GCD only when the stride shrinks, which at least
   halves it, so at most log2(stride) times per stream.
   Returns the stream's index (0, 1, ... in the order made). */
uint32_t mp_structs_access(mp_structs *s, uint32_t instr, uint32_t var,
                           uint64_t addr, uint64_t block_start, uint32_t size,
                           uint32_t loop, uint64_t cycles);

/* The streams made so far, and the cycles of stream i: what an analysis
   helper process (mp_helper.h) that simulates the cache counts per
   stream index and hands back, as the accesses' cycles are known only
   there. */
uint32_t mp_structs_streams(const mp_structs *s);
uint64_t mp_structs_stream_cycles(const mp_structs *s, uint32_t i);
void     mp_structs_set_stream_cycles(mp_structs *s, uint32_t stream, uint64_t cycles);

/* StructSlim's inference for var.  Returns 1 and fills *out (which it
   first clears; release it with mp_struct_layout_clear) when var looks
   like an array of structures with at least two fields; returns 0 and
   leaves *out empty otherwise: no stream with a stride above its access
   size (a scalar, a plain array swept element by element), or a single
   field (a plain array read with a larger step).  The groups are made
   with MP_STRUCTS_GROUP_THRESHOLD.
   Cost: O(streams of var * log) plus O(fields^3) for the grouping. */
int  mp_structs_infer(const mp_structs *s, uint32_t var, mp_struct_layout *out);

/* A member of the structure as the source declares it. */
typedef struct {
   uint64_t offset, size;   /* bytes */
} mp_struct_unit;

/* The same with the declared members (n_units of them, ascending, in a
   structure of declared_size bytes) as the fields, when the strides
   step by whole structures (their GCD a multiple of declared_size): an
   access is counted on the member that holds it, and one that spans
   members (an initialisation's 16-byte store over two doubles) on each,
   by the bytes it covers, so that the groups are of members, not of
   store widths.  Otherwise as mp_structs_infer. */
int  mp_structs_infer_declared(const mp_structs *s, uint32_t var, const mp_struct_unit *units,
                               uint32_t n_units, uint64_t declared_size,
                               mp_struct_layout *out);

/* Remakes the groups of l with another threshold (0..1]: complete-link
   agglomerative clustering of the affinity matrix.  Starting from one
   group per field, the two groups whose least pairwise affinity is the
   highest are merged, as long as that least affinity is >= threshold;
   so within a group every pair of fields has affinity >= threshold
   (the paper's "all the edges in a subgraph have high weights"). */
void mp_structs_group(mp_struct_layout *l, double threshold);

/* A wide access (a vector store) at one field's offset also touches
   the fields that start inside it: their loops are added to those fields
   (with no cycles of their own), the affinity is recomputed and the
   groups remade with l's threshold.  Without it, a vectorised loop over
   a plain array, or a struct initialised with vector stores, looks like
   fields used in different loops. */
void mp_structs_cover_overlaps(mp_struct_layout *l);

/* Frees what l holds and zeroes it; safe on a zeroed or cleared l. */
void mp_struct_layout_clear(mp_struct_layout *l);

/* The layout as a Graphviz "graph" (--affinity-dot=): one node per
   field labelled with its name (names[i], if names and names[i] are
   non-NULL) or its offset, its size and share of cycles; one edge per
   pair with affinity > 0, labelled and weighted with it; one cluster
   subgraph per suggested group of two or more fields.  title (may be
   NULL) labels the graph.  Text goes out through emit in pieces.
   Numbers are written with integer arithmetic (VG_(snprintf) has a
   limited %f), so the tool and the host write the same bytes. */
typedef void (*mp_structs_emit_fn)(void *arg, const char *text, size_t len);
void   mp_structs_dot(const mp_struct_layout *l, const char *title,
                      const char *const *names, mp_structs_emit_fn emit, void *arg);

/* The same into buf (cap bytes, always NUL-terminated when cap > 0);
   returns the length of the whole text, as snprintf does, so a return
   >= cap means it was cut. */
size_t mp_structs_dot_buf(const mp_struct_layout *l, const char *title,
                          const char *const *names, char *buf, size_t cap);

#endif /* MP_STRUCTS_H */
