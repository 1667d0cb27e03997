/* SPDX-License-Identifier: GPL-2.0-or-later

   stride_backward: negative strides (the bin is chosen by the
   stride's magnitude, the negative ones are also counted apart, per
   histogram).  Default options: K = 5, filtered, threshold 128.

   At -O0 (objdump -d) every down[i] and back[i] below is one movl/movsd
   from or to the array; i, s and t live in main's frame.

   down (int[256], 4-byte elements):
     line 48, i = 255 down to 0: 256 stores; each but the first is 4
       bytes below the previous one: stride -4, |-4| == the access size
       -> unit.  store 1: [4] 255, negative store 255 0 0 0 0.
     line 50, i = 0, 2, ..., 254: 128 loads, stride +8 (not the size 4,
       below the 64-byte line) -> within_line.  load 1: [8] 127,
       negative load 0 0 0 0 0.
     All below the threshold 128: histograms 2..5 empty.
     classes: unit 255, within_line 127.  dominant -4: 255 of 382 first
     strides, share 0.667539 (rounded), -4/64 = -0.0625 lines.
   back (double[1024]):
     line 52, i = 1023, 991, ..., 31 (step -32): 32 loads, 256 bytes
       apart, going down.  The access n (0-based) is 256*k bytes below
       its k-th previous one, for k <= n; every stride is >= 128 in
       magnitude, so every load enters every histogram it can:
         load 1: -256  -> [256,511]   31 (loads 1..31)
         load 2: -512  -> [512,1023]  30
         load 3: -768  -> [512,1023]  29
         load 4: -1024 -> [1024,2047] 28
         load 5: -1280 -> [1024,2047] 27
       all negative: negative load 31 30 29 28 27; no store.
     classes: beyond_line 31.  dominant -256: 31 of 31, share 1,
     -256/64 = -4 lines.

   stdout: s = 0 + 2 + ... + 254 = 2 * (127 * 128 / 2) = 16256; back is
   never written: t = 0.
*/
#include <stdio.h>

int down[256];
double back[1024];

int main(void)
{
   int i;
   long s = 0;
   double t = 0;
   for (i = 255; i >= 0; i--)
      down[i] = i;
   for (i = 0; i < 256; i += 2)
      s += down[i];
   for (i = 1023; i >= 0; i -= 32)
      t += back[i];
   printf("s %ld t %.1f\n", s, t);
   return 0;
}
