/*--------------------------------------------------------------------*/
/*--- memprof: small helpers the engines and the adapter share.    ---*/
/*---                                                     mp_util.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   No Valgrind header: the engines use these too.
*/
#ifndef MP_UTIL_H
#define MP_UTIL_H

#include "mp_platform.h"

/* Sorts n elements of size bytes by cmp (no libc qsort inside
   Valgrind): heap sort of pointers to them, O(n log n), then one move
   of each element; n pointers and n elements of temporary memory.  Not
   stable, so cmp should order every pair that may be equal. */
void mp_sort(void *base, size_t n, size_t size,
             int (*cmp)(const void *a, const void *b));

/* n with thousands separators ("1,234,567", as cg_annotate prints
   counts), into buf; returns buf. */
const char *mp_commas(uint64_t n, char *buf, size_t size);

/* Text of any length, built by appending: names and messages are never
   cut to a buffer's size.  Start with MP_STRBUF_INIT; s is NULL until
   something is appended (mp_strbuf_take gives "" then); the caller owns
   s and frees it with mp_free. */
typedef struct {
   char *s;
   size_t len, cap;
} mp_strbuf;

#define MP_STRBUF_INIT { NULL, 0, 0 }

void mp_strbuf_printf(mp_strbuf *b, const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 2, 3)))
#endif
   ;
void mp_strbuf_vprintf(mp_strbuf *b, const char *fmt, va_list ap);
void mp_strbuf_add(mp_strbuf *b, const char *text, size_t len);
/* b's text, owned by the caller from now on (never NULL). */
char *mp_strbuf_take(mp_strbuf *b);

/* The formatted text in a new allocation (freed with mp_free). */
char *mp_asprintf(const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 1, 2)))
#endif
   ;

/* The text of a configuration error, formatted, kept until the next
   one: what the engines' parsers hand back through their 'err'. */
const char *mp_config_error(const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 1, 2)))
#endif
   ;

/* Where a length limit must stay (a client's string read byte by byte,
   a column), the text cut to at most max bytes (max >= 4) in place,
   ending with "\u2026" (the UTF-8 ellipsis) when anything was cut, and
   never inside a UTF-8 sequence; returns 1 if it cut. */
int mp_utf8_cut(char *s, size_t max);

/* The name a table shows for a variable named after a C++ function
   (a frame, "stack:kernel(Domain&, int, int)", or heap@ one): without
   its parameter list, the qualifiers after it, nor its return type:
   "stack:double* Allocate<double>(unsigned long)" ->
   "stack:Allocate<double>".  A new allocation (freed with mp_free), or
   NULL when the name has no parameter list to drop; the output file
   keeps the whole name. */
char *mp_short_name(const char *name);

/* The square root of x >= 0 (no libm in a Valgrind tool): Newton's
   method from a power-of-two guess, to the last bit or so. */
double mp_sqrt(double x);

/* MurmurHash3's 64-bit finalizer: every output bit depends on every
   input bit, so a strided run of keys (lines, ids) spreads evenly. */
static inline uint64_t mp_mix64(uint64_t x)
{
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdULL;
   x ^= x >> 33;
   x *= 0xc4ceb9fe1a85ec53ULL;
   x ^= x >> 33;
   return x;
}

/* Which groups of MP_SET_GROUP sets of a cache level were used: one bit
   each.  A level's per-set tables are mostly untouched zero pages in a
   large level, and a scan at the end of the run reads (and faults in)
   only the groups marked. */
#define MP_SET_GROUP_SHIFT 6
#define MP_SET_GROUP       (1u << MP_SET_GROUP_SHIFT)

/* Words of the bits of a level of sets sets. */
static inline uint64_t mp_set_groups_words(uint64_t sets)
{
   return ((sets + MP_SET_GROUP - 1) / MP_SET_GROUP + 63) / 64;
}

static inline void mp_set_groups_mark(uint64_t *bits, uint64_t set)
{
   uint64_t g = set >> MP_SET_GROUP_SHIFT;
   bits[g >> 6] |= 1ULL << (g & 63);
}

static inline int mp_set_groups_used(const uint64_t *bits, uint64_t set)
{
   uint64_t g = set >> MP_SET_GROUP_SHIFT;
   return (int)(bits[g >> 6] >> (g & 63) & 1);
}

#endif /* MP_UTIL_H */
