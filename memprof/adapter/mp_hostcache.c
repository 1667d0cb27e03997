/*--------------------------------------------------------------------*/
/*--- memprof: the host's data caches and cores.     mp_hostcache.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Linux describes each cache of CPU 0 in /sys/devices/system/cpu/cpu0/
   cache/indexN/{level,type,size,ways_of_associativity,
   coherency_line_size,number_of_sets,shared_cpu_list}.  CPUID is not
   used: on virtual machines it has been seen to report a 256 MiB last
   level of associativity 0 where /sys said 32 MiB 16-way, and /sys is
   what the kernel itself validated.  A level is accepted only if its
   numbers are consistent: size == sets * ways * line, all powers of two
   where the model needs them, line sizes equal across levels.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"

#include "mp_hostcache.h"

#define SYS_CPU "/sys/devices/system/cpu"

Bool mp_host_read_text(const HChar *path, HChar *buf, Int n)
{
   SysRes sr = VG_(open)(path, VKI_O_RDONLY, 0);
   Int fd, got;
   if (sr_isError(sr))
      return False;
   fd = sr_Res(sr);
   got = VG_(read)(fd, buf, n - 1);
   VG_(close)(fd);
   if (got <= 0)
      return False;
   buf[got] = '\0';
   while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
      buf[--got] = '\0';
   return True;
}

static Bool read_index_field(UInt index, const HChar *field, HChar *buf, Int n)
{
   HChar path[200];
   VG_(snprintf)(path, sizeof path, SYS_CPU "/cpu0/cache/index%u/%s", index, field);
   return mp_host_read_text(path, buf, n);
}

/* "32K", "1024K", "32M", "65536" -> bytes; 0 if malformed. */
static ULong parse_size(const HChar *s)
{
   HChar *end;
   ULong v = (ULong)VG_(strtoll10)(s, &end);
   if (end == s)
      return 0;
   if (*end == 'K') v <<= 10;
   else if (*end == 'M') v <<= 20;
   else if (*end == 'G') v <<= 30;
   else if (*end != '\0') return 0;
   return v;
}

/* Counts the CPUs in a list such as "0-3,8,10-11". */
static UInt count_cpu_list(const HChar *s)
{
   UInt n = 0;
   while (*s) {
      HChar *end;
      Long a = VG_(strtoll10)(s, &end), b = a;
      if (end == s)
         return 0;
      s = end;
      if (*s == '-') {
         s++;
         b = VG_(strtoll10)(s, &end);
         if (end == s || b < a)
            return 0;
         s = end;
      }
      n += (UInt)(b - a + 1);
      if (*s == ',')
         s++;
      else if (*s != '\0')
         return 0;
   }
   return n;
}

static Bool is_pow2(ULong x) { return x != 0 && (x & (x - 1)) == 0; }

/* One /sys cache index; returns its level (1..3) or 0 if it is not a
   data or unified cache, or is inconsistent (then *why says so). */
static UInt read_level(UInt index, mp_host_level *l, const HChar **why)
{
   HChar buf[256];
   UInt level, sets;
   if (!read_index_field(index, "level", buf, sizeof buf))
      return 0;
   level = (UInt)VG_(strtoll10)(buf, NULL);
   if (!read_index_field(index, "type", buf, sizeof buf)
       || VG_(strcmp)(buf, "Instruction") == 0 || level < 1 || level > 3)
      return 0;
   l->size = read_index_field(index, "size", buf, sizeof buf) ? parse_size(buf) : 0;
   l->assoc = read_index_field(index, "ways_of_associativity", buf, sizeof buf)
                 ? (UInt)VG_(strtoll10)(buf, NULL) : 0;
   l->line = read_index_field(index, "coherency_line_size", buf, sizeof buf)
                 ? (UInt)VG_(strtoll10)(buf, NULL) : 0;
   sets = read_index_field(index, "number_of_sets", buf, sizeof buf)
                 ? (UInt)VG_(strtoll10)(buf, NULL) : 0;
   l->shared_by = read_index_field(index, "shared_cpu_list", buf, sizeof buf)
                 ? count_cpu_list(buf) : 0;
   if (l->size == 0 || l->assoc == 0 || l->line == 0 || l->shared_by == 0) {
      *why = "a cache of /sys has a zero size, associativity or line";
      return 0;
   }
   if ((ULong)sets * l->assoc * l->line != l->size || !is_pow2(sets)
       || !is_pow2(l->line)) {
      *why = "a cache of /sys is inconsistent (size != sets * ways * line)";
      return 0;
   }
   return level;
}

static void fallback(mp_host_caches *h, const HChar *why)
{
   static const mp_host_level dflt[3] = {
      { 32 << 10, 8, 64, 1 }, { 1 << 20, 16, 64, 1 }, { 32 << 20, 16, 64, 0 }
   };
   UInt i;
   h->n_levels = 3;
   for (i = 0; i < 3; i++)
      h->level[i] = dflt[i];
   if (h->cpus == 0)
      h->cpus = 1;
   h->level[2].shared_by = h->cpus;
   h->source = "fallback";
   h->why = why;
}

void mp_host_caches_detect(mp_host_caches *h)
{
   HChar buf[256];
   UInt index, found = 0;
   const HChar *why = NULL;
   VG_(memset)(h, 0, sizeof *h);
   h->cpus = mp_host_read_text(SYS_CPU "/online", buf, sizeof buf) ? count_cpu_list(buf) : 1;
   if (h->cpus == 0)
      h->cpus = 1;
   for (index = 0; index < 8; index++) {
      mp_host_level l;
      UInt level = read_level(index, &l, &why);
      if (level == 0) {
         if (why)
            break;
         continue;
      }
      h->level[level - 1] = l;
      found |= 1u << (level - 1);
   }
   if (why) {
      fallback(h, why);
      return;
   }
   if (found != 0x3 && found != 0x7) {
      fallback(h, "/sys/devices/system/cpu does not describe L1d and L2");
      return;
   }
   h->n_levels = found == 0x7 ? 3 : 2;
   for (index = 1; index < h->n_levels; index++)
      if (h->level[index].line != h->level[0].line) {
         fallback(h, "the host's caches have different line sizes");
         return;
      }
   h->source = SYS_CPU;
}

UInt mp_host_cpus_allowed(void)
{
   static const HChar key[] = "Cpus_allowed_list:";
   HChar buf[8192];
   HChar *p, *eol;
   UInt n;
   if (!mp_host_read_text("/proc/self/status", buf, sizeof buf) || !(p = VG_(strstr)(buf, key)))
      return 1;
   p += sizeof key - 1;
   while (*p == ' ' || *p == '\t')
      p++;
   if ((eol = VG_(strchr)(p, '\n')) != NULL)
      *eol = '\0';
   n = count_cpu_list(p);
   return n ? n : 1;
}
