/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program of real_threads.json: gcc -g -O0 -pthread, run with
   --cores=8 --fair-sched=yes --read-var-info=yes. */
#include <pthread.h>
#include <stdio.h>
#define NT 8
#define N 200000
/* Per-thread statistics, packed: two per cache line, so neighbours share lines. */
struct stats { long hits; long misses; long bytes; long last; } counters[NT];
long totals_of_every_thread_with_a_very_long_descriptive_name[NT];
static void *work(void *arg) {
    long id = (long)arg;
    for (long i = 0; i < N; i++) {          /* hits and misses together */
        counters[id].hits += i & 1;
        counters[id].misses += (i & 7) == 0;
    }
    for (long i = 0; i < N / 4; i++) {      /* bytes and last together */
        counters[id].bytes += i;
        counters[id].last = i;
    }
    totals_of_every_thread_with_a_very_long_descriptive_name[id] = counters[id].hits;
    return 0;
}
int main(void) {
    pthread_t t[NT];
    for (long i = 0; i < NT; i++) pthread_create(&t[i], 0, work, (void *)i);
    long s = 0;
    for (int i = 0; i < NT; i++) { pthread_join(t[i], 0); s += totals_of_every_thread_with_a_very_long_descriptive_name[i]; }
    printf("%ld\n", s);
    return 0;
}
