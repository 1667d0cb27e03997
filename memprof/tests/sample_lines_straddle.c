/* SPDX-License-Identifier: GPL-2.0-or-later

   sample_lines_straddle: with --sample=lines, the footprint and the
   reuse distances are those of the sampled lines alone, also where an
   access straddles a sampled line and one outside the sample.  (Geometry of the .vgtest:
   L1 32 KiB 8-way of 64-byte lines, 64 sets; --sample=lines:1/2, 32 of
   the 64 sets, scale 2.)

   buf: 4,096 lines, aligned to 4 KiB, so line k is in L1 set k mod 64
   and 2,048 of its lines are in the sample (64 in each sampled set),
   whichever 32 sets the hash picks.  It is filled a byte at a time,
   then read twice, 8 bytes per line: line k at bytes 60-67, which
   straddle lines k and k + 1, but the last line, read at bytes 0-7.
   Such an access is called for when its first line is in the sample
   (an access of 8 bytes or fewer is tested at its first byte), and
   then its second line may be outside it.

   full run: 4,096 lines touched; each is cold once (the fill), and is
     reused once per pass across the other 4,095 lines: 8,192 reuses at
     a distance of 2,048 lines or more.
   1/2 of the sets: 2,048 sampled lines, times 2: lines = 4,096; each
     cold once: cold = 4,096; each reused once per pass across the other
     sampled lines (2,047 of buf's, times 2 at least 4,094): 2 * 2,048
     * 2 = 8,192 far reuses.  All the full run's.  A build that let the
     second line of a straddling access into the footprint or the
     history when it is outside the sample counts those lines too:
     3,136 sampled lines, 6,272 lines and cold, 10,368 far reuses with
     the sets picked today, and more than 4,096 lines whichever half is
     picked (at least one sampled set is followed by one outside the
     sample).
   stdout: the sum of the 8-byte words read, twice.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LINES 4096
static unsigned char buf[LINES * 64] __attribute__((aligned(4096)));

int main(void)
{
   uint64_t sum = 0, v;
   int k, p;
   for (k = 0; k < LINES * 64; k++)
      buf[k] = (unsigned char)k;
   for (p = 0; p < 2; p++)
      for (k = 0; k < LINES; k++) {
         memcpy(&v, &buf[k * 64 + (k < LINES - 1 ? 60 : 0)], 8);
         sum += v;
      }
   printf("%llu\n", (unsigned long long)sum);
   return 0;
}
