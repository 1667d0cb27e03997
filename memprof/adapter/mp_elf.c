/*--------------------------------------------------------------------*/
/*--- memprof: an object file's sections by name.          mp_elf.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The ELF header's and section headers' fields at their offsets in
   the 64-bit layout, read with the core's file calls (the tool has no
   libc).  mp_elf.h says what the adapter reads itself and why.
*/
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_vki.h"

#include "mp_elf.h"

#define EHDR_SIZE 64
#define SHDR_SIZE 64

static ULong little(const UChar *p, UInt n)
{
   ULong v = 0;
   while (n-- > 0)
      v = v << 8 | p[n];
   return v;
}

Bool mp_elf_read(const mp_elf *e, ULong off, void *buf, SizeT n)
{
   return VG_(lseek)(e->fd, (Off64T)off, VKI_SEEK_SET) == (Off64T)off
          && VG_(read)(e->fd, buf, n) == (Int)n;
}

Bool mp_elf_open(const HChar *path, mp_elf *e)
{
   UChar eh[EHDR_SIZE], sh[SHDR_SIZE];
   SysRes sr = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(sr))
      return False;
   e->fd = (Int)sr_Res(sr);
   if (!mp_elf_read(e, 0, eh, sizeof eh) || VG_(memcmp)(eh, "\x7f" "ELF", 4) != 0
       || eh[4] != 2 /* ELFCLASS64 */ || eh[5] != 1 /* ELFDATA2LSB */)
      goto fail;
   e->shoff = little(eh + 0x28, 8);
   e->shentsize = little(eh + 0x3A, 2);
   e->shnum = little(eh + 0x3C, 2);
   /* e_shstrndx's header gives where the names are */
   if (e->shentsize < SHDR_SIZE
       || !mp_elf_read(e, e->shoff + little(eh + 0x3E, 2) * e->shentsize, sh, sizeof sh))
      goto fail;
   e->names = little(sh + 0x18, 8);
   return True;
fail:
   VG_(close)(e->fd);
   return False;
}

void mp_elf_close(mp_elf *e)
{
   VG_(close)(e->fd);
}

Bool mp_elf_section_at(const mp_elf *e, ULong i, HChar *name, SizeT name_size,
                       mp_elf_section *s)
{
   UChar sh[SHDR_SIZE];
   VG_(memset)(name, 0, name_size);
   if (!mp_elf_read(e, e->shoff + i * e->shentsize, sh, sizeof sh)
       || !mp_elf_read(e, e->names + little(sh, 4), name, name_size - 1))
      return False;
   s->flags = little(sh + 0x08, 8);
   s->offset = little(sh + 0x18, 8);
   s->size = little(sh + 0x20, 8);
   return True;
}
