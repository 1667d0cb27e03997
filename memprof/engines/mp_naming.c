/*--------------------------------------------------------------------*/
/*--- memprof: naming a heap variable from its source line.        ---*/
/*---                                                  mp_naming.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   A heuristic, not a parser: it looks for the first plain '=' (not
   '==', '<=', '>=', '!=', '+=' ...) and takes the lvalue that ends just
   before it: an identifier optionally followed by member accesses
   ('.x', '->x') and subscripts ('[...]'), with its dereferences ('*p')
   when no type precedes them (which would make the star a declarator).
   In Fortran sources it takes the objects of an ALLOCATE statement in
   order.  A statement without an assignment, whose callee returned the
   block, names it after the declaration macro, object, constructed
   variable or out-parameter it holds.  Runs once per allocation site,
   never on the hot path.
*/
#include "mp_naming.h"
#include "mp_util.h"

static int is_ident_start(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(char c)
{
   return is_ident_start(c) || (c >= '0' && c <= '9');
}

static char lower(char c)
{
   return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* The n bytes at from, in a new allocation; NULL if n is 0. */
static char *copy_out(const char *from, size_t n)
{
   char *out;
   if (n == 0)
      return NULL;
   out = mp_malloc("mp.naming.name", n + 1);
   mp_memcpy(out, from, n);
   out[n] = '\0';
   return out;
}

/* Case-insensitive search for the word "allocate" followed by '('. */
static const char *find_fortran_allocate(const char *line)
{
   static const char word[] = "allocate";
   const char *p;
   for (p = line; *p; p++) {
      size_t k = 0;
      const char *q;
      if (p > line && is_ident_char(p[-1]))
         continue;
      while (word[k] && lower(p[k]) == word[k])
         k++;
      if (word[k])
         continue;
      q = p + k;
      while (*q == ' ' || *q == '\t')
         q++;
      if (*q == '(')
         return q + 1;
   }
   return NULL;
}

/* The nth object of an ALLOCATE statement: "allocate(a(n), b(m),
   stat=ierr)" allocates a then b (gfortran calls malloc for each in
   that order); "stat=", "errmsg=", "source=" and "mold=" are not
   objects. */
static char *fortran_name(const char *line, unsigned nth)
{
   const char *p = find_fortran_allocate(line), *start;
   unsigned found = 0;
   if (!p)
      return NULL;
   for (;;) {
      int depth = 0;
      while (*p == ' ' || *p == '\t')
         p++;
      start = p;
      /* derived-type components: obj%field(n) */
      while (is_ident_char(*p) || *p == '%')
         p++;
      if (p == start || !is_ident_start(*start))
         return NULL;
      {
         const char *q = p;
         while (*q == ' ' || *q == '\t')
            q++;
         if (*q != '=' && found++ == nth)
            return copy_out(start, (size_t)(p - start));
      }
      /* on to the next top-level ',' */
      for (; *p; p++) {
         if (*p == '(')
            depth++;
         else if (*p == ')' && depth-- == 0)
            return NULL;
         else if (*p == ',' && depth == 0)
            break;
      }
      if (*p != ',')
         return NULL;
      p++;
   }
}

/* Skips what comes before a statement's own text: braces, "else",
   "do", and the parenthesised header of "for", "while", "if" and
   "switch" ("for (int i = 0; i < n; i++) live[i] = malloc(s);" assigns
   live[i], not i). */
static const char *skip_control(const char *p)
{
   static const char *const heads[] = { "for", "while", "if", "switch", NULL };
   for (;;) {
      int k, matched = 0;
      while (*p == ' ' || *p == '\t' || *p == '{' || *p == '}')
         p++;
      if (mp_strncmp(p, "else", 4) == 0 && !is_ident_char(p[4])) {
         p += 4;
         continue;
      }
      if (mp_strncmp(p, "do", 2) == 0 && !is_ident_char(p[2])) {
         p += 2;
         continue;
      }
      for (k = 0; heads[k]; k++) {
         size_t n = mp_strlen(heads[k]);
         const char *q = p + n;
         int depth = 0;
         if (mp_strncmp(p, heads[k], n) != 0 || is_ident_char(*q))
            continue;
         while (*q == ' ' || *q == '\t')
            q++;
         if (*q != '(')
            continue;
         for (; *q; q++) {
            if (*q == '(')
               depth++;
            else if (*q == ')' && --depth == 0)
               break;
         }
         if (!*q)
            return p;   /* a header spread over several lines */
         p = q + 1;
         matched = 1;
         break;
      }
      if (!matched)
         return p;
   }
}

/* The position of the assignment's '=', or NULL. */
static const char *find_assign(const char *line)
{
   const char *p;
   int in_string = 0;
   for (p = line; *p; p++) {
      if (*p == '"')
         in_string = !in_string;
      if (in_string)
         continue;
      if (p[0] == '/' && (p[1] == '/' || p[1] == '*'))
         return NULL;
      if (*p != '=')
         continue;
      if (p[1] == '=') {       /* '==' */
         p++;
         continue;
      }
      if (p > line && (p[-1] == '=' || p[-1] == '<' || p[-1] == '>'
                       || p[-1] == '!' || p[-1] == '+' || p[-1] == '-'
                       || p[-1] == '*' || p[-1] == '/' || p[-1] == '%'
                       || p[-1] == '&' || p[-1] == '|' || p[-1] == '^'))
         continue;
      return p;
   }
   return NULL;
}

/* Walks back from end over an lvalue: subscripts, '.x', '->x', ident. */
static const char *lvalue_start(const char *line, const char *end)
{
   const char *p = end;
   for (;;) {
      if (p > line && p[-1] == ']') {
         int depth = 0;
         do {
            p--;
            if (*p == ']') depth++;
            if (*p == '[') depth--;
         } while (p > line && depth > 0);
         if (depth != 0)
            return NULL;
         continue;
      }
      if (p > line && is_ident_char(p[-1])) {
         while (p > line && is_ident_char(p[-1]))
            p--;
         if (!is_ident_start(*p))
            return NULL;
         if (p > line && p[-1] == '.') {
            p--;
            continue;
         }
         if (p - line >= 2 && p[-1] == '>' && p[-2] == '-') {
            p -= 2;
            continue;
         }
         return p;
      }
      return NULL;
   }
}

/* Extends an lvalue start over dereference stars: '*pp = ...' names
   '*pp', but in 'double *a = ...' the star follows a type, and in
   'double *a, *b = ...' a comma: declarators, whose stars are not part
   of the name. */
static const char *with_derefs(const char *line, const char *start)
{
   const char *p = start, *q;
   while (p > line && p[-1] == '*')
      p--;
   if (p == start)
      return start;
   q = p;
   while (q > line && (q[-1] == ' ' || q[-1] == '\t'))
      q--;
   if (q > line && (is_ident_char(q[-1]) || q[-1] == '*' || q[-1] == ','))
      return start;   /* a declaration: 'type *name', 'type *a, *name' */
   return p;
}

int mp_is_fortran_file(const char *file)
{
   const char *dot = NULL, *p;
   char ext[5];
   size_t n = 0;
   for (p = file; *p; p++)
      if (*p == '.')
         dot = p;
   if (!dot)
      return 0;
   for (p = dot + 1; *p && n < sizeof ext - 1; p++)
      ext[n++] = lower(*p);
   ext[n] = '\0';
   if (*p)
      return 0;
   return (ext[0] == 'f' && (n == 1 || mp_strcmp(ext, "for") == 0
                             || mp_strcmp(ext, "ftn") == 0
                             || ((n == 3) && ext[1] >= '0' && ext[1] <= '9'
                                 && ext[2] >= '0' && ext[2] <= '9')));
}

char *mp_name_from_source_line(const char *line, int is_fortran)
{
   const char *eq, *end, *start;
   char *name;
   if (is_fortran && (name = fortran_name(line, 0)) != NULL)
      return name;
   line = skip_control(line);
   eq = find_assign(line);
   if (!eq)
      return NULL;
   end = eq;
   while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
      end--;
   start = lvalue_start(line, end);
   if (!start)
      return NULL;
   start = with_derefs(line, start);
   return copy_out(start, (size_t)(end - start));
}

/* Whether the brace at p, outside parentheses, delimits a block (a
   function's body on its declaration's line, "{ a = f(n); b = f(n); }")
   rather than an initializer ("= {1, 2}", "T v{n}"): a closing one
   always does, an opening one unless it follows '=', ',', '(' or a
   name. */
static int opens_block(const char *start, const char *p)
{
   const char *q = p;
   if (*p == '}')
      return 1;
   while (q > start && (q[-1] == ' ' || q[-1] == '\t'))
      q--;
   if (q == start)
      return 1;
   return !(q[-1] == '=' || q[-1] == ',' || q[-1] == '(' || (q == p && is_ident_char(q[-1])));
}

/* The allocations of a line are its statements, separated by ';'
   outside parentheses, brackets and quotes ("for (i = 0; i < n; i++)"
   is one), and the declarators of a declaration, separated by ',' there
   ("double *a = malloc(n), *b = malloc(n);" is two, run in that order).
   Returns the end of the piece starting at p: a ';', a ',' (which
   starts the next piece, so that its declarator's stars read as such),
   or the line's end. */
static const char *next_piece_end(const char *p)
{
   const char *start = p;
   int depth = 0;
   char quote = 0;
   for (; *p; p++) {
      if (quote) {
         if (*p == '\\' && p[1])
            p++;
         else if (*p == quote)
            quote = 0;
         continue;
      }
      if (*p == '"' || *p == '\'')
         quote = *p;
      else if ((*p == '{' || *p == '}') && depth == 0 && opens_block(start, p))
         return p;
      else if (*p == '(' || *p == '[' || *p == '{')
         depth++;
      else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
         depth--;
      else if ((*p == ';' || *p == ',') && depth == 0)
         return p;
   }
   return p;
}

/* Whether a piece's assignment could be an allocation: a call or a
   'new' after its '=' ("s = 0.0" in "double *a = malloc(n), s = 0.0,
   *b = malloc(n);" is not one of the line's allocations). */
static int may_allocate(const char *piece)
{
   const char *p = find_assign(piece);
   if (!p)
      return 0;
   for (p++; *p; p++)
      if (*p == '(' || (p[0] == 'n' && p[1] == 'e' && p[2] == 'w'
                        && !is_ident_char(p[3])
                        && (p == piece || !is_ident_char(p[-1]))))
         return 1;
   return 0;
}

char *mp_name_from_source_line_nth(const char *line, int is_fortran, unsigned nth)
{
   const char *p = line;
   unsigned found = 0;
   if (is_fortran)
      return nth > 0 ? fortran_name(line, nth) : mp_name_from_source_line(line, 1);
   while (*p) {
      /* A piece after a ',' keeps it: next_piece_end skips it. */
      const char *end = next_piece_end(*p == ',' ? p + 1 : p);
      char *stmt = copy_out(p, (size_t)(end - p)), *name = NULL;
      if (stmt && may_allocate(stmt))
         name = mp_name_from_source_line(stmt, 0);
      if (stmt)
         mp_free(stmt);
      if (name && found++ == nth)
         return name;
      if (name)
         mp_free(name);
      p = (*end == ';' || *end == '{' || *end == '}') ? end + 1 : end;
   }
   /* No piece allocates by its look (a wrapper's name without a call
      on a line of one statement): the line's first assignment. */
   return nth == 0 ? mp_name_from_source_line(line, 0) : NULL;
}

/* The end of the argument starting at p: its top-level ',' or the
   call's ')'. */
static const char *argument_end(const char *p)
{
   int depth = 0;
   for (; *p; p++) {
      if (*p == '(' || *p == '[' || *p == '{')
         depth++;
      else if ((*p == ')' || *p == ']' || *p == '}') && depth-- == 0)
         return p;
      else if (*p == ',' && depth == 0)
         return p;
   }
   return p;
}

/* The lvalue spelled by [p, end) with blanks trimmed, or NULL if that
   is not exactly one ("a", "s->buf", "m.rows[i]"). */
static char *exact_lvalue(const char *p, const char *end)
{
   const char *start;
   while (p < end && (*p == ' ' || *p == '\t'))
      p++;
   while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
      end--;
   if (p == end)
      return NULL;
   start = lvalue_start(p, end);
   return start == p ? copy_out(p, (size_t)(end - p)) : NULL;
}

char *mp_name_from_out_param(const char *line, const char *fn)
{
   size_t n = mp_strlen(fn);
   const char *p, *end;
   for (p = line; *p; p++) {
      if (mp_strncmp(p, fn, n) != 0 || (p > line && is_ident_char(p[-1]))
          || is_ident_char(p[n]))
         continue;
      p += n;
      while (*p == ' ' || *p == '\t')
         p++;
      if (*p != '(')
         return NULL;
      p++;
      end = argument_end(p);
      /* casts: "(void **)&ret" */
      for (;;) {
         const char *q = p;
         int depth = 0;
         while (q < end && (*q == ' ' || *q == '\t'))
            q++;
         if (*q != '(')
            break;
         for (; q < end; q++) {
            if (*q == '(')
               depth++;
            else if (*q == ')' && --depth == 0)
               break;
         }
         if (q >= end)
            return NULL;
         p = q + 1;
      }
      while (p < end && (*p == ' ' || *p == '\t'))
         p++;
      if (*p == '&')
         return exact_lvalue(p + 1, end);
      {
         /* a pointer to the pointer: the block is stored through it */
         char *inner = exact_lvalue(p, end), *out;
         if (!inner)
            return NULL;
         out = mp_malloc("mp.naming.name", mp_strlen(inner) + 2);
         out[0] = '*';
         mp_memcpy(out + 1, inner, mp_strlen(inner) + 1);
         mp_free(inner);
         return out;
      }
   }
   return NULL;
}

static int is_macro_name(const char *p, const char *end)
{
   int letters = 0;
   if (end - p < 2)
      return 0;
   for (; p < end; p++) {
      if (*p >= 'A' && *p <= 'Z')
         letters++;
      else if (*p != '_' && !(*p >= '0' && *p <= '9'))
         return 0;
   }
   return letters > 0;
}

static int word_in(const char *p, size_t n, const char *const *words)
{
   int k;
   for (k = 0; words[k]; k++)
      if (mp_strlen(words[k]) == n && mp_strncmp(p, words[k], n) == 0)
         return 1;
   return 0;
}

/* Words that start a statement that is not a declaration. */
static const char *const statement_words[] = {
   "return", "delete", "throw", "goto", "case", "sizeof", "new",
   "co_return", "co_yield", NULL
};

/* Words that are not a name. */
static int is_keyword(const char *p, size_t n)
{
   static const char *const type_words[] = {
      "void", "char", "short", "int", "long", "float", "double", "signed",
      "unsigned", "const", "volatile", "struct", "union", "enum", "static",
      "auto", "register", NULL
   };
   return word_in(p, n, statement_words) || word_in(p, n, type_words);
}

/* DECL_2D_ARRAY(A, double, N, N): a declaration macro; it declares its
   first argument that is a plain identifier and not a type word. */
static char *macro_declared(const char *p)
{
   const char *q = p, *end;
   while (is_ident_char(*q))
      q++;
   if (!is_macro_name(p, q))
      return NULL;
   while (*q == ' ' || *q == '\t')
      q++;
   if (*q != '(')
      return NULL;
   for (p = q + 1; *p; p = end + 1) {
      const char *a = p, *b;
      end = argument_end(p);
      while (a < end && (*a == ' ' || *a == '\t'))
         a++;
      b = a;
      while (b < end && is_ident_char(*b))
         b++;
      if (b > a && is_ident_start(*a) && !is_keyword(a, (size_t)(b - a))) {
         const char *c = b;
         while (c < end && (*c == ' ' || *c == '\t'))
            c++;
         if (c == end)
            return copy_out(a, (size_t)(b - a));
      }
      if (*end != ',')
         return NULL;
   }
   return NULL;
}

/* std::vector<double> v(n); Buffer b{n};: a declaration whose
   constructor allocates.  The name is the identifier just before the
   first '(' or '{', after a type (an identifier, '>', '*' or '&'). */
static char *constructed(const char *p)
{
   const char *q, *name, *t;
   for (q = p; *q && *q != '(' && *q != '{' && *q != '=' && *q != ';'; q++)
      ;
   if (*q != '(' && *q != '{')
      return NULL;
   t = q;
   while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
      t--;
   name = t;
   while (name > p && is_ident_char(name[-1]))
      name--;
   if (name == t || !is_ident_start(*name) || is_keyword(name, (size_t)(t - name)))
      return NULL;
   q = name;
   while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
      q--;
   if (q == p)
      return NULL;   /* "f(x)": a call, no type before the name */
   if (!(is_ident_char(q[-1]) || q[-1] == '>' || q[-1] == '*' || q[-1] == '&'))
      return NULL;
   /* the word before must be a type: not "return x(...)" */
   {
      const char *w = q;
      while (w > p && is_ident_char(w[-1]))
         w--;
      if (w < q && word_in(w, (size_t)(q - w), statement_words))
         return NULL;
   }
   return copy_out(name, (size_t)(t - name));
}

/* s.v.resize(n); obj->items.push_back(x);: a method call whose object
   grows; the name is the object. */
static char *method_object(const char *p)
{
   const char *q = p, *last_sep = NULL;
   if (!is_ident_start(*q))
      return NULL;
   for (;;) {
      while (is_ident_char(*q))
         q++;
      if (*q == '[') {
         int depth = 0;
         for (; *q; q++) {
            if (*q == '[') depth++;
            else if (*q == ']' && --depth == 0) break;
         }
         if (!*q)
            return NULL;
         q++;
      }
      if (*q == '.' && is_ident_start(q[1])) {
         last_sep = q;
         q++;
         continue;
      }
      if (q[0] == '-' && q[1] == '>' && is_ident_start(q[2])) {
         last_sep = q;
         q += 2;
         continue;
      }
      break;
   }
   while (*q == ' ' || *q == '\t')
      q++;
   if (*q != '(' || !last_sep)
      return NULL;
   return copy_out(p, (size_t)(last_sep - p));
}

/* my_alloc(&A, n);: the block comes back through an out-parameter. */
static char *address_argument(const char *line)
{
   const char *p;
   for (p = line; *p; p++) {
      const char *end;
      if (*p != '&' || p == line || p[1] == '&' || p[-1] == '&')
         continue;
      if (p[-1] != '(' && p[-1] != ',' && p[-1] != ' ' && p[-1] != ')')
         continue;
      end = argument_end(p + 1);
      {
         char *name = exact_lvalue(p + 1, end);
         if (name)
            return name;
      }
   }
   return NULL;
}

char *mp_name_from_statement(const char *line)
{
   const char *p = skip_control(line);
   char *name;
   if (mp_strncmp(p, "return", 6) == 0 && !is_ident_char(p[6])) {
      /* "if (!grow(&t->slots, n)) return -1;": the call is the test's */
      return p == line ? NULL : address_argument(line);
   }
   if ((name = macro_declared(p)) != NULL
       || (name = method_object(p)) != NULL
       || (name = constructed(p)) != NULL)
      return name;
   return address_argument(line);
}

int mp_line_returns_call(const char *line)
{
   const char *p;
   for (p = mp_strstr(line, "return"); p; p = mp_strstr(p + 1, "return")) {
      const char *q = p + 6;
      if ((p > line && is_ident_char(p[-1])) || is_ident_char(*q))
         continue;
      for (; *q && *q != ';'; q++)
         if (*q == '(')
            return 1;
   }
   return 0;
}

/* A suffix the compiler appends to a symbol: ".constprop.0", ".isra.1",
   ".part.2", ".cold", ".lto_priv.0", ".llvm.12345", ".localalias", and
   the ".3" of a static local; its length at s (a '.'), or 0. */
static size_t compiler_suffix(const char *s)
{
   static const char *const words[] = { "constprop", "isra", "part", "cold",
                                        "lto_priv", "llvm", "localalias", "_omp_fn" };
   const char *p = s + 1;
   size_t k, n;
   if (*s != '.')
      return 0;
   for (k = 0; k < sizeof words / sizeof words[0]; k++) {
      n = mp_strlen(words[k]);
      if (mp_strncmp(p, words[k], n) == 0 && (p[n] == '\0' || p[n] == '.')) {
         p += n;
         break;
      }
   }
   if (k == sizeof words / sizeof words[0] && !(*p >= '0' && *p <= '9'))
      return 0;
   if (*p == '.')
      p++;
   while (*p >= '0' && *p <= '9')
      p++;
   return *p == '\0' || *p == '.' ? (size_t)(p - s) : 0;
}

int mp_strip_compiler_suffix(char *name)
{
   char *p, *clone;
   int numeric = 0, dropped = 0;
   /* C++'s demangled specialised copies: "f(int) [clone .constprop.0]" */
   while ((clone = mp_strstr(name, " [clone ")) != NULL) {
      char *end = mp_strstr(clone, "]");
      if (!end)
         break;
      for (p = end + 1; (*clone++ = *p) != '\0'; p++)
         ;
      dropped = 1;
   }
   /* A versioned symbol's dots are its version's ("sym@GLIBC_2.2.5") */
   for (p = name; *p; p++)
      if (*p == '@' && p[1] >= 'A' && p[1] <= 'Z')
         return dropped;
   /* C's: from the first '.' after the identifier that starts a suffix
      run to the end */
   for (p = name; *p; p++) {
      size_t n, at;
      if (*p != '.' || p == name || !is_ident_char(p[-1]))
         continue;
      for (at = 0; (n = compiler_suffix(p + at)) != 0; at += n)
         numeric = p[at + 1] >= '0' && p[at + 1] <= '9';
      if (at > 0 && p[at] == '\0') {
         *p = '\0';
         return numeric ? 2 : 1;
      }
   }
   return dropped;
}

/*------------------------------------------------------------*/
/*--- C++ data symbols                                     ---*/
/*------------------------------------------------------------*/

/* Reads a <source-name> (length, identifier) at *p into b; the
   anonymous namespace's reads as such. */
static int source_name(const char **p, mp_strbuf *b)
{
   size_t n = 0;
   const char *s = *p;
   if (!(*s >= '0' && *s <= '9'))
      return 0;
   while (*s >= '0' && *s <= '9')
      n = n * 10 + (size_t)(*s++ - '0');
   if (n == 0 || mp_strlen(s) < n)
      return 0;
   if (n > 10 && mp_strncmp(s, "_GLOBAL__N", 10) == 0)
      mp_strbuf_add(b, "(anonymous namespace)", 21);
   else
      mp_strbuf_add(b, s, n);
   *p = s + n;
   return 1;
}

/* Skips a balanced template argument list "I...E" at *p. */
static int skip_template_args(const char **p)
{
   int depth = 0;
   const char *s = *p;
   do {
      if (*s == '\0')
         return 0;
      if (*s == 'I')
         depth++;
      else if (*s == 'E')
         depth--;
      else if (*s >= '0' && *s <= '9') {
         size_t n = 0;
         while (*s >= '0' && *s <= '9')
            n = n * 10 + (size_t)(*s++ - '0');
         if (mp_strlen(s) < n)
            return 0;
         s += n - 1;
      }
      s++;
   } while (depth > 0);
   *p = s;
   return 1;
}

/* Reads a <name>: "L"? then a source name or "N" [rVK]* names "E",
   joined by "::" into b (template arguments dropped). */
static int mangled_name(const char **p, mp_strbuf *b)
{
   const char *s = *p;
   int first = 1;
   if (*s == 'L')
      s++;
   if (*s != 'N') {
      if (!source_name(&s, b))
         return 0;
      if (*s == 'I' && !skip_template_args(&s))
         return 0;
      *p = s;
      return 1;
   }
   s++;
   while (*s == 'r' || *s == 'V' || *s == 'K')
      s++;
   while (*s != 'E') {
      if (*s == 'I') {
         if (!skip_template_args(&s))
            return 0;
         continue;
      }
      if (*s == 'L')
         s++;
      if (!first)
         mp_strbuf_add(b, "::", 2);
      if (!source_name(&s, b))
         return 0;
      first = 0;
   }
   *p = s + 1;
   return 1;
}

char *mp_demangle_data(const char *sym)
{
   mp_strbuf b = MP_STRBUF_INIT;
   const char *p = sym + 2, *e, *ent = NULL;
   if (mp_strncmp(sym, "_Z", 2) != 0)
      return NULL;
   if (*p != 'Z') {
      /* a namespace's or a class's variable, or one of internal linkage */
      if (!mangled_name(&p, &b) || *p != '\0') {
         mp_free(mp_strbuf_take(&b));
         return NULL;
      }
      return mp_strbuf_take(&b);
   }
   /* a static local: "Z" <function's encoding> "E" <entity>
      [discriminator]; the parameter types between are skipped by
      finding the entity from the end */
   p++;
   if (!mangled_name(&p, &b)) {
      mp_free(mp_strbuf_take(&b));
      return NULL;
   }
   for (e = p; *e; e++) {
      const char *s = e + 1, *q;
      mp_strbuf t = MP_STRBUF_INIT;
      if (*e != 'E' || !(*s >= '0' && *s <= '9'))
         continue;
      q = s;
      if (source_name(&q, &t)
          && (*q == '\0' || (*q == '_' && q[1] != '\0'))) {
         ent = s;
         mp_free(mp_strbuf_take(&t));
         break;
      }
      mp_free(mp_strbuf_take(&t));
   }
   if (!ent) {
      mp_free(mp_strbuf_take(&b));
      return NULL;
   }
   mp_strbuf_add(&b, "::", 2);
   source_name(&ent, &b);
   return mp_strbuf_take(&b);
}

int mp_line_calls(const char *line, const char *fn)
{
   const char *name = fn, *end, *p;
   size_t n;
   /* the function's own name: its last component, without template
      arguments or parameters ("ns::Allocate<double>(unsigned long)") */
   for (p = fn; *p && *p != '<' && *p != '('; p++)
      if (p[0] == ':' && p[1] == ':')
         name = p + 2;
   end = p;
   n = (size_t)(end - name);
   if (n == 0)
      return 0;
   for (p = line; *p; p++) {
      const char *after;
      int depth = 0;
      if (mp_strncmp(p, name, n) != 0 || (p > line && is_ident_char(p[-1]))
          || is_ident_char(p[n]))
         continue;
      after = p + n;
      while (*after == ' ')
         after++;
      /* the call's own template arguments: Allocate<Real_t>(n) */
      if (*after == '<') {
         do {
            if (*after == '<')
               depth++;
            else if (*after == '>')
               depth--;
            after++;
         } while (*after && depth > 0 && *after != ';');
         while (*after == ' ')
            after++;
      }
      if (*after == '(')
         return 1;
   }
   return 0;
}
