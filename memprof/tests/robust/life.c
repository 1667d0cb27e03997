/* SPDX-License-Identifier: GPL-2.0-or-later

   life: one client for the process life-cycle cases of the robustness
   suite (run.py), chosen by the first argument.  Built by run.py at -O0
   (one store per element of every loop below), so the counts run.py
   expects follow from this source:

     ok                  prints "client ran" (the bad-option cases check
                         that it never runs)
     raise SIG           writes before_signal[0..255] (256 writes), prints
                         "before SIG" and dies of SIG: term (raise
                         SIGTERM), segv (a store through a null pointer),
                         abort (abort())
     wait                writes before_signal as above, prints "ready",
                         then waits for a signal (run.py sends SIGTERM)
     _exit               writes before_signal, prints "lost" without
                         flushing, then _exit(3): the line is lost under
                         memprof as natively (stdout is a pipe)
     exec                writes before_exec[0..255] (256 writes), prints
                         "before exec" and execs itself as "life after"
     after               (the exec'd image) writes after_exec[0..511]
                         (512 writes), prints "after exec", exit 0
     fork N              forks N children; each writes child_work[0..1023]
                         (1024 writes) and exits 0; the parent waits for
                         them, then writes parent_work[0..99] (100 writes)
                         and prints "children N ok"
     threads N           N threads; each mallocs 4096 bytes at one site
                         (per_thread), writes its 1024 ints (1024 writes)
                         and frees it: N blocks, 1024 N writes
     mallocs N           N pairs of malloc(32) (site small_block) and free,
                         one int written to each: N blocks, 32 N bytes, N
                         writes
     big MIB             mallocs MIB MiB (site big_block) and writes one
                         byte every 4096: MIB * 256 writes
     seqthreads N        N threads one after the other; each mallocs 1 MiB
                         (site seq_block), writes it whole with memset,
                         reads one byte per 64 and frees it
     rmdir DIR           removes the empty directory DIR (where the output
                         file was to go), prints "removed", exits 0
     chdir DIR           changes the working directory to DIR, writes
                         before_signal, prints "moved", exits 0
     unsetenv VAR        removes VAR from its environment, writes
                         before_signal, prints "unset", exits 5
     badname             names hostile_global[0..15] with a name pointer
                         that points nowhere (address 16), writes it,
                         prints "named", exits 0
     names               names eight ranges (global and heap) with hostile
                         names through MEMPROF_NAME_RANGE and writes each
                         range once per int (16 writes each), and prints
                         each name in hex ("name HEX"), for run.py to
                         compare with the JSON and memprof_annotate
     family              what a program does with its own processes,
                         each result printed: reaps every child with
                         while (wait(NULL) > 0) after forking 3 that exit
                         with 1, 2, 3 (it must see exactly those: no
                         process of the tool's among its children);
                         system("exit 7"); vfork and exec of /bin/true;
                         kill(0, SIGUSR1) to its own process group, with
                         a handler counting it; then writes
                         before_signal and exits 0
     fds                 prints the descriptors it has open below 1000
                         (run.py: the same under memprof as natively)
     usr1                writes before_signal, prints "ready", waits for
                         SIGUSR1 (run.py first kills the analysis helper
                         with SIGKILL), then writes before_signal again
                         (512 writes in all), prints "done", exits 0
*/
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memprof.h"

int before_signal[256];
int before_exec[256];
int after_exec[512];
int child_work[1024];
int parent_work[100];
int hostile_global[4 * 16] __attribute__((aligned(64)));

static void write_before_signal(void)
{
   int i;
   for (i = 0; i < 256; i++)
      before_signal[i] = i;
}

static void *thread_block(void *arg)
{
   int *per_thread = malloc(4096);
   int i;
   for (i = 0; i < 1024; i++)
      per_thread[i] = i + (int)(long)arg;
   free(per_thread);
   return NULL;
}

static void *seq_thread(void *arg)
{
   char *seq_block = malloc(1 << 20);
   long sum = 0;
   int i;
   memset(seq_block, (int)(long)arg, 1 << 20);
   for (i = 0; i < (1 << 20); i += 64)
      sum += seq_block[i];
   free(seq_block);
   return (void *)sum;
}

/* The hostile names; the last, a long one, is built in main. */
static const char *const hostile[8] = {
   "quote\" backslash\\ slash/ end",
   "ctl \x01\x02\x1b[31mred\x1b[0m tab\t nl\n cr\r del\x7f bell\a end",
   "latin1 caf\xe9 ff\xff fe\xfe lone\x80 trunc\xe2\x82 end",
   "overlong \xc0\xaf surrogate \xed\xa0\x80 big \xf4\x90\x80\x80 end",
   "<script>alert('x')</script> &amp; <b>html</b>",
   "utf8 na\xc3\xafve \xe5\x90\x8d\xe5\x89\x8d \xf0\x9f\x98\x80 end",
   "json \\u0041 \\\" {\"key\": [1,2]} /* */ end",
   NULL,   /* a long name, built below */
};

static volatile sig_atomic_t usr1_caught;
static void count_usr1(int sig)
{
   (void)sig;
   usr1_caught++;
}

int main(int argc, char **argv)
{
   const char *mode = argc > 1 ? argv[1] : "ok";
   int i;

   if (strcmp(mode, "ok") == 0) {
      printf("client ran\n");
      return 0;
   }
   if (strcmp(mode, "raise") == 0 && argc > 2) {
      write_before_signal();
      printf("before %s\n", argv[2]);
      fflush(stdout);
      if (strcmp(argv[2], "term") == 0)
         raise(SIGTERM);
      else if (strcmp(argv[2], "segv") == 0)
         *(volatile int *)0 = before_signal[255];
      else if (strcmp(argv[2], "abort") == 0)
         abort();
      return 2;
   }
   if (strcmp(mode, "wait") == 0) {
      write_before_signal();
      printf("ready\n");
      fflush(stdout);
      for (;;)
         pause();
   }
   if (strcmp(mode, "fds") == 0) {
      DIR *dir = opendir("/proc/self/fd");
      struct dirent *d;
      int open_fds[64], n = 0, self = dir ? dirfd(dir) : -1;
      while (dir && (d = readdir(dir)) != NULL && n < 64) {
         int fd = atoi(d->d_name);
         if (d->d_name[0] != '.' && fd != self && fd < 1000)
            open_fds[n++] = fd;
      }
      if (dir)
         closedir(dir);
      for (i = 0; i < n; i++)
         printf("fd %d\n", open_fds[i]);
      return 0;
   }
   if (strcmp(mode, "usr1") == 0) {
      struct sigaction sa;
      sigset_t usr1, old;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = count_usr1;
      sigaction(SIGUSR1, &sa, NULL);
      sigemptyset(&usr1);
      sigaddset(&usr1, SIGUSR1);
      sigprocmask(SIG_BLOCK, &usr1, &old);
      write_before_signal();
      printf("ready\n");
      fflush(stdout);
      while (!usr1_caught)
         sigsuspend(&old);
      write_before_signal();
      printf("done\n");
      return 0;
   }
   if (strcmp(mode, "_exit") == 0) {
      write_before_signal();
      printf("lost\n");
      _exit(3);
   }
   if (strcmp(mode, "exec") == 0) {
      for (i = 0; i < 256; i++)
         before_exec[i] = i;
      printf("before exec\n");
      fflush(stdout);
      execl(argv[0], argv[0], "after", (char *)NULL);
      perror("execl");
      return 1;
   }
   if (strcmp(mode, "after") == 0) {
      for (i = 0; i < 512; i++)
         after_exec[i] = i;
      printf("after exec\n");
      return 0;
   }
   if (strcmp(mode, "family") == 0) {
      int status, sum = 0, reaped = 0;
      pid_t pid;
      struct sigaction sa;
      fflush(stdout);
      for (i = 1; i <= 3; i++)
         if (fork() == 0)
            _exit(i);
      while ((pid = wait(&status)) > 0) {
         reaped++;
         sum += WIFEXITED(status) ? WEXITSTATUS(status) : 100;
      }
      printf("reaped %d children, statuses summing to %d\n", reaped, sum);
      status = system("exit 7");
      printf("system: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
      fflush(stdout);
      pid = vfork();
      if (pid == 0) {
         execl("/bin/true", "true", (char *)NULL);
         _exit(127);
      }
      printf("vfork+exec: %d\n",
             waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = count_usr1;
      sigaction(SIGUSR1, &sa, NULL);
      kill(0, SIGUSR1);
      printf("SIGUSR1 caught %d\n", (int)usr1_caught);
      write_before_signal();
      return 0;
   }
   if (strcmp(mode, "fork") == 0 && argc > 2) {
      int n = atoi(argv[2]), ok = 0, status;
      fflush(stdout);
      for (i = 0; i < n; i++) {
         pid_t pid = fork();
         if (pid < 0)
            return 1;
         if (pid == 0) {
            int j;
            for (j = 0; j < 1024; j++)
               child_work[j] = j;
            exit(0);
         }
      }
      for (i = 0; i < n; i++)
         if (wait(&status) > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
            ok++;
      for (i = 0; i < 100; i++)
         parent_work[i] = i;
      printf("children %d %s\n", n, ok == n ? "ok" : "failed");
      return ok == n ? 0 : 1;
   }
   if (strcmp(mode, "threads") == 0 && argc > 2) {
      int n = atoi(argv[2]);
      pthread_t *t = calloc((size_t)n, sizeof *t);
      for (i = 0; i < n; i++)
         if (pthread_create(&t[i], NULL, thread_block, (void *)(long)i) != 0)
            return 1;
      for (i = 0; i < n; i++)
         pthread_join(t[i], NULL);
      printf("threads %d joined\n", n);
      return 0;
   }
   if (strcmp(mode, "mallocs") == 0 && argc > 2) {
      long n = atol(argv[2]), k, sum = 0;
      for (k = 0; k < n; k++) {
         int *small_block = malloc(32);
         small_block[0] = (int)k;
         sum += small_block[0] & 1;
         free(small_block);
      }
      printf("mallocs %ld sum %ld\n", n, sum);
      return 0;
   }
   if (strcmp(mode, "big") == 0 && argc > 2) {
      size_t bytes = (size_t)atol(argv[2]) << 20, off;
      char *big_block = malloc(bytes);
      if (!big_block) {
         printf("malloc failed\n");
         return 1;
      }
      for (off = 0; off < bytes; off += 4096)
         big_block[off] = 1;
      printf("touched %zu pages\n", bytes / 4096);
      return 0;
   }
   if (strcmp(mode, "sparse") == 0 && argc > 2) {
      /* a huge block of which one page is used */
      size_t bytes = (size_t)atol(argv[2]) << 20, off;
      char *sparse_block = malloc(bytes);
      if (!sparse_block) {
         printf("malloc failed\n");
         return 1;
      }
      for (off = 0; off < 4096; off += 64)
         sparse_block[off] = 1;
      printf("touched 1 page of %zu\n", bytes / 4096);
      free(sparse_block);
      return 0;
   }
   if (strcmp(mode, "seqthreads") == 0 && argc > 2) {
      int n = atoi(argv[2]);
      for (i = 0; i < n; i++) {
         pthread_t t;
         if (pthread_create(&t, NULL, seq_thread, (void *)(long)i) != 0)
            return 1;
         pthread_join(t, NULL);
      }
      printf("threads %d joined\n", n);
      return 0;
   }
   if (strcmp(mode, "chdir") == 0 && argc > 2) {
      if (chdir(argv[2]) != 0) {
         perror("chdir");
         return 1;
      }
      write_before_signal();
      printf("moved\n");
      return 0;
   }
   if (strcmp(mode, "unsetenv") == 0 && argc > 2) {
      unsetenv(argv[2]);
      write_before_signal();
      printf("unset\n");
      return 5;
   }
   if (strcmp(mode, "badname") == 0) {
      MEMPROF_NAME_RANGE(hostile_global, 16 * sizeof(int), (const char *)16);
      for (i = 0; i < 16; i++)
         hostile_global[i] = i;
      printf("named\n");
      return 0;
   }
   if (strcmp(mode, "rmdir") == 0 && argc > 2) {
      if (rmdir(argv[2]) != 0) {
         perror("rmdir");
         return 1;
      }
      printf("removed\n");
      return 0;
   }
   if (strcmp(mode, "names") == 0) {
      /* 4 names on the global (16 ints each), 4 on a heap block. */
      int *heap = malloc(4 * 16 * sizeof(int));
      char *long_name = malloc(5001);
      const char *names[8];
      memcpy(names, hostile, sizeof names);
      memset(long_name, 'L', 5000);
      long_name[5000] = '\0';
      names[7] = long_name;
      for (i = 0; i < 8; i++) {
         int *base = i < 4 ? &hostile_global[16 * i] : &heap[16 * (i - 4)];
         int j;
         MEMPROF_NAME_RANGE(base, 16 * sizeof(int), names[i]);
         for (j = 0; j < 16; j++)
            base[j] = j;
      }
      for (i = 0; i < 8; i++) {
         const unsigned char *c = (const unsigned char *)names[i];
         printf("name ");
         for (; *c; c++)
            printf("%02x", *c);
         printf("\n");
      }
      free(long_name);   /* the tool copied the name */
      /* The allocator writes its free list into a freed block: the
         names end first, so that those writes are not the names'. */
      for (i = 4; i < 8; i++)
         MEMPROF_UNNAME_RANGE(&heap[16 * (i - 4)]);
      free(heap);
      return 0;
   }
   fprintf(stderr, "life: unknown mode %s\n", mode);
   return 2;
}
