/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system_libs: whose data is whose, by the objects' places.  The
   program sums a table of its own shared library, built beside it
   (libsystem_libs.so: the program's), and has zlib, a library the
   system installed under /usr/lib or /lib (the runtime's, though not
   the C library's), compute the CRC of a block of its own: zlib reads
   its CRC tables, which are zlib's variables, the block is the
   program's.  zlib is opened by dlopen, so that no development files
   are needed; libz.so.1 is on every Debian system. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int own_lib_sum(int n);   /* libsystem_libs.so */

typedef unsigned long (*crc_fn)(unsigned long, const unsigned char *, unsigned);

int main(void)
{
   void *z = dlopen("libz.so.1", RTLD_NOW);
   crc_fn crc = z ? (crc_fn)dlsym(z, "crc32") : NULL;
   unsigned char *block = malloc(4096);
   unsigned long c;
   int s;
   if (!crc || !block) {
      printf("no zlib\n");
      return 1;
   }
   memset(block, 7, 4096);
   c = crc(0, block, 4096);
   s = own_lib_sum(64);
   printf("crc %s, sum %d\n", c ? "computed" : "zero", s);
   free(block);
   return 0;
}
