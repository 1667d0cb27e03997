/*--------------------------------------------------------------------*/
/*--- memprof: a structure's fields from its source text.          ---*/
/*---                                                  mp_srctype.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_srctype.h.  Runs at exit, once per structure the advice
   names: a linear scan of a source file per look-up, and a parse of
   the structure's body; nothing per access.
*/
#include "mp_srctype.h"
#include "mp_util.h"

#define MAX_NESTING 4   /* structures within structures looked up */

static int is_ident_start(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(char c)
{
   return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_space(char c)
{
   return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char *copy_range(const char *p, const char *end)
{
   char *s = mp_malloc("mp.srctype.copy", (size_t)(end - p) + 1);
   mp_memcpy(s, p, (size_t)(end - p));
   s[end - p] = '\0';
   return s;
}

/* Whether the word w stands whole at p. */
static int word_at(const char *text, const char *p, const char *w)
{
   size_t n = mp_strlen(w);
   return mp_strncmp(p, w, n) == 0 && !is_ident_char(p[n])
          && (p == text || !is_ident_char(p[-1]));
}

/* The first c at or after p, or NULL. */
static const char *find_char(const char *p, char c)
{
   for (; *p; p++)
      if (*p == c)
         return p;
   return NULL;
}

/* Whether c occurs in [p, end). */
static int has_char(const char *p, char c, const char *end)
{
   for (; p < end; p++)
      if (*p == c)
         return 1;
   return 0;
}

static const char *skip_spaces(const char *p)
{
   while (is_space(*p))
      p++;
   return p;
}

/* The identifier at p (with "::" qualifiers), its end in *end. */
static char *ident_at(const char *p, const char **end)
{
   const char *q = p;
   if (!is_ident_start(*q))
      return NULL;
   while (is_ident_char(*q) || (q[0] == ':' && q[1] == ':' && is_ident_start(q[2])))
      q += (*q == ':') ? 2 : 1;
   *end = q;
   return copy_range(p, q);
}

/*------------------------------------------------------------*/
/*--- The type a line gives a pointer                      ---*/
/*------------------------------------------------------------*/

static int is_type_noise(const char *w, size_t n)
{
   static const char *const words[] = { "struct", "class", "const", "volatile",
                                        "restrict", "__restrict", "static" };
   size_t k;
   for (k = 0; k < sizeof words / sizeof words[0]; k++)
      if (mp_strlen(words[k]) == n && mp_strncmp(w, words[k], n) == 0)
         return 1;
   return 0;
}

/* "new T[" or "new T(": T. */
static char *type_of_new(const char *line)
{
   const char *p, *end;
   for (p = mp_strstr(line, "new"); p; p = mp_strstr(p + 1, "new")) {
      const char *q;
      if (!word_at(line, p, "new"))
         continue;
      q = skip_spaces(p + 3);
      if (word_at(line, q, "struct") || word_at(line, q, "class"))
         q = skip_spaces(q + (*q == 's' ? 6 : 5));
      if (is_ident_start(*q)) {
         char *t = ident_at(q, &end);
         end = skip_spaces(end);
         if (*end == '[' || *end == '(' || *end == ';' || *end == '{')
            return t;
         mp_free(t);
      }
   }
   return NULL;
}

/* "(T *)" or "(struct T*)" or "static_cast<T *>": T. */
static char *type_of_cast(const char *line)
{
   const char *p, *end;
   for (p = line; *p; p++) {
      const char *q;
      char *t;
      if (*p != '(' && *p != '<')
         continue;
      q = skip_spaces(p + 1);
      while (is_ident_start(*q)) {
         const char *w = q;
         while (is_ident_char(*q))
            q++;
         if (!is_type_noise(w, (size_t)(q - w))) {
            q = w;
            break;
         }
         q = skip_spaces(q);
      }
      if (!is_ident_start(*q))
         continue;
      t = ident_at(q, &end);
      end = skip_spaces(end);
      if (*end == '*') {
         while (*end == '*' || is_space(*end))
            end++;
         if ((*p == '(' && *end == ')') || (*p == '<' && *end == '>'))
            return t;
      }
      mp_free(t);
   }
   return NULL;
}

/* "T *name" (or "T* name", "T *const name"): T. */
static char *type_of_declaration(const char *line, const char *name)
{
   size_t n = mp_strlen(name);
   const char *p;
   for (p = mp_strstr(line, name); p; p = mp_strstr(p + 1, name)) {
      const char *q = p, *end, *w;
      int stars = 0;
      if (!word_at(line, p, name) || p[n] == ':')
         continue;
      /* back over "const", stars and blanks */
      while (q > line) {
         if (is_space(q[-1]))
            q--;
         else if (q[-1] == '*') {
            stars++;
            q--;
         } else if (q - line >= 5 && mp_strncmp(q - 5, "const", 5) == 0
                    && (q - line == 5 || !is_ident_char(q[-6])))
            q -= 5;
         else
            break;
      }
      if (stars == 0 || q == line || !is_ident_char(q[-1]))
         continue;
      end = q;
      while (q > line && (is_ident_char(q[-1]) || q[-1] == ':'))
         q--;
      w = q;
      if (word_at(line, w, "return") || word_at(line, w, "sizeof"))
         continue;
      return copy_range(w, end);
   }
   return NULL;
}

char *mp_src_pointee_type(const char *line, const char *name)
{
   const char *last = name + mp_strlen(name);
   char *ident, *t;
   while (last > name && is_ident_char(last[-1]))
      last--;
   if (!is_ident_start(*last))
      return NULL;
   if ((t = type_of_new(line)) != NULL || (t = type_of_cast(line)) != NULL)
      return t;
   ident = mp_asprintf("%s", last);
   t = type_of_declaration(line, ident);
   mp_free(ident);
   return t;
}

/*------------------------------------------------------------*/
/*--- The text, comments dropped                           ---*/
/*------------------------------------------------------------*/

/* text without its comments, string literals blanked. */
static char *code_of(const char *text)
{
   size_t n = mp_strlen(text);
   char *out = mp_malloc("mp.srctype.code", n + 1), *o = out;
   const char *p = text;
   while (*p) {
      if (p[0] == '/' && p[1] == '*') {
         const char *e = mp_strstr(p + 2, "*/");
         p = e ? e + 2 : p + mp_strlen(p);
         *o++ = ' ';
      } else if (p[0] == '/' && p[1] == '/') {
         while (*p && *p != '\n')
            p++;
      } else if (*p == '"') {
         *o++ = *p++;
         while (*p && *p != '"' && *p != '\n') {
            if (*p == '\\' && p[1])
               p++;
            p++;
         }
         if (*p == '"')
            *o++ = *p++;
      } else
         *o++ = *p++;
   }
   *o = '\0';
   return out;
}

/* text with its comments and string literals blanked, every newline
   kept: line numbers hold. */
static char *code_of_lines(const char *text)
{
   char *out = mp_strdup("mp.srctype.lines", text), *p = out;
   while (*p) {
      if (p[0] == '/' && p[1] == '*') {
         *p++ = ' ';
         *p++ = ' ';
         while (*p && !(p[0] == '*' && p[1] == '/')) {
            if (*p != '\n')
               *p = ' ';
            p++;
         }
         if (*p) {
            *p++ = ' ';
            *p++ = ' ';
         }
      } else if (p[0] == '/' && p[1] == '/') {
         while (*p && *p != '\n')
            *p++ = ' ';
      } else if (*p == '"' || *p == '\'') {
         char q = *p++;
         while (*p && *p != q && *p != '\n') {
            if (*p == '\\' && p[1] && p[1] != '\n')
               *p++ = ' ';
            *p++ = ' ';
         }
         if (*p == q)
            p++;
      } else {
         p++;
      }
   }
   return out;
}

/* The value of "#define NAME <integer>" in code, or -1. */
static int64_t define_value(const char *code, const char *name, size_t n)
{
   const char *p;
   for (p = mp_strstr(code, "#define"); p; p = mp_strstr(p + 1, "#define")) {
      const char *q = skip_spaces(p + 7);
      int64_t v = 0;
      if (mp_strncmp(q, name, n) != 0 || is_ident_char(q[n]))
         continue;
      q = skip_spaces(q + n);
      if (*q == '(')
         q = skip_spaces(q + 1);
      if (!(*q >= '0' && *q <= '9'))
         return -1;
      while (*q >= '0' && *q <= '9')
         v = v * 10 + (*q++ - '0');
      return v;
   }
   return -1;
}

/*------------------------------------------------------------*/
/*--- Types: sizes and alignments                          ---*/
/*------------------------------------------------------------*/

typedef struct {
   const char *code;
   int depth;
} lookup;

static int struct_layout(const lookup *lk, const char *type, mp_src_field **fields,
                         uint32_t *n, uint64_t *size, uint64_t *align);

/* The C scalar types by their words (signedness and int dropped). */
static int scalar_size(const char *t, uint64_t *size)
{
   static const struct { const char *name; uint64_t size; } scalars[] = {
      { "char", 1 }, { "bool", 1 }, { "_Bool", 1 }, { "int8_t", 1 }, { "uint8_t", 1 },
      { "short", 2 }, { "int16_t", 2 }, { "uint16_t", 2 },
      { "int", 4 }, { "unsigned", 4 }, { "float", 4 }, { "int32_t", 4 }, { "uint32_t", 4 },
      { "long", 8 }, { "double", 8 }, { "size_t", 8 }, { "ssize_t", 8 }, { "int64_t", 8 },
      { "uint64_t", 8 }, { "ptrdiff_t", 8 }, { "intptr_t", 8 }, { "uintptr_t", 8 },
      { "long long", 8 }, { "long double", 16 }, { "long int", 8 },
      { "double _Complex", 16 }, { "float _Complex", 8 }, { "std::complex<double>", 16 },
      { "std::complex<float>", 8 },
   };
   size_t k;
   for (k = 0; k < sizeof scalars / sizeof scalars[0]; k++)
      if (mp_strcmp(t, scalars[k].name) == 0) {
         *size = scalars[k].size;
         return 1;
      }
   return 0;
}

/* The type's words without qualifiers, "signed"/"unsigned" (same
   size) and a trailing "int" after short/long, in a new allocation. */
static char *normal_type(const char *t)
{
   mp_strbuf b = MP_STRBUF_INIT;
   const char *p = t;
   int words = 0;
   char *s;
   while (*p) {
      const char *w;
      p = skip_spaces(p);
      if (!*p)
         break;
      w = p;
      if (is_ident_start(*p))
         while (is_ident_char(*p) || (p[0] == ':' && p[1] == ':'))
            p += *p == ':' ? 2 : 1;
      else
         p++;
      if (is_type_noise(w, (size_t)(p - w)) || (p - w == 6 && mp_strncmp(w, "signed", 6) == 0))
         continue;
      if (p - w == 8 && mp_strncmp(w, "unsigned", 8) == 0 && *skip_spaces(p))
         continue;   /* "unsigned long" is long's size */
      if (words++)
         mp_strbuf_add(&b, " ", 1);
      mp_strbuf_add(&b, w, (size_t)(p - w));
   }
   s = mp_strbuf_take(&b);
   if (mp_strcmp(s, "short int") == 0 || mp_strcmp(s, "long long int") == 0) {
      s[mp_strlen(s) - 4] = '\0';
   }
   return s;
}

/* "typedef <type> name;" in code: its type text, or NULL. */
static char *typedef_of(const char *code, const char *name)
{
   size_t n = mp_strlen(name);
   const char *p;
   for (p = mp_strstr(code, "typedef"); p; p = mp_strstr(p + 1, "typedef")) {
      const char *semi, *q;
      if (!word_at(code, p, "typedef"))
         continue;
      semi = find_char(p, ';');
      if (!semi)
         return NULL;
      q = semi;
      while (q > p && is_space(q[-1]))
         q--;
      if ((size_t)(q - p) > n && mp_strncmp(q - n, name, n) == 0 && !is_ident_char(q[-n - 1])
          && !has_char(p, '{', semi))
         return copy_range(p + 7, q - n);
   }
   return NULL;
}

/* The size and alignment of a member's type t (pointers apart). */
static int type_size(const lookup *lk, const char *t, uint64_t *size, uint64_t *align)
{
   char *nt = normal_type(t);
   int ok = scalar_size(nt, size);
   if (ok)
      *align = *size > 8 ? 8 : *size;
   else if (lk->depth < MAX_NESTING) {
      lookup inner = { lk->code, lk->depth + 1 };
      mp_src_field *f = NULL;
      uint32_t n = 0;
      char *alias = typedef_of(lk->code, nt);
      if (alias) {
         ok = type_size(&inner, alias, size, align);
         mp_free(alias);
      } else if (struct_layout(&inner, nt, &f, &n, size, align))
         ok = 1;
      mp_src_fields_free(f, n);
   }
   mp_free(nt);
   return ok;
}

/*------------------------------------------------------------*/
/*--- A structure's body                                   ---*/
/*------------------------------------------------------------*/

/* The body "{...}" of struct/class 'type' in code: its '{' and the
   matching '}'. */
static int find_body(const char *code, const char *type, const char **open,
                     const char **close)
{
   const char *p;
   size_t n = mp_strlen(type);
   for (p = code; *p; p++) {
      const char *q, *o, *c, *after;
      int depth = 0, is_typedef;
      if (!(word_at(code, p, "struct") || word_at(code, p, "class")))
         continue;
      q = skip_spaces(p + (*p == 's' ? 6 : 5));
      o = q;
      while (is_ident_char(*o))
         o++;
      o = skip_spaces(o);
      if (*o != '{')
         continue;
      for (c = o; *c; c++) {
         if (*c == '{')
            depth++;
         else if (*c == '}' && --depth == 0)
            break;
      }
      if (!*c)
         return 0;
      if ((size_t)(o - q) >= n && mp_strncmp(q, type, n) == 0 && !is_ident_char(q[n])) {
         *open = o;
         *close = c;
         return 1;
      }
      /* "typedef struct [tag] {...} type;" */
      after = skip_spaces(c + 1);
      is_typedef = p - code >= 8 && mp_strncmp(skip_spaces(p - 8), "typedef", 7) == 0;
      if (!is_typedef) {
         const char *b = p;
         while (b > code && is_space(b[-1]))
            b--;
         is_typedef = b - code >= 7 && mp_strncmp(b - 7, "typedef", 7) == 0;
      }
      if (is_typedef && mp_strncmp(after, type, n) == 0 && !is_ident_char(after[n])) {
         *open = o;
         *close = c;
         return 1;
      }
   }
   return 0;
}

static void add_field(mp_src_field **f, uint32_t *n, const char *name, size_t len,
                      uint64_t offset, uint64_t size, uint64_t elem)
{
   *f = mp_realloc("mp.srctype.fields", *f, (*n + 1) * sizeof **f);
   (*f)[*n].name = copy_range(name, name + len);
   (*f)[*n].offset = offset;
   (*f)[*n].size = size;
   (*f)[*n].elem = elem;
   (*n)++;
}

/* One declaration statement "type d1, d2[4], *d3" of a body: its
   members appended, *at past them.  0 if it cannot be laid out. */
static int declare(const lookup *lk, const char *s, const char *end, mp_src_field **f,
                   uint32_t *n, uint64_t *at, uint64_t *max_align)
{
   const char *p = s, *type_end = NULL, *d;
   uint64_t tsize = 0, talign = 1;
   int have_type = 0;
   /* the type: the words before the first declarator's name */
   for (d = s; d < end && *d != ',' && *d != '['; d++)
      ;
   type_end = d;
   while (type_end > s && is_space(type_end[-1]))
      type_end--;
   while (type_end > s && is_ident_char(type_end[-1]))
      type_end--;
   while (type_end > s && (is_space(type_end[-1]) || type_end[-1] == '*' || type_end[-1] == '&'))
      type_end--;
   if (type_end == s)
      return 0;
   p = type_end;
   while (p < end) {
      const char *name, *name_end;
      uint64_t count = 1, size, align;
      int stars = 0;
      while (p < end && (is_space(*p) || *p == '*' || *p == ',')) {
         stars += *p == '*';
         p++;
      }
      if (p >= end)
         break;
      if (!is_ident_start(*p))
         return 0;
      name = p;
      while (p < end && is_ident_char(*p))
         p++;
      name_end = p;
      p = skip_spaces(p);
      while (p < end && *p == '[') {
         const char *q = skip_spaces(p + 1), *w = q;
         int64_t v = 0;
         if (*q >= '0' && *q <= '9')
            while (*q >= '0' && *q <= '9')
               v = v * 10 + (*q++ - '0');
         else {
            while (is_ident_char(*q))
               q++;
            v = define_value(lk->code, w, (size_t)(q - w));
         }
         q = skip_spaces(q);
         if (v <= 0 || *q != ']')
            return 0;
         count *= (uint64_t)v;
         p = skip_spaces(q + 1);
      }
      if (p < end && *p == '=')
         return 0;   /* a default member initializer: leave C++ classes be */
      if (stars) {
         size = align = 8;
      } else {
         if (!have_type) {
            char *t = copy_range(s, type_end);
            have_type = type_size(lk, t, &tsize, &talign);
            mp_free(t);
            if (!have_type)
               return 0;
         }
         size = tsize;
         align = talign;
      }
      *at = (*at + align - 1) / align * align;
      add_field(f, n, name, (size_t)(name_end - name), *at, size * count,
                count > 1 || (p > name_end && name_end[0] == '[') ? size : 0);
      *at += size * count;
      if (align > *max_align)
         *max_align = align;
   }
   return 1;
}

/* Whether a statement of a body is no member: an access label, a
   declaration of a method or a static member, a type or a friend. */
static int not_a_member(const char *s, const char *end)
{
   const char *p;
   if (word_at(s, s, "static") || word_at(s, s, "typedef") || word_at(s, s, "friend")
       || word_at(s, s, "using") || word_at(s, s, "template"))
      return 1;
   for (p = s; p < end; p++)
      if (*p == '(')
         return 1;
   return 0;
}

static int struct_layout(const lookup *lk, const char *type, mp_src_field **fields,
                         uint32_t *n, uint64_t *size, uint64_t *align)
{
   const char *open, *close, *p, *s;
   uint64_t at = 0, max_align = 1;
   *fields = NULL;
   *n = 0;
   if (!find_body(lk->code, type, &open, &close))
      return 0;
   s = open + 1;
   for (p = s; p <= close; p++) {
      const char *a, *e;
      if (*p == '{') {
         /* a method's body, or a nested type: the statement ends
            after it */
         int depth = 0;
         const char *q;
         for (q = p; q < close; q++) {
            if (*q == '{')
               depth++;
            else if (*q == '}' && --depth == 0)
               break;
         }
         a = skip_spaces(s);
         if (!not_a_member(a, p) && !(word_at(a, a, "enum")))
            return 0;   /* a nested struct, union or enum member */
         p = q;
         s = p + 1;
         continue;
      }
      if (*p != ';' && p != close)
         continue;
      a = skip_spaces(s);
      e = p;
      /* "public:" and the like */
      while (1) {
         const char *c = a;
         while (is_ident_char(*c))
            c++;
         if (c > a && *skip_spaces(c) == ':' && skip_spaces(c)[1] != ':')
            a = skip_spaces(skip_spaces(c) + 1);
         else
            break;
      }
      s = p + 1;
      if (a >= e || not_a_member(a, e))
         continue;
      if (word_at(a, a, "union") || word_at(a, a, "enum") || has_char(a, ':', e))
         return 0;
      if (!declare(lk, a, e, fields, n, &at, &max_align))
         return 0;
   }
   if (*n == 0)
      return 0;
   *size = (at + max_align - 1) / max_align * max_align;
   *align = max_align;
   return 1;
}

mp_src_field *mp_src_struct_fields(const char *text, const char *type,
                                   uint32_t *n_out, uint64_t *size_out)
{
   char *code = code_of(text);
   lookup lk = { code, 0 };
   mp_src_field *f = NULL;
   uint32_t n = 0;
   uint64_t size = 0, align = 0;
   if (!struct_layout(&lk, type, &f, &n, &size, &align)) {
      mp_src_fields_free(f, n);
      f = NULL;
      n = 0;
   }
   mp_free(code);
   *n_out = n;
   *size_out = size;
   return f;
}

void mp_src_fields_free(mp_src_field *f, uint32_t n)
{
   uint32_t i;
   if (!f)
      return;
   for (i = 0; i < n; i++)
      mp_free(f[i].name);
   mp_free(f);
}

/*------------------------------------------------------------*/
/*--- Names of byte ranges                                 ---*/
/*------------------------------------------------------------*/

static char *member_text(const mp_src_field *f, uint64_t off)
{
   if (f->elem && f->size > f->elem)
      return mp_asprintf("%s[%llu]", f->name, (unsigned long long)((off - f->offset) / f->elem));
   return mp_asprintf("%s", f->name);
}

char *mp_src_field_name(const mp_src_field *f, uint32_t n, uint64_t struct_size,
                        uint64_t offset, uint64_t size)
{
   uint64_t off, last;
   uint32_t i, j;
   char *a, *b, *name;
   if (!f || n == 0 || struct_size == 0)
      return NULL;
   off = offset % struct_size;
   last = off + (size ? size : 1) - 1;
   for (i = 0; i < n && !(off >= f[i].offset && off < f[i].offset + f[i].size); i++)
      ;
   if (i == n)
      return NULL;
   if (last < f[i].offset + f[i].size) {
      /* within one member; a whole array member is named plainly */
      if (f[i].elem && off == f[i].offset && size >= f[i].size)
         return mp_asprintf("%s", f[i].name);
      return member_text(&f[i], off);
   }
   for (j = i; j + 1 < n && f[j + 1].offset <= last; j++)
      ;
   a = member_text(&f[i], off);
   b = member_text(&f[j], last < f[j].offset + f[j].size ? last : f[j].offset + f[j].size - 1);
   name = mp_asprintf("%s..%s", a, b);
   mp_free(a);
   mp_free(b);
   return name;
}

/*------------------------------------------------------------*/
/*--- The function a static local belongs to               ---*/
/*------------------------------------------------------------*/

/* The name of the function whose body opens at the '{' at p: the
   identifier before the parameter list that precedes it. */
static char *function_before(const char *code, const char *p)
{
   const char *q = p, *end;
   int depth = 0;
   while (q > code && is_space(q[-1]))
      q--;
   /* qualifiers after the parameters: "const", "noexcept" */
   while (q > code && is_ident_char(q[-1])) {
      const char *w = q;
      while (q > code && is_ident_char(q[-1]))
         q--;
      if (!((w - q == 5 && mp_strncmp(q, "const", 5) == 0)
            || (w - q == 8 && mp_strncmp(q, "noexcept", 8) == 0)))
         return NULL;
      while (q > code && is_space(q[-1]))
         q--;
   }
   if (q == code || q[-1] != ')')
      return NULL;
   /* back to the parameter list's '(' */
   do {
      q--;
      if (*q == ')')
         depth++;
      else if (*q == '(')
         depth--;
   } while (q > code && depth > 0);
   while (q > code && is_space(q[-1]))
      q--;
   end = q;
   while (q > code && (is_ident_char(q[-1]) || q[-1] == ':'))
      q--;
   if (q == end || !is_ident_start(*q))
      return NULL;
   if (word_at(code, q, "if") || word_at(code, q, "for") || word_at(code, q, "while")
       || word_at(code, q, "switch"))
      return NULL;
   return copy_range(q, end);
}

char *mp_src_static_owner(const char *text, const char *name)
{
   char *code = code_of(text), *owner = NULL, *fn = NULL;
   const char *p;
   size_t n = mp_strlen(name);
   int depth = 0;
   for (p = code; *p && !owner; p++) {
      if (*p == '{') {
         if (depth++ == 0) {
            if (fn)
               mp_free(fn);
            fn = function_before(code, p);
         }
      } else if (*p == '}') {
         if (depth > 0)
            depth--;
      } else if (depth > 0 && fn && word_at(code, p, "static")) {
         /* "static <type> ... name" up to the statement's end */
         const char *q = p + 6, *e = p;
         while (*e && *e != ';' && *e != '=' && *e != '{')
            e++;
         for (; q + n <= e; q++)
            if (mp_strncmp(q, name, n) == 0 && !is_ident_char(q[n]) && !is_ident_char(q[-1]))
               owner = mp_asprintf("%s", fn);
      }
   }
   if (fn)
      mp_free(fn);
   mp_free(code);
   return owner;
}

/*------------------------------------------------------------*/
/*--- Members                                              ---*/
/*------------------------------------------------------------*/

/* Whether the declaration of 'member' starts at p, a word of the
   class body at its own depth: a type (or a comma of a list) before
   it, and no parameter list after it. */
static int declares_at(const char *body, const char *p, size_t n)
{
   const char *b = p, *a = skip_spaces(p + n);
   while (b > body && is_space(b[-1]))
      b--;
   if (b == body)
      return 0;
   if (!(is_ident_char(b[-1]) || b[-1] == '*' || b[-1] == '&' || b[-1] == '>' || b[-1] == ','))
      return 0;
   return *a == ';' || *a == '[' || *a == '=' || *a == ',' || *a == '{';
}

int mp_src_class_declares(const char *text, const char *cls, const char *member)
{
   char *code = code_of(text);
   const char *open, *close, *p;
   size_t n = mp_strlen(member);
   int depth = 0, found = 0;
   if (n > 0 && find_body(code, cls, &open, &close)) {
      /* Only the body's own level: what its methods' bodies and
         parameter lists name is not a member. */
      for (p = open + 1; p < close && !found; p++) {
         if (*p == '{' || *p == '(')
            depth++;
         else if ((*p == '}' || *p == ')') && depth > 0)
            depth--;
         else if (depth == 0 && word_at(code, p, member))
            found = declares_at(open + 1, p, n);
      }
   }
   mp_free(code);
   return found;
}

/* The class a '{' at p opens, if any, into cls (size bytes): the body
   of "class X" / "struct X" (a base list allowed), or of a method
   defined outside its class, "... X::f(...) [const] {". */
static int class_opened(const char *text, const char *p, char *cls, size_t size)
{
   const char *b = p, *q, *e;
   int parens = 0;
   /* "struct X {" or "class X : public Y {": back to the keyword,
      across the base list, on this statement only */
   for (q = p; q > text && q[-1] != ';' && q[-1] != '}' && q[-1] != '{'; q--)
      ;
   for (; q < p; q++)
      if (word_at(text, q, "class") || word_at(text, q, "struct")) {
         const char *n = skip_spaces(q + (*q == 's' ? 6 : 5)), *a;
         for (e = n; is_ident_char(*e); e++)
            ;
         a = skip_spaces(e);
         /* its body next, or its base list ("template <class T>" is
            no class) */
         if (e > n && (size_t)(e - n) < size
             && (a == p || (a[0] == ':' && a[1] != ':'))) {
            mp_memcpy(cls, n, (size_t)(e - n));
            cls[e - n] = '\0';
            return 1;
         }
      }
   /* a function body: back over "const", then the parameter list */
   while (b > text && is_space(b[-1]))
      b--;
   if (b - text >= 5 && mp_strncmp(b - 5, "const", 5) == 0)
      b -= 5;
   while (b > text && is_space(b[-1]))
      b--;
   if (b == text || b[-1] != ')')
      return 0;
   for (q = b - 1; q > text; q--) {
      if (*q == ')')
         parens++;
      else if (*q == '(' && --parens == 0)
         break;
   }
   while (q > text && is_space(q[-1]))
      q--;
   e = q;
   while (q > text && is_ident_char(q[-1]))
      q--;
   if (q == e || q - text < 2 || q[-1] != ':' || q[-2] != ':')
      return 0;
   e = q - 2;
   q = e;
   while (q > text && (is_ident_char(q[-1]) || q[-1] == '>' || q[-1] == '<'))
      q--;
   {
      const char *lt = q;
      while (lt < e && *lt != '<')
         lt++;
      if (lt == q || (size_t)(lt - q) >= size)
         return 0;
      mp_memcpy(cls, q, (size_t)(lt - q));
      cls[lt - q] = '\0';
   }
   return 1;
}

#define MAX_SCOPES 64

char *mp_src_class_at(const char *text, uint32_t line)
{
   char *code = code_of_lines(text), *found = NULL;
   char names[MAX_SCOPES][64];
   int named[MAX_SCOPES], depth = 0, i;
   uint32_t at = 1;
   const char *p;
   for (p = code; *p && at <= line; p++) {
      if (*p == '\n') {
         at++;
      } else if (*p == '{') {
         if (depth < MAX_SCOPES)
            named[depth] = class_opened(code, p, names[depth], sizeof names[depth]);
         depth++;
      } else if (*p == '}' && depth > 0) {
         depth--;
      }
   }
   for (i = (depth < MAX_SCOPES ? depth : MAX_SCOPES) - 1; i >= 0 && at > line; i--)
      if (named[i]) {
         found = mp_strdup("mp.srctype.class", names[i]);
         break;
      }
   mp_free(code);
   return found;
}
