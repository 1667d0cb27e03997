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
   In Fortran sources it takes the first object of an ALLOCATE statement.  Runs once per allocation
   site, never on the hot path.
*/
#include "mp_naming.h"

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

static char *fortran_name(const char *line)
{
   const char *p = find_fortran_allocate(line), *start;
   if (!p)
      return NULL;
   while (*p == ' ' || *p == '\t')
      p++;
   start = p;
   /* derived-type components: obj%field(n) */
   while (is_ident_char(*p) || *p == '%')
      p++;
   if (p == start || !is_ident_start(*start))
      return NULL;
   return copy_out(start, (size_t)(p - start));
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
   if (is_fortran && (name = fortran_name(line)) != NULL)
      return name;
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

/* The allocations of a line are its statements, separated by ';'
   outside parentheses, brackets and quotes ("for (i = 0; i < n; i++)"
   is one), and the declarators of a declaration, separated by ',' there
   ("double *a = malloc(n), *b = malloc(n);" is two, run in that order).
   Returns the end of the piece starting at p: a ';', a ',' (which
   starts the next piece, so that its declarator's stars read as such),
   or the line's end. */
static const char *next_piece_end(const char *p)
{
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
   if (is_fortran || nth == 0)
      return nth == 0 ? mp_name_from_source_line(line, is_fortran) : NULL;
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
      p = *end == ';' ? end + 1 : end;
   }
   return NULL;
}
