/* SPDX-License-Identifier: GPL-2.0-or-later

   memprof-sample-design.c: which sample of the lines --sample=lines
   should follow, measured on memprof's own cache engine (no Valgrind):
   eight kernels' address traces run through a full L1 32 KiB 8-way, L2
   1 MiB 8-way, L3 32 MiB 16-way hierarchy of 64-byte lines, and
   through two kinds of sample, whose misses times 1/R estimate the
   full run's:
     sets R    whole sets of the L1 (and so of every level), R of them,
               picked by a hash of the set number, the full geometry;
     lines R   single lines whose hash is below R, fed to caches scaled
               down by R (their sets times R, or below one set their
               ways), as SHARDS's miniature simulation does.
   Prints, per kernel and level, the full run's misses and each
   sample's error in percent.  Numbers are printed, never asserted.

   Build and run from the source tree:
     M=memprof; gcc -O2 -DMP_HOST -I$M/platform -I$M/engines \
       -o build-design auto/memprof-sample-design.c $M/engines/mp_cache.c \
       $M/engines/mp_cache_config.c $M/engines/mp_miss_causes.c \
       $M/engines/mp_cold_bits.c $M/engines/mp_coherence.c \
       $M/engines/mp_l1_oracle.c $M/engines/mp_cache_prefetch.c \
       $M/engines/mp_prefetch.c $M/engines/mp_set_sample.c \
       $M/platform/mp_util.c && ./build-design
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_cache.h"
#include "mp_set_sample.h"
#include "mp_util.h"

#define VARS 3
#define L1_SETS 64

typedef struct {
   const char *what;
   mp_cache *cache;
   int by_sets;            /* whole sets, else single lines */
   double rate;
   uint8_t sets[L1_SETS];
   uint64_t misses[3];
} sim;

static sim sims[8];
static int n_sims;

static void make(sim *s, const char *what, int by_sets, double rate)
{
   static const uint64_t size[3] = { 32768, 1 << 20, 32 << 20 };
   static const uint32_t ways[3] = { 8, 8, 16 };
   mp_cache_cfg cfg;
   const char *err;
   uint32_t k;
   memset(s, 0, sizeof *s);
   memset(&cfg, 0, sizeof cfg);
   cfg.n_levels = 3;
   cfg.cores = 1;
   for (k = 0; k < 3; k++) {
      uint64_t sets = size[k] / 64 / ways[k];
      uint32_t assoc = ways[k];
      if (!by_sets && rate < 1.0) {
         double scaled = (double)sets * rate;
         if (scaled >= 1.0) {
            sets = (uint64_t)(scaled + 0.5);
         } else {
            assoc = (uint32_t)(assoc * scaled + 0.5);
            assoc = assoc ? assoc : 1;
            sets = 1;
         }
      }
      cfg.level[k] = (mp_cache_level_cfg){ NULL, sets * assoc * 64, assoc, 64, 1 };
   }
   if (by_sets) {
      cfg.set_sample_shift = mp_set_sample_shift(rate, L1_SETS);
      mp_set_sample_pick(s->sets, L1_SETS, cfg.set_sample_shift);
      cfg.sampled_sets = s->sets;
   }
   s->cache = mp_cache_new(&cfg, &err);
   if (!s->cache) {
      fprintf(stderr, "%s\n", err);
      exit(1);
   }
   s->what = what;
   s->by_sets = by_sets;
   s->rate = rate;
}

static int sampled(const sim *s, uint64_t line)
{
   if (s->rate >= 1.0)
      return 1;
   if (s->by_sets)
      return s->sets[line % L1_SETS];
   return (double)(mp_mix64(line) >> 32) < s->rate * 4294967296.0;
}

static void access(uint32_t var, uint64_t addr, int is_write)
{
   int i;
   for (i = 0; i < n_sims; i++) {
      sim *s = &sims[i];
      mp_cache_outcome o;
      uint32_t k;
      if (!sampled(s, addr / 64))
         continue;
      mp_cache_access(s->cache, 0, addr, 8, is_write, var, 0, &o);
      for (k = 0; k < 3; k++)
         s->misses[k] += o.missed[k];
   }
}

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return rng_state;
}

static const uint64_t A = 1ULL << 32, B = 2ULL << 32, C = 3ULL << 32;

static void triad(void)   /* three 16 MB arrays streamed, 3 passes */
{
   uint64_t i;
   int p;
   for (p = 0; p < 3; p++)
      for (i = 0; i < 2000000; i++) {
         access(1, B + 8 * i, 0);
         access(2, C + 8 * i, 0);
         access(0, A + 8 * i, 1);
      }
}

static void column_walk(void)   /* 1024 x 1024 doubles walked by columns */
{
   uint64_t i, j;
   int p;
   for (p = 0; p < 2; p++)
      for (j = 0; j < 1024; j++)
         for (i = 0; i < 1024; i++)
            access(0, A + 8192 * i + 8 * j, 0);
}

static void stencil(void)   /* 5-point, 512 x 512, 5 sweeps */
{
   uint64_t i, j;
   int p;
   for (p = 0; p < 5; p++)
      for (i = 1; i < 511; i++)
         for (j = 1; j < 511; j++) {
            access(0, A + 4096 * (i - 1) + 8 * j, 0);
            access(0, A + 4096 * (i + 1) + 8 * j, 0);
            access(0, A + 4096 * i + 8 * j - 8, 0);
            access(0, A + 4096 * i + 8 * j + 8, 0);
            access(1, B + 4096 * i + 8 * j, 1);
         }
}

static void gather(void)   /* 4M random reads of a 32 MB array by an index */
{
   uint64_t i;
   for (i = 0; i < 4000000; i++) {
      access(1, B + 4 * i, 0);
      access(0, A + 8 * (rng() % 4000000), 0);
   }
}

static void matmul(void)   /* naive, 256 x 256 */
{
   uint64_t i, j, k, n = 256;
   for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
         for (k = 0; k < n; k++) {
            access(0, A + 8 * (i * n + k), 0);
            access(1, B + 8 * (k * n + j), 0);
         }
         access(2, C + 8 * (i * n + j), 1);
      }
}

static void chase(void)   /* 1M 64-byte nodes in random order, 4 laps */
{
   uint32_t n = 1 << 20, i, *perm = malloc(n * sizeof *perm);
   int p;
   for (i = 0; i < n; i++)
      perm[i] = i;
   for (i = n - 1; i > 0; i--) {
      uint32_t j = (uint32_t)(rng() % (i + 1)), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
   }
   for (p = 0; p < 4; p++)
      for (i = 0; i < n; i++)
         access(0, A + 64 * (uint64_t)perm[i], 0);
   free(perm);
}

static void near_l2(void)   /* 768 KB of 24-byte records, 40 sweeps */
{
   uint64_t i;
   int p;
   for (p = 0; p < 40; p++)
      for (i = 0; i < 32768; i++) {
         access(0, A + 24 * i, 0);
         access(0, A + 24 * i + 8, 1);
      }
}

static void few_sets(void)   /* 8 columns of a 4 KB-row array: one set */
{
   uint64_t i, j;
   int p;
   for (p = 0; p < 10; p++) {
      for (j = 0; j < 8; j++)
         for (i = 0; i < 512; i++)
            access(0, A + 4096 * i + 8 * j, 0);
      for (i = 0; i < 20000; i++)
         access(1, B + 8 * i, 0);
   }
}

int main(void)
{
   static const struct { const char *name; void (*run)(void); } kernel[] = {
      { "triad", triad }, { "column walk", column_walk }, { "stencil", stencil },
      { "gather", gather }, { "matmul 256", matmul }, { "chase", chase },
      { "near L2", near_l2 }, { "few sets", few_sets },
   };
   size_t k;
   printf("%-12s %-3s %10s | %8s %8s %8s | %8s %8s %8s\n", "kernel", "lvl", "full",
          "sets/64", "sets/16", "sets/8", "lines/64", "lines/16", "lines/256");
   for (k = 0; k < sizeof kernel / sizeof kernel[0]; k++) {
      uint32_t lv;
      int i;
      n_sims = 0;
      make(&sims[n_sims++], "full", 1, 1.0);
      make(&sims[n_sims++], "sets", 1, 1.0 / 64);
      make(&sims[n_sims++], "sets", 1, 1.0 / 16);
      make(&sims[n_sims++], "sets", 1, 1.0 / 8);
      make(&sims[n_sims++], "lines", 0, 1.0 / 64);
      make(&sims[n_sims++], "lines", 0, 1.0 / 16);
      make(&sims[n_sims++], "lines", 0, 1.0 / 256);
      kernel[k].run();
      for (lv = 0; lv < 3; lv++) {
         uint64_t full = sims[0].misses[lv];
         printf("%-12s L%u  %10llu |", lv == 0 ? kernel[k].name : "", lv + 1,
                (unsigned long long)full);
         for (i = 1; i < n_sims; i++) {
            double est = (double)sims[i].misses[lv] / sims[i].rate;
            printf(" %+7.0f%%%s", full ? 100.0 * (est - (double)full) / (double)full : 0.0,
                   i == 3 ? " |" : "");
         }
         printf("\n");
      }
      for (i = 0; i < n_sims; i++)
         mp_cache_free(sims[i].cache);
   }
   return 0;
}
