/*--------------------------------------------------------------------*/
/*--- memprof: sampling windows of the whole analysis.             ---*/
/*---                                                  mp_window.c ---*/
/*--------------------------------------------------------------------*/
/*
   This file is part of memprof.  GPL-2.0-or-later; see COPYING.
   The schedule is described in mp_window.h.
*/
#include "mp_window.h"

const char *mp_window_check(mp_window_mode mode, uint64_t window, uint64_t gap)
{
   if (window == 0)
      return "the window must be at least one instruction";
   if (mode == MP_WINDOW_PERIODIC && gap <= window)
      return "the period must be longer than the window";
   if (mode == MP_WINDOW_FIBONACCI && gap == 0)
      return "the largest gap must be at least one instruction";
   return NULL;
}

void mp_window_init(mp_window *w, mp_window_mode mode, uint64_t window, uint64_t gap)
{
   mp_memset(w, 0, sizeof *w);
   w->mode = mode;
   w->window = window;
   w->gap = gap;
   w->in_window = 1;
   w->next = window;
   w->windows = 1;
   w->fib_a = w->fib_b = 1;
}

void mp_window_set_first(mp_window *w, uint64_t first)
{
   if (first > w->window)
      w->next = first;
}

static uint64_t next_gap(mp_window *w)
{
   uint64_t g, t;
   if (w->mode == MP_WINDOW_PERIODIC)
      return w->gap - w->window;
   /* Once a gap reaches G the sequence stops growing (and cannot
      overflow). */
   if (w->fib_a >= w->gap / w->window + 1)
      return w->gap;
   g = w->window * w->fib_a;
   t = w->fib_a + w->fib_b;
   w->fib_a = w->fib_b;
   w->fib_b = t;
   return g < w->gap ? g : w->gap;
}

int mp_window_switch(mp_window *w, uint64_t now)
{
   if (w->in_window) {
      w->analysed += now - w->start;
      w->in_window = 0;
      w->next = now + next_gap(w);
      return 0;
   }
   w->in_window = 1;
   w->start = now;
   w->next = now + w->window;
   w->windows++;
   return 1;
}

uint64_t mp_window_analysed(const mp_window *w, uint64_t now)
{
   return w->analysed + (w->in_window ? now - w->start : 0);
}
