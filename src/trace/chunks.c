/* src/trace/chunks.c — the chunks of a .events file: writing their header,
 * reading them back, whole chunks only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <harmonia/output.h>

#include "common/error_set.h"
#include "trace/trace_impl.h"

static const char magic[8] = {'H', 'M', 'T', 'R', 'A', 'C', 'E', '2'};

/* FNV-1a's step over 8-byte words instead of bytes: the checksum of every
 * flush is on the traced program's time, and byte by byte it was a third
 * of a traced request's cost (perf, bench/trace_call request: 31 % in
 * hm__trace_chunk_header). Events are 64 bytes, so len is a multiple of 8;
 * a tail is folded in byte by byte all the same. */
static uint64_t checksum(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull, w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

void hm__trace_chunk_header(hm__trace_chunk_t *head, const hm_trace_event_t *events, size_t n)
{
    memset(head, 0, sizeof *head);
    memcpy(head->magic, magic, sizeof magic);
    head->event_bytes = sizeof *events;
    head->count = n;
    head->checksum = checksum(events, n * sizeof *events);
}

void *hm__trace_big_alloc(size_t bytes)
{
    enum { HUGE_PAGE = 2u << 20 };
    void *p = NULL;
    if (bytes < 2 * HUGE_PAGE) return malloc(bytes ? bytes : 1);
    if (posix_memalign(&p, HUGE_PAGE, bytes) != 0) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, small pages */
    return p;
}

/* Grow *events to hold want events. */
static int reserve(hm_trace_event_t **events, size_t *cap, size_t want)
{
    if (want <= *cap) return HM_OK;
    size_t c = *cap ? *cap : 1024;
    while (c < want) c *= 2;
    hm_trace_event_t *p = realloc(*events, c * sizeof *p);
    if (!p) return hm__error_set(HM_ENOMEM, "cannot hold %zu trace events", want);
    *events = p, *cap = c;
    return HM_OK;
}

/* One chunk appended to *events; 1 at a clean end of file, -1 torn. */
static int read_chunk(FILE *f, const char *path, hm_trace_event_t **events, size_t *n, size_t *cap,
                      int *st)
{
    hm__trace_chunk_t head;
    size_t got = fread(&head, 1, sizeof head, f);
    if (got == 0) return 1;
    if (got < sizeof head) return -1;
    if (memcmp(head.magic, magic, sizeof magic) != 0 || head.event_bytes != sizeof **events)
        return *st = hm__error_set(HM_EINVAL,
                                   "%s is not a trace of this harmonia (its chunk at "
                                   "byte %ld)",
                                   path, ftell(f) - (long)sizeof head),
               -1;
    if ((*st = reserve(events, cap, *n + head.count)) != HM_OK) return -1;
    if (fread(*events + *n, sizeof **events, head.count, f) != head.count) return -1;
    if (checksum(*events + *n, head.count * sizeof **events) != head.checksum) return -1;
    *n += head.count;
    return 0;
}

int hm__trace_read_events(const char *path, hm_trace_event_t **events, size_t *n, size_t *chunks,
                          int *torn)
{
    *events = NULL, *n = 0, *chunks = 0, *torn = 0;
    FILE *f;
    /* Any size: read chunk by chunk, each checked (a rank's file of a long
     * trace holds gigabytes). */
    int rc = hm_input_open(path, "trace rank file", 0, &f);
    if (rc != HM_OK) return rc;
    /* Room for the whole file at once: grown by doubling, the events were
     * copied about once more and held up to twice (7 % of a merge). */
    struct stat sb;
    size_t cap = 0;
    int st = HM_OK, r;
    if (fstat(fileno(f), &sb) == 0 && sb.st_size > 0) {
        cap = (size_t)sb.st_size / sizeof **events;
        if (!(*events = hm__trace_big_alloc(cap * sizeof **events)))
            st = hm__error_set(HM_ENOMEM, "cannot hold %zu trace events", cap);
    }
    if (st != HM_OK) return fclose(f), st;
    while ((r = read_chunk(f, path, events, n, &cap, &st)) == 0) ++*chunks;
    fclose(f);
    if (st != HM_OK) return free(*events), *events = NULL, *n = 0, st;
    *torn = r < 0;
    return HM_OK;
}
