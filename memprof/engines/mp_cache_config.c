/*--------------------------------------------------------------------*/
/*--- memprof: the cache hierarchy's configuration.                ---*/
/*---                                            mp_cache_config.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Whether an mp_cache_cfg is a hierarchy the simulation can run (the
   checks of mp_cache_new and their one-line messages, naming the
   level: "L2: 3 sets is not a power of two"), and the address space an
   instance's tables take, so that a level too large is refused before
   the program runs.  The options' text ("--L1=32k,8,64") is parsed
   with the other options (adapter/mp_clo.c); this file sees numbers
   only.  Nothing here runs per access.
*/
#include "mp_cache.h"
#include "mp_cache_int.h"

void mpc_level_name(const mp_cache_cfg *cfg, uint32_t k, char name[16])
{
   const char *s = cfg->level[k].name;
   uint32_t i;
   if (!s) {
      mp_snprintf(name, 16, "L%u", k + 1);
      return;
   }
   for (i = 0; i < 15 && s[i]; i++)
      name[i] = s[i];
   name[i] = 0;
}

uint64_t mp_cache_instance_table_bytes(const mp_cache_cfg *cfg, uint32_t k)
{
   const mp_cache_level_cfg *L = &cfg->level[k];
   uint64_t lines = L->size / L->line, sets = lines / L->assoc;
   uint64_t bytes = instance_map_bytes(sets, L->assoc, k);
   if (sets > 1)
      bytes += mpc_fa_bytes(lines >> cfg->set_sample_shift, mpc_shadow_sample_shift(cfg, k));
   return bytes;
}

const char *mpc_check_cfg(const mp_cache_cfg *cfg)
{
   uint64_t total = 0, largest = 0;
   uint32_t k, at = 0;
   if (cfg->n_levels < 1 || cfg->n_levels > MP_CACHE_MAX_LEVELS)
      return mp_config_error("%u cache levels, expected 1 to %u", cfg->n_levels, MP_CACHE_MAX_LEVELS);
   if (cfg->cores < 1 || cfg->cores > MP_CACHE_MAX_CORES)
      return mp_config_error("%u cores, expected 1 to %u", cfg->cores, MP_CACHE_MAX_CORES);
   if (cfg->sample_shift > MP_CACHE_MAX_SAMPLE_SHIFT)
      return mp_config_error("miss-cause sample shift %u, expected 0 to %u", cfg->sample_shift,
                  MP_CACHE_MAX_SAMPLE_SHIFT);
   if (cfg->prefetch.kind > MP_PREFETCH_STRIDE)
      return mp_config_error("prefetcher kind %u, expected 0 to %u", (unsigned)cfg->prefetch.kind,
                  (unsigned)MP_PREFETCH_STRIDE);
   if (cfg->prefetch.kind != MP_PREFETCH_NONE
       && (cfg->prefetch.streams < 1 || cfg->prefetch.streams > MP_PREFETCH_MAX_STREAMS))
      return mp_config_error("prefetcher: %u streams per core, expected 1 to %u",
                  cfg->prefetch.streams, MP_PREFETCH_MAX_STREAMS);
   for (k = 0; k < cfg->n_levels; k++) {
      const mp_cache_level_cfg *L = &cfg->level[k];
      char name[16], above[16];
      uint64_t way_bytes, sets;
      mpc_level_name(cfg, k, name);
      if (k > 0)
         mpc_level_name(cfg, k - 1, above);
      if (L->size == 0)
         return mp_config_error("%s: size 0, expected a nonzero size", name);
      if (L->line == 0 || (L->line & (L->line - 1)))
         return mp_config_error("%s: line size %u is not a power of two", name, L->line);
      if (L->line < MP_CACHE_MIN_LINE)
         return mp_config_error("%s: line size %u is below %u bytes", name, L->line, MP_CACHE_MIN_LINE);
      if (k > 0 && L->line != cfg->level[0].line) {
         char first[16];
         mpc_level_name(cfg, 0, first);
         return mp_config_error("%s: line size %u differs from %s's %u "
                     "(all levels must have the same line size)",
                     name, L->line, first, cfg->level[0].line);
      }
      if (L->assoc == 0)
         return mp_config_error("%s: associativity 0, expected at least 1", name);
      way_bytes = (uint64_t)L->assoc * L->line;
      if (L->size % way_bytes)
         return mp_config_error("%s: size %llu is not a multiple of assoc * line (%u * %u)",
                     name, (unsigned long long)L->size, L->assoc, L->line);
      sets = L->size / way_bytes;
      if (sets & (sets - 1))
         return mp_config_error("%s: %llu sets is not a power of two", name, (unsigned long long)sets);
      if (L->size / L->line > MAX_LINES)
         return mp_config_error("%s: %llu lines, at most %u supported", name,
                     (unsigned long long)(L->size / L->line), MAX_LINES);
      if (L->shared_by == 0)
         return mp_config_error("%s: shared by 0 cores, expected at least 1", name);
      if (cfg->cores % L->shared_by)
         return mp_config_error("%s: shared by %u cores, which does not divide %u cores",
                     name, L->shared_by, cfg->cores);
      if (k > 0 && L->shared_by % cfg->level[k - 1].shared_by)
         return mp_config_error("%s: shared by %u cores, not a multiple of %s's %u "
                     "(each %s must lie within one %s)", name, L->shared_by, above,
                     cfg->level[k - 1].shared_by, above, name);
   }
   if (cfg->set_sample_shift > 0) {
      uint64_t l1_sets = cfg->level[0].size / ((uint64_t)cfg->level[0].assoc * cfg->level[0].line);
      char first[16];
      mpc_level_name(cfg, 0, first);
      if (cfg->set_sample_shift > 31 || (1ULL << cfg->set_sample_shift) > l1_sets)
         return mp_config_error("a sample of 1 in %llu sets, but %s has %llu",
                     1ULL << (cfg->set_sample_shift > 31 ? 31 : cfg->set_sample_shift), first,
                     (unsigned long long)l1_sets);
      if (cfg->sampled_sets == NULL)
         return mp_config_error("a sample of sets, but no table of them");
      if (cfg->prefetch.kind != MP_PREFETCH_NONE)
         return mp_config_error("a sample of sets cannot feed a prefetcher, which trains "
                     "across sets");
      for (k = 1; k < cfg->n_levels; k++) {
         const mp_cache_level_cfg *L = &cfg->level[k];
         char name[16];
         mpc_level_name(cfg, k, name);
         if (L->size / ((uint64_t)L->assoc * L->line) < l1_sets)
            return mp_config_error("%s has fewer sets than %s: a sample of %s's sets is "
                        "not one of whole sets there", name, first, first);
      }
   }
   /* Levels too large to simulate are refused here, before the program
      runs: the instances are mapped at their cores' first access. */
   for (k = 0; k < cfg->n_levels; k++) {
      uint64_t b = mp_cache_instance_table_bytes(cfg, k) * (cfg->cores / cfg->level[k].shared_by);
      total += b;
      if (b > largest) {
         largest = b;
         at = k;
      }
   }
   if (total > MP_CACHE_MAX_TABLE_BYTES) {
      char name[16];
      mpc_level_name(cfg, at, name);
      return mp_config_error("%s: too large to simulate: the tables of all the cache instances "
                  "would take %llu GiB of address space (%s %llu GiB), at most %llu GiB",
                  name, (unsigned long long)((total + (1ULL << 29)) >> 30), name,
                  (unsigned long long)((largest + (1ULL << 29)) >> 30),
                  (unsigned long long)(MP_CACHE_MAX_TABLE_BYTES >> 30));
   }
   return NULL;
}
