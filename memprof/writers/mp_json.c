/*--------------------------------------------------------------------*/
/*--- memprof: streaming JSON writer into a memory buffer.          ---*/
/*---                                                     mp_json.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof, a Valgrind tool that attributes memory
   accesses to data structures.  GPL-2.0-or-later; see COPYING.

   This file owns the JSON text of a report: punctuation, layout,
   string escaping and number formatting.  What the report contains,
   and its format version, belong to the report writer.

   Notes:
   - A stack of open containers remembers, per level, how many members
     were written (for commas), whether an object is waiting for the
     value of its key, and the layout.  An array's layout is decided by
     its first element, since a streaming writer cannot look ahead: a
     container first means one element per line, a scalar first means
     the whole array on one line.  Anything inside a one-line container
     is on that line too.
   - Numbers are formatted here with integer arithmetic, not with
     snprintf: Valgrind's VG_(snprintf) has a limited %f, and the host
     and tool builds must produce the same text.  Doubles are rounded
     to 6 decimals, which is what a report needs (ratios, averages);
     above 1e18 they switch to a 15-significant-digit exponent form
     whose last digit may be off by one beyond 1e37, where the scaling
     power of ten is no longer exact.
   - Nothing here fails: misuse only sets 'bad' (see mp_json.h), and
     out of memory is fatal in mp_realloc.

   Cost: amortised O(1) per call plus O(bytes written); the buffer
   doubles as it grows.
*/

#include "mp_json.h"

/*------------------------------------------------------------*/
/*--- Types                                                ---*/
/*------------------------------------------------------------*/

enum { MP_J_OBJECT, MP_J_ARRAY };

enum {
   MP_J_UNDECIDED,                  /* array with no element yet */
   MP_J_MULTILINE,                  /* one member per line */
   MP_J_ONELINE                     /* all members on one line */
};

typedef struct {
   unsigned char kind;              /* MP_J_OBJECT or MP_J_ARRAY */
   unsigned char layout;            /* MP_J_UNDECIDED, ... */
   unsigned char have_key;          /* object: key written, no value */
   size_t count;                    /* members (or keys) written */
} mp_json_frame;

struct mp_json {
   char *buf;                       /* the text, always NUL-terminated */
   size_t len;                      /* bytes of text, excluding NUL */
   size_t cap;                      /* bytes allocated for buf */
   mp_json_frame *stack;            /* open containers, outermost first */
   size_t depth;                    /* entries used in stack */
   size_t stack_cap;                /* entries allocated in stack */
   int done;                        /* the top-level value is complete */
   int bad;                         /* misuse seen */
};

/*------------------------------------------------------------*/
/*--- Buffer                                               ---*/
/*------------------------------------------------------------*/

/* Makes room for n more bytes plus the terminating NUL. */
static void mp_j_reserve(mp_json *j, size_t n)
{
   size_t need = j->len + n + 1;
   size_t cap = j->cap;
   if (need <= cap)
      return;
   while (cap < need)
      cap *= 2;
   j->buf = mp_realloc("mp.json.buf", j->buf, cap);
   j->cap = cap;
}

static void mp_j_putn(mp_json *j, const char *s, size_t n)
{
   mp_j_reserve(j, n);
   mp_memcpy(j->buf + j->len, s, n);
   j->len += n;
   j->buf[j->len] = '\0';
}

static void mp_j_puts(mp_json *j, const char *s)
{
   mp_j_putn(j, s, mp_strlen(s));
}

static void mp_j_putc(mp_json *j, char c)
{
   mp_j_reserve(j, 1);
   j->buf[j->len++] = c;
   j->buf[j->len] = '\0';
}

/* Newline, then one space per open container. */
static void mp_j_newline(mp_json *j, size_t indent)
{
   mp_j_reserve(j, 1 + indent);
   j->buf[j->len++] = '\n';
   mp_memset(j->buf + j->len, ' ', indent);
   j->len += indent;
   j->buf[j->len] = '\0';
}

/*------------------------------------------------------------*/
/*--- Structure                                            ---*/
/*------------------------------------------------------------*/

static void mp_j_misuse(mp_json *j)
{
   j->bad = 1;
#ifdef MP_DEBUG
   mp_assert(!"mp_json: keys/values/containers badly nested");
#endif
}

static mp_json_frame *mp_j_top(mp_json *j)
{
   return j->depth ? &j->stack[j->depth - 1] : NULL;
}

/* Writes whatever must precede a value at the current position (comma,
   line break) and accounts for it.  'container' says whether the value
   is an object or array, which decides an undecided array's layout. */
static void mp_j_before_value(mp_json *j, int container)
{
   mp_json_frame *f = mp_j_top(j);

   if (!f) {
      if (j->done)
         mp_j_misuse(j);            /* a second top-level value */
      return;
   }
   if (f->kind == MP_J_OBJECT) {
      if (!f->have_key) {
         mp_j_misuse(j);
         return;
      }
      f->have_key = 0;              /* key already wrote the comma */
      return;
   }
   if (f->layout == MP_J_UNDECIDED)
      f->layout = container ? MP_J_MULTILINE : MP_J_ONELINE;
   if (f->count > 0)
      mp_j_putc(j, ',');
   if (f->layout == MP_J_MULTILINE)
      mp_j_newline(j, j->depth);
   else if (f->count > 0)
      mp_j_putc(j, ' ');
   f->count++;
}

/* Called once a value is complete; the top-level one ends the text. */
static void mp_j_after_value(mp_json *j)
{
   if (j->depth == 0) {
      j->done = 1;
      mp_j_putc(j, '\n');
   }
}

static void mp_j_begin(mp_json *j, unsigned char kind)
{
   mp_json_frame *parent;
   mp_json_frame *f;
   int oneline;

   mp_j_before_value(j, 1);
   /* Read the parent before the stack may move. */
   parent = mp_j_top(j);
   oneline = parent && parent->layout == MP_J_ONELINE;
   if (j->depth == j->stack_cap) {
      j->stack_cap *= 2;
      j->stack = mp_realloc("mp.json.stack", j->stack,
                            j->stack_cap * sizeof(mp_json_frame));
   }
   f = &j->stack[j->depth++];
   f->kind = kind;
   f->have_key = 0;
   f->count = 0;
   if (oneline)
      f->layout = MP_J_ONELINE;
   else
      f->layout = kind == MP_J_OBJECT ? MP_J_MULTILINE : MP_J_UNDECIDED;
   mp_j_putc(j, kind == MP_J_OBJECT ? '{' : '[');
}

static void mp_j_end(mp_json *j, unsigned char kind)
{
   mp_json_frame *f = mp_j_top(j);

   if (!f || f->kind != kind) {
      mp_j_misuse(j);
      return;
   }
   if (f->have_key) {
      /* Keep the text parseable even though the document is bad. */
      mp_j_misuse(j);
      mp_j_puts(j, "null");
   }
   j->depth--;
   if (f->count > 0 && f->layout == MP_J_MULTILINE)
      mp_j_newline(j, j->depth);
   mp_j_putc(j, kind == MP_J_OBJECT ? '}' : ']');
   mp_j_after_value(j);
}

/*------------------------------------------------------------*/
/*--- Strings                                              ---*/
/*------------------------------------------------------------*/

/* Length of the valid UTF-8 sequence (RFC 3629: no overlongs, no
   surrogates, nothing above U+10FFFF) that starts with the byte
   p[0] >= 0x80, or 0 if it is not one.  A NUL ends any sequence. */
static int mp_j_utf8_len(const unsigned char *p)
{
   unsigned char c = p[0];
   unsigned char lo = 0x80, hi = 0xBF;   /* range of the 2nd byte */
   int n, i;

   if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
   } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;          /* overlong */
      if (c == 0xED) hi = 0x9F;          /* surrogates */
   } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;          /* overlong */
      if (c == 0xF4) hi = 0x8F;          /* above U+10FFFF */
   } else {
      return 0;                          /* 0x80-0xC1, 0xF5-0xFF */
   }
   if (p[1] < lo || p[1] > hi)
      return 0;
   for (i = 2; i < n; i++)
      if (p[i] < 0x80 || p[i] > 0xBF)
         return 0;
   return n;
}

static void mp_j_put_u00xx(mp_json *j, unsigned char c)
{
   static const char hex[] = "0123456789abcdef";
   char esc[6];
   esc[0] = '\\';
   esc[1] = 'u';
   esc[2] = '0';
   esc[3] = '0';
   esc[4] = hex[c >> 4];
   esc[5] = hex[c & 0xF];
   mp_j_putn(j, esc, 6);
}

/* Writes s quoted and escaped.  Runs of bytes that need no escape are
   copied in one go. */
static void mp_j_put_string(mp_json *j, const char *s)
{
   const unsigned char *p = (const unsigned char *)s;
   const unsigned char *run = p;

   mp_j_putc(j, '"');
   while (*p) {
      unsigned char c = *p;
      const char *esc = NULL;
      int n;

      if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
         p++;
         continue;
      }
      if (c >= 0x80 && (n = mp_j_utf8_len(p)) > 0) {
         p += n;
         continue;
      }
      mp_j_putn(j, (const char *)run, (size_t)(p - run));
      switch (c) {
         case '"':  esc = "\\\""; break;
         case '\\': esc = "\\\\"; break;
         case '\b': esc = "\\b";  break;
         case '\f': esc = "\\f";  break;
         case '\n': esc = "\\n";  break;
         case '\r': esc = "\\r";  break;
         case '\t': esc = "\\t";  break;
         default:   break;
      }
      if (esc)
         mp_j_putn(j, esc, 2);
      else
         mp_j_put_u00xx(j, c);      /* other control, or invalid UTF-8 */
      run = ++p;
   }
   mp_j_putn(j, (const char *)run, (size_t)(p - run));
   mp_j_putc(j, '"');
}

/*------------------------------------------------------------*/
/*--- Numbers                                              ---*/
/*------------------------------------------------------------*/

static void mp_j_put_digits(mp_json *j, uint64_t v)
{
   char tmp[20];                    /* 2^64-1 has 20 digits */
   size_t i = sizeof(tmp);
   do {
      tmp[--i] = (char)('0' + v % 10);
      v /= 10;
   } while (v);
   mp_j_putn(j, tmp + i, sizeof(tmp) - i);
}

/* 10^n for 0 <= n <= 308 by binary powering: exact up to 10^22, and
   within a few ulps above, unlike n successive multiplications. */
static double mp_j_pow10(int n)
{
   static const double p2[] = {
      1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256
   };
   double r = 1.0;
   int i;
   for (i = 0; n > 0 && i < 9; i++, n >>= 1)
      if (n & 1)
         r *= p2[i];
   return r;
}

/* a >= 1e18 and finite: d.dddde+X with up to 15 significant digits. */
static void mp_j_put_exp(mp_json *j, double a)
{
   const uint64_t lo = 100000000000000ULL;    /* 10^14 */
   const uint64_t hi = 1000000000000000ULL;   /* 10^15 */
   double p = 1e18;
   uint64_t mant = 0;
   char digits[15];
   int e = 18, n, tries;

   /* Estimate the decimal exponent; the loop below corrects it if an
      inexact power of ten put it one off. */
   while (e < 308 && a >= p * 10) {
      p *= 10;
      e++;
   }
   for (tries = 0; tries < 4; tries++) {
      mant = (uint64_t)(int64_t)(a / mp_j_pow10(e - 14) + 0.5);
      if (mant >= hi)
         e++;
      else if (mant < lo)
         e--;
      else
         break;
   }
   for (n = 15; n > 0; n--) {
      digits[n - 1] = (char)('0' + mant % 10);
      mant /= 10;
   }
   n = 15;
   while (n > 1 && digits[n - 1] == '0')
      n--;
   mp_j_putc(j, digits[0]);
   if (n > 1) {
      mp_j_putc(j, '.');
      mp_j_putn(j, digits + 1, (size_t)(n - 1));
   }
   mp_j_putn(j, "e+", 2);
   mp_j_put_digits(j, (uint64_t)e);
}

static void mp_j_put_double(mp_json *j, double v)
{
   int neg;
   double a, frac;
   uint64_t ip, fr;

   if (v != v || v - v != 0) {      /* NaN, or +-infinity */
      mp_j_puts(j, "null");
      return;
   }
   neg = v < 0;
   a = neg ? -v : v;
   if (a >= 1e18) {
      if (neg)
         mp_j_putc(j, '-');
      mp_j_put_exp(j, a);
      return;
   }

   /* a < 1e18 < 2^63, so the signed conversions are exact and need no
      helper from libgcc; a - ip is exact too. */
   ip = (uint64_t)(int64_t)a;
   frac = a - (double)(int64_t)ip;
   fr = (uint64_t)(int64_t)(frac * 1e6 + 0.5);
   if (fr >= 1000000) {
      ip++;
      fr -= 1000000;
   }
   if (neg && (ip || fr))           /* no "-0" */
      mp_j_putc(j, '-');
   mp_j_put_digits(j, ip);
   if (fr) {
      char d[6];
      int n;
      for (n = 6; n > 0; n--) {
         d[n - 1] = (char)('0' + fr % 10);
         fr /= 10;
      }
      n = 6;
      while (d[n - 1] == '0')       /* fr != 0, so this stops */
         n--;
      mp_j_putc(j, '.');
      mp_j_putn(j, d, (size_t)n);
   }
}

/*------------------------------------------------------------*/
/*--- Public interface                                     ---*/
/*------------------------------------------------------------*/

mp_json *mp_json_new(void)
{
   mp_json *j = mp_malloc("mp.json.writer", sizeof(mp_json));
   j->cap = 4096;
   j->buf = mp_malloc("mp.json.buf", j->cap);
   j->buf[0] = '\0';
   j->len = 0;
   j->stack_cap = 16;
   j->stack = mp_malloc("mp.json.stack",
                        j->stack_cap * sizeof(mp_json_frame));
   j->depth = 0;
   j->done = 0;
   j->bad = 0;
   return j;
}

void mp_json_free(mp_json *j)
{
   if (!j)
      return;
   mp_free(j->buf);
   mp_free(j->stack);
   mp_free(j);
}

void mp_json_begin_object(mp_json *j) { mp_j_begin(j, MP_J_OBJECT); }
void mp_json_end_object(mp_json *j)   { mp_j_end(j, MP_J_OBJECT); }
void mp_json_begin_array(mp_json *j)  { mp_j_begin(j, MP_J_ARRAY); }
void mp_json_end_array(mp_json *j)    { mp_j_end(j, MP_J_ARRAY); }

void mp_json_begin_object_line(mp_json *j)
{
   mp_j_begin(j, MP_J_OBJECT);
   mp_j_top(j)->layout = MP_J_ONELINE;
}

void mp_json_key(mp_json *j, const char *key)
{
   mp_json_frame *f = mp_j_top(j);

   if (!f || f->kind != MP_J_OBJECT || f->have_key) {
      mp_j_misuse(j);
      return;
   }
   if (f->count > 0)
      mp_j_putc(j, ',');
   if (f->layout == MP_J_MULTILINE)
      mp_j_newline(j, j->depth);
   else if (f->count > 0)
      mp_j_putc(j, ' ');
   mp_j_put_string(j, key ? key : "");
   mp_j_putn(j, ": ", 2);
   f->have_key = 1;
   f->count++;
}

void mp_json_string(mp_json *j, const char *s)
{
   mp_j_before_value(j, 0);
   if (s)
      mp_j_put_string(j, s);
   else
      mp_j_puts(j, "null");
   mp_j_after_value(j);
}

void mp_json_u64(mp_json *j, uint64_t v)
{
   mp_j_before_value(j, 0);
   mp_j_put_digits(j, v);
   mp_j_after_value(j);
}

void mp_json_i64(mp_json *j, int64_t v)
{
   mp_j_before_value(j, 0);
   if (v < 0) {
      mp_j_putc(j, '-');
      /* -(v+1)+1 stays in range for INT64_MIN. */
      mp_j_put_digits(j, (uint64_t)(-(v + 1)) + 1);
   } else {
      mp_j_put_digits(j, (uint64_t)v);
   }
   mp_j_after_value(j);
}

void mp_json_double(mp_json *j, double v)
{
   mp_j_before_value(j, 0);
   mp_j_put_double(j, v);
   mp_j_after_value(j);
}

void mp_json_bool(mp_json *j, int b)
{
   mp_j_before_value(j, 0);
   mp_j_puts(j, b ? "true" : "false");
   mp_j_after_value(j);
}

void mp_json_null(mp_json *j)
{
   mp_j_before_value(j, 0);
   mp_j_puts(j, "null");
   mp_j_after_value(j);
}

void mp_json_kv_string(mp_json *j, const char *k, const char *s)
{
   mp_json_key(j, k);
   mp_json_string(j, s);
}

void mp_json_kv_u64(mp_json *j, const char *k, uint64_t v)
{
   mp_json_key(j, k);
   mp_json_u64(j, v);
}

void mp_json_kv_i64(mp_json *j, const char *k, int64_t v)
{
   mp_json_key(j, k);
   mp_json_i64(j, v);
}

void mp_json_kv_double(mp_json *j, const char *k, double v)
{
   mp_json_key(j, k);
   mp_json_double(j, v);
}

void mp_json_kv_bool(mp_json *j, const char *k, int b)
{
   mp_json_key(j, k);
   mp_json_bool(j, b);
}

const char *mp_json_text(const mp_json *j, size_t *len_out)
{
   if (len_out)
      *len_out = j->len;
   return j->buf;
}

int mp_json_ok(const mp_json *j)
{
   return !j->bad && j->done && j->depth == 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                                 mp_json.c ---*/
/*--------------------------------------------------------------------*/
