/*--------------------------------------------------------------------*/
/*--- memprof: streaming JSON writer into a memory buffer.          ---*/
/*---                                                     mp_json.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   An mp_json accumulates one JSON document in a growing buffer.  The
   caller writes the buffer out in one go (to a temporary file that is
   then renamed), so a report on disk is whole or absent.

   The writer inserts commas and layout itself:
   - objects, and arrays whose first element is an object or array, are
     written one member per line, indented one space per level;
   - arrays whose first element is a scalar, such as a histogram row
     [0, 127, 5], and the objects begun by mp_json_begin_object_line are
     written on one line, and so is everything nested inside them;
   - empty containers are written {} and [];
   - the document ends with a newline.

   Strings are escaped per RFC 8259; bytes that do not form valid UTF-8
   are written as \u00XX (read as Latin-1), so the output is valid JSON
   whatever bytes a symbol name contains.

   Misuse (a value in an object without a key, a key outside an object,
   a mismatched end, a second top-level value) marks the document bad:
   mp_json_ok() then returns 0.  Built with -DMP_DEBUG it also fails an
   mp_assert at the point of misuse.

   Cost: amortised O(1) per call plus the length of what is written.
*/
#ifndef MP_JSON_H
#define MP_JSON_H

#include "mp_platform.h"

typedef struct mp_json mp_json;

/* A new, empty document.  Never returns NULL. */
mp_json *mp_json_new(void);

/* Frees the writer and its buffer.  NULL is allowed. */
void mp_json_free(mp_json *j);

/* Containers. */
void mp_json_begin_object(mp_json *j);
void mp_json_end_object(mp_json *j);
void mp_json_begin_array(mp_json *j);
void mp_json_end_array(mp_json *j);
/* An object written on one line, with everything inside it (a record
   of many, read by programs more than by people); ended by
   mp_json_end_object. */
void mp_json_begin_object_line(mp_json *j);

/* Inside an object, before each value. */
void mp_json_key(mp_json *j, const char *key);

/* Values. */
void mp_json_string(mp_json *j, const char *s);  /* NULL writes null */
void mp_json_u64(mp_json *j, uint64_t v);
void mp_json_i64(mp_json *j, int64_t v);
/* Finite values: integer part, then at most 6 decimals, rounded, with
   trailing zeros trimmed (12, 1.5, 0.333333); |v| >= 1e18 is written in
   exponent form with 15 significant digits (1e+20).  NaN and infinities
   write null. */
void mp_json_double(mp_json *j, double v);
void mp_json_bool(mp_json *j, int b);
void mp_json_null(mp_json *j);

/* Key and value in one call. */
void mp_json_kv_string(mp_json *j, const char *k, const char *s);
void mp_json_kv_u64(mp_json *j, const char *k, uint64_t v);
void mp_json_kv_i64(mp_json *j, const char *k, int64_t v);
void mp_json_kv_double(mp_json *j, const char *k, double v);
void mp_json_kv_bool(mp_json *j, const char *k, int b);

/* The text so far, NUL-terminated; *len_out (may be NULL) gets its
   length without the NUL.  Valid until the next call on j. */
const char *mp_json_text(const mp_json *j, size_t *len_out);

/* 1 if exactly one top-level value was written, every container was
   closed, and keys and values were well nested; else 0. */
int mp_json_ok(const mp_json *j);

#endif /* MP_JSON_H */

/*--------------------------------------------------------------------*/
/*--- end                                                 mp_json.h ---*/
/*--------------------------------------------------------------------*/
