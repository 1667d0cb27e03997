/* SPDX-License-Identifier: GPL-2.0-or-later

   sect_runs: one load reading unnamed and named data in turn.

   Memory of a program's sections that no symbol covers (a stripped
   program's data) is a section's variable, "<object>:<section>".  An
   instruction remembers the run of such pages around the one it
   resolved, as far as the pages known to be that variable's go.  Here
   a 64 KiB area of .data without a symbol (an assembler-local label) is
   followed by a 64 KiB global, named_area, and a 64 KiB area of .bss
   without a symbol; the one load of peek reads the three at random
   offsets, 4,096 times each, in turn.  A run that took in named_area's
   pages would count its reads in sect_runs:Data.  Per line (peek's
   load): sect_runs:Data 4096 reads, named_area 4096, sect_runs:BSS
   4096. */
#include <stdio.h>

asm(".data\n"
    ".p2align 12\n"
    ".Ldata_area: .fill 65536,1,1\n"
    ".globl named_area\n"
    ".type named_area, @object\n"
    ".size named_area, 65536\n"
    "named_area: .fill 65536,1,2\n"
    ".bss\n"
    ".p2align 12\n"
    ".Lbss_area: .zero 65536\n"
    ".text\n");

#define N 65536

static volatile long sink;

static __attribute__((noinline)) void peek(const volatile char *p, long off)
{
   sink += p[off];
}

int main(void)
{
   extern const char named_area[];
   const char *data_area, *bss_area;
   unsigned long x = 12345;
   long i;
#if defined(__aarch64__)
   asm("adrp %0, .Ldata_area\n\tadd %0, %0, :lo12:.Ldata_area" : "=r"(data_area));
   asm("adrp %0, .Lbss_area\n\tadd %0, %0, :lo12:.Lbss_area" : "=r"(bss_area));
#else
   asm("lea .Ldata_area(%%rip), %0" : "=r"(data_area));
   asm("lea .Lbss_area(%%rip), %0" : "=r"(bss_area));
#endif
   for (i = 0; i < 4096; i++) {
      x = x * 6364136223846793005UL + 1442695040888963407UL;
      peek(data_area, (long)((x >> 33) % N));
      peek(named_area, (long)((x >> 25) % N));
      peek(bss_area, (long)((x >> 17) % N));
   }
   printf("%ld\n", sink);
   return 0;
}
