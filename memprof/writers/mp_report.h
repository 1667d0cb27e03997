/*--------------------------------------------------------------------*/
/*--- memprof: the output file's JSON document.         mp_report.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   Writes the JSON document of format version MP_FORMAT_VERSION from
   the results (mp_results.h).  The format is documented field by field
   in docs/json-format.md; a metric that was not computed is absent,
   never zero-filled.  Variables smaller than min_var_size are folded
   into one "other" row by the results, so the hot path never sees the
   option.  No Valgrind header.
*/
#ifndef MP_REPORT_H
#define MP_REPORT_H

#include "mp_json.h"
#include "mp_results.h"

#define MP_FORMAT_VERSION 1

/* The whole document.  The caller frees it with mp_json_free. */
mp_json *mp_report_json(const mp_results *res);

#endif /* MP_REPORT_H */
