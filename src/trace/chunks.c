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

/* "HMTRACE4" chunks: the checksum in four lanes (below), waits and tests
 * that may carry a request (hm__trace_folded: a harmonia that does not
 * part them refuses the file rather than lose the requests); "HMTRACE3"
 * (no folded record) and "HMTRACE2" (one lane) are still read. */
static const char magic[8] = {'H', 'M', 'T', 'R', 'A', 'C', 'E', '4'};
static const char magic_unfolded[8] = {'H', 'M', 'T', 'R', 'A', 'C', 'E', '3'};
static const char magic_one_lane[8] = {'H', 'M', 'T', 'R', 'A', 'C', 'E', '2'};

/* FNV-1a's step over 8-byte words instead of bytes: the checksum of every
 * flush is on the traced program's time, and byte by byte it was a third
 * of a traced request's cost (perf, bench/trace_call request: 31 % in
 * hm__trace_chunk_header). In one lane, each word's multiply waits for
 * the last one's: 20 ns a 64-byte event, 1.9 % of a traced polling loop
 * (perf, bench/trace_call polling); four lanes (word i into lane i mod 4)
 * run side by side and are folded at the end. Events are 64 bytes, so a
 * length is a multiple of 32; a tail is folded into lane 0 all the same. */
typedef struct sum {
    uint64_t lane[4];
    int lanes; /* 4, or 1 for "HMTRACE2" */
} sum_t;

static uint64_t fnv_step(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static void sum_init(sum_t *s, int lanes)
{
    for (int k = 0; k < 4; k++) s->lane[k] = 0xcbf29ce484222325ull + (uint64_t)k;
    s->lanes = lanes;
}

/* The lanes in locals: as an array, GCC kept them in memory or made
 * vector code of the 64-bit multiplies, 10.6 ns an event against 4.7. */
static void sum_feed(sum_t *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t w[4], a = s->lane[0], b = s->lane[1], c = s->lane[2], d = s->lane[3];
    size_t i = 0;
    for (; s->lanes == 4 && i + sizeof w <= len; i += sizeof w) {
        memcpy(w, p + i, sizeof w);
        a = fnv_step(a, w[0]), b = fnv_step(b, w[1]);
        c = fnv_step(c, w[2]), d = fnv_step(d, w[3]);
    }
    for (; i + 8 <= len; i += 8) {
        memcpy(w, p + i, 8);
        a = fnv_step(a, w[0]);
    }
    for (; i < len; i++) a = (a ^ p[i]) * 0x100000001b3ull;
    s->lane[0] = a, s->lane[1] = b, s->lane[2] = c, s->lane[3] = d;
}

static uint64_t sum_end(const sum_t *s)
{
    uint64_t h = s->lane[0];
    for (int k = 1; k < s->lanes; k++) h = fnv_step(h, s->lane[k]);
    return h;
}

void hm__trace_chunk_header(hm__trace_chunk_t *head, const hm_trace_event_t *events, size_t n)
{
    sum_t s;
    sum_init(&s, 4);
    sum_feed(&s, events, n * sizeof *events);
    memset(head, 0, sizeof *head);
    memcpy(head->magic, magic, sizeof magic);
    head->event_bytes = sizeof *events;
    head->count = n;
    head->checksum = sum_end(&s);
}

/* A buffer's worth of events: 1 MiB a rank and reader, so that a merge
 * holds a few MiB a rank whatever the trace's length. */
enum { BUF_EVENTS = 16384 };

/* The events of one chunk through buf, their checksum: whole or not;
 * *folded: its records that stand for two events. */
static int chunk_whole(FILE *f, const hm__trace_chunk_t *head, hm_trace_event_t *buf,
                       uint64_t *folded)
{
    uint64_t left = head->count;
    sum_t s;
    sum_init(&s, memcmp(head->magic, magic_one_lane, sizeof magic) ? 4 : 1);
    *folded = 0;
    while (left) {
        size_t k = left < BUF_EVENTS ? (size_t)left : BUF_EVENTS;
        if (fread(buf, sizeof *buf, k, f) != k) return 0;
        sum_feed(&s, buf, k * sizeof *buf);
        for (size_t i = 0; i < k; i++) *folded += (uint64_t)hm__trace_folded(&buf[i]);
        left -= k;
    }
    return sum_end(&s) == head->checksum;
}

/* What scan_chunk found, all above 0: HM_E* codes are negative (HM_EINVAL
 * is -1, which a torn chunk once was: a file that is not a trace was
 * then dropped as torn instead of refused). */
enum { CHUNK_WHOLE = 1, CHUNK_END = 2, CHUNK_TORN = 3 };

/* One chunk checked: CHUNK_WHOLE, CHUNK_END at a clean end of file,
 * CHUNK_TORN, or a negative HM_E* code for a file that is not a trace.
 * *count: the events its records stand for. */
static int scan_chunk(FILE *f, const char *path, hm_trace_event_t *buf, uint64_t *count)
{
    hm__trace_chunk_t head;
    size_t got = fread(&head, 1, sizeof head, f);
    if (got == 0) return CHUNK_END;
    if (got < sizeof head) return CHUNK_TORN;
    int known = !memcmp(head.magic, magic, sizeof magic) ||
                !memcmp(head.magic, magic_unfolded, sizeof magic) ||
                !memcmp(head.magic, magic_one_lane, sizeof magic);
    if (!known || head.event_bytes != sizeof *buf)
        return hm__error_set(HM_EINVAL,
                             "%s is not a trace of this harmonia (its chunk at byte %ld)", path,
                             ftell(f) - (long)sizeof head);
    uint64_t folded = 0;
    int whole = chunk_whole(f, &head, buf, &folded);
    *count = head.count + folded;
    return whole ? CHUNK_WHOLE : CHUNK_TORN;
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
    while ((rc = scan_chunk(f, path, buf, &count)) == CHUNK_WHOLE) ++*chunks, *n += count;
    free(buf);
    fclose(f);
    if (rc < 0) return rc;
    *torn = rc == CHUNK_TORN;
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
        double x = tr->has_model ? hm__trace_model_at(in->start, t[k]) : t[k];
        ev->ext[k] = x;
        ev->glob[k] =
            tr->has_model && in->has_end ? hm__trace_between(in->start, in->end, t[k], x) : x;
    }
}

int hm__trace_stream_next(hm__trace_stream_t *s, hm__trace_ev_t *ev)
{
    if (s->holding) {
        *ev = s->held, s->holding = 0;
        ev->i = s->next++;
        return 1;
    }
    if (s->at == s->nbuf) {
        int rc = s->f ? refill(s) : 0;
        if (rc <= 0) return rc;
    }
    ev->e = s->buf[s->at++];
    ev->i = s->next++;
    place(s->tr, ev);
    if (hm__trace_folded(&ev->e)) {
        s->held = *ev, s->holding = 1;
        hm__trace_part(&ev->e, &s->held.e);
    }
    return 1;
}

void hm__trace_stream_close(hm__trace_stream_t *s)
{
    if (s->f) fclose(s->f);
    free(s->buf);
    s->f = NULL, s->buf = NULL;
}
