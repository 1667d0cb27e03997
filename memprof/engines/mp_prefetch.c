/*--------------------------------------------------------------------*/
/*--- memprof: the hardware prefetcher's stream detectors.         ---*/
/*---                                                 mp_prefetch.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Notes:
   - One table per core, of N entries, searched linearly: N is small
     (16 by default, 64 at most) and the search runs once per demand
     miss of the core, never on a hit.  The least recently used entry
     (a per-core clock stamped on every use) makes room for a new
     stream; stamps are unique, so the choice is deterministic.
   - Stream key: the 4 KiB region of the line + 1 (0 marks a free
     entry).  Stride key: the instruction address, or the region with
     the top bit set when the access has none (no instruction address
     has it: user space is below 2^63).
   - Confirmation counts steps: conf is how many steps in a row went the
     same way (stream: the direction; stride: the stride), so the third
     miss of a regular walk is the first to prefetch, whichever the kind.
*/
#include "mp_prefetch.h"
#include "mp_util.h"

#define STREAM_WINDOW 2     /* lines: how far a stream's next miss may be */
#define CONFIRM       2     /* steps in a row that make a stream */
#define NO_PC_KEY     (1ULL << 63)

typedef struct {
   uint64_t key;       /* 0: free */
   uint64_t last;      /* stream: the line of its last miss; stride: the
                          address */
   int64_t step;       /* stream: +1, -1, 0 before the first step;
                          stride: bytes between its last two misses */
   uint64_t stamp;     /* last use, for LRU */
   uint32_t conf;      /* steps in a row equal to step */
} pf_entry;

typedef struct {
   pf_entry *e;        /* streams entries; NULL until the core's first miss */
   uint64_t clock;
} pf_table;

struct mp_prefetch {
   mp_prefetch_kind kind;
   uint32_t streams, cores, line_shift, region_lines_shift;
   pf_table *table;    /* cores */
   uint64_t bytes;
};

static uint32_t log2_of(uint64_t pow2)
{
   uint32_t n = 0;
   while ((1ULL << n) < pow2)
      n++;
   return n;
}

mp_prefetch *mp_prefetch_new(const mp_prefetch_cfg *cfg, uint32_t cores,
                             uint32_t line_size)
{
   mp_prefetch *p;
   mp_assert(cfg->kind != MP_PREFETCH_NONE && cores > 0);
   mp_assert(cfg->streams >= 1 && cfg->streams <= MP_PREFETCH_MAX_STREAMS);
   p = mp_calloc("mp.prefetch.new", 1, sizeof *p);
   p->kind = cfg->kind;
   p->streams = cfg->streams;
   p->cores = cores;
   p->line_shift = log2_of(line_size);
   /* A line of 4 KiB or more is a region of its own: a stream never
      steps, a stride never lands in another line of its region. */
   p->region_lines_shift = p->line_shift < MP_PREFETCH_REGION_SHIFT
                           ? MP_PREFETCH_REGION_SHIFT - p->line_shift : 0;
   p->table = mp_calloc("mp.prefetch.tables", cores, sizeof(pf_table));
   p->bytes = sizeof *p + cores * sizeof(pf_table);
   return p;
}

void mp_prefetch_free(mp_prefetch *p)
{
   uint32_t c;
   for (c = 0; c < p->cores; c++)
      if (p->table[c].e)
         mp_free(p->table[c].e);
   mp_free(p->table);
   mp_free(p);
}

uint64_t mp_prefetch_bytes(const mp_prefetch *p)
{
   return p->bytes;
}

/* The entry of key in core's table, or a new one in place of the least
   recently used (*fresh set); stamped either way. */
static pf_entry *entry_of(mp_prefetch *p, uint32_t core, uint64_t key, int *fresh)
{
   pf_table *t = &p->table[core];
   pf_entry *victim;
   uint32_t i;
   if (!t->e) {
      t->e = mp_calloc("mp.prefetch.table", p->streams, sizeof(pf_entry));
      p->bytes += p->streams * sizeof(pf_entry);
   }
   victim = &t->e[0];
   for (i = 0; i < p->streams; i++) {
      pf_entry *e = &t->e[i];
      if (e->key == key) {
         e->stamp = ++t->clock;
         *fresh = 0;
         return e;
      }
      /* free entries have stamp 0, older than any used one */
      if (e->stamp < victim->stamp)
         victim = e;
   }
   mp_memset(victim, 0, sizeof *victim);
   victim->key = key;
   victim->stamp = ++t->clock;
   *fresh = 1;
   return victim;
}

static uint32_t stream_miss(mp_prefetch *p, uint32_t core, uint64_t line,
                            uint64_t out[MP_PREFETCH_MAX_DEGREE])
{
   uint64_t region = line >> p->region_lines_shift;
   int fresh;
   pf_entry *e = entry_of(p, core, region + 1, &fresh);
   int64_t d, dir;
   uint32_t n = 0, i;
   if (fresh) {
      e->last = line;
      return 0;
   }
   d = (int64_t)(line - e->last);
   if (d == 0)
      return 0;   /* the same line again: nothing learnt */
   e->last = line;
   if (d > STREAM_WINDOW || d < -STREAM_WINDOW) {
      e->step = 0;   /* a jump: start over from here */
      e->conf = 0;
      return 0;
   }
   dir = d > 0 ? 1 : -1;
   if (dir == e->step) {
      e->conf++;
   } else {
      e->step = dir;
      e->conf = 1;
   }
   if (e->conf < CONFIRM)
      return 0;
   for (i = 1; i <= MP_PREFETCH_MAX_DEGREE; i++) {
      uint64_t next = line + (uint64_t)(dir * (int64_t)i);
      if (next >> p->region_lines_shift != region)
         break;
      out[n++] = next;
   }
   return n;
}

static uint32_t stride_miss(mp_prefetch *p, uint32_t core, uint64_t addr, uint64_t pc,
                            uint64_t out[MP_PREFETCH_MAX_DEGREE])
{
   uint64_t key = pc ? pc : (addr >> MP_PREFETCH_REGION_SHIFT) | NO_PC_KEY;
   int fresh;
   pf_entry *e = entry_of(p, core, key, &fresh);
   int64_t d;
   uint64_t target;
   if (fresh) {
      e->last = addr;
      return 0;
   }
   d = (int64_t)(addr - e->last);
   if (d == 0)
      return 0;
   e->last = addr;
   if (d == e->step) {
      e->conf++;
   } else {
      e->step = d;
      e->conf = 1;
   }
   if (e->conf < CONFIRM)
      return 0;
   /* Wrapping past either end of the address space lands in another
      region, refused below like any other. */
   target = addr + (uint64_t)d;
   if (target >> MP_PREFETCH_REGION_SHIFT != addr >> MP_PREFETCH_REGION_SHIFT
       || target >> p->line_shift == addr >> p->line_shift)
      return 0;
   out[0] = target >> p->line_shift;
   return 1;
}

uint32_t mp_prefetch_miss(mp_prefetch *p, uint32_t core, uint64_t addr, uint64_t pc,
                          uint64_t out[MP_PREFETCH_MAX_DEGREE])
{
   mp_assert(core < p->cores);
   if (p->kind == MP_PREFETCH_STREAM)
      return stream_miss(p, core, addr >> p->line_shift, out);
   return stride_miss(p, core, addr, pc, out);
}

const char *mp_prefetch_kind_name(mp_prefetch_kind kind)
{
   static const char *const names[] = { "none", "stream", "stride" };
   return names[kind];
}

int mp_prefetch_parse(const char *spec, mp_prefetch_cfg *out, const char **err)
{
   static const mp_prefetch_kind kinds[] = { MP_PREFETCH_STREAM, MP_PREFETCH_STRIDE };
   uint32_t i;
   if (mp_strcmp(spec, "none") == 0) {
      out->kind = MP_PREFETCH_NONE;
      out->streams = MP_PREFETCH_DEFAULT_STREAMS;
      return 0;
   }
   for (i = 0; i < 2; i++) {
      const char *name = mp_prefetch_kind_name(kinds[i]);
      size_t n = mp_strlen(name);
      const char *s = spec + n;
      uint64_t v = 0;
      if (mp_memcmp(spec, name, n) != 0 || (*s != '\0' && *s != ','))
         continue;
      out->kind = kinds[i];
      out->streams = MP_PREFETCH_DEFAULT_STREAMS;
      if (*s == '\0')
         return 0;
      s++;
      if (*s < '0' || *s > '9')
         goto bad_n;
      /* Up to 10 digits: no overflow, and a long number is too many. */
      for (n = 0; *s >= '0' && *s <= '9' && n < 10; s++, n++)
         v = v * 10 + (uint64_t)(*s - '0');
      if (*s != '\0')
         goto bad_n;
      if (v < 1 || v > MP_PREFETCH_MAX_STREAMS) {
         *err = mp_config_error("%s,%llu: %llu streams per core, expected 1 to %u", name,
                     (unsigned long long)v, (unsigned long long)v, MP_PREFETCH_MAX_STREAMS);
         return -1;
      }
      out->streams = (uint32_t)v;
      return 0;
   bad_n:
      *err = mp_config_error("'%s': expected %s,N with N the streams per core, 1 to %u", spec, name,
                  MP_PREFETCH_MAX_STREAMS);
      return -1;
   }
   *err = mp_config_error("'%s' is not a prefetcher: expected none, stream, stride, stream,N or "
               "stride,N (N streams per core, 1 to %u; %u if not given)", spec,
               MP_PREFETCH_MAX_STREAMS, MP_PREFETCH_DEFAULT_STREAMS);
   return -1;
}
