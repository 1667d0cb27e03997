/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of mp_prefetch, the prefetcher's detectors: hand-derived
   sequences (a sequential walk prefetches each next line once trained,
   a constant stride is confirmed after two equal steps, random misses
   prefetch almost nothing useful, regions bound every stream, the table
   of N streams is LRU), a brute-force reference written here
   independently (a move-to-front list per core, addresses divided
   rather than shifted) that random traces must match miss by miss, and
   the option's parsing. */
#include "mp_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_prefetch.h"

static mp_prefetch *make(mp_prefetch_kind kind, uint32_t streams, uint32_t cores,
                         uint32_t line)
{
   mp_prefetch_cfg cfg = { kind, streams };
   return mp_prefetch_new(&cfg, cores, line);
}

/* The lines asked for after one miss, as "a,b" ("" for none). */
static const char *ask(mp_prefetch *p, uint32_t core, uint64_t addr, uint64_t pc)
{
   static char buf[64];
   uint64_t out[MP_PREFETCH_MAX_DEGREE];
   uint32_t n = mp_prefetch_miss(p, core, addr, pc, out), i;
   buf[0] = 0;
   for (i = 0; i < n; i++)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%llu", i ? "," : "",
               (unsigned long long)out[i]);
   return buf;
}

/*------------------------------------------------------------*/
/*--- Hand-derived sequences                               ---*/
/*------------------------------------------------------------*/

/* Lines 0..63 of one 4 KiB page, in order: the third miss (two steps
   up) confirms the stream; from then on each miss asks for the next two
   lines, never beyond line 63. */
START_TEST(test_stream_ascending)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 16, 1, 64);
   char want[64];
   uint64_t l;
   ck_assert_str_eq(ask(p, 0, 0 * 64 + 8, 0), "");
   ck_assert_str_eq(ask(p, 0, 1 * 64, 0), "");
   for (l = 2; l < 62; l++) {
      snprintf(want, sizeof want, "%llu,%llu", (unsigned long long)l + 1,
               (unsigned long long)l + 2);
      ck_assert_str_eq(ask(p, 0, l * 64 + 40, 0), want);
   }
   ck_assert_str_eq(ask(p, 0, 62 * 64, 0), "63");
   ck_assert_str_eq(ask(p, 0, 63 * 64, 0), "");
   /* The next page is a new stream: three misses again. */
   ck_assert_str_eq(ask(p, 0, 64 * 64, 0), "");
   ck_assert_str_eq(ask(p, 0, 65 * 64, 0), "");
   ck_assert_str_eq(ask(p, 0, 66 * 64, 0), "67,68");
   mp_prefetch_free(p);
}
END_TEST

START_TEST(test_stream_descending)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 16, 1, 64);
   uint64_t base = 10 * 64;   /* lines 640..703: page 10 */
   ck_assert_str_eq(ask(p, 0, (base + 63) * 64, 0), "");
   ck_assert_str_eq(ask(p, 0, (base + 62) * 64, 0), "");
   ck_assert_str_eq(ask(p, 0, (base + 61) * 64, 0), "700,699");
   ck_assert_str_eq(ask(p, 0, (base + 1) * 64, 0), "");   /* a jump: restart */
   ck_assert_str_eq(ask(p, 0, (base + 0) * 64, 0), "");   /* one step down */
   ck_assert_str_eq(ask(p, 0, (base + 2) * 64, 0), "");   /* turned: one step up */
   ck_assert_str_eq(ask(p, 0, (base + 3) * 64, 0), "644,645");
   mp_prefetch_free(p);
}
END_TEST

/* Steps of one or two lines count; the same line again changes nothing;
   a step of three restarts. */
START_TEST(test_stream_window)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 16, 1, 64);
   ck_assert_str_eq(ask(p, 0, 0, 0), "");
   ck_assert_str_eq(ask(p, 0, 2 * 64, 0), "");
   ck_assert_str_eq(ask(p, 0, 2 * 64 + 8, 0), "");     /* same line */
   ck_assert_str_eq(ask(p, 0, 4 * 64, 0), "5,6");
   ck_assert_str_eq(ask(p, 0, 7 * 64, 0), "");         /* +3: restart */
   ck_assert_str_eq(ask(p, 0, 8 * 64, 0), "");
   ck_assert_str_eq(ask(p, 0, 9 * 64, 0), "10,11");
   mp_prefetch_free(p);
}
END_TEST

/* Two streams interleaved stay apart, one per region; with a table of
   one stream they evict each other and never confirm. */
START_TEST(test_stream_table)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 2, 1, 64), *q = make(MP_PREFETCH_STREAM, 1, 1, 64);
   uint64_t i, asked_p = 0, asked_q = 0;
   for (i = 0; i < 40; i++) {
      uint64_t a = (i % 2 ? 0x10000 : 0x40000) + (i / 2) * 64;
      asked_p += strlen(ask(p, 0, a, 0)) > 0;
      asked_q += strlen(ask(q, 0, a, 0)) > 0;
   }
   ck_assert_uint_eq(asked_p, 36);   /* all but each stream's first two */
   ck_assert_uint_eq(asked_q, 0);
   /* Three streams in a table of two: LRU evicts the one needed next. */
   mp_prefetch_free(p);
   p = make(MP_PREFETCH_STREAM, 2, 1, 64);
   asked_p = 0;
   for (i = 0; i < 60; i++)
      asked_p += strlen(ask(p, 0, (i % 3) * 0x10000 + (i / 3) * 64, 0)) > 0;
   ck_assert_uint_eq(asked_p, 0);
   mp_prefetch_free(p);
   mp_prefetch_free(q);
}
END_TEST

/* Each core has its own table. */
START_TEST(test_stream_cores)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 16, 2, 64);
   ck_assert_str_eq(ask(p, 0, 0, 0), "");
   ck_assert_str_eq(ask(p, 1, 64, 0), "");
   ck_assert_str_eq(ask(p, 0, 128, 0), "");   /* core 0: one step of 2 */
   ck_assert_str_eq(ask(p, 1, 128, 0), "");
   ck_assert_str_eq(ask(p, 1, 192, 0), "4,5");
   ck_assert_str_eq(ask(p, 0, 192, 0), "4,5");
   mp_prefetch_free(p);
}
END_TEST

/* Random misses over 64 MiB: the streams almost never confirm. */
START_TEST(test_stream_random)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 16, 1, 64);
   uint64_t i, asked = 0;
   rng_state = 12345;
   for (i = 0; i < 100000; i++)
      asked += strlen(ask(p, 0, rng() % (64 << 20), 0)) > 0;
   ck_assert_uint_lt(asked, 10);
   mp_prefetch_free(p);
}
END_TEST

/* One instruction walking 200 bytes at a time: confirmed at its third
   miss, then each miss asks for the line of the next address, within
   the miss's 4 KiB region only. */
START_TEST(test_stride_confirm)
{
   mp_prefetch *p = make(MP_PREFETCH_STRIDE, 16, 1, 64);
   uint64_t a = 0x100000, i;
   char want[32];
   ck_assert_str_eq(ask(p, 0, a, 0x400100), "");
   ck_assert_str_eq(ask(p, 0, a + 200, 0x400100), "");
   for (i = 2; i < 20; i++) {
      uint64_t next = a + (i + 1) * 200;
      if (next >> 12 != (a + i * 200) >> 12)
         strcpy(want, "");                      /* 4,000 + 200 leaves the page */
      else
         snprintf(want, sizeof want, "%llu", (unsigned long long)(next >> 6));
      ck_assert_str_eq(ask(p, 0, a + i * 200, 0x400100), want);
   }
   mp_prefetch_free(p);
}
END_TEST

/* Negative strides, a stride change, strides within a line, and strides
   of a page or more. */
START_TEST(test_stride_cases)
{
   mp_prefetch *p = make(MP_PREFETCH_STRIDE, 16, 1, 64);
   uint64_t a = 0x200f00;
   ck_assert_str_eq(ask(p, 0, a, 1), "");
   ck_assert_str_eq(ask(p, 0, a - 256, 1), "");
   ck_assert_str_eq(ask(p, 0, a - 512, 1), "32816");        /* (a - 768) / 64 */
   ck_assert_str_eq(ask(p, 0, a - 512 + 128, 1), "");        /* new stride: once */
   ck_assert_str_eq(ask(p, 0, a - 512 + 256, 1), "32826");   /* (a - 128) / 64 */
   /* 8 bytes at a time: the next address is in the same line. */
   ck_assert_str_eq(ask(p, 0, 0x300000, 2), "");
   ck_assert_str_eq(ask(p, 0, 0x300008, 2), "");
   ck_assert_str_eq(ask(p, 0, 0x300010, 2), "");
   /* 4 KiB at a time: always another page. */
   ck_assert_str_eq(ask(p, 0, 0x400000, 3), "");
   ck_assert_str_eq(ask(p, 0, 0x401000, 3), "");
   ck_assert_str_eq(ask(p, 0, 0x402000, 3), "");
   /* A stride that wraps below address 0 is another region. */
   ck_assert_str_eq(ask(p, 0, 0x200, 4), "");
   ck_assert_str_eq(ask(p, 0, 0x100, 4), "");
   ck_assert_str_eq(ask(p, 0, 0x0, 4), "");
   mp_prefetch_free(p);
}
END_TEST

/* Two instructions interleaved, each with its own stride, in the same
   pages: keyed by instruction, both confirm; without instruction
   addresses (pc 0) they share the region's stream and never do. */
START_TEST(test_stride_keys)
{
   mp_prefetch *p = make(MP_PREFETCH_STRIDE, 16, 1, 64);
   uint64_t i, with_pc = 0, without = 0;
   for (i = 0; i < 16; i++) {
      with_pc += strlen(ask(p, 0, 0x500000 + i * 128, 0x1000)) > 0;
      with_pc += strlen(ask(p, 0, 0x500800 + i * 64, 0x2000)) > 0;
   }
   ck_assert_uint_eq(with_pc, 2 * 14);
   mp_prefetch_free(p);
   p = make(MP_PREFETCH_STRIDE, 16, 1, 64);
   for (i = 0; i < 16; i++) {
      without += strlen(ask(p, 0, 0x500000 + i * 128, 0)) > 0;
      without += strlen(ask(p, 0, 0x500800 + i * 64, 0)) > 0;
   }
   ck_assert_uint_eq(without, 0);
   /* One instruction alone, no pc: keyed by its region, it confirms. */
   ck_assert_str_eq(ask(p, 0, 0x600000, 0), "");
   ck_assert_str_eq(ask(p, 0, 0x600100, 0), "");
   ck_assert_str_eq(ask(p, 0, 0x600200, 0), "98316");   /* 0x600300 / 64 */
   mp_prefetch_free(p);
}
END_TEST

START_TEST(test_stride_random)
{
   mp_prefetch *p = make(MP_PREFETCH_STRIDE, 16, 1, 64);
   uint64_t i, asked = 0;
   rng_state = 777;
   for (i = 0; i < 100000; i++)
      asked += strlen(ask(p, 0, rng() % (64 << 20), 0x400000 + (rng() % 4) * 16)) > 0;
   ck_assert_uint_lt(asked, 10);
   mp_prefetch_free(p);
}
END_TEST

/* Lines of 4 KiB or more are regions of their own: nothing to ask. */
START_TEST(test_big_lines)
{
   mp_prefetch *p = make(MP_PREFETCH_STREAM, 16, 1, 4096);
   uint64_t i;
   for (i = 0; i < 10; i++)
      ck_assert_str_eq(ask(p, 0, i * 4096, 0), "");
   mp_prefetch_free(p);
}
END_TEST

/*------------------------------------------------------------*/
/*--- The reference                                        ---*/
/*------------------------------------------------------------*/

typedef struct {
   uint64_t key, last;
   int64_t step;
   uint32_t conf;
} rstream;

/* Per core: the streams, most recently used first. */
typedef struct {
   int kind;
   uint32_t cap, cores, line;
   rstream *s;     /* cores * cap */
   uint32_t *n;    /* per core */
} ref;

static void ref_init(ref *r, int kind, uint32_t cap, uint32_t cores, uint32_t line)
{
   r->kind = kind;
   r->cap = cap;
   r->cores = cores;
   r->line = line;
   r->s = calloc((size_t)cores * cap, sizeof(rstream));
   r->n = calloc(cores, sizeof(uint32_t));
}

/* The stream of key, moved to the front; *fresh if made now. */
static rstream *ref_find(ref *r, uint32_t core, uint64_t key, int *fresh)
{
   rstream *s = &r->s[(size_t)core * r->cap], x;
   uint32_t i;
   for (i = 0; i < r->n[core]; i++)
      if (s[i].key == key)
         break;
   *fresh = i == r->n[core];
   if (*fresh) {
      memset(&x, 0, sizeof x);
      x.key = key;
      if (r->n[core] < r->cap)
         r->n[core]++;
      i = r->n[core] - 1;   /* the least recent, or the new slot */
   } else {
      x = s[i];
   }
   memmove(&s[1], &s[0], i * sizeof(rstream));
   s[0] = x;
   return &s[0];
}

static uint32_t ref_miss(ref *r, uint32_t core, uint64_t addr, uint64_t pc, uint64_t *out)
{
   uint64_t page = addr / 4096, line = addr / r->line;
   uint32_t n = 0;
   int fresh;
   rstream *s;
   if (r->kind == MP_PREFETCH_STREAM) {
      int64_t d;
      uint32_t i;
      s = ref_find(r, core, page + 1, &fresh);
      if (fresh) {
         s->last = line;
         return 0;
      }
      d = (int64_t)line - (int64_t)s->last;
      if (d == 0)
         return 0;
      s->last = line;
      if (llabs(d) > 2) {
         s->step = 0;
         s->conf = 0;
         return 0;
      }
      if ((d > 0) == (s->step > 0) && s->step != 0) {
         s->conf++;
      } else {
         s->step = d > 0 ? 1 : -1;
         s->conf = 1;
      }
      if (s->conf < 2)
         return 0;
      for (i = 1; i <= 2; i++) {
         uint64_t next = line + (uint64_t)(s->step * (int64_t)i);
         if (next * r->line / 4096 != page || (s->step < 0 && line < i))
            break;
         out[n++] = next;
      }
      return n;
   }
   s = ref_find(r, core, pc ? pc : page | 1ULL << 63, &fresh);
   if (fresh) {
      s->last = addr;
      return 0;
   }
   if (addr == s->last)
      return 0;
   if ((int64_t)(addr - s->last) == s->step && s->conf > 0) {
      s->conf++;
   } else {
      s->step = (int64_t)(addr - s->last);
      s->conf = 1;
   }
   s->last = addr;
   if (s->conf >= 2) {
      uint64_t t = addr + (uint64_t)s->step;
      if (t / 4096 == page && t / r->line != line)
         out[n++] = t / r->line;
   }
   return n;
}

/* Traces: per core, runs of sequential walks up or down (element sizes
   4 to 256), strided walks, and random misses, from a few instructions,
   over a region of a few MiB. */
static uint64_t compare(int kind, uint32_t streams, uint32_t cores, uint32_t line,
                        uint64_t seed, uint64_t n, uint64_t *asked)
{
   mp_prefetch *p = make((mp_prefetch_kind)kind, streams, cores, line);
   ref r;
   uint64_t pos[8] = { 0 }, i, bad = 0;
   int64_t step[8] = { 0 };
   uint64_t pcs[8] = { 0 };
   ref_init(&r, kind, streams, cores, line);
   rng_state = seed;
   *asked = 0;
   for (i = 0; i < n; i++) {
      uint32_t core = (uint32_t)(rng() % cores), j = (uint32_t)(rng() % 8), a, b, k;
      uint64_t addr, pc, o1[MP_PREFETCH_MAX_DEGREE], o2[MP_PREFETCH_MAX_DEGREE];
      if (rng() % 64 == 0 || step[j] == 0) {   /* a new walk for slot j */
         static const int64_t steps[] = { 4, 8, 64, 128, 200, -8, -64, 4096, 24, 256 };
         pos[j] = rng() % (8 << 20);
         step[j] = steps[rng() % 10];
         pcs[j] = rng() % 3 ? 0x400000 + 16 * j : 0;
      }
      if (rng() % 10 == 0) {
         addr = rng() % (8 << 20);
         pc = 0x500000 + 16 * (rng() % 4);
      } else {
         pos[j] += (uint64_t)step[j];
         addr = pos[j];
         pc = pcs[j];
      }
      a = mp_prefetch_miss(p, core, addr, pc, o1);
      b = ref_miss(&r, core, addr, pc, o2);
      *asked += a;
      if (a != b) {
         bad++;
         continue;
      }
      for (k = 0; k < a; k++)
         bad += o1[k] != o2[k];
   }
   mp_prefetch_free(p);
   free(r.s);
   free(r.n);
   return bad;
}

START_TEST(test_against_reference)
{
   static const struct { int kind; uint32_t streams, cores, line; } g[] = {
      { MP_PREFETCH_STREAM, 16, 1, 64 }, { MP_PREFETCH_STREAM, 4, 2, 64 },
      { MP_PREFETCH_STREAM, 1, 1, 32 }, { MP_PREFETCH_STREAM, 64, 3, 128 },
      { MP_PREFETCH_STRIDE, 16, 1, 64 }, { MP_PREFETCH_STRIDE, 4, 2, 64 },
      { MP_PREFETCH_STRIDE, 1, 1, 32 }, { MP_PREFETCH_STRIDE, 64, 3, 128 },
   };
   uint32_t i;
   for (i = 0; i < sizeof g / sizeof g[0]; i++) {
      uint64_t asked, bad = compare(g[i].kind, g[i].streams, g[i].cores, g[i].line,
                                    1000 + i, 200000, &asked);
      ck_assert_msg(bad == 0, "geometry %u: %llu disagreements", i, (unsigned long long)bad);
      /* The traces must exercise prefetching (a table of one stream
         confirms least: 974 lines). */
      ck_assert_msg(asked > 500, "geometry %u: only %llu lines asked", i,
                    (unsigned long long)asked);
   }
}
END_TEST

/*------------------------------------------------------------*/
/*--- Parsing                                              ---*/
/*------------------------------------------------------------*/

static void parses(const char *spec, mp_prefetch_kind kind, uint32_t streams)
{
   mp_prefetch_cfg c;
   const char *err = NULL;
   ck_assert_msg(mp_prefetch_parse(spec, &c, &err) == 0, "%s: %s", spec, err);
   ck_assert_int_eq(c.kind, kind);
   ck_assert_uint_eq(c.streams, streams);
}

static void refused(const char *spec, const char *msg)
{
   mp_prefetch_cfg c;
   const char *err = NULL;
   ck_assert_int_eq(mp_prefetch_parse(spec, &c, &err), -1);
   ck_assert_str_eq(err, msg);
}

START_TEST(test_parse)
{
   parses("none", MP_PREFETCH_NONE, MP_PREFETCH_DEFAULT_STREAMS);
   parses("stream", MP_PREFETCH_STREAM, 16);
   parses("stride", MP_PREFETCH_STRIDE, 16);
   parses("stream,1", MP_PREFETCH_STREAM, 1);
   parses("stride,64", MP_PREFETCH_STRIDE, 64);
   refused("bogus", "'bogus' is not a prefetcher: expected none, stream, stride, "
           "stream,N or stride,N (N streams per core, 1 to 64; 16 if not given)");
   refused("", "'' is not a prefetcher: expected none, stream, stride, "
           "stream,N or stride,N (N streams per core, 1 to 64; 16 if not given)");
   refused("none,4", "'none,4' is not a prefetcher: expected none, stream, stride, "
           "stream,N or stride,N (N streams per core, 1 to 64; 16 if not given)");
   refused("streams", "'streams' is not a prefetcher: expected none, stream, stride, "
           "stream,N or stride,N (N streams per core, 1 to 64; 16 if not given)");
   refused("stream,0", "stream,0: 0 streams per core, expected 1 to 64");
   refused("stride,65", "stride,65: 65 streams per core, expected 1 to 64");
   refused("stream,", "'stream,': expected stream,N with N the streams per core, 1 to 64");
   refused("stride,x", "'stride,x': expected stride,N with N the streams per core, 1 to 64");
   refused("stream,4k", "'stream,4k': expected stream,N with N the streams per core, 1 to 64");
   refused("stream,99999999999", "'stream,99999999999': expected stream,N with N the "
           "streams per core, 1 to 64");
   ck_assert_str_eq(mp_prefetch_kind_name(MP_PREFETCH_STRIDE), "stride");
}
END_TEST

int main(void)
{
   Suite *s = suite_create("prefetch");
   TCase *tc = tcase_create("core");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, test_stream_ascending);
   tcase_add_test(tc, test_stream_descending);
   tcase_add_test(tc, test_stream_window);
   tcase_add_test(tc, test_stream_table);
   tcase_add_test(tc, test_stream_cores);
   tcase_add_test(tc, test_stream_random);
   tcase_add_test(tc, test_stride_confirm);
   tcase_add_test(tc, test_stride_cases);
   tcase_add_test(tc, test_stride_keys);
   tcase_add_test(tc, test_stride_random);
   tcase_add_test(tc, test_big_lines);
   tcase_add_test(tc, test_against_reference);
   tcase_add_test(tc, test_parse);
   suite_add_tcase(s, tc);
   return mp_test_run(s);
}
