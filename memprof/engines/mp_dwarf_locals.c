/*--------------------------------------------------------------------*/
/*--- memprof: the stack locals of inlined functions, from DWARF.  ---*/
/*---                                             mp_dwarf_locals.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   See mp_dwarf_locals.h.  Three steps:
   1. the unit headers, each unit's abbreviations and its root DIE (its
      base address and the bases of its string, address, range and
      location tables), so that a reference into any unit can be
      decoded from the start;
   2. one walk over each unit's DIEs with a stack of scopes: what each
      scope inherits (its function, the code ranges, the frame base)
      is settled when it is pushed, so a variable is judged from its
      parent's frame alone; the namespaces and classes met are kept,
      by offset, for naming functions;
   3. the functions' qualified names, once per abstract origin, when
      every namespace and class of the object is known (an inlined
      copy usually comes before its abstract function in the unit).
*/
#include "mp_dwarf_locals.h"
#include "mp_util.h"

#define CC "mp.dwarf"

#define MAX_HOPS          16     /* abstract_origin / specification references followed */
#define MAX_TYPE_DEPTH    32     /* typedefs, qualifiers and arrays nested */
#define MAX_DIMS          64     /* an array's subranges */
#define MAX_SCOPE_RANGES  1024   /* code ranges of one scope; more: the scope is not used */
#define MAX_LIST_ENTRIES  65536  /* entries of one range or location list */
#define MAX_QUALIFIERS    32     /* namespaces and classes around one function */

/* The DWARF constants read here (DWARF 5, section 7). */
enum {
   TAG_array_type = 0x01, TAG_class_type = 0x02, TAG_enumeration_type = 0x04,
   TAG_lexical_block = 0x0b, TAG_pointer_type = 0x0f, TAG_reference_type = 0x10,
   TAG_compile_unit = 0x11, TAG_structure_type = 0x13, TAG_typedef = 0x16,
   TAG_union_type = 0x17, TAG_inlined_subroutine = 0x1d, TAG_ptr_to_member_type = 0x1f,
   TAG_subrange_type = 0x21, TAG_base_type = 0x24, TAG_catch_block = 0x25,
   TAG_const_type = 0x26, TAG_packed_type = 0x2d, TAG_subprogram = 0x2e,
   TAG_try_block = 0x32, TAG_variable = 0x34, TAG_volatile_type = 0x35,
   TAG_restrict_type = 0x37, TAG_namespace = 0x39, TAG_partial_unit = 0x3c,
   TAG_rvalue_reference_type = 0x42, TAG_atomic_type = 0x47, TAG_immutable_type = 0x4b
};

enum {
   AT_location = 0x02, AT_name = 0x03, AT_byte_size = 0x0b, AT_low_pc = 0x11,
   AT_high_pc = 0x12, AT_language = 0x13, AT_lower_bound = 0x22, AT_upper_bound = 0x2f,
   AT_abstract_origin = 0x31, AT_count = 0x37, AT_declaration = 0x3c,
   AT_frame_base = 0x40, AT_specification = 0x47, AT_type = 0x49, AT_ranges = 0x55,
   AT_str_offsets_base = 0x72, AT_addr_base = 0x73, AT_rnglists_base = 0x74,
   AT_loclists_base = 0x8c
};

enum {
   FORM_addr = 0x01, FORM_block2 = 0x03, FORM_block4 = 0x04, FORM_data2 = 0x05,
   FORM_data4 = 0x06, FORM_data8 = 0x07, FORM_string = 0x08, FORM_block = 0x09,
   FORM_block1 = 0x0a, FORM_data1 = 0x0b, FORM_flag = 0x0c, FORM_sdata = 0x0d,
   FORM_strp = 0x0e, FORM_udata = 0x0f, FORM_ref_addr = 0x10, FORM_ref1 = 0x11,
   FORM_ref2 = 0x12, FORM_ref4 = 0x13, FORM_ref8 = 0x14, FORM_ref_udata = 0x15,
   FORM_indirect = 0x16, FORM_sec_offset = 0x17, FORM_exprloc = 0x18,
   FORM_flag_present = 0x19, FORM_strx = 0x1a, FORM_addrx = 0x1b, FORM_ref_sup4 = 0x1c,
   FORM_strp_sup = 0x1d, FORM_data16 = 0x1e, FORM_line_strp = 0x1f, FORM_ref_sig8 = 0x20,
   FORM_implicit_const = 0x21, FORM_loclistx = 0x22, FORM_rnglistx = 0x23,
   FORM_ref_sup8 = 0x24, FORM_strx1 = 0x25, FORM_strx2 = 0x26, FORM_strx3 = 0x27,
   FORM_strx4 = 0x28, FORM_addrx1 = 0x29, FORM_addrx2 = 0x2a, FORM_addrx3 = 0x2b,
   FORM_addrx4 = 0x2c,
   /* GNU's, before DWARF 5: split DWARF's indexes, dwz's supplementary file */
   FORM_GNU_addr_index = 0x1f01, FORM_GNU_str_index = 0x1f02,
   FORM_GNU_ref_alt = 0x1f20, FORM_GNU_strp_alt = 0x1f21
};

enum { UT_compile = 0x01, UT_type = 0x02, UT_partial = 0x03, UT_skeleton = 0x04,
       UT_split_compile = 0x05, UT_split_type = 0x06 };

enum { OP_reg6 = 0x56, OP_reg7 = 0x57, OP_breg6 = 0x76, OP_breg7 = 0x77,
       OP_fbreg = 0x91, OP_call_frame_cfa = 0x9c };

enum { RLE_end_of_list, RLE_base_addressx, RLE_startx_endx, RLE_startx_length,
       RLE_offset_pair, RLE_base_address, RLE_start_end, RLE_start_length };
enum { LLE_end_of_list, LLE_base_addressx, LLE_startx_endx, LLE_startx_length,
       LLE_offset_pair, LLE_default_location, LLE_base_address, LLE_start_end,
       LLE_start_length, LLE_GNU_view_pair };

/*------------------------------------------------------------*/
/*--- Bounded reading                                      ---*/
/*------------------------------------------------------------*/

/* A position in a buffer of 'size' bytes.  A read past the end sets bad
   and reads 0; pos never passes size. */
typedef struct {
   const uint8_t *b;
   uint64_t size, pos;
   int bad;
} cursor;

static cursor cursor_at(const uint8_t *b, uint64_t size, uint64_t pos)
{
   cursor c;
   c.b = b;
   c.size = b ? size : 0;
   c.pos = pos;
   c.bad = 0;
   if (pos > c.size) {
      c.pos = c.size;
      c.bad = 1;
   }
   return c;
}

static void skip(cursor *c, uint64_t n)
{
   if (c->bad || n > c->size - c->pos) {
      c->bad = 1;
      c->pos = c->size;
   } else
      c->pos += n;
}

/* n (at most 8) bytes, little-endian. */
static uint64_t read_n(cursor *c, unsigned n)
{
   uint64_t v = 0;
   unsigned i;
   if (c->bad || n > c->size - c->pos) {
      c->bad = 1;
      c->pos = c->size;
      return 0;
   }
   for (i = 0; i < n; i++)
      v |= (uint64_t)c->b[c->pos + i] << (8 * i);
   c->pos += n;
   return v;
}

/* LEB128; bits beyond 64 are dropped. */
static uint64_t read_leb(cursor *c, int is_signed)
{
   uint64_t v = 0;
   unsigned shift = 0;
   uint8_t byte;
   do {
      if (c->bad || c->pos >= c->size) {
         c->bad = 1;
         return 0;
      }
      byte = c->b[c->pos++];
      if (shift < 64)
         v |= (uint64_t)(byte & 0x7f) << shift;
      if (shift < 64)
         shift += 7;
   } while (byte & 0x80);
   if (is_signed && shift < 64 && (byte & 0x40))
      v |= ~(uint64_t)0 << shift;
   return v;
}

static uint64_t uleb(cursor *c) { return read_leb(c, 0); }
static int64_t sleb(cursor *c) { return (int64_t)read_leb(c, 1); }

/* The NUL-terminated string at off of a section, or NULL when it does
   not end inside it (or is empty: a name is never). */
static const char *string_at(const uint8_t *b, uint64_t size, uint64_t off)
{
   uint64_t i;
   if (!b || off >= size || b[off] == 0)
      return NULL;
   for (i = off; i < size; i++)
      if (b[i] == 0)
         return (const char *)b + off;
   return NULL;
}

/* Wrapping addition of a signed offset (no undefined overflow). */
static int64_t add_s64(int64_t a, int64_t b)
{
   return (int64_t)((uint64_t)a + (uint64_t)b);
}

/*------------------------------------------------------------*/
/*--- A map of offsets                                     ---*/
/*------------------------------------------------------------*/

/* Open addressing, offset -> index; keys are stored plus one, 0 empty. */
typedef struct {
   uint64_t *key;
   size_t *val;
   size_t cap, n;
} offset_map;

static size_t map_home(uint64_t k, size_t cap)
{
   k ^= k >> 33;
   k *= 0xff51afd7ed558ccdULL;
   k ^= k >> 33;
   return (size_t)k & (cap - 1);
}

static int map_get(const offset_map *m, uint64_t key, size_t *val)
{
   size_t i;
   if (m->cap == 0)
      return 0;
   for (i = map_home(key, m->cap); m->key[i]; i = (i + 1) & (m->cap - 1))
      if (m->key[i] == key + 1) {
         *val = m->val[i];
         return 1;
      }
   return 0;
}

static void map_put(offset_map *m, uint64_t key, size_t val)
{
   size_t i;
   if (2 * (m->n + 1) > m->cap) {
      offset_map g;
      size_t k;
      g.cap = m->cap ? 2 * m->cap : 64;
      g.n = 0;
      g.key = mp_calloc(CC, g.cap, sizeof *g.key);
      g.val = mp_malloc(CC, g.cap * sizeof *g.val);
      for (k = 0; k < m->cap; k++)
         if (m->key[k])
            map_put(&g, m->key[k] - 1, m->val[k]);
      mp_free(m->key);
      mp_free(m->val);
      *m = g;
   }
   for (i = map_home(key, m->cap); m->key[i]; i = (i + 1) & (m->cap - 1))
      if (m->key[i] == key + 1) {
         m->val[i] = val;
         return;
      }
   m->key[i] = key + 1;
   m->val[i] = val;
   m->n++;
}

static void map_free(offset_map *m)
{
   mp_free(m->key);
   mp_free(m->val);
}

/* Grows the array *p of *cap elements of size sz to hold n + 1. */
static void grow(void **p, size_t *cap, size_t n, size_t sz)
{
   if (n < *cap)
      return;
   *cap = *cap ? 2 * *cap : 16;
   *p = mp_realloc(CC, *p, *cap * sz);
}

/*------------------------------------------------------------*/
/*--- Abbreviations                                        ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint32_t name, form;
   int64_t implicit;     /* DW_FORM_implicit_const's value */
} attr_spec;

typedef struct {
   uint64_t code;
   uint32_t tag;
   uint8_t children;
   size_t first, n;      /* its attributes in the table's specs */
} abbrev;

typedef struct {
   abbrev *ab;           /* sorted by code */
   size_t n;
   attr_spec *spec;
} abbrev_table;

static uint32_t clamp32(uint64_t v)
{
   return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
}

static int cmp_abbrev(const void *a, const void *b)
{
   const abbrev *x = a, *y = b;
   if (x->code != y->code)
      return x->code < y->code ? -1 : 1;
   return x->first < y->first ? -1 : x->first > y->first;
}

/* The table at off of .debug_abbrev; 0 when it is malformed. */
static int parse_abbrevs(const mp_dwarf_sections *s, uint64_t off, abbrev_table *t)
{
   cursor c = cursor_at(s->abbrev, s->abbrev_size, off);
   size_t cap_ab = 0, cap_spec = 0, n_spec = 0, k;
   int sorted = 1;
   mp_memset(t, 0, sizeof *t);
   if (c.bad)
      return 0;
   for (;;) {
      abbrev a;
      uint64_t code = uleb(&c);
      if (c.bad)
         goto fail;
      if (code == 0)
         break;
      a.code = code;
      a.tag = clamp32(uleb(&c));
      a.children = (uint8_t)read_n(&c, 1);
      a.first = n_spec;
      for (;;) {
         attr_spec sp;
         uint64_t name = uleb(&c), form = uleb(&c);
         if (c.bad)
            goto fail;
         if (name == 0 && form == 0)
            break;
         sp.name = clamp32(name);
         sp.form = clamp32(form);
         sp.implicit = form == FORM_implicit_const ? sleb(&c) : 0;
         grow((void **)&t->spec, &cap_spec, n_spec, sizeof *t->spec);
         t->spec[n_spec++] = sp;
      }
      a.n = n_spec - a.first;
      if (t->n && t->ab[t->n - 1].code >= code)
         sorted = 0;
      grow((void **)&t->ab, &cap_ab, t->n, sizeof *t->ab);
      t->ab[t->n++] = a;
   }
   if (!sorted) {
      mp_sort(t->ab, t->n, sizeof *t->ab, cmp_abbrev);
      for (k = 1; k < t->n; k++)     /* a code defined twice: malformed */
         if (t->ab[k].code == t->ab[k - 1].code)
            goto fail;
   }
   return 1;
fail:
   mp_free(t->ab);
   mp_free(t->spec);
   mp_memset(t, 0, sizeof *t);
   return 0;
}

static const abbrev *find_abbrev(const abbrev_table *t, uint64_t code)
{
   size_t lo = 0, hi = t->n;
   if (code - 1 < t->n && t->ab[code - 1].code == code)
      return &t->ab[code - 1];
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (t->ab[mid].code < code)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < t->n && t->ab[lo].code == code ? &t->ab[lo] : NULL;
}

/*------------------------------------------------------------*/
/*--- Units and DIEs                                       ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint64_t off, end, die_off;   /* in .debug_info: its header, one past it, its first DIE */
   uint16_t version;
   uint8_t offset_size;          /* 4 or 8 bytes: 32- or 64-bit DWARF */
   uint8_t addr_size;            /* 4 or 8 bytes */
   int ok;                       /* a compile or partial unit whose root DIE decoded */
   size_t table;                 /* its abbreviations, in the reader's tables */
   uint64_t base;                /* its DW_AT_low_pc: the base address of its lists */
   uint64_t str_offsets_base, addr_base, rnglists_base, loclists_base;
   int lower_bound_1;            /* its language counts arrays from 1 (Fortran, Ada...) */
} unit;

/* An attribute's value, by class. */
enum { V_OTHER, V_UDATA, V_SDATA, V_ADDR, V_ADDRX, V_REF, V_STR, V_STRX, V_BLOCK,
       V_SECOFF, V_LOCLISTX, V_RNGLISTX, V_FLAG };

typedef struct {
   uint8_t cls;
   uint64_t u;           /* the value; V_REF: a .debug_info offset; V_BLOCK: its length */
   const uint8_t *p;     /* V_BLOCK: its bytes; V_STR: the string (NULL: unreadable) */
} value;

/* The attributes the reader uses, as slots of a DIE. */
enum { A_NAME, A_TYPE, A_ORIGIN, A_SPEC, A_LOW, A_HIGH, A_RANGES, A_LOC, A_FRAME_BASE,
       A_BYTE_SIZE, A_COUNT, A_UPPER, A_LOWER, A_LANGUAGE, A_STR_OFFSETS_BASE,
       A_ADDR_BASE, A_RNGLISTS_BASE, A_LOCLISTS_BASE, N_SLOTS };

static int slot_of(uint32_t at)
{
   switch (at) {
   case AT_name: return A_NAME;
   case AT_type: return A_TYPE;
   case AT_abstract_origin: return A_ORIGIN;
   case AT_specification: return A_SPEC;
   case AT_low_pc: return A_LOW;
   case AT_high_pc: return A_HIGH;
   case AT_ranges: return A_RANGES;
   case AT_location: return A_LOC;
   case AT_frame_base: return A_FRAME_BASE;
   case AT_byte_size: return A_BYTE_SIZE;
   case AT_count: return A_COUNT;
   case AT_upper_bound: return A_UPPER;
   case AT_lower_bound: return A_LOWER;
   case AT_language: return A_LANGUAGE;
   case AT_str_offsets_base: return A_STR_OFFSETS_BASE;
   case AT_addr_base: return A_ADDR_BASE;
   case AT_rnglists_base: return A_RNGLISTS_BASE;
   case AT_loclists_base: return A_LOCLISTS_BASE;
   default: return -1;
   }
}

typedef struct {
   uint64_t off, next;   /* in .debug_info: the DIE, and what follows its attributes */
   uint64_t code;        /* 0: a null entry, the end of a list of children */
   uint32_t tag;
   int children;
   uint32_t have;        /* 1 << slot for each slot present */
   value v[N_SLOTS];
} die;

#define HAS(d, slot) (((d)->have >> (slot)) & 1u)

typedef struct {
   uint64_t lo, hi;
} range;

/* A namespace, class, structure or union met in the walk. */
typedef struct {
   uint64_t start, end;  /* its DIE and one past its children, in .debug_info */
   const char *name;     /* NULL: anonymous */
   size_t parent;        /* the scope around it, SIZE_MAX: none */
} named_scope;

/* A local found, before its function is named. */
typedef struct {
   uint64_t lo, hi;
   const char *name;     /* in .debug_str or .debug_info */
   uint64_t size;
   uint64_t func;        /* the .debug_info offset of its function's abstract origin */
   int64_t offset;
   mp_dw_base base;
} found;

typedef struct {
   const mp_dwarf_sections *s;
   unit *units;                  /* in .debug_info order */
   size_t n_units, cap_units;
   abbrev_table *tables;
   size_t n_tables, cap_tables;
   offset_map table_at;          /* .debug_abbrev offset -> tables index */
   named_scope *scopes;          /* by start */
   size_t n_scopes, cap_scopes;
   range *rs;                    /* the walk's stack of scope ranges */
   size_t n_rs, cap_rs;
   found *found;
   size_t n_found, cap_found;
} reader;

/* One attribute's value read at c by its form; 0 (c bad) on a form it
   does not know or a read past the unit. */
static int read_form(const reader *r, const unit *u, cursor *c, uint32_t form,
                     int64_t implicit, value *v, int indirect)
{
   const mp_dwarf_sections *s = r->s;
   uint64_t len, x;
   v->cls = V_OTHER;
   v->u = 0;
   v->p = NULL;
   switch (form) {
   case FORM_addr:
      v->cls = V_ADDR;
      v->u = read_n(c, u->addr_size);
      break;
   case FORM_block1: len = read_n(c, 1); goto block;
   case FORM_block2: len = read_n(c, 2); goto block;
   case FORM_block4: len = read_n(c, 4); goto block;
   case FORM_block:
   case FORM_exprloc:
      len = uleb(c);
   block:
      if (c->bad || len > c->size - c->pos) {
         c->bad = 1;
         return 0;
      }
      v->cls = V_BLOCK;
      v->p = c->b + c->pos;
      v->u = len;
      c->pos += len;
      break;
   case FORM_data1: v->cls = V_UDATA; v->u = read_n(c, 1); break;
   case FORM_data2: v->cls = V_UDATA; v->u = read_n(c, 2); break;
   case FORM_data4: v->cls = V_UDATA; v->u = read_n(c, 4); break;
   case FORM_data8: v->cls = V_UDATA; v->u = read_n(c, 8); break;
   case FORM_data16: skip(c, 16); break;
   case FORM_sdata: v->cls = V_SDATA; v->u = (uint64_t)sleb(c); break;
   case FORM_udata: v->cls = V_UDATA; v->u = uleb(c); break;
   case FORM_implicit_const: v->cls = V_SDATA; v->u = (uint64_t)implicit; break;
   case FORM_string:
      x = c->pos;
      while (c->pos < c->size && c->b[c->pos])
         c->pos++;
      skip(c, 1);
      v->cls = V_STR;
      v->p = c->bad || c->b[x] == 0 ? NULL : c->b + x;
      break;
   case FORM_strp:
      x = read_n(c, u->offset_size);
      v->cls = V_STR;
      v->p = (const uint8_t *)string_at(s->str, s->str_size, x);
      break;
   case FORM_line_strp:
      x = read_n(c, u->offset_size);
      v->cls = V_STR;
      v->p = (const uint8_t *)string_at(s->line_str, s->line_str_size, x);
      break;
   case FORM_strx:
   case FORM_GNU_str_index: v->cls = V_STRX; v->u = uleb(c); break;
   case FORM_strx1: v->cls = V_STRX; v->u = read_n(c, 1); break;
   case FORM_strx2: v->cls = V_STRX; v->u = read_n(c, 2); break;
   case FORM_strx3: v->cls = V_STRX; v->u = read_n(c, 3); break;
   case FORM_strx4: v->cls = V_STRX; v->u = read_n(c, 4); break;
   case FORM_addrx:
   case FORM_GNU_addr_index: v->cls = V_ADDRX; v->u = uleb(c); break;
   case FORM_addrx1: v->cls = V_ADDRX; v->u = read_n(c, 1); break;
   case FORM_addrx2: v->cls = V_ADDRX; v->u = read_n(c, 2); break;
   case FORM_addrx3: v->cls = V_ADDRX; v->u = read_n(c, 3); break;
   case FORM_addrx4: v->cls = V_ADDRX; v->u = read_n(c, 4); break;
   case FORM_ref1: x = read_n(c, 1); goto unit_ref;
   case FORM_ref2: x = read_n(c, 2); goto unit_ref;
   case FORM_ref4: x = read_n(c, 4); goto unit_ref;
   case FORM_ref8: x = read_n(c, 8); goto unit_ref;
   case FORM_ref_udata:
      x = uleb(c);
   unit_ref:
      if (x < u->end - u->off) {     /* else a reference out of its unit: unusable */
         v->cls = V_REF;
         v->u = u->off + x;
      }
      break;
   case FORM_ref_addr:
      v->cls = V_REF;
      v->u = read_n(c, u->version == 2 ? u->addr_size : u->offset_size);
      break;
   case FORM_ref_sig8: skip(c, 8); break;
   case FORM_ref_sup4: skip(c, 4); break;
   case FORM_ref_sup8: skip(c, 8); break;
   case FORM_strp_sup:
   case FORM_GNU_ref_alt:
   case FORM_GNU_strp_alt: skip(c, u->offset_size); break;
   case FORM_sec_offset: v->cls = V_SECOFF; v->u = read_n(c, u->offset_size); break;
   case FORM_flag: v->cls = V_FLAG; v->u = read_n(c, 1); break;
   case FORM_flag_present: v->cls = V_FLAG; v->u = 1; break;
   case FORM_loclistx: v->cls = V_LOCLISTX; v->u = uleb(c); break;
   case FORM_rnglistx: v->cls = V_RNGLISTX; v->u = uleb(c); break;
   case FORM_indirect:
      x = uleb(c);
      if (indirect || c->bad || x == FORM_implicit_const || x == FORM_indirect)
         return 0;
      return read_form(r, u, c, clamp32(x), 0, v, 1);
   default:
      return 0;
   }
   return !c->bad;
}

/* The DIE at off of unit u; 0 when it cannot be decoded. */
static int parse_die(const reader *r, const unit *u, uint64_t off, die *d)
{
   cursor c = cursor_at(r->s->info, u->end, off);
   const abbrev_table *t = &r->tables[u->table];
   const abbrev *a;
   size_t k;
   d->off = off;
   d->have = 0;
   d->code = uleb(&c);
   if (c.bad)
      return 0;
   if (d->code == 0) {
      d->tag = 0;
      d->children = 0;
      d->next = c.pos;
      return 1;
   }
   a = find_abbrev(t, d->code);
   if (!a)
      return 0;
   d->tag = a->tag;
   d->children = a->children != 0;
   for (k = 0; k < a->n; k++) {
      const attr_spec *sp = &t->spec[a->first + k];
      value v;
      int slot;
      if (!read_form(r, u, &c, sp->form, sp->implicit, &v, 0))
         return 0;
      slot = slot_of(sp->name);
      if (slot >= 0) {
         d->v[slot] = v;
         d->have |= 1u << slot;
      }
   }
   d->next = c.pos;
   return 1;
}

/* The decodable unit holding the DIE at off, or NULL. */
static const unit *unit_of(const reader *r, uint64_t off)
{
   size_t lo = 0, hi = r->n_units;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (r->units[mid].end <= off)
         lo = mid + 1;
      else
         hi = mid;
   }
   if (lo < r->n_units && r->units[lo].ok && r->units[lo].die_off <= off
       && off < r->units[lo].end)
      return &r->units[lo];
   return NULL;
}

/* The DIE a reference points at, with its unit. */
static int load_die(const reader *r, uint64_t off, const unit **u, die *d)
{
   *u = unit_of(r, off);
   return *u && parse_die(r, *u, off, d) && d->code != 0;
}

static const char *value_string(const reader *r, const unit *u, const value *v)
{
   const mp_dwarf_sections *s = r->s;
   uint64_t base = u->str_offsets_base, n = u->offset_size;
   cursor c;
   if (v->cls == V_STR)
      return (const char *)v->p;
   if (v->cls != V_STRX || !s->str_offsets || base > s->str_offsets_size
       || v->u > s->str_offsets_size / n)
      return NULL;
   c = cursor_at(s->str_offsets, s->str_offsets_size, base + v->u * n);
   base = read_n(&c, (unsigned)n);
   return c.bad ? NULL : string_at(s->str, s->str_size, base);
}

/* Entry idx of .debug_addr at unit u's base. */
static int indexed_address(const reader *r, const unit *u, uint64_t idx, uint64_t *a)
{
   const mp_dwarf_sections *s = r->s;
   cursor c;
   if (!s->addr || u->addr_base > s->addr_size || idx > s->addr_size / u->addr_size)
      return 0;
   c = cursor_at(s->addr, s->addr_size, u->addr_base + idx * u->addr_size);
   *a = read_n(&c, u->addr_size);
   return !c.bad;
}

static int value_address(const reader *r, const unit *u, const value *v, uint64_t *a)
{
   if (v->cls == V_ADDR) {
      *a = v->u;
      return 1;
   }
   return v->cls == V_ADDRX && indexed_address(r, u, v->u, a);
}

/* A constant's value, signed: an sdata as it is, other data forms as
   unsigned. */
static int value_const(const value *v, int64_t *x)
{
   if (v->cls != V_UDATA && v->cls != V_SDATA)
      return 0;
   if (v->cls == V_UDATA && v->u > (uint64_t)INT64_MAX)
      return 0;
   *x = (int64_t)v->u;
   return 1;
}

/* The offset of list idx in a DWARF 5 offsets table at base of a
   section (rnglistx, loclistx): relative to base. */
static int indexed_list(const uint8_t *b, uint64_t size, uint64_t base, const unit *u,
                        uint64_t idx, uint64_t *off)
{
   cursor c;
   if (!b || base > size || idx > size / u->offset_size)
      return 0;
   c = cursor_at(b, size, base + idx * u->offset_size);
   *off = read_n(&c, u->offset_size);
   if (c.bad || *off > size - base)
      return 0;
   *off += base;
   return 1;
}

/*------------------------------------------------------------*/
/*--- The units                                            ---*/
/*------------------------------------------------------------*/

static int language_counts_from_1(uint64_t lang)
{
   switch (lang) {
   case 0x03: case 0x0d: case 0x2e: case 0x2f:            /* Ada */
   case 0x05: case 0x06:                                  /* Cobol */
   case 0x07: case 0x08: case 0x0e: case 0x22: case 0x23: /* Fortran */
   case 0x2d:
   case 0x09: case 0x0a: case 0x0f: case 0x17:            /* Pascal, Modula, PL/I */
   case 0x1f:                                             /* Julia */
      return 1;
   default:
      return 0;
   }
}

/* The abbreviation table at off, parsed once; 0 when malformed. */
static int table_at(reader *r, uint64_t off, size_t *idx)
{
   abbrev_table t;
   if (map_get(&r->table_at, off, idx))
      return 1;
   if (!parse_abbrevs(r->s, off, &t))
      return 0;
   grow((void **)&r->tables, &r->cap_tables, r->n_tables, sizeof *r->tables);
   r->tables[r->n_tables] = t;
   *idx = r->n_tables++;
   map_put(&r->table_at, off, *idx);
   return 1;
}

/* The unit's root DIE: its bases.  0 when it is not a compile or
   partial unit or cannot be decoded. */
static int read_root(reader *r, unit *u)
{
   die d;
   value *v;
   uint64_t list_header = u->offset_size == 8 ? 20 : 12;
   if (!parse_die(r, u, u->die_off, &d) || d.code == 0
       || (d.tag != TAG_compile_unit && d.tag != TAG_partial_unit))
      return 0;
   u->str_offsets_base = u->addr_base = u->offset_size == 8 ? 16 : 8;
   u->rnglists_base = u->loclists_base = list_header;
   if (HAS(&d, A_STR_OFFSETS_BASE))
      u->str_offsets_base = d.v[A_STR_OFFSETS_BASE].u;
   if (HAS(&d, A_ADDR_BASE))
      u->addr_base = d.v[A_ADDR_BASE].u;
   if (HAS(&d, A_RNGLISTS_BASE))
      u->rnglists_base = d.v[A_RNGLISTS_BASE].u;
   if (HAS(&d, A_LOCLISTS_BASE))
      u->loclists_base = d.v[A_LOCLISTS_BASE].u;
   v = &d.v[A_LANGUAGE];
   u->lower_bound_1 = HAS(&d, A_LANGUAGE) && language_counts_from_1(v->u);
   u->base = 0;
   if (HAS(&d, A_LOW) && !value_address(r, u, &d.v[A_LOW], &u->base))
      u->base = 0;
   return 1;
}

/* Step 1: the units' headers and roots.  Units that are not compile or
   partial units stay in the table (references into them fail). */
static void scan_units(reader *r, size_t *skipped)
{
   const mp_dwarf_sections *s = r->s;
   uint64_t off = 0;
   while (s->info && off < s->info_size) {
      cursor c = cursor_at(s->info, s->info_size, off);
      uint64_t len = read_n(&c, 4), abbrev_off;
      unit u;
      uint8_t type = UT_compile;
      mp_memset(&u, 0, sizeof u);
      u.offset_size = 4;
      if (len == 0xffffffffu) {
         len = read_n(&c, 8);
         u.offset_size = 8;
      } else if (len >= 0xfffffff0u)
         c.bad = 1;
      if (c.bad || len > c.size - c.pos) {
         (*skipped)++;          /* the rest cannot be delimited */
         return;
      }
      u.off = off;
      u.end = c.pos + len;
      off = u.end;
      c = cursor_at(s->info, u.end, c.pos);
      u.version = (uint16_t)read_n(&c, 2);
      if (u.version == 5) {
         type = (uint8_t)read_n(&c, 1);
         u.addr_size = (uint8_t)read_n(&c, 1);
         abbrev_off = read_n(&c, u.offset_size);
         if (type == UT_skeleton || type == UT_split_compile)
            skip(&c, 8);
         else if (type == UT_type || type == UT_split_type)
            skip(&c, 8 + u.offset_size);
      } else {
         abbrev_off = read_n(&c, u.offset_size);
         u.addr_size = (uint8_t)read_n(&c, 1);
      }
      u.die_off = c.pos;
      if (u.version >= 2 && u.version <= 5 && (type == UT_compile || type == UT_partial)) {
         if (!c.bad && (u.addr_size == 4 || u.addr_size == 8)
             && table_at(r, abbrev_off, &u.table) && read_root(r, &u))
            u.ok = 1;
         else
            (*skipped)++;
      } else if (u.version < 2 || u.version > 5)
         (*skipped)++;
      grow((void **)&r->units, &r->cap_units, r->n_units, sizeof *r->units);
      r->units[r->n_units++] = u;
   }
}

/*------------------------------------------------------------*/
/*--- Code ranges                                          ---*/
/*------------------------------------------------------------*/

/* Pushes [lo, hi) on the range stack; 0 when the scope has too many. */
static int push_range(reader *r, size_t mark, uint64_t lo, uint64_t hi)
{
   if (hi <= lo)
      return 1;
   if (r->n_rs - mark >= MAX_SCOPE_RANGES)
      return 0;
   grow((void **)&r->rs, &r->cap_rs, r->n_rs, sizeof *r->rs);
   r->rs[r->n_rs].lo = lo;
   r->rs[r->n_rs].hi = hi;
   r->n_rs++;
   return 1;
}

/* A DWARF 5 range list at off of .debug_rnglists. */
static int read_rnglist(reader *r, const unit *u, uint64_t off, size_t mark)
{
   cursor c = cursor_at(r->s->rnglists, r->s->rnglists_size, off);
   uint64_t base = u->base, a, b;
   unsigned n;
   for (n = 0; n < MAX_LIST_ENTRIES && !c.bad; n++) {
      switch (read_n(&c, 1)) {
      case RLE_end_of_list:
         return !c.bad;
      case RLE_base_addressx:
         if (!indexed_address(r, u, uleb(&c), &base))
            return 0;
         break;
      case RLE_startx_endx:
         if (!indexed_address(r, u, uleb(&c), &a) || !indexed_address(r, u, uleb(&c), &b)
             || !push_range(r, mark, a, b))
            return 0;
         break;
      case RLE_startx_length:
         if (!indexed_address(r, u, uleb(&c), &a))
            return 0;
         b = uleb(&c);
         if (!push_range(r, mark, a, a + b))
            return 0;
         break;
      case RLE_offset_pair:
         a = uleb(&c);
         b = uleb(&c);
         if (!push_range(r, mark, base + a, base + b))
            return 0;
         break;
      case RLE_base_address:
         base = read_n(&c, u->addr_size);
         break;
      case RLE_start_end:
         a = read_n(&c, u->addr_size);
         b = read_n(&c, u->addr_size);
         if (!push_range(r, mark, a, b))
            return 0;
         break;
      case RLE_start_length:
         a = read_n(&c, u->addr_size);
         b = uleb(&c);
         if (!push_range(r, mark, a, a + b))
            return 0;
         break;
      default:
         return 0;
      }
   }
   return 0;
}

/* A DWARF 2-4 range list at off of .debug_ranges. */
static int read_ranges(reader *r, const unit *u, uint64_t off, size_t mark)
{
   cursor c = cursor_at(r->s->ranges, r->s->ranges_size, off);
   uint64_t base = u->base, all = u->addr_size == 8 ? ~(uint64_t)0 : 0xffffffffu;
   unsigned n;
   for (n = 0; n < MAX_LIST_ENTRIES; n++) {
      uint64_t a = read_n(&c, u->addr_size), b = read_n(&c, u->addr_size);
      if (c.bad)
         return 0;
      if (a == 0 && b == 0)
         return 1;
      if (a == all)
         base = b;
      else if (!push_range(r, mark, base + a, base + b))
         return 0;
   }
   return 0;
}

/* The code of d pushed on the range stack: 1 when it has some, 0 when it
   says none, -1 when they cannot be read. */
static int push_die_ranges(reader *r, const unit *u, const die *d)
{
   size_t mark = r->n_rs;
   uint64_t lo, hi, off;
   const value *v;
   if (HAS(d, A_LOW) && HAS(d, A_HIGH)) {
      v = &d->v[A_HIGH];
      if (!value_address(r, u, &d->v[A_LOW], &lo))
         return -1;
      if (v->cls == V_UDATA || v->cls == V_SDATA)
         hi = lo + v->u;
      else if (!value_address(r, u, v, &hi))
         return -1;
      if (!push_range(r, mark, lo, hi))
         return -1;
   } else if (HAS(d, A_RANGES)) {
      v = &d->v[A_RANGES];
      if (u->version >= 5) {
         if (v->cls == V_SECOFF)
            off = v->u;
         else if (v->cls != V_RNGLISTX
                  || !indexed_list(r->s->rnglists, r->s->rnglists_size, u->rnglists_base,
                                   u, v->u, &off))
            return -1;
         if (!read_rnglist(r, u, off, mark))
            return -1;
      } else if ((v->cls != V_SECOFF && v->cls != V_UDATA) || !read_ranges(r, u, v->u, mark))
         return -1;
   } else
      return 0;
   return 1;
}

/*------------------------------------------------------------*/
/*--- The walk                                             ---*/
/*------------------------------------------------------------*/

enum { FN_NONE, FN_SUB, FN_INLINED };

/* What a scope's children inherit. */
typedef struct {
   uint8_t fn;               /* the innermost function around: FN_* */
   uint8_t fb_ok;            /* the frame base of the out-of-line function is usable */
   mp_dw_base fb_base;
   int64_t fb_offset;        /* bytes: the frame base is fb_base + fb_offset */
   uint64_t func;            /* FN_INLINED: its abstract origin's offset (0: none) */
   int has_ranges;           /* the code of the innermost scope is known */
   size_t rng_first, n_rng;  /* ...in the range stack */
   size_t rng_mark;          /* the range stack's height before this scope */
   size_t scope;             /* the innermost namespace or class, SIZE_MAX: none */
   int owns_scope;           /* this DIE is that namespace or class */
} frame;

/* The frame base an expression gives, one operation. */
static int frame_base_of(const value *v, frame *f)
{
   cursor c;
   uint8_t op;
   int64_t n = 0;
   if (v->cls != V_BLOCK)
      return 0;
   c = cursor_at(v->p, v->u, 0);
   op = (uint8_t)read_n(&c, 1);
   if (op == OP_breg6 || op == OP_breg7)
      n = sleb(&c);
   if (c.bad || c.pos != c.size)
      return 0;
   switch (op) {
   case OP_call_frame_cfa: f->fb_base = MP_DW_CFA; break;
   case OP_reg7: case OP_breg7: f->fb_base = MP_DW_SP; break;
   case OP_reg6: case OP_breg6: f->fb_base = MP_DW_FP; break;
   default: return 0;
   }
   f->fb_offset = n;
   return 1;
}

/* Where a location expression puts the variable: 1 for a fixed place
   relative to the frame base, sp or fp. */
static int place_of(const uint8_t *p, uint64_t len, const frame *f, mp_dw_base *base,
                    int64_t *offset)
{
   cursor c = cursor_at(p, len, 0);
   uint8_t op = (uint8_t)read_n(&c, 1);
   int64_t n = sleb(&c);
   if (c.bad || c.pos != c.size)
      return 0;
   switch (op) {
   case OP_fbreg:
      if (!f->fb_ok)
         return 0;
      *base = f->fb_base;
      *offset = add_s64(f->fb_offset, n);
      return 1;
   case OP_breg7: *base = MP_DW_SP; *offset = n; return 1;
   case OP_breg6: *base = MP_DW_FP; *offset = n; return 1;
   default: return 0;
   }
}

/* Records the variable at (base, offset) over [lo, hi) cut to the scope's
   ranges; joins a range that continues the variable's last one. */
static void add_place(reader *r, const frame *f, size_t first, uint64_t lo, uint64_t hi,
                      mp_dw_base base, int64_t offset)
{
   size_t k;
   for (k = 0; k < f->n_rng; k++) {
      const range *sr = &r->rs[f->rng_first + k];
      uint64_t a = lo > sr->lo ? lo : sr->lo, b = hi < sr->hi ? hi : sr->hi;
      found *last = r->n_found > first ? &r->found[r->n_found - 1] : NULL;
      if (b <= a)
         continue;
      if (last && last->base == base && last->offset == offset && last->hi == a) {
         last->hi = b;
         continue;
      }
      grow((void **)&r->found, &r->cap_found, r->n_found, sizeof *r->found);
      last = &r->found[r->n_found++];
      mp_memset(last, 0, sizeof *last);
      last->lo = a;
      last->hi = b;
      last->base = base;
      last->offset = offset;
   }
}

/* One entry of a location list. */
static void add_entry(reader *r, const frame *f, size_t first, uint64_t lo, uint64_t hi,
                      const uint8_t *expr, uint64_t len)
{
   mp_dw_base base;
   int64_t offset;
   if (place_of(expr, len, f, &base, &offset))
      add_place(r, f, first, lo, hi, base, offset);
}

/* A DWARF 5 location list at off of .debug_loclists. */
static void read_loclist(reader *r, const unit *u, const frame *f, size_t first, uint64_t off)
{
   cursor c = cursor_at(r->s->loclists, r->s->loclists_size, off);
   uint64_t base = u->base, a = 0, b = 0, len;
   unsigned n;
   for (n = 0; n < MAX_LIST_ENTRIES && !c.bad; n++) {
      int has_range = 1;
      switch (read_n(&c, 1)) {
      case LLE_end_of_list:
         return;
      case LLE_base_addressx:
         if (!indexed_address(r, u, uleb(&c), &base))
            return;
         continue;
      case LLE_startx_endx:
         if (!indexed_address(r, u, uleb(&c), &a) || !indexed_address(r, u, uleb(&c), &b))
            return;
         break;
      case LLE_startx_length:
         if (!indexed_address(r, u, uleb(&c), &a))
            return;
         b = a + uleb(&c);
         break;
      case LLE_offset_pair:
         a = base + uleb(&c);
         b = base + uleb(&c);
         break;
      case LLE_default_location:
         has_range = 0;
         break;
      case LLE_base_address:
         base = read_n(&c, u->addr_size);
         continue;
      case LLE_start_end:
         a = read_n(&c, u->addr_size);
         b = read_n(&c, u->addr_size);
         break;
      case LLE_start_length:
         a = read_n(&c, u->addr_size);
         b = a + uleb(&c);
         break;
      case LLE_GNU_view_pair:
         uleb(&c);
         uleb(&c);
         continue;
      default:
         return;
      }
      len = uleb(&c);
      if (c.bad || len > c.size - c.pos)
         return;
      if (has_range)
         add_entry(r, f, first, a, b, c.b + c.pos, len);
      c.pos += len;
   }
}

/* A DWARF 2-4 location list at off of .debug_loc. */
static void read_loc(reader *r, const unit *u, const frame *f, size_t first, uint64_t off)
{
   cursor c = cursor_at(r->s->loc, r->s->loc_size, off);
   uint64_t base = u->base, all = u->addr_size == 8 ? ~(uint64_t)0 : 0xffffffffu, len;
   unsigned n;
   for (n = 0; n < MAX_LIST_ENTRIES; n++) {
      uint64_t a = read_n(&c, u->addr_size), b = read_n(&c, u->addr_size);
      if (c.bad || (a == 0 && b == 0))
         return;
      if (a == all) {
         base = b;
         continue;
      }
      len = read_n(&c, 2);
      if (c.bad || len > c.size - c.pos)
         return;
      add_entry(r, f, first, base + a, base + b, c.b + c.pos, len);
      c.pos += len;
   }
}

static int type_size(const reader *r, uint64_t off, int depth, uint64_t *size);

/* The number of elements of a subrange; 0 when unknown. */
static int subrange_count(const unit *u, const die *d, uint64_t *n)
{
   int64_t lo = u->lower_bound_1 ? 1 : 0, hi;
   if (HAS(d, A_COUNT)) {
      if (!value_const(&d->v[A_COUNT], &hi) || hi < 0)
         return 0;
      *n = (uint64_t)hi;
      return 1;
   }
   if (!HAS(d, A_UPPER) || !value_const(&d->v[A_UPPER], &hi))
      return 0;
   if (HAS(d, A_LOWER) && !value_const(&d->v[A_LOWER], &lo))
      return 0;
   if (hi < lo - 1 || hi - lo >= INT64_MAX)
      return 0;
   *n = (uint64_t)(hi - lo + 1);
   return 1;
}

/* The size of the array type d: its element's times its subranges'
   counts. */
static int array_size(const reader *r, const unit *u, const die *d, int depth, uint64_t *size)
{
   uint64_t total, pos = d->next, n;
   int level = 0, dims = 0, k;
   if (HAS(d, A_BYTE_SIZE)) {
      int64_t x;
      if (!value_const(&d->v[A_BYTE_SIZE], &x))
         return 0;
      *size = (uint64_t)x;
      return 1;
   }
   if (!d->children || !HAS(d, A_TYPE) || d->v[A_TYPE].cls != V_REF
       || !type_size(r, d->v[A_TYPE].u, depth + 1, &total))
      return 0;
   for (k = 0; k < 4 * MAX_DIMS; k++) {
      die c;
      if (!parse_die(r, u, pos, &c))
         return 0;
      pos = c.next;
      if (c.code == 0) {
         if (level == 0)
            break;
         level--;
         continue;
      }
      if (level == 0) {
         if (c.tag != TAG_subrange_type || !subrange_count(u, &c, &n) || ++dims > MAX_DIMS)
            return 0;
         if (n && total > UINT64_MAX / n)
            return 0;
         total *= n;
      }
      if (c.children)
         level++;
   }
   if (k == 4 * MAX_DIMS || dims == 0)
      return 0;
   *size = total;
   return 1;
}

/* The size in bytes of the type at off; 0 when it cannot be told. */
static int type_size(const reader *r, uint64_t off, int depth, uint64_t *size)
{
   const unit *u;
   die d;
   int64_t x;
   if (depth > MAX_TYPE_DEPTH || !load_die(r, off, &u, &d))
      return 0;
   switch (d.tag) {
   case TAG_typedef: case TAG_const_type: case TAG_volatile_type: case TAG_restrict_type:
   case TAG_atomic_type: case TAG_packed_type: case TAG_immutable_type:
      return HAS(&d, A_TYPE) && d.v[A_TYPE].cls == V_REF
             && type_size(r, d.v[A_TYPE].u, depth + 1, size);
   case TAG_base_type: case TAG_structure_type: case TAG_class_type: case TAG_union_type:
   case TAG_enumeration_type: case TAG_ptr_to_member_type:
      if (HAS(&d, A_BYTE_SIZE) && value_const(&d.v[A_BYTE_SIZE], &x)) {
         *size = (uint64_t)x;
         return 1;
      }
      /* an enumeration may give only its underlying type */
      return d.tag == TAG_enumeration_type && HAS(&d, A_TYPE) && d.v[A_TYPE].cls == V_REF
             && type_size(r, d.v[A_TYPE].u, depth + 1, size);
   case TAG_pointer_type: case TAG_reference_type: case TAG_rvalue_reference_type:
      if (HAS(&d, A_BYTE_SIZE))
         return value_const(&d.v[A_BYTE_SIZE], &x) && (*size = (uint64_t)x, 1);
      *size = u->addr_size;
      return 1;
   case TAG_array_type:
      return array_size(r, u, &d, depth, size);
   default:
      return 0;
   }
}

/* A variable's name and size, through its abstract origin. */
static int variable_info(const reader *r, const unit *u, const die *d, const char **name,
                         uint64_t *size)
{
   const char *nm = NULL;
   uint64_t type = 0;
   int has_type = 0, hop;
   die cur = *d;
   for (hop = 0; hop < MAX_HOPS; hop++) {
      const value *next = NULL;
      if (!nm && HAS(&cur, A_NAME))
         nm = value_string(r, u, &cur.v[A_NAME]);
      if (!has_type && HAS(&cur, A_TYPE) && cur.v[A_TYPE].cls == V_REF) {
         type = cur.v[A_TYPE].u;
         has_type = 1;
      }
      if (nm && has_type)
         break;
      if (HAS(&cur, A_ORIGIN))
         next = &cur.v[A_ORIGIN];
      else if (HAS(&cur, A_SPEC))
         next = &cur.v[A_SPEC];
      if (!next || next->cls != V_REF || !load_die(r, next->u, &u, &cur))
         break;
   }
   if (!nm || !has_type || !type_size(r, type, 0, size) || *size == 0)
      return 0;
   *name = nm;
   return 1;
}

/* A variable met in the walk, its parent's frame f. */
static void add_variable(reader *r, const unit *u, const die *d, const frame *f)
{
   size_t first = r->n_found, k;
   const value *v = &d->v[A_LOC];
   const char *name;
   uint64_t size, off;
   if (f->fn != FN_INLINED || !f->func || !f->has_ranges || !HAS(d, A_LOC))
      return;
   if (v->cls == V_BLOCK) {
      mp_dw_base base;
      int64_t offset;
      if (place_of(v->p, v->u, f, &base, &offset))
         add_place(r, f, first, 0, ~(uint64_t)0, base, offset);
   } else if (u->version >= 5) {
      if (v->cls == V_SECOFF)
         read_loclist(r, u, f, first, v->u);
      else if (v->cls == V_LOCLISTX
               && indexed_list(r->s->loclists, r->s->loclists_size, u->loclists_base, u,
                               v->u, &off))
         read_loclist(r, u, f, first, off);
   } else if (v->cls == V_SECOFF || (v->cls == V_UDATA && u->version < 4))
      read_loc(r, u, f, first, v->u);
   if (r->n_found == first)
      return;
   if (!variable_info(r, u, d, &name, &size)) {
      r->n_found = first;
      return;
   }
   for (k = first; k < r->n_found; k++) {
      r->found[k].name = name;
      r->found[k].size = size;
      r->found[k].func = f->func;
   }
}

/* The frame of d's children, from its parent's p. */
static void enter(reader *r, const unit *u, const die *d, const frame *p, frame *f)
{
   int got;
   *f = *p;
   f->rng_mark = r->n_rs;
   f->owns_scope = 0;
   switch (d->tag) {
   case TAG_subprogram:
      f->fn = FN_SUB;
      f->func = 0;
      f->has_ranges = 0;
      f->fb_ok = HAS(d, A_FRAME_BASE) && frame_base_of(&d->v[A_FRAME_BASE], f);
      break;
   case TAG_inlined_subroutine:
      f->fn = FN_INLINED;
      f->func = HAS(d, A_ORIGIN) && d->v[A_ORIGIN].cls == V_REF ? d->v[A_ORIGIN].u : 0;
      got = push_die_ranges(r, u, d);
      f->has_ranges = got == 1;
      f->rng_first = f->rng_mark;
      f->n_rng = r->n_rs - f->rng_mark;
      break;
   case TAG_lexical_block: case TAG_try_block: case TAG_catch_block:
      got = push_die_ranges(r, u, d);
      if (got != 0) {            /* none of its own: its parent's */
         f->has_ranges = got == 1;
         f->rng_first = f->rng_mark;
         f->n_rng = r->n_rs - f->rng_mark;
      }
      break;
   case TAG_namespace: case TAG_class_type: case TAG_structure_type: case TAG_union_type:
      grow((void **)&r->scopes, &r->cap_scopes, r->n_scopes, sizeof *r->scopes);
      r->scopes[r->n_scopes].start = d->off;
      r->scopes[r->n_scopes].end = u->end;
      r->scopes[r->n_scopes].name = HAS(d, A_NAME) ? value_string(r, u, &d->v[A_NAME]) : NULL;
      r->scopes[r->n_scopes].parent = p->scope;
      f->scope = r->n_scopes++;
      f->owns_scope = 1;
      f->fn = FN_NONE;
      break;
   default:
      break;
   }
}

/* Step 2 for one unit; 0 when a DIE cannot be decoded (its locals are
   then dropped).  A unit that ends before its lists of children do is
   read as far as it goes. */
static int walk_unit(reader *r, const unit *u)
{
   frame *st = NULL, root;
   size_t n_st = 0, cap_st = 0, first = r->n_found;
   uint64_t pos = u->die_off;
   int ok = 1;
   mp_memset(&root, 0, sizeof root);
   root.fn = FN_NONE;
   root.scope = SIZE_MAX;
   r->n_rs = 0;
   while (pos < u->end) {
      die d;
      if (!parse_die(r, u, pos, &d)) {
         ok = 0;
         break;
      }
      pos = d.next;
      if (d.code == 0) {
         if (n_st == 0)         /* padding after the root's children */
            break;
         n_st--;
         if (st[n_st].owns_scope)
            r->scopes[st[n_st].scope].end = pos;
         r->n_rs = st[n_st].rng_mark;
         if (n_st == 0)
            break;
         continue;
      }
      if (d.tag == TAG_variable && n_st > 0)
         add_variable(r, u, &d, &st[n_st - 1]);
      if (d.children) {
         grow((void **)&st, &cap_st, n_st, sizeof *st);
         enter(r, u, &d, n_st ? &st[n_st - 1] : &root, &st[n_st]);
         n_st++;
      } else if (n_st == 0)     /* a root without children */
         break;
   }
   mp_free(st);
   if (!ok)
      r->n_found = first;
   return ok;
}

/*------------------------------------------------------------*/
/*--- Function names                                       ---*/
/*------------------------------------------------------------*/

/* The innermost namespace or class around the DIE at off, SIZE_MAX: none. */
static size_t scope_around(const reader *r, uint64_t off)
{
   size_t lo = 0, hi = r->n_scopes, k;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (r->scopes[mid].start < off)
         lo = mid + 1;
      else
         hi = mid;
   }
   if (lo == 0)
      return SIZE_MAX;
   k = lo - 1;
   while (k != SIZE_MAX && off >= r->scopes[k].end)
      k = r->scopes[k].parent < k ? r->scopes[k].parent : SIZE_MAX;
   return k;
}

/* The qualified name of the function whose abstract DIE is at off, in a
   new allocation, or NULL. */
static char *function_name(const reader *r, uint64_t off)
{
   const char *name = NULL, *outer[MAX_QUALIFIERS];
   uint64_t decl = off;
   size_t k, n = 0;
   int hop;
   mp_strbuf b = MP_STRBUF_INIT;
   for (hop = 0; hop < MAX_HOPS; hop++) {
      const unit *u;
      die d;
      const value *next = NULL;
      if (!load_die(r, off, &u, &d))
         break;
      decl = off;
      if (!name && HAS(&d, A_NAME))
         name = value_string(r, u, &d.v[A_NAME]);
      if (HAS(&d, A_SPEC))
         next = &d.v[A_SPEC];
      else if (HAS(&d, A_ORIGIN))
         next = &d.v[A_ORIGIN];
      if (!next || next->cls != V_REF)
         break;
      off = next->u;
   }
   if (!name)
      return NULL;
   for (k = scope_around(r, decl); k != SIZE_MAX && n < MAX_QUALIFIERS;
        k = r->scopes[k].parent < k ? r->scopes[k].parent : SIZE_MAX)
      if (r->scopes[k].name)
         outer[n++] = r->scopes[k].name;
   while (n > 0) {
      n--;
      mp_strbuf_add(&b, outer[n], mp_strlen(outer[n]));
      mp_strbuf_add(&b, "::", 2);
   }
   mp_strbuf_add(&b, name, mp_strlen(name));
   return mp_strbuf_take(&b);
}

static int cmp_local(const void *a, const void *b)
{
   const mp_dw_local *x = a, *y = b;
   int c;
   if (x->lo != y->lo)
      return x->lo < y->lo ? -1 : 1;
   if (x->hi != y->hi)
      return x->hi < y->hi ? -1 : 1;
   if ((c = mp_strcmp(x->function, y->function)) != 0)
      return c;
   if ((c = mp_strcmp(x->name, y->name)) != 0)
      return c;
   if (x->base != y->base)
      return x->base < y->base ? -1 : 1;
   if (x->offset != y->offset)
      return x->offset < y->offset ? -1 : 1;
   return x->size < y->size ? -1 : x->size > y->size;
}

size_t mp_dwarf_read_inlined_locals(const mp_dwarf_sections *s, mp_dw_local **out,
                                    size_t *n_skipped_units)
{
   reader r;
   size_t skipped = 0, n = 0, k;
   offset_map named;
   char **names = NULL;
   size_t n_names = 0, cap_names = 0;
   mp_dw_local *res = NULL;

   mp_memset(&r, 0, sizeof r);
   mp_memset(&named, 0, sizeof named);
   r.s = s;
   scan_units(&r, &skipped);
   for (k = 0; k < r.n_units; k++)
      if (r.units[k].ok && !walk_unit(&r, &r.units[k]))
         skipped++;

   if (r.n_found)
      res = mp_malloc(CC, r.n_found * sizeof *res);
   for (k = 0; k < r.n_found; k++) {
      const found *f = &r.found[k];
      size_t idx;
      if (!map_get(&named, f->func, &idx)) {
         grow((void **)&names, &cap_names, n_names, sizeof *names);
         names[n_names] = function_name(&r, f->func);
         idx = n_names++;
         map_put(&named, f->func, idx);
      }
      if (!names[idx])
         continue;
      res[n].lo = f->lo;
      res[n].hi = f->hi;
      res[n].name = mp_strdup(CC, f->name);
      res[n].function = mp_strdup(CC, names[idx]);
      res[n].size = f->size;
      res[n].base = f->base;
      res[n].offset = f->offset;
      n++;
   }
   if (n)
      mp_sort(res, n, sizeof *res, cmp_local);
   else {
      mp_free(res);
      res = NULL;
   }

   for (k = 0; k < n_names; k++)
      mp_free(names[k]);
   mp_free(names);
   map_free(&named);
   for (k = 0; k < r.n_tables; k++) {
      mp_free(r.tables[k].ab);
      mp_free(r.tables[k].spec);
   }
   mp_free(r.tables);
   map_free(&r.table_at);
   mp_free(r.units);
   mp_free(r.scopes);
   mp_free(r.rs);
   mp_free(r.found);
   if (n_skipped_units)
      *n_skipped_units = skipped;
   *out = res;
   return n;
}

void mp_dwarf_locals_free(mp_dw_local *locals, size_t n)
{
   size_t k;
   for (k = 0; k < n; k++) {
      mp_free(locals[k].name);
      mp_free(locals[k].function);
   }
   mp_free(locals);
}
