/*--------------------------------------------------------------------*/
/*--- memprof: an object file's sections by name.          mp_elf.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   The little the adapter reads of a program's ELF files itself: the
   section headers, by name, and bytes at an offset.  The core reads
   the rest (symbols, unwind, variables); memprof asks whether an
   object has debug information and reads the debug sections the
   core does not keep.  64-bit little-endian files only.
*/
#ifndef MP_ELF_H
#define MP_ELF_H

#include "pub_tool_basics.h"

#define MP_ELF_SHF_COMPRESSED 0x800   /* sh_flags: zlib/zstd contents */

/* An open file and where its section headers and their names are. */
typedef struct {
   Int fd;
   ULong shoff, shentsize, shnum;
   ULong names;   /* file offset of the section-name string table */
} mp_elf;

/* One section header, as far as memprof needs it. */
typedef struct {
   ULong offset, size, flags;
} mp_elf_section;

/* Opens the file at path; False (nothing left open) if it cannot be
   opened or is no 64-bit little-endian ELF file. */
Bool mp_elf_open(const HChar *path, mp_elf *e);
void mp_elf_close(mp_elf *e);

/* Section i's header and its name, cut to name_size - 1 bytes and
   terminated; False if it cannot be read. */
Bool mp_elf_section_at(const mp_elf *e, ULong i, HChar *name, SizeT name_size,
                       mp_elf_section *s);

/* Reads n bytes at off; False if short. */
Bool mp_elf_read(const mp_elf *e, ULong off, void *buf, SizeT n);

#endif
