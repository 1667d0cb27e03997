/* SPDX-License-Identifier: GPL-2.0-or-later

   min_var_size: --min-var-size=100 folds every variable smaller than 100
   bytes into one "other" entry (kind other, "folded": true); bigger ones
   keep their own entry.

   big (double[1000], 8000 bytes, 64-byte aligned): its own entry;
     line 35 writes big[0..999] once each: writes 1000, write_bytes
     8000, reads 0, size 8000, lines 8000 / 64 = 125.
   small1 (char[16]) and small2 (char[32]): folded, absent by name.
     objdump -d at -O0, each of these lines is exactly:
       line 32    small1[3] = 'a'        movb $0x61 -> small1+3: W 1 (1 byte)
       line 33    small2[7] = small1[3]  movzbl small1+3, mov -> small2+7:
                                         R 1, W 1 (1 byte each)
     and nothing else (no stack access on these lines), so the folded
     entry's per-line rows for these two lines are exactly those.
   The folded entry's own totals include the C library's small variables
   and are not asserted.

   stdout: small2[7] = 'a'.
*/
#include <stdio.h>

char small1[16];
char small2[32];
double big[1000] __attribute__((aligned(64)));

int main(void)
{
   int i;

   small1[3] = 'a';
   small2[7] = small1[3];
   for (i = 0; i < 1000; i++)
      big[i] = 1.5;
   printf("%c\n", small2[7]);
   return 0;
}
