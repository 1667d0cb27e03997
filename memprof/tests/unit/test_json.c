/*--------------------------------------------------------------------*/
/*--- memprof: unit tests for the JSON writer.                      ---*/
/*---                                                    test_json.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   Every document the writer produces here is fed to a small strict
   RFC 8259 validator written below (it also decodes string literals),
   and the layout-sensitive ones are compared with their exact expected
   text.  The validator is itself shown to reject bad input, so that
   "it parsed" means something.
*/

#include "mp_json.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ck_assert records a checkpoint on every call, which costs a write to
   Check's log; the helpers run in loops of 10^5 use this instead. */
#define REQUIRE(e) \
   do { if (!(e)) ck_abort_msg("requirement failed: %s", #e); } while (0)

/*------------------------------------------------------------*/
/*--- A strict validator                                   ---*/
/*------------------------------------------------------------*/

typedef struct {
   const unsigned char *p, *end;
   int depth;
} vparser;

static int v_value(vparser *v);

static void v_ws(vparser *v)
{
   while (v->p < v->end && (*v->p == ' ' || *v->p == '\t' || *v->p == '\n'
                            || *v->p == '\r'))
      v->p++;
}

static int v_lit(vparser *v, const char *lit)
{
   size_t n = strlen(lit);
   if ((size_t)(v->end - v->p) < n || memcmp(v->p, lit, n) != 0)
      return 0;
   v->p += n;
   return 1;
}

static int v_hex(int c)
{
   if (c >= '0' && c <= '9') return c - '0';
   if (c >= 'a' && c <= 'f') return c - 'a' + 10;
   if (c >= 'A' && c <= 'F') return c - 'A' + 10;
   return -1;
}

/* Appends code point cp to out as UTF-8. */
static void put_utf8(unsigned char **out, unsigned cp)
{
   unsigned char *o = *out;
   if (cp < 0x80) {
      *o++ = (unsigned char)cp;
   } else if (cp < 0x800) {
      *o++ = (unsigned char)(0xC0 | (cp >> 6));
      *o++ = (unsigned char)(0x80 | (cp & 0x3F));
   } else if (cp < 0x10000) {
      *o++ = (unsigned char)(0xE0 | (cp >> 12));
      *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
      *o++ = (unsigned char)(0x80 | (cp & 0x3F));
   } else {
      *o++ = (unsigned char)(0xF0 | (cp >> 18));
      *o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
      *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
      *o++ = (unsigned char)(0x80 | (cp & 0x3F));
   }
   *out = o;
}

/* Decodes one UTF-8 code point the slow, obvious way: read the bits,
   then reject overlongs, surrogates and values above U+10FFFF.
   Returns its length, or 0 if invalid.  Deliberately written unlike
   the writer's table so the two do not share mistakes. */
static int ref_utf8(const unsigned char *p, const unsigned char *end,
                    unsigned *cp_out)
{
   unsigned cp, min;
   int n, i;

   if (p[0] < 0x80) { *cp_out = p[0]; return 1; }
   else if ((p[0] & 0xE0) == 0xC0) { n = 2; cp = p[0] & 0x1F; min = 0x80; }
   else if ((p[0] & 0xF0) == 0xE0) { n = 3; cp = p[0] & 0x0F; min = 0x800; }
   else if ((p[0] & 0xF8) == 0xF0) { n = 4; cp = p[0] & 0x07; min = 0x10000; }
   else return 0;
   if (end - p < n)
      return 0;
   for (i = 1; i < n; i++) {
      if ((p[i] & 0xC0) != 0x80)
         return 0;
      cp = (cp << 6) | (p[i] & 0x3F);
   }
   if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return 0;
   *cp_out = cp;
   return n;
}

/* Parses a string literal; if out is non-NULL, writes the decoded bytes
   (UTF-8) and a NUL there. */
static int v_string(vparser *v, unsigned char *out)
{
   if (v->p >= v->end || *v->p != '"')
      return 0;
   v->p++;
   while (v->p < v->end) {
      unsigned char c = *v->p;
      unsigned cp;
      int n;
      if (c == '"') {
         v->p++;
         if (out)
            *out = '\0';
         return 1;
      }
      if (c < 0x20)
         return 0;                  /* raw control characters banned */
      if (c == '\\') {
         if (v->end - v->p < 2)
            return 0;
         c = v->p[1];
         v->p += 2;
         switch (c) {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u': {
               int i;
               if (v->end - v->p < 4)
                  return 0;
               cp = 0;
               for (i = 0; i < 4; i++) {
                  int h = v_hex(v->p[i]);
                  if (h < 0)
                     return 0;
                  cp = cp * 16 + (unsigned)h;
               }
               v->p += 4;
               /* The writer never needs surrogate pairs. */
               if (cp >= 0xD800 && cp <= 0xDFFF)
                  return 0;
               break;
            }
            default:
               return 0;
         }
         if (out)
            put_utf8(&out, cp);
         continue;
      }
      n = ref_utf8(v->p, v->end, &cp);
      if (n == 0)
         return 0;                  /* JSON text must be valid UTF-8 */
      if (out) {
         memcpy(out, v->p, (size_t)n);
         out += n;
      }
      v->p += n;
   }
   return 0;
}

static int v_digits(vparser *v)
{
   const unsigned char *s = v->p;
   while (v->p < v->end && *v->p >= '0' && *v->p <= '9')
      v->p++;
   return v->p > s;
}

static int v_number(vparser *v)
{
   if (v->p < v->end && *v->p == '-')
      v->p++;
   if (v->p < v->end && *v->p == '0')
      v->p++;                       /* no leading zeros */
   else if (v->p < v->end && *v->p >= '1' && *v->p <= '9')
      v_digits(v);
   else
      return 0;
   if (v->p < v->end && *v->p == '.') {
      v->p++;
      if (!v_digits(v))
         return 0;
   }
   if (v->p < v->end && (*v->p == 'e' || *v->p == 'E')) {
      v->p++;
      if (v->p < v->end && (*v->p == '+' || *v->p == '-'))
         v->p++;
      if (!v_digits(v))
         return 0;
   }
   return 1;
}

static int v_container(vparser *v, int object)
{
   char close = object ? '}' : ']';
   v->p++;
   if (++v->depth > 10000)
      return 0;
   v_ws(v);
   if (v->p < v->end && *v->p == close) {
      v->p++;
      v->depth--;
      return 1;
   }
   for (;;) {
      v_ws(v);
      if (object) {
         if (!v_string(v, NULL))
            return 0;
         v_ws(v);
         if (v->p >= v->end || *v->p != ':')
            return 0;
         v->p++;
      }
      if (!v_value(v))
         return 0;
      v_ws(v);
      if (v->p >= v->end)
         return 0;
      if (*v->p == ',') {
         v->p++;
         continue;
      }
      if (*v->p != close)
         return 0;
      v->p++;
      v->depth--;
      return 1;
   }
}

static int v_value(vparser *v)
{
   v_ws(v);
   if (v->p >= v->end)
      return 0;
   switch (*v->p) {
      case '{': return v_container(v, 1);
      case '[': return v_container(v, 0);
      case '"': return v_string(v, NULL);
      case 't': return v_lit(v, "true");
      case 'f': return v_lit(v, "false");
      case 'n': return v_lit(v, "null");
      default:  return v_number(v);
   }
}

/* 1 if text[0..len) is exactly one valid JSON value (RFC 8259). */
static int json_valid(const char *text, size_t len)
{
   vparser v;
   v.p = (const unsigned char *)text;
   v.end = v.p + len;
   v.depth = 0;
   if (!v_value(&v))
      return 0;
   v_ws(&v);
   return v.p == v.end;
}

static int json_valid_str(const char *text)
{
   return json_valid(text, strlen(text));
}

/*------------------------------------------------------------*/
/*--- Helpers                                              ---*/
/*------------------------------------------------------------*/

/* Checks that j is complete and valid, and returns its text. */
static const char *finished(const mp_json *j)
{
   size_t len;
   const char *t = mp_json_text(j, &len);
   REQUIRE(len == strlen(t));
   REQUIRE(mp_json_ok(j) == 1);
   if (!json_valid(t, len))
      ck_abort_msg("invalid JSON:\n%s", t);
   return t;
}

/* The text of a one-element array holding d, without the brackets. */
static void format_double(double d, char *out, size_t outsz)
{
   mp_json *j = mp_json_new();
   const char *t;
   size_t len;
   mp_json_begin_array(j);
   mp_json_double(j, d);
   mp_json_end_array(j);
   t = finished(j);
   len = strlen(t);
   REQUIRE(len >= 3 && t[0] == '[' && t[len - 2] == ']');
   REQUIRE(len - 3 < outsz);
   memcpy(out, t + 1, len - 3);
   out[len - 3] = '\0';
   mp_json_free(j);
}

/* The literal the writer makes of s, decoded back by the validator. */
static void roundtrip_string(const char *s, char *lit, size_t litsz,
                             unsigned char *decoded)
{
   mp_json *j = mp_json_new();
   const char *t;
   vparser v;
   size_t len;

   mp_json_string(j, s);
   t = finished(j);
   len = strlen(t);
   REQUIRE(len >= 3 && t[len - 1] == '\n');
   REQUIRE(len < litsz);
   memcpy(lit, t, len - 1);
   lit[len - 1] = '\0';
   v.p = (const unsigned char *)lit;
   v.end = v.p + len - 1;
   v.depth = 0;
   REQUIRE(v_string(&v, decoded) == 1);
   REQUIRE(v.p == v.end);
   mp_json_free(j);
}

/*------------------------------------------------------------*/
/*--- The validator rejects what it should                 ---*/
/*------------------------------------------------------------*/

START_TEST(test_validator_is_strict)
{
   static const char *const good[] = {
      "0", "-0.5", "1e+20", "[]", "{}", "[1, [2, {\"a\": null}]]",
      "\"\\u00ff\\n\"", "\"\xc3\xa9\"", " true ",
   };
   static const char *const bad[] = {
      "", "01", "1.", ".5", "+1", "[1,]", "[1 2]", "{\"a\" 1}",
      "{\"a\": 1,}", "{a: 1}", "\"\x01\"", "\"\xff\"", "\"\xc0\xaf\"",
      "\"\xed\xa0\x80\"", "\"\\x41\"", "\"abc", "[1]]", "nul", "NaN",
      "1 2", "{\"a\": 1} {}",
   };
   size_t i;
   for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
      ck_assert_msg(json_valid_str(good[i]), "rejected %s", good[i]);
   for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
      ck_assert_msg(!json_valid_str(bad[i]), "accepted %s", bad[i]);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Layout, nesting and commas                           ---*/
/*------------------------------------------------------------*/

START_TEST(test_document_layout)
{
   static const char expected[] =
      "{\n"
      " \"name\": \"x\",\n"
      " \"n\": 3,\n"
      " \"hist\": [\n"
      "  [0, 127, 5],\n"
      "  [128, 255, 0]\n"
      " ],\n"
      " \"empty_obj\": {},\n"
      " \"empty_arr\": [],\n"
      " \"vars\": [\n"
      "  {\n"
      "   \"a\": \"b\",\n"
      "   \"t\": true\n"
      "  },\n"
      "  {}\n"
      " ],\n"
      " \"scalars\": [-1, 0.5, null, false, null],\n"
      " \"mixed\": [1, {\"a\": [2, 3], \"b\": {}}, []],\n"
      " \"min\": -9223372036854775808,\n"
      " \"max\": 18446744073709551615,\n"
      " \"r\": 0.333333\n"
      "}\n";
   mp_json *j = mp_json_new();

   mp_json_begin_object(j);
   mp_json_kv_string(j, "name", "x");
   mp_json_kv_u64(j, "n", 3);
   mp_json_key(j, "hist");
   mp_json_begin_array(j);
   mp_json_begin_array(j);
   mp_json_u64(j, 0);
   mp_json_u64(j, 127);
   mp_json_u64(j, 5);
   mp_json_end_array(j);
   mp_json_begin_array(j);
   mp_json_u64(j, 128);
   mp_json_u64(j, 255);
   mp_json_u64(j, 0);
   mp_json_end_array(j);
   mp_json_end_array(j);
   mp_json_key(j, "empty_obj");
   mp_json_begin_object(j);
   mp_json_end_object(j);
   mp_json_key(j, "empty_arr");
   mp_json_begin_array(j);
   mp_json_end_array(j);
   mp_json_key(j, "vars");
   mp_json_begin_array(j);
   mp_json_begin_object(j);
   mp_json_kv_string(j, "a", "b");
   mp_json_kv_bool(j, "t", 1);
   mp_json_end_object(j);
   mp_json_begin_object(j);
   mp_json_end_object(j);
   mp_json_end_array(j);
   mp_json_key(j, "scalars");
   mp_json_begin_array(j);
   mp_json_i64(j, -1);
   mp_json_double(j, 0.5);
   mp_json_null(j);
   mp_json_bool(j, 0);
   mp_json_string(j, NULL);
   mp_json_end_array(j);
   mp_json_key(j, "mixed");
   mp_json_begin_array(j);
   mp_json_u64(j, 1);
   mp_json_begin_object(j);
   mp_json_key(j, "a");
   mp_json_begin_array(j);
   mp_json_u64(j, 2);
   mp_json_u64(j, 3);
   mp_json_end_array(j);
   mp_json_key(j, "b");
   mp_json_begin_object(j);
   mp_json_end_object(j);
   mp_json_end_object(j);
   mp_json_begin_array(j);
   mp_json_end_array(j);
   mp_json_end_array(j);
   mp_json_kv_i64(j, "min", INT64_MIN);
   mp_json_kv_u64(j, "max", UINT64_MAX);
   mp_json_kv_double(j, "r", 1.0 / 3.0);
   mp_json_end_object(j);

   ck_assert_str_eq(finished(j), expected);
   mp_json_free(j);
}
END_TEST

START_TEST(test_top_level_scalars)
{
   mp_json *j = mp_json_new();
   mp_json_u64(j, 42);
   ck_assert_str_eq(finished(j), "42\n");
   mp_json_free(j);

   j = mp_json_new();
   mp_json_string(j, "s");
   ck_assert_str_eq(finished(j), "\"s\"\n");
   mp_json_free(j);

   j = mp_json_new();
   mp_json_begin_array(j);
   mp_json_end_array(j);
   ck_assert_str_eq(finished(j), "[]\n");
   mp_json_free(j);
}
END_TEST

START_TEST(test_deep_and_large)
{
   enum { DEEP = 2000, WIDE = 100000 };
   mp_json *j = mp_json_new();
   int i;

   /* Deep nesting grows the container stack. */
   for (i = 0; i < DEEP; i++) {
      mp_json_begin_object(j);
      mp_json_key(j, "k");
   }
   mp_json_null(j);
   for (i = 0; i < DEEP; i++)
      mp_json_end_object(j);
   finished(j);
   mp_json_free(j);

   /* A wide document grows the buffer many times. */
   j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_key(j, "rows");
   mp_json_begin_array(j);
   for (i = 0; i < WIDE; i++) {
      mp_json_begin_array(j);
      mp_json_u64(j, (uint64_t)i);
      mp_json_double(j, i / 7.0);
      mp_json_string(j, "row\t\"name\"");
      mp_json_end_array(j);
   }
   mp_json_end_array(j);
   mp_json_end_object(j);
   ck_assert(strstr(finished(j),
                    "  [99999, 14285.571429, \"row\\t\\\"name\\\"\"]\n")
             != NULL);
   mp_json_free(j);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Misuse is reported                                   ---*/
/*------------------------------------------------------------*/

START_TEST(test_misuse)
{
   mp_json *j;

   /* Nothing written is not a document. */
   j = mp_json_new();
   ck_assert_int_eq(mp_json_ok(j), 0);
   ck_assert_str_eq(mp_json_text(j, NULL), "");
   mp_json_free(j);

   /* Unclosed container. */
   j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "a", 1);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);

   /* A value in an object without a key. */
   j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_u64(j, 1);
   mp_json_end_object(j);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);

   /* A key in an array, and a key at top level. */
   j = mp_json_new();
   mp_json_begin_array(j);
   mp_json_key(j, "a");
   mp_json_u64(j, 1);
   mp_json_end_array(j);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);
   j = mp_json_new();
   mp_json_key(j, "a");
   mp_json_u64(j, 1);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);

   /* Two keys in a row; a key with no value before the end. */
   j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_key(j, "a");
   mp_json_key(j, "b");
   mp_json_u64(j, 1);
   mp_json_end_object(j);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);
   j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_key(j, "a");
   mp_json_end_object(j);
   ck_assert_int_eq(mp_json_ok(j), 0);
   /* ...but the text stays parseable. */
   ck_assert(json_valid_str(mp_json_text(j, NULL)));
   mp_json_free(j);

   /* Mismatched and extra ends. */
   j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_end_array(j);
   mp_json_end_object(j);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);
   j = mp_json_new();
   mp_json_begin_array(j);
   mp_json_end_array(j);
   mp_json_end_array(j);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);

   /* Two top-level values. */
   j = mp_json_new();
   mp_json_u64(j, 1);
   mp_json_u64(j, 2);
   ck_assert_int_eq(mp_json_ok(j), 0);
   mp_json_free(j);

   mp_json_free(NULL);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Strings                                              ---*/
/*------------------------------------------------------------*/

START_TEST(test_string_escapes)
{
   static const struct { const char *in, *out; } cases[] = {
      { "", "\"\"" },
      { "plain", "\"plain\"" },
      { "q\"b\\s/", "\"q\\\"b\\\\s/\"" },
      { "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
      { "\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"" },
      /* Valid UTF-8 of 2, 3 and 4 bytes passes through. */
      { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
      { "\xef\xbf\xbf\xf4\x8f\xbf\xbf", "\"\xef\xbf\xbf\xf4\x8f\xbf\xbf\"" },
      /* Invalid bytes become \u00XX, read as Latin-1. */
      { "\xff", "\"\\u00ff\"" },
      { "a\xfe" "b", "\"a\\u00feb\"" },
      { "\x80", "\"\\u0080\"" },                   /* lone continuation */
      { "\xc3", "\"\\u00c3\"" },                   /* truncated at end */
      { "\xc3(", "\"\\u00c3(\"" },                 /* bad continuation */
      { "\xc0\xaf", "\"\\u00c0\\u00af\"" },        /* overlong '/' */
      { "\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"" },  /* overlong */
      { "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },  /* surrogate */
      { "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" },
      { "\xe2\x82", "\"\\u00e2\\u0082\"" },        /* truncated 3-byte */
      { "\xe2\x82\xac\xe2", "\"\xe2\x82\xac\\u00e2\"" },
   };
   size_t i;

   for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char lit[256];
      unsigned char dec[256];
      roundtrip_string(cases[i].in, lit, sizeof(lit), dec);
      ck_assert_msg(strcmp(lit, cases[i].out) == 0,
                    "case %zu: got %s want %s", i, lit, cases[i].out);
   }
}
END_TEST

START_TEST(test_keys_are_escaped)
{
   mp_json *j = mp_json_new();
   mp_json_begin_object(j);
   mp_json_kv_u64(j, "a\"b\n\xff", 1);
   mp_json_end_object(j);
   ck_assert_str_eq(finished(j), "{\n \"a\\\"b\\n\\u00ff\": 1\n}\n");
   mp_json_free(j);
}
END_TEST

/* The expected decoding of what the writer makes of s: valid UTF-8
   sequences unchanged, every other byte b as the code point U+00b. */
static void expected_decoding(const unsigned char *s, size_t n,
                              unsigned char *out)
{
   const unsigned char *end = s + n;
   while (s < end) {
      unsigned cp;
      int k = ref_utf8(s, end, &cp);
      if (k == 0) {
         put_utf8(&out, *s);
         s++;
      } else {
         memcpy(out, s, (size_t)k);
         out += k;
         s += k;
      }
   }
   *out = '\0';
}

START_TEST(test_random_strings_roundtrip)
{
   uint64_t x = 0x9e3779b97f4a7c15ULL;
   int iter;

   for (iter = 0; iter < 20000; iter++) {
      unsigned char in[65], want[65 * 4 + 1], got[65 * 4 + 1];
      char lit[65 * 6 + 8];
      size_t n, k;

      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      n = 1 + x % 64;
      for (k = 0; k < n; k++) {
         x ^= x << 13;
         x ^= x >> 7;
         x ^= x << 17;
         /* Favour bytes that make UTF-8 edge cases. */
         switch (x % 4) {
            case 0:  in[k] = (unsigned char)(1 + (x >> 8) % 255); break;
            case 1:  in[k] = (unsigned char)(0x80 + (x >> 8) % 64); break;
            case 2:  in[k] = (unsigned char)(0xC0 + (x >> 8) % 64); break;
            default: in[k] = (unsigned char)(0x20 + (x >> 8) % 96); break;
         }
      }
      in[n] = '\0';
      expected_decoding(in, n, want);
      roundtrip_string((const char *)in, lit, sizeof(lit), got);
      if (strcmp((char *)got, (char *)want) != 0)
         ck_abort_msg("iteration %d: %s", iter, lit);
   }
}
END_TEST

/*------------------------------------------------------------*/
/*--- Numbers                                              ---*/
/*------------------------------------------------------------*/

START_TEST(test_double_exact_text)
{
   static const struct { double d; const char *text; } cases[] = {
      { 0.0, "0" },
      { -0.0, "0" },
      { 1.5, "1.5" },
      { -2.25, "-2.25" },
      { 12.0, "12" },
      { 0.1, "0.1" },
      { 1.0 / 3.0, "0.333333" },
      { 2.0 / 3.0, "0.666667" },
      { -1.0 / 3.0, "-0.333333" },
      { 1e-7, "0" },
      { -1e-7, "0" },
      { 0.000001, "0.000001" },
      { 0.0000014, "0.000001" },
      { 999999.9999996, "1000000" },
      { 0.9999996, "1" },
      { 123456789.125, "123456789.125" },
      { 1e15, "1000000000000000" },
      { 9007199254740993.0, "9007199254740992" },
      { 999999999999999872.0, "999999999999999872" },
      { 1e18, "1e+18" },
      { 1e20, "1e+20" },
      { -1e20, "-1e+20" },
      { 1.5e300, "1.5e+300" },
      { 9223372036854775808.0, "9.22337203685478e+18" },
      { 1.7976931348623157e308, "1.79769313486232e+308" },
      { 123456789012345678901234.0, "1.23456789012346e+23" },
   };
   size_t i;

   for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char buf[64];
      format_double(cases[i].d, buf, sizeof(buf));
      ck_assert_msg(strcmp(buf, cases[i].text) == 0,
                    "%.17g: got %s want %s", cases[i].d, buf,
                    cases[i].text);
   }
}
END_TEST

START_TEST(test_double_non_finite)
{
   char buf[64];
   format_double(NAN, buf, sizeof(buf));
   ck_assert_str_eq(buf, "null");
   format_double(INFINITY, buf, sizeof(buf));
   ck_assert_str_eq(buf, "null");
   format_double(-INFINITY, buf, sizeof(buf));
   ck_assert_str_eq(buf, "null");
}
END_TEST

/* Across magnitudes, the text parses back to within the promised
   precision: 0.5e-6 absolute below 1e18, 15 digits above. */
START_TEST(test_double_random_precision)
{
   uint64_t x = 88172645463325252ULL;
   int iter;

   for (iter = 0; iter < 200000; iter++) {
      char buf[64];
      double d, back, err, tol;
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      d = (double)(x >> 11) / 9007199254740992.0;          /* [0, 1) */
      d = ldexp(d, (int)((x >> 3) % 1100) - 40);           /* 2^-40..2^1059 */
      if (x & 1)
         d = -d;
      if (isinf(d))
         continue;
      format_double(d, buf, sizeof(buf));
      back = strtod(buf, NULL);
      err = fabs(back - d);
      tol = fabs(d) < 1e18 ? 5.000001e-7 + fabs(d) * 2.3e-16
                           : fabs(d) * 1e-14;
      if (!(err <= tol))
         ck_abort_msg("%.17g printed as %s", d, buf);
   }
}
END_TEST

START_TEST(test_integers)
{
   mp_json *j = mp_json_new();
   mp_json_begin_array(j);
   mp_json_u64(j, 0);
   mp_json_u64(j, 10);
   mp_json_u64(j, UINT64_MAX);
   mp_json_i64(j, 0);
   mp_json_i64(j, -10);
   mp_json_i64(j, INT64_MAX);
   mp_json_i64(j, INT64_MIN);
   mp_json_end_array(j);
   ck_assert_str_eq(finished(j),
                    "[0, 10, 18446744073709551615, 0, -10, "
                    "9223372036854775807, -9223372036854775808]\n");
   mp_json_free(j);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Driver                                               ---*/
/*------------------------------------------------------------*/

static Suite *json_suite(void)
{
   Suite *s = suite_create("mp_json");
   TCase *tc = tcase_create("writer");

   tcase_add_test(tc, test_validator_is_strict);
   tcase_add_test(tc, test_document_layout);
   tcase_add_test(tc, test_top_level_scalars);
   tcase_add_test(tc, test_deep_and_large);
   tcase_add_test(tc, test_misuse);
   tcase_add_test(tc, test_string_escapes);
   tcase_add_test(tc, test_keys_are_escaped);
   tcase_add_test(tc, test_random_strings_roundtrip);
   tcase_add_test(tc, test_double_exact_text);
   tcase_add_test(tc, test_double_non_finite);
   tcase_add_test(tc, test_double_random_precision);
   tcase_add_test(tc, test_integers);
   tcase_set_timeout(tc, 120);
   suite_add_tcase(s, tc);
   return s;
}

int main(void)
{
   SRunner *sr = srunner_create(json_suite());
   int failed;

   srunner_run_all(sr, CK_NORMAL);
   failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*--------------------------------------------------------------------*/
/*--- end                                                test_json.c ---*/
/*--------------------------------------------------------------------*/
