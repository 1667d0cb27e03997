/*--------------------------------------------------------------------*/
/*--- memprof: sampling windows of the whole analysis.             ---*/
/*---                                                  mp_window.h ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.

   --sample=periodic and --sample=windows: the program's guest
   instructions are cut into analysed windows and skipped gaps.  During
   a gap the instrumentation is dormant (the access helpers are skipped
   by a guard, no analysis runs), which is what brings the cost near
   --tool=none's; during a window every analysis sees every access.

   - periodic: windows of W instructions, one every P (gaps of P - W).
   - windows (MACPO's bursty sampling): windows of W instructions, the
     k-th gap W * Fib(k) (1, 1, 2, 3, 5, 8, ... times W) up to G: dense
     at the start of the run, where short phases are, sparse later.

   The run starts in a window.  This file only keeps the schedule and
   the accounting (instructions analysed, windows); the adapter counts
   instructions and calls mp_window_switch when the next boundary is
   reached.  O(1) per boundary, nothing per access.
*/
#ifndef MP_WINDOW_H
#define MP_WINDOW_H

#include "mp_platform.h"

typedef enum {
   MP_WINDOW_PERIODIC,   /* W every P */
   MP_WINDOW_FIBONACCI   /* W, gaps W * 1, 1, 2, 3, 5, ... up to G */
} mp_window_mode;

typedef struct {
   mp_window_mode mode;
   uint64_t window;     /* instructions per window, >= 1 */
   uint64_t gap;        /* periodic: the period P (> W); fibonacci: the
                           largest gap G (>= 1) */
   /* State. */
   int in_window;
   uint64_t next;       /* instruction count of the next boundary */
   uint64_t start;      /* of the current window */
   uint64_t analysed;   /* instructions of the windows closed so far */
   uint64_t windows;    /* windows begun */
   uint64_t fib_a, fib_b;  /* the next gap is W * fib_a (fibonacci) */
} mp_window;

/* Checks a schedule: NULL if good, else a message saying what is wrong
   (for the option parser). */
const char *mp_window_check(mp_window_mode mode, uint64_t window, uint64_t gap);

/* Starts the schedule at instruction 0, in the first window. */
void mp_window_init(mp_window *w, mp_window_mode mode, uint64_t window, uint64_t gap);

/* Makes the first window 'first' instructions long, if that is longer
   than a window: a run shorter than it is analysed whole.  Right after
   mp_window_init. */
void mp_window_set_first(mp_window *w, uint64_t first);

/* Called once the instruction count 'now' has reached w->next: closes
   the window or the gap in progress and opens the next one, whose end is
   the new w->next.  Returns 1 if a window begins. */
int mp_window_switch(mp_window *w, uint64_t now);

/* Instructions analysed up to 'now' (the open window counted up to now). */
uint64_t mp_window_analysed(const mp_window *w, uint64_t now);

#endif /* MP_WINDOW_H */
