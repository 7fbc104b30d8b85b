/* tests/trace/test_trace_merge_memory.c — a merge's memory does not grow
 * with the events (issue 30): two traces of 2 ranks made with the
 * recorder, one 4 times the other (0.2 M and 0.8 M events: messages by
 * Isend/Irecv/Waitall with their request records, an Allreduce, each
 * round), each merged with every file in a child process, whose peak
 * resident memory (ru_maxrss) is compared. A merge that held the events
 * grew 129 B an event: 77 MB between these two. A streaming merge holds
 * buffers of a fixed size and what is in flight (one round's messages
 * and collective), so the difference is allocator and page-cache noise
 * of a few MB; 16 MB, a fifth of the growth of the old merge and a third
 * of the larger trace's 51 MB of events, tells the two apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/timer.h>
#include <harmonia/trace.h>

#include "testutil.h"

enum { NRANKS = 2, PER_ROUND = 6 };

#if defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer keeps freed blocks in a quarantine of up to 256 MB
 * before reusing them, so a process's peak grows with all it ever
 * allocated, not with what it holds: 86 -> 222 MB between these traces.
 * Without the quarantine the sanitized merge grew 9 MB (20 -> 29 MB),
 * the plain build 7 MB (14 -> 21 MB), so the same bound applies. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=0";
}
#endif

static int put(hm_trace_recorder_t *r, int func, double t, int peer, uint32_t request, uint32_t seq)
{
    hm_trace_event_t *e = hm_trace_recorder_next(r);
    if (!e) return 0;
    memset(e, 0, sizeof *e);
    e->func = (int16_t)func, e->enter_s = t, e->exit_s = t + 1e-6;
    e->peer = peer, e->tag = 1, e->request = request, e->seq = seq, e->calls = 1;
    e->recv_peer = e->recv_tag = -1;
    e->comm_key = 0; /* MPI_COMM_WORLD */
    return 1;
}

/* One rank's rounds: its message to the other rank and the other's to it,
 * completed by a Waitall, then an Allreduce. */
static int record_rank(const char *dir, int rank, long rounds, hm_timer_t *timer)
{
    hm_trace_recorder_t *r = NULL;
    /* Room for every event: a flush in between would be dated on the real
     * clock, far from these events' times. */
    size_t capacity = (size_t)rounds * PER_ROUND + 16;
    if (hm_trace_recorder_open(dir, rank, capacity, timer, &r) != HM_OK) return 0;
    int ok = 1, peer = 1 - rank;
    for (long k = 0; ok && k < rounds; k++) {
        double t = 1.0 + (double)k * 1e-5;
        uint32_t send = (uint32_t)(2 * k + 1), recv = (uint32_t)(2 * k + 2);
        ok = put(r, HM_TRACE_MPI_Isend, t, peer, send, 0) &&
             put(r, HM_TRACE_MPI_Irecv, t + 2e-6, peer, recv, 0) &&
             put(r, HM_TRACE_MPI_Waitall, t + 4e-6, -1, 0, 0) &&
             put(r, HM_TRACE_MPI_T_completed, t + 4e-6, peer, send, 0) &&
             put(r, HM_TRACE_MPI_T_completed, t + 4e-6, peer, recv, 0) &&
             put(r, HM_TRACE_MPI_Allreduce, t + 6e-6, -1, 0, (uint32_t)k + 1);
    }
    ok = hm_trace_recorder_close(r) == HM_OK && ok;
    hm_trace_rank_info_t in = {.rank = rank, .size = NRANKS, .has_end = 1};
    in.start = in.end = (hm_trace_model_t){0, 0, 1}; /* the local clocks are global */
    in.check_init_s = in.pair_error_s = in.latency_min_s = 0;
    in.realtime_local_s = in.realtime_s = 0;
    snprintf(in.clock_sync, sizeof in.clock_sync, "none");
    snprintf(in.timer, sizeof in.timer, "monotonic");
    return ok && hm_trace_model_write(dir, &in, 0, NULL, NULL, NULL) == HM_OK;
}

/* The peak resident memory of a merge of dir in a child, in KiB; -1 when
 * it failed. */
static long merge_peak_kib(const char *dir, uint64_t *events)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        hm_trace_summary_t s;
        int rc = hm_trace_merge(dir, HM_TRACE_FILE_ALL, &s);
        if (rc != HM_OK) fprintf(stderr, "merge of %s: %s\n", dir, hm_last_error());
        uint64_t n = rc == HM_OK ? s.events : 0;
        ssize_t w = write(fds[1], &n, sizeof n);
        _exit(rc == HM_OK && w == (ssize_t)sizeof n ? 0 : 1);
    }
    close(fds[1]);
    int status = 0;
    struct rusage ru;
    ssize_t got = read(fds[0], events, sizeof *events);
    close(fds[0]);
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || got != (ssize_t)sizeof *events)
        return -1;
    return ru.ru_maxrss;
}

/* record_rank in a child: the recorder's buffer, freed, may stay in this
 * process's heap (glibc keeps a freed top below its trim threshold), and
 * a merge forked from here would count it resident (26 MB at 0.8 M
 * events). */
static int record_apart(const char *dir, int rank, long rounds, hm_timer_t *timer)
{
    pid_t pid = fork();
    if (pid == 0) _exit(record_rank(dir, rank, rounds, timer) ? 0 : 1);
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

static long trace_peak(long rounds, hm_timer_t *timer, uint64_t *events)
{
    char dir[] = "/tmp/hm-merge-memory-XXXXXX", cmd[128];
    if (!mkdtemp(dir)) return -1;
    long kib = -1;
    if (record_apart(dir, 0, rounds, timer) && record_apart(dir, 1, rounds, timer))
        kib = merge_peak_kib(dir, events);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return kib;
}

int main(void)
{
    hm_timer_t *timer = NULL;
    HM_CHECK(hm_timer_create("monotonic", NULL, &timer) == HM_OK, "a timer: %s", hm_last_error());
    long rounds = 100000 / PER_ROUND * 1; /* 0.1 M events a rank */
    uint64_t small_events = 0, large_events = 0;
    long small = trace_peak(rounds, timer, &small_events);
    long large = trace_peak(4 * rounds, timer, &large_events);
    HM_CHECK(small > 0 && large > 0, "both traces merged: %ld KiB, %ld KiB", small, large);
    HM_CHECK(large_events >= 4 * small_events - 1000 && small_events > 0,
             "the larger trace has 4 times the events: %llu and %llu",
             (unsigned long long)small_events, (unsigned long long)large_events);
    double grew_mb = (double)(large - small) / 1024, events_mb = (double)large_events * 64 / 1e6;
    HM_CHECK(grew_mb < 16,
             "peak memory %.1f MB -> %.1f MB for %llu -> %llu events: grew %.1f MB (< 16 MB; the "
             "larger trace's events are %.0f MB)",
             small / 1024.0, large / 1024.0, (unsigned long long)small_events,
             (unsigned long long)large_events, grew_mb, events_mb);
    printf("merge peak memory: %.1f MB for %llu events, %.1f MB for %llu events\n", small / 1024.0,
           (unsigned long long)small_events, large / 1024.0, (unsigned long long)large_events);
    hm_timer_free(timer);
    return hm_test_finish();
}
