/* src/trace/chunks.c — the chunks of a .events file: writing their header,
 * checking them, reading them back as a stream, whole chunks only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

static const char magic[8] = {'H', 'M', 'T', 'R', 'A', 'C', 'E', '2'};

/* FNV-1a's step over 8-byte words instead of bytes: the checksum of every
 * flush is on the traced program's time, and byte by byte it was a third
 * of a traced request's cost (perf, bench/trace_call request: 31 % in
 * hm__trace_chunk_header). Events are 64 bytes, so len is a multiple of 8;
 * a tail is folded in byte by byte all the same. */
static uint64_t checksum_from(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t checksum(const void *data, size_t len)
{
    return checksum_from(0xcbf29ce484222325ull, data, len);
}

void hm__trace_chunk_header(hm__trace_chunk_t *head, const hm_trace_event_t *events, size_t n)
{
    memset(head, 0, sizeof *head);
    memcpy(head->magic, magic, sizeof magic);
    head->event_bytes = sizeof *events;
    head->count = n;
    head->checksum = checksum(events, n * sizeof *events);
}

/* A buffer's worth of events: 1 MiB a rank and reader, so that a merge
 * holds a few MiB a rank whatever the trace's length. */
enum { BUF_EVENTS = 16384 };

/* The events of one chunk through buf, their checksum: whole or not. */
static int chunk_whole(FILE *f, const hm__trace_chunk_t *head, hm_trace_event_t *buf)
{
    uint64_t h = 0xcbf29ce484222325ull, left = head->count;
    while (left) {
        size_t k = left < BUF_EVENTS ? (size_t)left : BUF_EVENTS;
        if (fread(buf, sizeof *buf, k, f) != k) return 0;
        h = checksum_from(h, buf, k * sizeof *buf);
        left -= k;
    }
    return h == head->checksum;
}

/* One chunk checked: 0 whole, 1 at a clean end of file, -1 torn, or a
 * negative HM_E* code for a file that is not a trace. */
static int scan_chunk(FILE *f, const char *path, hm_trace_event_t *buf, uint64_t *count)
{
    hm__trace_chunk_t head;
    size_t got = fread(&head, 1, sizeof head, f);
    if (got == 0) return 1;
    if (got < sizeof head) return -1;
    if (memcmp(head.magic, magic, sizeof magic) != 0 || head.event_bytes != sizeof *buf)
        return hm__error_set(HM_EINVAL,
                             "%s is not a trace of this harmonia (its chunk at byte %ld)", path,
                             ftell(f) - (long)sizeof head);
    *count = head.count;
    return chunk_whole(f, &head, buf) ? 0 : -1;
}

int hm__trace_scan_events(const char *path, size_t *n, size_t *chunks, int *torn)
{
    *n = 0, *chunks = 0, *torn = 0;
    FILE *f;
    int rc = hm_input_open(path, "trace rank file", 0, &f);
    if (rc != HM_OK) return rc;
    hm_trace_event_t *buf = malloc(BUF_EVENTS * sizeof *buf);
    if (!buf) return fclose(f), hm__error_nomem("hm_trace_merge");
    uint64_t count = 0;
    while ((rc = scan_chunk(f, path, buf, &count)) == 0) ++*chunks, *n += count;
    free(buf);
    fclose(f);
    if (rc < -1) return rc;
    *torn = rc == -1;
    return HM_OK;
}

int hm__trace_stream_open(const hm__trace_rank_t *tr, hm__trace_stream_t *s)
{
    memset(s, 0, sizeof *s);
    s->tr = tr;
    s->chunks_left = tr->chunks;
    if (!tr->chunks) return HM_OK;
    int rc = hm_input_open(tr->path, "trace rank file", 0, &s->f);
    if (rc != HM_OK) return rc;
    if (!(s->buf = malloc(BUF_EVENTS * sizeof *s->buf)))
        return hm__trace_stream_close(s), hm__error_nomem("hm_trace_merge");
    return HM_OK;
}

/* The next run of events of the current chunk, or the next whole chunk's
 * header first (the scan checked them: only a failed read is an error). */
static int refill(hm__trace_stream_t *s)
{
    while (!s->chunk_left) {
        if (!s->chunks_left) return 0;
        hm__trace_chunk_t head;
        if (fread(&head, sizeof head, 1, s->f) != 1)
            return hm__error_set(HM_EIO, "%s: cannot read it again", s->tr->path);
        s->chunk_left = head.count, s->chunks_left--;
    }
    size_t k = s->chunk_left < BUF_EVENTS ? (size_t)s->chunk_left : BUF_EVENTS;
    if (fread(s->buf, sizeof *s->buf, k, s->f) != k)
        return hm__error_set(HM_EIO, "%s: cannot read it again", s->tr->path);
    s->chunk_left -= k, s->nbuf = k, s->at = 0;
    return 1;
}

/* An event's times on both global clocks. A rank without a model file has
 * no clock to go by: its times stay local (and the summary says it did
 * not finish). */
static void place(const hm__trace_rank_t *tr, hm__trace_ev_t *ev)
{
    const hm_trace_rank_info_t *in = &tr->model.info;
    double t[2] = {ev->e.enter_s, ev->e.exit_s};
    for (int k = 0; k < 2; k++) {
        double x = tr->has_model ? hm_trace_model_apply(in->start, t[k]) : t[k];
        ev->ext[k] = x;
        ev->glob[k] =
            tr->has_model && in->has_end ? hm_trace_interpolate(in->start, in->end, t[k]) : x;
    }
}

int hm__trace_stream_next(hm__trace_stream_t *s, hm__trace_ev_t *ev)
{
    if (s->at == s->nbuf) {
        int rc = s->f ? refill(s) : 0;
        if (rc <= 0) return rc;
    }
    ev->e = s->buf[s->at++];
    ev->i = s->next++;
    place(s->tr, ev);
    return 1;
}

void hm__trace_stream_close(hm__trace_stream_t *s)
{
    if (s->f) fclose(s->f);
    free(s->buf);
    s->f = NULL, s->buf = NULL;
}
