/* counters.c: the source of the sharing*.json fixtures (hand-made). */
#include <pthread.h>
#include <stdlib.h>

static const long table[8192] = { 1 };	/* 64 KiB, read by both workers */
static long *queue;			/* 512 longs, filled by main */
static long counters[2];		/* one per worker: one line */

static void *worker(void *arg)
{
	long id = (long)arg, s = 0;

	for (int i = 0; i < 8192; i++) {
		s += table[i];		/* pages on the first reader's socket */
		if (i < 1000)
			counters[id]++;	/* false sharing */
	}
#ifdef SUM				/* the sharing_b.json run */
	for (int r = 0; id == 1 && r < 100; r++)
		s += counters[0];	/* true sharing */
#endif
	for (int i = 0; i < 256; i++)
		s += queue[(i / 4) * 8 + id * 4 + i % 4];
	return (void *)s;
}

int main(void)
{
	pthread_t t[2];

	queue = malloc(4096);
	for (int i = 0; i < 512; i++)
		queue[i] = i;
	for (long id = 0; id < 2; id++)
		pthread_create(&t[id], NULL, worker, (void *)id);
	for (int id = 0; id < 2; id++)
		pthread_join(t[id], NULL);
	return 0;
}
