// A flat CPU profiler for machines without perf (the GPU machine): preloaded (LD_PRELOAD), it
// samples the calling thread's program counter every `usec` of wall time between
// sampler_start(usec) and sampler_stop() (called through ctypes, bench/probes/xy_profile.py), and
// at exit writes "count library offset symbol" lines to $SAMPLER_OUT for sampler_report.py.
//   gcc -O2 -shared -fPIC bench/probes/sampler.c -o /tmp/sampler.so -ldl -lrt
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <ucontext.h>
#define MAXS (1 << 22)
static void* pcs[MAXS];
static volatile long nsamples;
static void on_prof(int sig, siginfo_t* si, void* ctx) {
    (void)sig; (void)si;
    ucontext_t* uc = (ucontext_t*)ctx;
    long i = __atomic_fetch_add(&nsamples, 1, __ATOMIC_RELAXED);
    if (i < MAXS) pcs[i] = (void*)uc->uc_mcontext.gregs[REG_RIP];
}
static timer_t timer;
// A high-resolution wall-clock timer signalling the calling thread (itimers tick per jiffy).
void sampler_start(int usec) {
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof; sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &sa, 0);
    struct sigevent ev; memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID; ev.sigev_signo = SIGPROF; ev._sigev_un._tid = gettid();
    timer_create(CLOCK_MONOTONIC, &ev, &timer);
    struct itimerspec it = {{0, usec * 1000L}, {0, usec * 1000L}};
    timer_settime(timer, 0, &it, 0);
}
void sampler_stop(void) { timer_delete(timer); }
static int cmp(const void* a, const void* b) { void* x = *(void**)a; void* y = *(void**)b; return x < y ? -1 : x > y; }
__attribute__((destructor)) static void dump(void) {
    const char* path = getenv("SAMPLER_OUT");
    long n = nsamples < MAXS ? nsamples : MAXS;
    if (!path || !n) return;
    FILE* f = fopen(path, "w");
    qsort(pcs, n, sizeof(void*), cmp);
    for (long i = 0; i < n;) {
        long j = i; while (j < n && pcs[j] == pcs[i]) ++j;
        Dl_info d; memset(&d, 0, sizeof d);
        if (dladdr(pcs[i], &d) && d.dli_fname)
            fprintf(f, "%ld %s 0x%lx %s\n", j - i, d.dli_fname, (unsigned long)((char*)pcs[i] - (char*)d.dli_fbase), d.dli_sname ? d.dli_sname : "?");
        else fprintf(f, "%ld ? %p ?\n", j - i, pcs[i]);
        i = j;
    }
    fclose(f);
}
