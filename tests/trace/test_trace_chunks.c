/* tests/trace/test_trace_chunks.c — a .events file's chunks checked by
 * their checksums: a chunk as the recorder writes it ("HMTRACE3", four
 * lanes) is whole; any byte changed, or two words swapped between lanes,
 * makes it torn; a chunk of the earlier format ("HMTRACE2", one lane,
 * its checksum computed here from its definition: FNV-1a's step over
 * 8-byte words) is still read; an unknown format is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "trace/trace_impl.h"

enum { N = 37 };

/* The one-lane checksum of "HMTRACE2" files (src/trace/chunks.c before
 * four lanes): the oracle for the old format. */
static uint64_t one_lane(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull, w;
    for (size_t i = 0; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

static void put(const char *path, const hm__trace_chunk_t *head, const hm_trace_event_t *ev)
{
    FILE *f = fopen(path, "wb");
    HM_CHECK(f && fwrite(head, sizeof *head, 1, f) == 1 && fwrite(ev, sizeof *ev, N, f) == N,
             "%s written", path);
    if (f) fclose(f);
}

/* 1 whole (N events, one chunk), 0 torn, -1 refused with HM_EINVAL, -2
 * another failure. */
static int scan(const char *path)
{
    size_t n = 0, chunks = 0;
    int torn = 0, st = hm__trace_scan_events(path, &n, &chunks, &torn);
    if (st != HM_OK) return st == HM_EINVAL ? -1 : -2;
    return !torn && n == N && chunks == 1;
}

int main(void)
{
    char path[] = "/tmp/hm-chunks-XXXXXX";
    int fd = mkstemp(path);
    HM_CHECK(fd >= 0, "a scratch file");
    close(fd);
    hm_trace_event_t ev[N], bad[N];
    unsigned char *b = (unsigned char *)ev;
    for (size_t i = 0; i < sizeof ev; i++) b[i] = (unsigned char)(i * 131 + 7);
    hm__trace_chunk_t head;
    hm__trace_chunk_header(&head, ev, N);
    HM_CHECK(!memcmp(head.magic, "HMTRACE3", 8), "the recorder's chunks are HMTRACE3");
    put(path, &head, ev);
    HM_CHECK(scan(path) == 1, "a chunk as written is whole");
    /* Every byte of two events (one in each half of a 64-byte event's
     * words, all four lanes) changed in turn: each is caught. */
    int caught = 0, tried = 0;
    for (size_t i = 5 * sizeof *ev; i < 7 * sizeof *ev; i++, tried++) {
        memcpy(bad, ev, sizeof ev);
        ((unsigned char *)bad)[i] ^= 0x10;
        put(path, &head, bad);
        caught += scan(path) == 0;
    }
    HM_CHECK(caught == tried, "every changed byte makes the chunk torn: %d of %d", caught, tried);
    /* Words 0 and 1 of event 3 swapped: each lane's sum moves. */
    memcpy(bad, ev, sizeof ev);
    uint64_t w[2];
    memcpy(w, &bad[3], sizeof w);
    uint64_t t = w[0];
    w[0] = w[1], w[1] = t;
    memcpy(&bad[3], w, sizeof w);
    put(path, &head, bad);
    HM_CHECK(scan(path) == 0, "two words swapped between lanes make the chunk torn");
    /* The earlier format, one lane. */
    hm__trace_chunk_t old = head;
    memcpy(old.magic, "HMTRACE2", 8);
    old.checksum = one_lane(ev, sizeof ev);
    put(path, &old, ev);
    HM_CHECK(scan(path) == 1, "an HMTRACE2 chunk (one lane) is still read");
    memcpy(bad, ev, sizeof ev);
    ((unsigned char *)bad)[100] ^= 1;
    put(path, &old, bad);
    HM_CHECK(scan(path) == 0, "a changed byte in an HMTRACE2 chunk makes it torn");
    /* Neither format. */
    memcpy(old.magic, "HMTRACE9", 8);
    put(path, &old, ev);
    HM_CHECK(scan(path) == -1, "an unknown format is refused (HM_EINVAL): %s", hm_last_error());
    unlink(path);
    return hm_test_finish();
}
