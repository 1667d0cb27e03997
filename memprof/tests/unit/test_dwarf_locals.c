/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_dwarf_locals: the locals of inlined functions from
   hand-encoded DWARF (DWARF 5 and 4, 32- and 64-bit units, every way a
   scope gives its code and a variable its place), from what gcc, g++
   and clang emit at -O2 for a real program, and from corrupted copies
   of both, which must neither crash nor read outside the buffers. */
#define _GNU_SOURCE
#include "mp_test.h"
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mp_dwarf_locals.h"

/*------------------------------------------------------------*/
/*--- A small DWARF encoder                                ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint8_t *b;
   size_t n, cap;
} buf;

static void put_byte(buf *o, uint8_t v)
{
   if (o->n == o->cap) {
      o->cap = o->cap ? 2 * o->cap : 256;
      o->b = realloc(o->b, o->cap);
      ck_assert_ptr_nonnull(o->b);
   }
   o->b[o->n++] = v;
}

/* n bytes, little-endian. */
static void put(buf *o, uint64_t v, int n)
{
   int i;
   for (i = 0; i < n; i++)
      put_byte(o, (uint8_t)(v >> (8 * i)));
}

static void put_uleb(buf *o, uint64_t v)
{
   do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      put_byte(o, b | (v ? 0x80 : 0));
   } while (v);
}

static void put_sleb(buf *o, int64_t v)
{
   for (;;) {
      uint8_t b = v & 0x7f;
      v >>= 7;
      if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
         put_byte(o, b);
         return;
      }
      put_byte(o, b | 0x80);
   }
}

static void put_str(buf *o, const char *s)
{
   do
      put_byte(o, (uint8_t)*s);
   while (*s++);
}

/* An abbreviation: (attribute, form) pairs up to 0, 0; an
   implicit_const form (0x21) is followed by its value. */
static void abbrev(buf *a, unsigned code, unsigned tag, int children, ...)
{
   va_list ap;
   put_uleb(a, code);
   put_uleb(a, tag);
   put_byte(a, (uint8_t)children);
   va_start(ap, children);
   for (;;) {
      unsigned at = va_arg(ap, unsigned), form = va_arg(ap, unsigned);
      put_uleb(a, at);
      put_uleb(a, form);
      if (at == 0 && form == 0)
         break;
      if (form == 0x21)
         put_sleb(a, va_arg(ap, int));
   }
   va_end(ap);
}

/* References to DIEs written later: patched at the end. */
enum { L_DOUBLE, L_INT, L_REAL, L_CREAL, L_ARR, L_VLA_T, L_KERNEL, L_GAMMA, L_ACC, L_TMP,
       L_LV, L_VLA, L_LEAF, L_W, L_INT2, L_METHOD_DECL, L_METHOD, L_ARR2_T, L_ARR2,
       N_LABELS };
static uint64_t label_at[N_LABELS];
static struct {
   size_t pos;
   int label, size;      /* size -1: a ULEB padded to 4 bytes */
   uint64_t unit;        /* subtracted: the unit's offset, or 0 for ref_addr */
} fix[64];
static int n_fix;

static void def(const buf *o, int label)
{
   label_at[label] = o->n;
}

static void ref(buf *o, int label, int size, uint64_t unit)
{
   ck_assert_int_lt(n_fix, 64);
   fix[n_fix].pos = o->n;
   fix[n_fix].label = label;
   fix[n_fix].size = size;
   fix[n_fix].unit = unit;
   n_fix++;
   put(o, 0, size < 0 ? 4 : size);
}

static void patch(buf *o)
{
   int k, i;
   for (k = 0; k < n_fix; k++) {
      uint64_t v = label_at[fix[k].label] - fix[k].unit;
      ck_assert(fix[k].size >= 8 || v >> (8 * (fix[k].size < 0 ? 3 : fix[k].size)) == 0);
      if (fix[k].size < 0)
         for (i = 0; i < 4; i++)
            o->b[fix[k].pos + i] = (uint8_t)(((v >> (7 * i)) & 0x7f) | (i < 3 ? 0x80 : 0));
      else
         for (i = 0; i < fix[k].size; i++)
            o->b[fix[k].pos + i] = (uint8_t)(v >> (8 * i));
   }
   n_fix = 0;
}

/* A unit's header; returns where its length goes. */
static size_t unit_header(buf *o, int version, int is64, uint64_t abbrev_off)
{
   size_t at;
   if (is64)
      put(o, 0xffffffffu, 4);
   at = o->n;
   put(o, 0, is64 ? 8 : 4);
   put(o, (uint64_t)version, 2);
   if (version == 5) {
      put_byte(o, 1);            /* DW_UT_compile */
      put_byte(o, 8);
      put(o, abbrev_off, is64 ? 8 : 4);
   } else {
      put(o, abbrev_off, is64 ? 8 : 4);
      put_byte(o, 8);
   }
   return at;
}

static void unit_end(buf *o, size_t at, int is64)
{
   uint64_t len = o->n - at - (is64 ? 8 : 4);
   int i;
   for (i = 0; i < (is64 ? 8 : 4); i++)
      o->b[at + i] = (uint8_t)(len >> (8 * i));
}

/* Expressions. */
static void expr_op_sleb(buf *o, uint8_t op, int64_t n)
{
   buf e = { 0 };
   put_byte(&e, op);
   put_sleb(&e, n);
   put_uleb(o, e.n);
   for (size_t i = 0; i < e.n; i++)
      put_byte(o, e.b[i]);
   free(e.b);
}

/*------------------------------------------------------------*/
/*--- The hand-encoded object                              ---*/
/*------------------------------------------------------------*/

typedef struct {
   buf info, abbrev, str, line_str, str_offsets, addr, rnglists, loclists, ranges, loc;
} object;

static void object_free(object *ob)
{
   free(ob->info.b);
   free(ob->abbrev.b);
   free(ob->str.b);
   free(ob->line_str.b);
   free(ob->str_offsets.b);
   free(ob->addr.b);
   free(ob->rnglists.b);
   free(ob->loclists.b);
   free(ob->ranges.b);
   free(ob->loc.b);
}

static mp_dwarf_sections sections_of(const object *ob)
{
   mp_dwarf_sections s;
   memset(&s, 0, sizeof s);
#define SEC(x) s.x = ob->x.b; s.x##_size = ob->x.n
   SEC(info); SEC(abbrev); SEC(str); SEC(line_str); SEC(str_offsets); SEC(addr);
   SEC(rnglists); SEC(loclists); SEC(ranges); SEC(loc);
#undef SEC
   return s;
}

/* Unit 1: DWARF 5, 32-bit, C.  main (0x1000..0x1200, frame base the
   CFA) inlines kernel at 0x1010..0x1090, which inlines leaf at
   0x1060..0x1070. */
static void unit_v5(object *ob)
{
   buf *i = &ob->info, *a = &ob->abbrev;
   uint64_t u = i->n, str_double, str_producer_line;
   size_t len_at;

   /* strings: .debug_str, .debug_line_str, and the offsets of strx 0 ("t.c") and 1 ("w") */
   str_double = ob->str.n;
   put_str(&ob->str, "double");
   put(&ob->str_offsets, 12, 4);       /* the table's header: length, version 5, padding */
   put(&ob->str_offsets, 5, 2);
   put(&ob->str_offsets, 0, 2);
   put(&ob->str_offsets, ob->str.n, 4);
   put_str(&ob->str, "t.c");
   put(&ob->str_offsets, ob->str.n, 4);
   put_str(&ob->str, "w");
   str_producer_line = ob->line_str.n;
   put_str(&ob->line_str, "/src");

   /* .debug_addr: header, then [0] 0x1010, [1] 0x1040 */
   put(&ob->addr, 20, 4);
   put(&ob->addr, 5, 2);
   put_byte(&ob->addr, 8);
   put_byte(&ob->addr, 0);
   put(&ob->addr, 0x1010, 8);
   put(&ob->addr, 0x1040, 8);

   /* .debug_rnglists: header with one offset, the list at base + 4 */
   put(&ob->rnglists, 0, 4);
   put(&ob->rnglists, 5, 2);
   put_byte(&ob->rnglists, 8);
   put_byte(&ob->rnglists, 0);
   put(&ob->rnglists, 1, 4);
   put(&ob->rnglists, 4, 4);
   put_byte(&ob->rnglists, 5);         /* DW_RLE_base_address 0x1000 */
   put(&ob->rnglists, 0x1000, 8);
   put_byte(&ob->rnglists, 4);         /* DW_RLE_offset_pair 0x20 0x30 */
   put_uleb(&ob->rnglists, 0x20);
   put_uleb(&ob->rnglists, 0x30);
   put_byte(&ob->rnglists, 3);         /* DW_RLE_startx_length [1] 8 */
   put_uleb(&ob->rnglists, 1);
   put_uleb(&ob->rnglists, 8);
   put_byte(&ob->rnglists, 0);

   /* .debug_loclists: header with one offset, the list at base + 4 */
   put(&ob->loclists, 0, 4);
   put(&ob->loclists, 5, 2);
   put_byte(&ob->loclists, 8);
   put_byte(&ob->loclists, 0);
   put(&ob->loclists, 1, 4);
   put(&ob->loclists, 4, 4);
   put_byte(&ob->loclists, 9);         /* gcc's DW_LLE_GNU_view_pair */
   put_uleb(&ob->loclists, 0);
   put_uleb(&ob->loclists, 1);
   put_byte(&ob->loclists, 4);         /* DW_LLE_offset_pair 0x20 0x30: DW_OP_reg0 */
   put_uleb(&ob->loclists, 0x20);
   put_uleb(&ob->loclists, 0x30);
   put_uleb(&ob->loclists, 1);
   put_byte(&ob->loclists, 0x50);
   put_byte(&ob->loclists, 8);         /* DW_LLE_start_length 0x1050 0x100: DW_OP_breg6 -8 */
   put(&ob->loclists, 0x1050, 8);
   put_uleb(&ob->loclists, 0x100);
   expr_op_sleb(&ob->loclists, 0x76, -8);
   put_byte(&ob->loclists, 0);

   abbrev(a, 1, 0x11, 1, 0x03, 0x25 /* name strx1 */, 0x13, 0x0b, 0x11, 0x01, 0x12, 0x06,
          0x72, 0x17, 0x73, 0x17, 0x74, 0x17, 0x8c, 0x17,
          /* attributes it only skips, in every other form */
          0x25, 0x08, 0x1b, 0x1f, 0x3fe0, 0x1e, 0x3fe1, 0x03, 0x3fe2, 0x19, 0x3fe3, 0x0d,
          0x3fe4, 0x20, 0x3fe5, 0x07, 0x3fe6, 0x28, 0x3fe7, 0x2a, 0x3fe8, 0x04, 0x3fe9, 0x09,
          0x3fea, 0x1c, 0x3feb, 0x1d, 0x3fec, 0x24, 0x3fed, 0x0c, 0x3fee, 0x0a, 0x3fef, 0x2c,
          0x3ff0, 0x27, 0x3ff1, 0x1a, 0x3ff2, 0x2b, 0x3ff3, 0x29, 0x3ff4, 0x26, 0x3ff5, 0x05,
          0x3ff6, 0x0f, 0x3ff7, 0x14, 0x3ff8, 0x12, 0x3ff9, 0x11, 0x3ffa, 0x10,
          0, 0);
   abbrev(a, 2, 0x24, 0, 0x03, 0x0e, 0x0b, 0x0b, 0, 0);
   abbrev(a, 3, 0x24, 0, 0x03, 0x08, 0x0b, 0x21, 4, 0, 0);
   abbrev(a, 4, 0x16, 0, 0x03, 0x08, 0x49, 0x13, 0, 0);
   abbrev(a, 5, 0x26, 0, 0x49, 0x13, 0, 0);
   abbrev(a, 6, 0x01, 1, 0x49, 0x13, 0, 0);
   abbrev(a, 7, 0x21, 0, 0x37, 0x0b, 0, 0);
   abbrev(a, 8, 0x21, 0, 0x2f, 0x0b, 0, 0);
   abbrev(a, 9, 0x21, 0, 0x2f, 0x18, 0, 0);
   abbrev(a, 10, 0x2e, 1, 0x03, 0x08, 0x20, 0x0b, 0, 0);
   abbrev(a, 11, 0x34, 0, 0x03, 0x08, 0x49, 0x13, 0, 0);
   abbrev(a, 12, 0x34, 0, 0x03, 0x25, 0x49, 0x15, 0, 0);
   abbrev(a, 13, 0x2e, 1, 0x03, 0x08, 0x11, 0x01, 0x12, 0x06, 0x40, 0x18, 0, 0);
   abbrev(a, 14, 0x34, 0, 0x03, 0x08, 0x49, 0x13, 0x02, 0x18, 0, 0);
   abbrev(a, 15, 0x1d, 1, 0x31, 0x13, 0x11, 0x1b, 0x12, 0x06, 0, 0);
   abbrev(a, 16, 0x34, 0, 0x31, 0x13, 0x02, 0x18, 0, 0);
   abbrev(a, 17, 0x0b, 1, 0x55, 0x23, 0, 0);
   abbrev(a, 18, 0x34, 0, 0x31, 0x13, 0x02, 0x22, 0, 0);
   abbrev(a, 19, 0x1d, 1, 0x31, 0x13, 0x11, 0x01, 0x12, 0x01, 0, 0);
   abbrev(a, 20, 0x34, 0, 0x31, 0x16 /* indirect */, 0x02, 0x18, 0, 0);
   abbrev(a, 21, 0x05, 0, 0x31, 0x13, 0x02, 0x18, 0, 0);   /* a parameter */
   put_byte(a, 0);

   len_at = unit_header(i, 5, 0, 0);
   put_byte(i, 1);                                    /* compile_unit */
   put_byte(i, 0);                                    /* name: strx 0 */
   put_byte(i, 0x0c);                                 /* DW_LANG_C99 */
   put(i, 0x1000, 8);
   put(i, 0x1000, 4);
   put(i, 8, 4);
   put(i, 8, 4);
   put(i, 12, 4);
   put(i, 12, 4);
   put_str(i, "GNU C");                               /* the skipped ones */
   put(i, str_producer_line, 4);
   put(i, 0, 8); put(i, 0, 8);                        /* data16 */
   put(i, 3, 2); put(i, 0xabcdef, 3);                 /* block2 */
   put_sleb(i, -5);
   put(i, 0x1122334455667788ull, 8);                  /* ref_sig8 */
   put(i, 7, 8);
   put(i, 1, 4);                                      /* strx4 */
   put(i, 0, 2);                                      /* addrx2 */
   put(i, 2, 4); put(i, 0x9c9c, 2);                   /* block4 */
   put_uleb(i, 1); put_byte(i, 0x9c);                 /* block */
   put(i, 0, 4);                                      /* ref_sup4 */
   put(i, 0, 4);                                      /* strp_sup */
   put(i, 0, 8);                                      /* ref_sup8 */
   put_byte(i, 1);                                    /* flag */
   put_byte(i, 1); put_byte(i, 0x9c);                 /* block1 */
   put(i, 1, 4);                                      /* addrx4 */
   put(i, 1, 3);                                      /* strx3 */
   put_uleb(i, 1);                                    /* strx */
   put(i, 0, 3);                                      /* addrx3 */
   put_byte(i, 0);                                    /* addrx1 */
   put(i, 0, 2);                                      /* strx2 */
   put(i, 0, 2);                                      /* data2 */
   put_uleb(i, 300);                                  /* udata */
   ref(i, L_INT, 8, u);                               /* ref8 */
   ref(i, L_INT, 2, u);                               /* ref2 */
   ref(i, L_INT, 1, u);                               /* ref1 */
   ref(i, L_INT, 4, 0);                               /* ref_addr */

   def(i, L_DOUBLE);
   put_byte(i, 2); put(i, str_double, 4); put_byte(i, 8);
   def(i, L_INT);
   put_byte(i, 3); put_str(i, "int");
   def(i, L_REAL);
   put_byte(i, 4); put_str(i, "real"); ref(i, L_DOUBLE, 4, u);
   def(i, L_CREAL);
   put_byte(i, 5); ref(i, L_REAL, 4, u);
   def(i, L_ARR);                                     /* const real [4][8] */
   put_byte(i, 6); ref(i, L_CREAL, 4, u);
   put_byte(i, 7); put_byte(i, 4);
   put_byte(i, 8); put_byte(i, 7);
   put_byte(i, 0);
   def(i, L_VLA_T);                                   /* int [n] */
   put_byte(i, 6); ref(i, L_INT, 4, u);
   put_byte(i, 9); put_uleb(i, 2); put_byte(i, 0x91); put_byte(i, 0x68);
   put_byte(i, 0);

   def(i, L_KERNEL);
   put_byte(i, 10); put_str(i, "kernel"); put_byte(i, 3);
   def(i, L_GAMMA);
   put_byte(i, 11); put_str(i, "gamma"); ref(i, L_ARR, 4, u);
   def(i, L_ACC);
   put_byte(i, 11); put_str(i, "acc"); ref(i, L_INT, 4, u);
   def(i, L_TMP);
   put_byte(i, 11); put_str(i, "tmp"); ref(i, L_INT, 4, u);
   def(i, L_LV);
   put_byte(i, 11); put_str(i, "lv"); ref(i, L_DOUBLE, 4, u);
   def(i, L_VLA);
   put_byte(i, 11); put_str(i, "vla"); ref(i, L_VLA_T, 4, u);
   put_byte(i, 0);
   def(i, L_LEAF);
   put_byte(i, 10); put_str(i, "leaf"); put_byte(i, 3);
   def(i, L_W);
   put_byte(i, 12); put_byte(i, 1); ref(i, L_INT, -1, u);
   put_byte(i, 0);

   put_byte(i, 13); put_str(i, "main"); put(i, 0x1000, 8); put(i, 0x200, 4);
   put_uleb(i, 1); put_byte(i, 0x9c);                 /* DW_OP_call_frame_cfa */
   put_byte(i, 14); put_str(i, "own"); ref(i, L_INT, 4, u); expr_op_sleb(i, 0x91, -20);
   put_byte(i, 15); ref(i, L_KERNEL, 4, u); put_uleb(i, 0); put(i, 0x80, 4);
   put_byte(i, 21); ref(i, L_ACC, 4, u); expr_op_sleb(i, 0x91, -24);  /* a parameter */
   put_byte(i, 16); ref(i, L_GAMMA, 4, u); expr_op_sleb(i, 0x91, -300);
   put_byte(i, 16); ref(i, L_ACC, 4, u); put_uleb(i, 1); put_byte(i, 0x50);
   put_byte(i, 16); ref(i, L_VLA, 4, u); expr_op_sleb(i, 0x91, -400);
   put_byte(i, 14); put_str(i, "direct"); ref(i, L_DOUBLE, 4, u); expr_op_sleb(i, 0x91, -48);
   put_byte(i, 17); put_uleb(i, 0);                   /* lexical_block: rnglistx 0 */
   put_byte(i, 20); put_uleb(i, 0x13); ref(i, L_TMP, 4, u); expr_op_sleb(i, 0x77, 16);
   put_byte(i, 0);
   put_byte(i, 18); ref(i, L_LV, 4, u); put_uleb(i, 0);
   put_byte(i, 19); ref(i, L_LEAF, 4, u); put(i, 0x1060, 8); put(i, 0x1070, 8);
   put_byte(i, 16); ref(i, L_W, 4, u); expr_op_sleb(i, 0x91, -40);
   put_byte(i, 0);
   put_byte(i, 0);                                    /* kernel */
   put_byte(i, 0);                                    /* main */
   put_byte(i, 0);                                    /* the unit */
   unit_end(i, len_at, 0);
}

/* Unit 2: DWARF 4, 32-bit, C++.  main2 (0x2000.., frame base
   DW_OP_breg7 8) inlines ns::Klass::method over .debug_ranges. */
static void unit_v4(object *ob)
{
   buf *i = &ob->info, *a = &ob->abbrev;
   uint64_t u = i->n, abbrev_off = a->n, ranges_block;
   size_t len_at;

   put(&ob->ranges, 0x10, 8); put(&ob->ranges, 0x30, 8);
   put(&ob->ranges, 0x50, 8); put(&ob->ranges, 0x60, 8);
   put(&ob->ranges, 0, 8); put(&ob->ranges, 0, 8);
   ranges_block = ob->ranges.n;
   put(&ob->ranges, ~(uint64_t)0, 8); put(&ob->ranges, 0x2000, 8);   /* base: 0x2000 */
   put(&ob->ranges, 0x18, 8); put(&ob->ranges, 0x20, 8);
   put(&ob->ranges, 0, 8); put(&ob->ranges, 0, 8);

   put(&ob->loc, 0x10, 8); put(&ob->loc, 0x18, 8);       /* DW_OP_reg0 */
   put(&ob->loc, 1, 2); put_byte(&ob->loc, 0x50);
   put(&ob->loc, 0x18, 8); put(&ob->loc, 0x40, 8);       /* DW_OP_fbreg -32 */
   put(&ob->loc, 2, 2); put_byte(&ob->loc, 0x91); put_sleb(&ob->loc, -32);
   put(&ob->loc, 0, 8); put(&ob->loc, 0, 8);

   abbrev(a, 1, 0x11, 1, 0x13, 0x0b, 0x11, 0x01, 0, 0);
   abbrev(a, 2, 0x24, 0, 0x03, 0x08, 0x0b, 0x0b, 0, 0);
   abbrev(a, 3, 0x39, 1, 0x03, 0x08, 0, 0);
   abbrev(a, 4, 0x02, 1, 0x03, 0x08, 0x0b, 0x0b, 0, 0);
   abbrev(a, 5, 0x2e, 0, 0x03, 0x08, 0x3c, 0x19, 0, 0);
   abbrev(a, 6, 0x2e, 1, 0x47, 0x13, 0x20, 0x0b, 0, 0);
   abbrev(a, 7, 0x34, 0, 0x03, 0x08, 0x49, 0x13, 0, 0);
   abbrev(a, 8, 0x01, 1, 0x49, 0x13, 0, 0);
   abbrev(a, 9, 0x21, 0, 0x2f, 0x0b, 0, 0);
   abbrev(a, 10, 0x2e, 1, 0x03, 0x08, 0x11, 0x01, 0x12, 0x06, 0x40, 0x18, 0, 0);
   abbrev(a, 11, 0x1d, 1, 0x31, 0x13, 0x55, 0x17, 0, 0);
   abbrev(a, 12, 0x34, 0, 0x31, 0x13, 0x02, 0x18, 0, 0);
   abbrev(a, 13, 0x0b, 1, 0x55, 0x17, 0, 0);
   abbrev(a, 14, 0x34, 0, 0x31, 0x13, 0x02, 0x17, 0, 0);
   put_byte(a, 0);

   len_at = unit_header(i, 4, 0, abbrev_off);
   put_byte(i, 1); put_byte(i, 0x04); put(i, 0x2000, 8);    /* DW_LANG_C_plus_plus */
   def(i, L_INT2);
   put_byte(i, 2); put_str(i, "int"); put_byte(i, 4);
   put_byte(i, 3); put_str(i, "ns");
   put_byte(i, 4); put_str(i, "Klass"); put_byte(i, 16);
   def(i, L_METHOD_DECL);
   put_byte(i, 5); put_str(i, "method");
   put_byte(i, 0);
   put_byte(i, 0);
   def(i, L_ARR2_T);                                  /* int [3] */
   put_byte(i, 8); ref(i, L_INT2, 4, u);
   put_byte(i, 9); put_byte(i, 2);
   put_byte(i, 0);
   def(i, L_METHOD);
   put_byte(i, 6); ref(i, L_METHOD_DECL, 4, u); put_byte(i, 3);
   def(i, L_ARR2);
   put_byte(i, 7); put_str(i, "arr"); ref(i, L_ARR2_T, 4, u);
   put_byte(i, 0);
   put_byte(i, 10); put_str(i, "main"); put(i, 0x2000, 8); put(i, 0x100, 4);
   expr_op_sleb(i, 0x77, 8);                          /* DW_OP_breg7 8 */
   put_byte(i, 11); ref(i, L_METHOD, 4, u); put(i, 0, 4);
   put_byte(i, 12); ref(i, L_ARR2, 4, u); expr_op_sleb(i, 0x91, -16);
   put_byte(i, 13); put(i, ranges_block, 4);
   put_byte(i, 14); ref(i, L_ARR2, 4, u); put(i, 0, 4);
   put_byte(i, 0);
   put_byte(i, 0);
   put_byte(i, 0);
   put_byte(i, 0);
   unit_end(i, len_at, 0);
}

/* Unit 3: DWARF 5, 64-bit.  main3 (frame base DW_OP_reg6) inlines leaf
   of unit 1, named through ref_addr. */
static void unit_v5_64(object *ob)
{
   buf *i = &ob->info, *a = &ob->abbrev;
   uint64_t abbrev_off = a->n, str_main3 = ob->str.n;
   size_t len_at;
   put_str(&ob->str, "main3");
   abbrev(a, 1, 0x11, 1, 0x11, 0x01, 0, 0);
   abbrev(a, 2, 0x2e, 1, 0x03, 0x0e, 0x11, 0x01, 0x12, 0x07, 0x40, 0x18, 0, 0);
   abbrev(a, 3, 0x1d, 1, 0x31, 0x10, 0x11, 0x01, 0x12, 0x0f, 0, 0);
   abbrev(a, 4, 0x34, 0, 0x31, 0x10, 0x02, 0x18, 0, 0);
   put_byte(a, 0);
   len_at = unit_header(i, 5, 1, abbrev_off);
   put_byte(i, 1); put(i, 0x4000, 8);
   put_byte(i, 2); put(i, str_main3, 8); put(i, 0x4000, 8); put(i, 0x100, 8);
   put_uleb(i, 1); put_byte(i, 0x56);                 /* DW_OP_reg6 */
   put_byte(i, 3); ref(i, L_LEAF, 8, 0); put(i, 0x4010, 8); put_uleb(i, 0x10);
   put_byte(i, 4); ref(i, L_W, 8, 0); expr_op_sleb(i, 0x91, -64);
   put_byte(i, 0);
   put_byte(i, 0);
   put_byte(i, 0);
   unit_end(i, len_at, 1);
}

static void build_object(object *ob)
{
   memset(ob, 0, sizeof *ob);
   n_fix = 0;
   unit_v5(ob);
   patch(&ob->info);
   unit_v4(ob);
   patch(&ob->info);
   unit_v5_64(ob);
   patch(&ob->info);
}

typedef struct {
   uint64_t lo, hi;
   const char *name, *function;
   uint64_t size;
   mp_dw_base base;
   int64_t offset;
} want;

static void expect(const mp_dw_local *got, size_t n, const want *w, size_t nw)
{
   size_t k;
   for (k = 0; k < n; k++)
      fprintf(stderr, "  [%#lx,%#lx) %s in %s, %lu bytes at %d%+ld\n",
              (unsigned long)got[k].lo, (unsigned long)got[k].hi, got[k].name,
              got[k].function, (unsigned long)got[k].size, (int)got[k].base,
              (long)got[k].offset);
   ck_assert_uint_eq(n, nw);
   for (k = 0; k < n; k++) {
      ck_assert_uint_eq(got[k].lo, w[k].lo);
      ck_assert_uint_eq(got[k].hi, w[k].hi);
      ck_assert_str_eq(got[k].name, w[k].name);
      ck_assert_str_eq(got[k].function, w[k].function);
      ck_assert_uint_eq(got[k].size, w[k].size);
      ck_assert_int_eq(got[k].base, w[k].base);
      ck_assert_int_eq(got[k].offset, w[k].offset);
   }
}

START_TEST(test_hand_encoded)
{
   static const want w[] = {
      { 0x1010, 0x1090, "direct", "kernel", 8, MP_DW_CFA, -48 },
      { 0x1010, 0x1090, "gamma", "kernel", 256, MP_DW_CFA, -300 },
      { 0x1020, 0x1030, "tmp", "kernel", 4, MP_DW_SP, 16 },
      { 0x1040, 0x1048, "tmp", "kernel", 4, MP_DW_SP, 16 },
      { 0x1050, 0x1090, "lv", "kernel", 8, MP_DW_FP, -8 },
      { 0x1060, 0x1070, "w", "leaf", 4, MP_DW_CFA, -40 },
      { 0x2010, 0x2030, "arr", "ns::Klass::method", 12, MP_DW_SP, -8 },
      { 0x2018, 0x2020, "arr", "ns::Klass::method", 12, MP_DW_SP, -24 },
      { 0x2050, 0x2060, "arr", "ns::Klass::method", 12, MP_DW_SP, -8 },
      { 0x4010, 0x4020, "w", "leaf", 4, MP_DW_FP, -64 },
   };
   object ob;
   mp_dwarf_sections s;
   mp_dw_local *got;
   size_t n, skipped = 99;
   build_object(&ob);
   s = sections_of(&ob);
   n = mp_dwarf_read_inlined_locals(&s, &got, &skipped);
   expect(got, n, w, sizeof w / sizeof w[0]);
   ck_assert_uint_eq(skipped, 0);
   mp_dwarf_locals_free(got, n);

   /* no sections at all */
   memset(&s, 0, sizeof s);
   n = mp_dwarf_read_inlined_locals(&s, &got, &skipped);
   ck_assert_uint_eq(n, 0);
   ck_assert_ptr_null(got);
   ck_assert_uint_eq(skipped, 0);
   object_free(&ob);
}
END_TEST

/* A unit with a form it does not know is skipped, and counted; the
   others are still read. */
START_TEST(test_unknown_form)
{
   object ob;
   mp_dwarf_sections s;
   mp_dw_local *got;
   size_t n, skipped = 0, k;
   build_object(&ob);
   /* unit 2's abbreviation 2 (base_type int: name string, byte_size
      data1) gets the byte_size form 0x7f */
   for (k = 0; k + 3 < ob.abbrev.n; k++)
      if (ob.abbrev.b[k] == 0x03 && ob.abbrev.b[k + 1] == 0x08 && ob.abbrev.b[k + 2] == 0x0b
          && ob.abbrev.b[k + 3] == 0x0b && k > 2 && ob.abbrev.b[k - 3] == 2
          && ob.abbrev.b[k - 2] == 0x24) {
         ob.abbrev.b[k + 3] = 0x7f;
         break;
      }
   s = sections_of(&ob);
   n = mp_dwarf_read_inlined_locals(&s, &got, &skipped);
   ck_assert_uint_eq(skipped, 1);
   ck_assert_uint_eq(n, 7);     /* unit 1's six, unit 3's one */
   mp_dwarf_locals_free(got, n);
   object_free(&ob);
}
END_TEST

/* Corrupted copies: every section in turn gets random bytes flipped,
   or is cut short; nothing may crash, hang or read outside (run under
   valgrind to see the last). */
static void fuzz_sections(mp_dwarf_sections *s, const object *ob, unsigned rounds)
{
   buf *secs[10];
   const buf *orig[10] = { &ob->info, &ob->abbrev, &ob->str, &ob->line_str, &ob->str_offsets,
                           &ob->addr, &ob->rnglists, &ob->loclists, &ob->ranges, &ob->loc };
   unsigned round, k;
   for (k = 0; k < 10; k++) {
      secs[k] = calloc(1, sizeof(buf));
      ck_assert_ptr_nonnull(secs[k]);
   }
   for (round = 0; round < rounds; round++) {
      mp_dw_local *got;
      size_t n, skipped;
      unsigned which = (unsigned)(rng() % 10), flips = 1 + (unsigned)(rng() % 8);
      for (k = 0; k < 10; k++) {
         /* exact-size copies, so that a read past the end is seen */
         free(secs[k]->b);
         secs[k]->n = orig[k]->n;
         secs[k]->b = orig[k]->n ? malloc(orig[k]->n) : NULL;
         if (orig[k]->n)
            memcpy(secs[k]->b, orig[k]->b, orig[k]->n);
      }
      if (secs[which]->n) {
         if (rng() % 4 == 0)
            secs[which]->n = (size_t)(rng() % secs[which]->n);
         else
            for (k = 0; k < flips; k++) {
               size_t at = (size_t)(rng() % secs[which]->n);
               secs[which]->b[at] = rng() % 2 ? (uint8_t)rng() : secs[which]->b[at] ^ (uint8_t)(1u << (rng() % 8));
            }
      }
#define SEC(i, x) s->x = secs[i]->b; s->x##_size = secs[i]->n
      SEC(0, info); SEC(1, abbrev); SEC(2, str); SEC(3, line_str); SEC(4, str_offsets);
      SEC(5, addr); SEC(6, rnglists); SEC(7, loclists); SEC(8, ranges); SEC(9, loc);
#undef SEC
      n = mp_dwarf_read_inlined_locals(s, &got, &skipped);
      for (k = 0; k < n; k++) {
         ck_assert_ptr_nonnull(got[k].name);
         ck_assert_ptr_nonnull(got[k].function);
         ck_assert(got[k].lo < got[k].hi);
         ck_assert(got[k].size > 0);
         if (k)
            ck_assert(got[k - 1].lo <= got[k].lo);
      }
      mp_dwarf_locals_free(got, n);
   }
   for (k = 0; k < 10; k++) {
      free(secs[k]->b);
      free(secs[k]);
   }
}

START_TEST(test_malformed)
{
   object ob;
   mp_dwarf_sections s;
   const char *env = getenv("MP_FUZZ_ROUNDS");
   build_object(&ob);
   rng_state = 0x9e3779b97f4a7c15ull;
   fuzz_sections(&s, &ob, env ? (unsigned)atoi(env) : 20000);
   object_free(&ob);
}
END_TEST

/*------------------------------------------------------------*/
/*--- Real compiler output                                 ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint8_t *file;
   size_t size;
   mp_dwarf_sections s;
   uint64_t main_lo, main_hi;
} elf_image;

/* The debug sections and main's range of an ELF64 executable. */
static int read_elf(const char *path, elf_image *im)
{
   FILE *f = fopen(path, "rb");
   const Elf64_Ehdr *eh;
   const Elf64_Shdr *sh;
   const char *names;
   int k;
   memset(im, 0, sizeof *im);
   if (!f)
      return 0;
   fseek(f, 0, SEEK_END);
   im->size = (size_t)ftell(f);
   fseek(f, 0, SEEK_SET);
   im->file = malloc(im->size);
   ck_assert_ptr_nonnull(im->file);
   ck_assert_uint_eq(fread(im->file, 1, im->size, f), im->size);
   fclose(f);
   eh = (const Elf64_Ehdr *)im->file;
   ck_assert(memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64);
   sh = (const Elf64_Shdr *)(im->file + eh->e_shoff);
   names = (const char *)im->file + sh[eh->e_shstrndx].sh_offset;
   for (k = 0; k < eh->e_shnum; k++) {
      const char *nm = names + sh[k].sh_name;
      const uint8_t *p = im->file + sh[k].sh_offset;
      uint64_t n = sh[k].sh_size;
      if (strncmp(nm, ".debug_", 7) == 0)
         ck_assert_msg(!(sh[k].sh_flags & SHF_COMPRESSED), "%s is compressed", nm);
#define SEC(x) if (strcmp(nm, ".debug_" #x) == 0) { im->s.x = p; im->s.x##_size = n; }
      SEC(info) SEC(abbrev) SEC(str) SEC(line_str) SEC(str_offsets) SEC(addr)
      SEC(rnglists) SEC(loclists) SEC(ranges) SEC(loc)
#undef SEC
      if (sh[k].sh_type == SHT_SYMTAB) {
         const Elf64_Sym *sym = (const Elf64_Sym *)p;
         const char *strs = (const char *)im->file + sh[sh[k].sh_link].sh_offset;
         size_t i;
         for (i = 0; i < n / sizeof *sym; i++)
            if (strcmp(strs + sym[i].st_name, "main") == 0) {
               im->main_lo = sym[i].st_value;
               im->main_hi = sym[i].st_value + sym[i].st_size;
            }
      }
   }
   return im->s.info != NULL;
}

static const char c_program[] =
   "#include <stdio.h>\n"
   "static inline __attribute__((always_inline)) double fill(int n)\n"
   "{\n"
   "   double buf[64];\n"
   "   volatile double *vp = buf;\n"
   "   double sum = 0;\n"
   "   for (int i = 0; i < 64; i++)\n"
   "      vp[i] = i * n;\n"
   "   for (int i = 0; i < 64; i++)\n"
   "      sum += vp[i];\n"
   "   return sum;\n"
   "}\n"
   "int main(int argc, char **argv)\n"
   "{\n"
   "   (void)argv;\n"
   "   printf(\"%g\\n\", fill(argc));\n"
   "   return 0;\n"
   "}\n";

static const char cxx_program[] =
   "#include <cstdio>\n"
   "class Klass {\n"
   "public:\n"
   "   __attribute__((always_inline)) double method(int n)\n"
   "   {\n"
   "      double tab[32];\n"
   "      volatile double *vp = tab;\n"
   "      double s = 0;\n"
   "      for (int i = 0; i < 32; i++)\n"
   "         vp[i] = i * n * scale;\n"
   "      for (int i = 0; i < 32; i++)\n"
   "         s += vp[i];\n"
   "      return s;\n"
   "   }\n"
   "   double scale = 2;\n"
   "};\n"
   "int main(int argc, char **)\n"
   "{\n"
   "   Klass k;\n"
   "   std::printf(\"%g\\n\", k.method(argc));\n"
   "   return 0;\n"
   "}\n";

static int have(const char *tool)
{
   char cmd[128];
   snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
   return system(cmd) == 0;
}

/* Compiles program with cc and flags; checks that the local 'var' of
   the inlined 'func' is found, size bytes, within main, in memory at
   one of the bases allowed (a bit set per mp_dw_base). */
static void check_compiled(const char *cc, const char *flags, const char *ext,
                           const char *program, const char *var, const char *func,
                           uint64_t size, unsigned bases)
{
   char dir[] = "/tmp/mp_dwarf_XXXXXX", src[128], exe[128], cmd[512];
   FILE *f;
   elf_image im;
   mp_dw_local *got;
   size_t n, k, skipped = 99, hits = 0;
   if (!have(cc)) {
      fprintf(stderr, "test_dwarf_locals: no %s, its part skipped\n", cc);
      return;
   }
   ck_assert_ptr_nonnull(mkdtemp(dir));
   snprintf(src, sizeof src, "%s/prog.%s", dir, ext);
   snprintf(exe, sizeof exe, "%s/prog", dir);
   f = fopen(src, "w");
   ck_assert_ptr_nonnull(f);
   fputs(program, f);
   fclose(f);
   snprintf(cmd, sizeof cmd, "%s %s -o %s %s", cc, flags, exe, src);
   ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
   ck_assert(read_elf(exe, &im));
   n = mp_dwarf_read_inlined_locals(&im.s, &got, &skipped);
   fprintf(stderr, "%s %s: %zu locals of inlined functions, %zu units skipped\n",
           cc, flags, n, skipped);
   for (k = 0; k < n; k++) {
      fprintf(stderr, "  [%#lx,%#lx) %s in %s, %lu bytes at %s%+ld\n",
              (unsigned long)got[k].lo, (unsigned long)got[k].hi, got[k].name,
              got[k].function, (unsigned long)got[k].size,
              got[k].base == MP_DW_CFA ? "cfa" : got[k].base == MP_DW_SP ? "sp" : "fp",
              (long)got[k].offset);
      if (strcmp(got[k].name, var) == 0 && strcmp(got[k].function, func) == 0) {
         hits++;
         ck_assert_uint_eq(got[k].size, size);
         ck_assert_msg((bases >> got[k].base) & 1, "base %d", (int)got[k].base);
         ck_assert(got[k].lo >= im.main_lo && got[k].hi <= im.main_hi);
      }
   }
   ck_assert_msg(hits > 0, "%s of %s not found (%s %s)", var, func, cc, flags);
   ck_assert_uint_eq(skipped, 0);
   mp_dwarf_locals_free(got, n);
   free(im.file);
   snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
   ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_gcc)
{
   check_compiled("gcc", "-O2 -g", "c", c_program, "buf", "fill", 512, 1u << MP_DW_CFA);
   check_compiled("gcc", "-O2 -gdwarf-4", "c", c_program, "buf", "fill", 512, 1u << MP_DW_CFA);
}
END_TEST

START_TEST(test_gxx)
{
   check_compiled("g++", "-O2 -g", "cc", cxx_program, "tab", "Klass::method", 256,
                  1u << MP_DW_CFA);
   check_compiled("g++", "-O2 -gdwarf-4", "cc", cxx_program, "tab", "Klass::method", 256,
                  1u << MP_DW_CFA);
}
END_TEST

/* clang's DWARF 5 uses the indexed forms (strx, addrx, rnglistx,
   loclistx) gcc does not. */
START_TEST(test_clang)
{
   unsigned any = 1u << MP_DW_CFA | 1u << MP_DW_SP | 1u << MP_DW_FP;
   check_compiled("clang", "-O2 -g", "c", c_program, "buf", "fill", 512, any);
   check_compiled("clang", "-O2 -gdwarf-4", "c", c_program, "buf", "fill", 512, any);
   check_compiled("clang++", "-O2 -g", "cc", cxx_program, "tab", "Klass::method", 256, any);
}
END_TEST

/* The real programs' sections, corrupted. */
START_TEST(test_malformed_real)
{
   char dir[] = "/tmp/mp_dwarf_XXXXXX", src[128], exe[128], cmd[512];
   FILE *f;
   elf_image im;
   object ob;
   mp_dwarf_sections s;
   const char *env = getenv("MP_FUZZ_ROUNDS");
   if (!have("gcc"))
      return;
   ck_assert_ptr_nonnull(mkdtemp(dir));
   snprintf(src, sizeof src, "%s/prog.c", dir);
   snprintf(exe, sizeof exe, "%s/prog", dir);
   f = fopen(src, "w");
   ck_assert_ptr_nonnull(f);
   fputs(c_program, f);
   fclose(f);
   snprintf(cmd, sizeof cmd, "gcc -O2 -g -o %s %s", exe, src);
   ck_assert_int_eq(system(cmd), 0);
   ck_assert(read_elf(exe, &im));
   memset(&ob, 0, sizeof ob);
#define SEC(x) ob.x.b = (uint8_t *)im.s.x; ob.x.n = im.s.x##_size
   SEC(info); SEC(abbrev); SEC(str); SEC(line_str); SEC(str_offsets); SEC(addr);
   SEC(rnglists); SEC(loclists); SEC(ranges); SEC(loc);
#undef SEC
   rng_state = 0x2545f4914f6cdd1dull;
   fuzz_sections(&s, &ob, env ? (unsigned)atoi(env) / 4 : 5000);
   free(im.file);
   snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
   ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("dwarf_locals");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_hand_encoded);
   tcase_add_test(tc, test_unknown_form);
   tcase_add_test(tc, test_malformed);
   tcase_add_test(tc, test_gcc);
   tcase_add_test(tc, test_gxx);
   tcase_add_test(tc, test_clang);
   tcase_add_test(tc, test_malformed_real);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
