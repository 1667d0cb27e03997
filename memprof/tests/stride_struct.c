/* SPDX-License-Identifier: GPL-2.0-or-later

   stride_struct: one field of an array of structures: its stride is the
   size of the structure, and the filtered mode's threshold
   (--stride-threshold) decides whether such a stride goes on to
   histogram 2.

   struct rec is 80 bytes (10 doubles, no padding): recs[i].key is at byte
   80*i of recs (64 elements, 5120 bytes).  At -O0 (objdump -d) every
   recs[i].key below is one movsd from or to recs; i and s live in main's
   frame.  Line 46: 64 stores, i = 0..63; line 48: 64 loads, i = 0..63.
   The n-th access of a kind (0-based) is 80*k bytes above its k-th
   previous one (k <= n).

   stride_struct.vgtest (threshold 128): 80 < 128, so no access goes
   beyond histogram 1:
     load 1: [80] 63;  store 1: [80] 63;  histograms 2..5 empty.
   stride_struct_thr64.vgtest (--stride-threshold=64): 80, 160, 240,
   320, 400 are all >= 64, so every access enters every histogram k it
   has k previous accesses for (64 - k of them):
     load/store 1: +80  -> [80]        63
     load/store 2: +160 -> [128,255]   62
     load/store 3: +240 -> [128,255]   61
     load/store 4: +320 -> [256,511]   60
     load/store 5: +400 -> [256,511]   59
   Both: no negative stride; classes (first strides, 80 is not the access
   size 8 and >= the 64-byte line): beyond_line 63 + 63 = 126; dominant
   +80: 126 of 126, share 1, 80/64 = 1.25 lines.

   stdout: s = 0 + 1 + ... + 63 = 2016.
*/
#include <stdio.h>

struct rec {
   double key;
   double val[9];
};

struct rec recs[64];

int main(void)
{
   int i;
   double s = 0;
   for (i = 0; i < 64; i++)
      recs[i].key = i;
   for (i = 0; i < 64; i++)
      s += recs[i].key;
   printf("sizeof(struct rec) %zu sum %.1f\n", sizeof(struct rec), s);
   return 0;
}
