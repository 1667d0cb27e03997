/*--------------------------------------------------------------------*/
/*--- memprof: the what-if replays of the advice.      mp_replays.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   See mp_replays.h.
*/
#include "mp_replays.h"
#include "mp_facts.h"
#include "mp_util.h"

/* The split layout: each group of fields becomes an array of its own
   (its own region of addresses), its fields packed in offset order;
   bytes in no field stay where they were. */
typedef struct {
   const mp_struct_layout *l;
   uint64_t *pos;          /* per field: its offset in its group's record */
   uint64_t *group_size;   /* per group: the record size */
} split_map;

static uint64_t map_split(void *arg, const mp_whatif_access *a)
{
   const split_map *m = arg;
   const mp_struct_layout *l = m->l;
   uint64_t o, e, f;
   uint32_t i;
   if (a->addr < a->block)
      return a->addr;
   o = a->addr - a->block;
   e = o / l->size;
   f = o % l->size;
   /* the field starting at f, else the (last) one containing it: with
      overlapping fields, an 8-byte load at 24 is the field at 24, not
      the 16-byte vector store at 16 */
   for (i = l->n_fields; i-- > 0;) {
      const mp_struct_field *fd = &l->fields[i];
      if (f >= fd->offset && f < fd->offset + fd->size)
         return ((uint64_t)(fd->group + 1) << 44) + a->block
                + e * m->group_size[fd->group] + m->pos[i] + (f - fd->offset);
   }
   return a->addr;
}

void mp_replay_split(const mp_run *run, const mp_finished *an, uint32_t var,
                     const mp_struct_layout *l, mp_replay *out)
{
   mp_cache_cfg cc;
   split_map m;
   uint32_t g, k;
   mp_memset(out, 0, sizeof *out);
   if (an->whatif == NULL || !run->whatif_split || l->n_groups < 2
       || !mp_facts_cache_cfg(an, &cc) || mp_whatif_recorded(an->whatif, var) == 0)
      return;
   m.l = l;
   m.pos = mp_calloc("mp.replay.split", l->n_fields + 1, sizeof *m.pos);
   m.group_size = mp_calloc("mp.replay.split", l->n_groups + 1, sizeof *m.group_size);
   for (g = 0; g < l->n_groups; g++)
      for (k = l->group_start[g]; k < l->group_start[g + 1]; k++) {
         uint32_t fi = l->group_fields[k];
         m.pos[fi] = m.group_size[g];
         m.group_size[g] += l->fields[fi].size;
      }
   out->made = mp_whatif_replay(an->whatif, var, &cc, an->cache->latency, NULL, NULL,
                                &out->before)
               && mp_whatif_replay(an->whatif, var, &cc, an->cache->latency, map_split,
                                   &m, &out->after);
   out->complete = mp_whatif_complete(an->whatif, var);
   mp_free(m.pos);
   mp_free(m.group_size);
}

/* Padding per thread: each core's bytes of a line move to a line of
   their own (line' = line * cores + core), as padding each thread's
   data to the line size does for disjoint bytes. */
typedef struct {
   uint32_t shift, cores;
} pad_map;

static uint64_t map_pad(void *arg, const mp_whatif_access *a)
{
   const pad_map *m = arg;
   uint64_t line = a->addr >> m->shift, off = a->addr & ((1ULL << m->shift) - 1);
   return ((line * m->cores + a->core) << m->shift) | off;
}

/* The replay before padding ran the recorded accesses in Valgrind's
   order, one thread at a time: its coherence misses are the few of that
   order.  A parallel run has the predicted false transfers instead, each
   an L1 miss served at mp_facts_transfer_cycles: the run before padding
   counts those, the run after keeps what the padded replay gives (its
   coherence misses, from true sharing, stay). */
static inline uint64_t mp_min_seen(uint64_t a, uint64_t b) { return a < b ? a : b; }

static void as_in_parallel(mp_whatif_run *before, uint64_t predicted_false,
                           uint64_t per)
{
   uint64_t seen = before->coherence[0];
   /* The line's prediction counts for each variable on it: the
      variable's share is at most one transfer per access replayed. */
   if (predicted_false > before->accesses)
      predicted_false = before->accesses;
   before->misses[0] = before->misses[0] - seen + predicted_false;
   before->coherence[0] = predicted_false;
   uint64_t less = (seen - mp_min_seen(seen, predicted_false)) * per;
   before->cycles = before->cycles - (less < before->cycles ? less : before->cycles)
                  + (predicted_false > seen ? (predicted_false - seen) * per : 0);
}

void mp_replay_pad(const mp_run *run, const mp_finished *an, uint32_t var,
                   uint64_t predicted_false, mp_replay *out)
{
   mp_cache_cfg cc;
   pad_map m;
   mp_memset(out, 0, sizeof *out);
   if (an->whatif == NULL || !run->whatif_pad || !mp_facts_cache_cfg(an, &cc)
       || cc.cores < 2 || mp_whatif_recorded(an->whatif, var) == 0)
      return;
   m.shift = (uint32_t)__builtin_ctz(cc.level[0].line);
   m.cores = cc.cores;
   if (!mp_whatif_replay(an->whatif, var, &cc, an->cache->latency, NULL, NULL, &out->before)
       || !mp_whatif_replay(an->whatif, var, &cc, an->cache->latency, map_pad, &m,
                            &out->after))
      return;
   as_in_parallel(&out->before, predicted_false, mp_facts_transfer_cycles(an));
   out->made = 1;
   out->complete = mp_whatif_complete(an->whatif, var);
}
