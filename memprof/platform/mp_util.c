/*--------------------------------------------------------------------*/
/*--- memprof: small helpers the engines and the adapter share.    ---*/
/*---                                                     mp_util.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
*/
#include "mp_util.h"

/* Heapsort of an array of pointers to the records: the records may be
   large (a report line is some 200 bytes), and moving them at every
   swap cost more than the comparisons. */
static void sift_down(const void **p, size_t root, size_t n,
                      int (*cmp)(const void *, const void *))
{
   for (;;) {
      size_t child = 2 * root + 1;
      const void *t;
      if (child >= n)
         return;
      if (child + 1 < n && cmp(p[child], p[child + 1]) < 0)
         child++;
      if (cmp(p[root], p[child]) >= 0)
         return;
      t = p[root];
      p[root] = p[child];
      p[child] = t;
      root = child;
   }
}

void mp_sort(void *base_, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
   char *base = base_, *sorted;
   const void **p;
   size_t i;
   if (n < 2)
      return;
   p = mp_malloc("mp.sort.1", n * sizeof *p);
   for (i = 0; i < n; i++)
      p[i] = base + i * sz;
   for (i = n / 2; i-- > 0;)
      sift_down(p, i, n, cmp);
   for (i = n - 1; i > 0; i--) {
      const void *t = p[0];
      p[0] = p[i];
      p[i] = t;
      sift_down(p, 0, i, cmp);
   }
   /* the records in their new order, then back in place */
   sorted = mp_malloc("mp.sort.2", n * sz);
   for (i = 0; i < n; i++)
      mp_memcpy(sorted + i * sz, p[i], sz);
   mp_memcpy(base, sorted, n * sz);
   mp_free(sorted);
   mp_free(p);
}

const char *mp_commas(uint64_t n, char *buf, size_t size)
{
   char digits[32];
   int nd = mp_snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), i;
   size_t k = 0;
   for (i = 0; i < nd && k + 1 < size; i++) {
      if (i > 0 && (nd - i) % 3 == 0 && k + 2 < size)
         buf[k++] = ',';
      buf[k++] = digits[i];
   }
   if (size > 0)
      buf[k < size ? k : size - 1] = '\0';
   return buf;
}

/*------------------------------------------------------------*/
/*--- Text of any length                                   ---*/
/*------------------------------------------------------------*/

void mp_strbuf_add(mp_strbuf *b, const char *text, size_t len)
{
   if (b->len + len + 1 > b->cap) {
      size_t cap = b->cap ? b->cap : 64;
      while (cap < b->len + len + 1)
         cap *= 2;
      b->s = mp_realloc("mp.strbuf", b->s, cap);
      b->cap = cap;
   }
   mp_memcpy(b->s + b->len, text, len);
   b->len += len;
   b->s[b->len] = '\0';
}

static void strbuf_sink(char c, void *opaque)
{
   mp_strbuf_add(opaque, &c, 1);
}

void mp_strbuf_vprintf(mp_strbuf *b, const char *fmt, va_list ap)
{
   mp_vcbprintf(strbuf_sink, b, fmt, ap);
}

void mp_strbuf_printf(mp_strbuf *b, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   mp_strbuf_vprintf(b, fmt, ap);
   va_end(ap);
}

char *mp_strbuf_take(mp_strbuf *b)
{
   char *s = b->s;
   if (s == NULL)
      s = mp_strdup("mp.strbuf", "");
   b->s = NULL;
   b->len = b->cap = 0;
   return s;
}

char *mp_asprintf(const char *fmt, ...)
{
   mp_strbuf b = MP_STRBUF_INIT;
   va_list ap;
   va_start(ap, fmt);
   mp_strbuf_vprintf(&b, fmt, ap);
   va_end(ap);
   return mp_strbuf_take(&b);
}

const char *mp_config_error(const char *fmt, ...)
{
   static char *text;
   mp_strbuf b = MP_STRBUF_INIT;
   va_list ap;
   va_start(ap, fmt);
   mp_strbuf_vprintf(&b, fmt, ap);
   va_end(ap);
   if (text)
      mp_free(text);
   text = mp_strbuf_take(&b);
   return text;
}

int mp_utf8_cut(char *s, size_t max)
{
   static const char ellipsis[] = "\xe2\x80\xa6";
   size_t n = mp_strlen(s);
   if (n <= max || max < sizeof ellipsis)
      return 0;
   n = max - (sizeof ellipsis - 1);
   /* back to the first byte of a sequence: never 10xxxxxx */
   while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
      n--;
   mp_memcpy(s + n, ellipsis, sizeof ellipsis);
   return 1;
}

/*------------------------------------------------------------*/
/*--- A C++ function's name as a table shows it            ---*/
/*------------------------------------------------------------*/

static int is_name_char(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == '>' || c == ')' || c == ']';
}

/* What may follow a parameter list: qualifiers, and the " [clone
   .constprop.0]" of a specialised copy. */
static int only_qualifiers(const char *s)
{
   static const char *const words[] = { "const", "volatile", "noexcept", "&&", "&" };
   size_t k, n;
   while (*s) {
      if (*s == ' ') {
         s++;
         continue;
      }
      if (*s == '[') {
         while (*s && *s != ']')
            s++;
         if (!*s)
            return 0;
         s++;
         continue;
      }
      for (k = 0; k < sizeof words / sizeof words[0]; k++) {
         n = mp_strlen(words[k]);
         if (mp_strncmp(s, words[k], n) == 0) {
            s += n;
            break;
         }
      }
      if (k == sizeof words / sizeof words[0])
         return 0;
   }
   return 1;
}

char *mp_short_name(const char *name)
{
   const char *body = name, *p, *group = NULL, *open = NULL, *close = NULL, *start;
   int depth = 0;
   mp_strbuf b = MP_STRBUF_INIT;
   if (mp_strncmp(name, "stack:", 6) == 0)
      body = name + 6;
   else if (mp_strncmp(name, "heap@", 5) == 0)
      body = name + 5;
   /* the last parameter list at the top level, after a name */
   for (p = body; *p; p++) {
      if (*p == '(' || *p == '<' || *p == '[' || *p == '{') {
         if (depth++ == 0)
            group = p;
      } else if ((*p == ')' || *p == '>' || *p == ']' || *p == '}') && depth > 0) {
         if (--depth == 0 && *p == ')' && *group == '(' && group > body
             && is_name_char(group[-1])) {
            open = group;
            close = p;
         }
      }
   }
   if (!open || !only_qualifiers(close + 1))
      return NULL;
   /* the return type before the name: up to its last top-level space */
   start = body;
   depth = 0;
   for (p = body; p < open; p++) {
      if (*p == '(' || *p == '<' || *p == '[' || *p == '{')
         depth++;
      else if ((*p == ')' || *p == '>' || *p == ']' || *p == '}') && depth > 0)
         depth--;
      else if (*p == ' ' && depth == 0)
         start = p + 1;
   }
   mp_strbuf_add(&b, name, (size_t)(body - name));
   mp_strbuf_add(&b, start, (size_t)(open - start));
   return mp_strbuf_take(&b);
}

double mp_sqrt(double x)
{
   double r = 1.0;
   int i;
   if (!(x > 0.0))
      return 0.0;
   /* A guess within a factor of 2: halve the exponent. */
   while (r * r * 4.0 < x)
      r *= 2.0;
   while (r * r > x * 4.0)
      r *= 0.5;
   for (i = 0; i < 8; i++)
      r = 0.5 * (r + x / r);
   return r;
}
