/* src/trace/recorder.c — a rank's events: a buffer allocated once, written
 * out when full into dir/rank-NNNNN.events. The file is a log of chunks,
 * each a header (magic, count, checksum of its events) and its events,
 * appended with one write; a reader keeps every whole chunk and stops at a
 * torn one, so a rank killed in a flush loses that flush alone and never
 * leaves a wrong event. The file is created exclusively: a trace never
 * writes over anything. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <harmonia/timer.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/trace_impl.h"

struct hm_trace_recorder {
    int fd;
    int failed;
    char path[4096];
    char error[4352];
    hm_timer_t *timer;
    int flush_func;
    hm_trace_event_t *events;
    size_t n, capacity;
    uint64_t total, flushes;
};

int hm_trace_recorder_open(const char *dir, int rank, size_t capacity, hm_timer_t *timer,
                           hm_trace_recorder_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!dir) return hm__error_null(__func__, "dir");
    if (!timer) return hm__error_null(__func__, "timer");
    if (rank < 0 || capacity < 2)
        return hm__error_set(HM_EINVAL,
                             "a recorder needs a rank (not %d) and room for at least 2 "
                             "events (not %zu)",
                             rank, capacity);
    hm_trace_recorder_t *r = calloc(1, sizeof *r);
    if (!r || !(r->events = malloc(capacity * sizeof *r->events)))
        return free(r), hm__error_set(HM_ENOMEM, "cannot allocate %zu trace events", capacity);
    snprintf(r->path, sizeof r->path, "%s/rank-%05d.events", dir, rank);
    r->fd = open(r->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (r->fd < 0) {
        /* The sentence names the path: set before the recorder is freed. */
        int rc = hm__error_set(HM_EIO, "cannot create %s: %s", r->path, strerror(errno));
        free(r->events), free(r);
        return rc;
    }
    r->capacity = capacity;
    r->timer = timer;
    r->flush_func = HM_TRACE_MPI_T_flush;
    *out = r;
    return HM_OK;
}

/* iov[0..n) written whole, a partial write resumed where it stopped. */
static int write_all(int fd, struct iovec *iov, int n)
{
    while (n > 0) {
        ssize_t w = writev(fd, iov, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        size_t left = (size_t)w;
        while (n > 0 && left >= iov->iov_len) left -= iov->iov_len, iov++, n--;
        if (n > 0) iov->iov_base = (char *)iov->iov_base + left, iov->iov_len -= left;
    }
    return 0;
}

/* A failed write or close (err: its errno): kept on the recorder
 * (hm_trace_recorder_error) and as the last error. */
static int fail(hm_trace_recorder_t *r, const char *doing, int err)
{
    r->failed = 1;
    snprintf(r->error, sizeof r->error, "%s %s: %s", doing, r->path, strerror(err));
    return hm__error_set(HM_EIO, "%s", r->error);
}

/* One chunk in one write: a header and the buffer, gathered by writev
 * (a copy of both into one allocation of the chunk's size cost every
 * flush its pages, 4 MB fresh from the kernel each time). */
static int write_chunk(hm_trace_recorder_t *r)
{
    if (r->failed) return hm__error_set(HM_EIO, "%s", r->error);
    if (r->n == 0) return HM_OK;
    hm__trace_chunk_t head;
    hm__trace_chunk_header(&head, r->events, r->n);
    struct iovec iov[2] = {{.iov_base = &head, .iov_len = sizeof head},
                           {.iov_base = r->events, .iov_len = r->n * sizeof *r->events}};
    if (write_all(r->fd, iov, 2) != 0) return fail(r, "writing", errno);
    r->n = 0;
    r->flushes++;
    return HM_OK;
}

hm_trace_event_t *hm_trace_recorder_next(hm_trace_recorder_t *r)
{
    if (!r) {
        hm__error_null(__func__, "recorder");
        return NULL;
    }
    if (r->failed) return NULL;
    if (r->n == r->capacity) {
        /* The write is an event of its own, first of the next chunk: a
         * reader sees what the flush cost the rank, and when. */
        double t0 = hm_timer_now(r->timer);
        uint64_t bytes = (uint64_t)r->n * sizeof *r->events;
        if (write_chunk(r) != HM_OK) return NULL;
        r->events[r->n++] = (hm_trace_event_t){.enter_s = t0,
                                               .exit_s = hm_timer_now(r->timer),
                                               .comm_key = HM_TRACE_NO_COMM,
                                               .bytes = bytes,
                                               .peer = -1,
                                               .calls = 1,
                                               .tag = -1,
                                               .recv_peer = -1,
                                               .recv_tag = -1,
                                               .func = (int16_t)r->flush_func};
        r->total++;
    }
    r->total++;
    return &r->events[r->n++];
}

hm_trace_event_t *hm_trace_recorder_last(hm_trace_recorder_t *r)
{
    if (!r) {
        hm__error_null(__func__, "recorder");
        return NULL;
    }
    return r->n && !r->failed ? &r->events[r->n - 1] : NULL;
}

uint64_t hm_trace_recorder_events(const hm_trace_recorder_t *r)
{
    if (!r) {
        hm__error_null(__func__, "recorder");
        return 0;
    }
    return r->total;
}

uint64_t hm_trace_recorder_flushes(const hm_trace_recorder_t *r)
{
    if (!r) {
        hm__error_null(__func__, "recorder");
        return 0;
    }
    return r->flushes;
}

const char *hm_trace_recorder_error(const hm_trace_recorder_t *r)
{
    if (!r) {
        hm__error_null(__func__, "recorder");
        return "";
    }
    return r->error;
}

int hm_trace_recorder_close(hm_trace_recorder_t *r)
{
    if (!r) return HM_OK;
    int st = write_chunk(r);
    if (close(r->fd) != 0 && st == HM_OK) st = fail(r, "closing", errno);
    free(r->events);
    free(r);
    return st;
}
