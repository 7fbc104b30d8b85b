/* tests/trace/test_trace_chunks.c — a .events file's chunks checked by
 * their checksums: a chunk as the recorder writes it ("HMTRACE4", four
 * lanes) is whole; any byte changed, or two words swapped between lanes,
 * makes it torn; chunks of the earlier formats ("HMTRACE3", no folded
 * record; "HMTRACE2", one lane, its checksum computed here from its
 * definition: FNV-1a's step over 8-byte words) are still read; an unknown
 * format is refused. A wait or test that carries a request is two events
 * (counted so, and parted by the stream into the call as a call of its
 * own is recorded and its MPI_T_completed); a call of another class with
 * a request is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "trace/merge_impl.h"

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
static int scan_n(const char *path, size_t want)
{
    size_t n = 0, chunks = 0;
    int torn = 0, st = hm__trace_scan_events(path, &n, &chunks, &torn);
    if (st != HM_OK) return st == HM_EINVAL ? -1 : -2;
    return !torn && n == want && chunks == 1;
}

static int scan(const char *path)
{
    return scan_n(path, N);
}

/* An event with every field set apart. */
static hm_trace_event_t event(int func, uint32_t request)
{
    return (hm_trace_event_t){.enter_s = 1.5,
                              .exit_s = 2.5,
                              .comm_key = 77,
                              .bytes = 4096,
                              .request = request,
                              .calls = 1,
                              .seq = 0,
                              .peer = 3,
                              .tag = 9,
                              .recv_peer = 4,
                              .recv_tag = 8,
                              .func = (int16_t)func,
                              .thread = 1};
}

static int same(const hm_trace_event_t *a, const hm_trace_event_t *b)
{
    return a->enter_s == b->enter_s && a->exit_s == b->exit_s && a->comm_key == b->comm_key &&
           a->bytes == b->bytes && a->request == b->request && a->calls == b->calls &&
           a->seq == b->seq && a->peer == b->peer && a->tag == b->tag &&
           a->recv_peer == b->recv_peer && a->recv_tag == b->recv_tag && a->func == b->func &&
           a->thread == b->thread;
}

/* Folded records: every wait and test with a request is two events, in
 * the order call, MPI_T_completed, with the fields where they belong;
 * MPI_Isend (a request of its own), MPI_Request_free and a wait without a
 * request are one. */
static void folded(const char *path)
{
    const int funcs[] = {HM_TRACE_MPI_Wait,     HM_TRACE_MPI_Waitall, HM_TRACE_MPI_Waitany,
                         HM_TRACE_MPI_Waitsome, HM_TRACE_MPI_Test,    HM_TRACE_MPI_Testall,
                         HM_TRACE_MPI_Testany,  HM_TRACE_MPI_Testsome};
    enum { NF = sizeof funcs / sizeof *funcs, NE = NF + 3 };
    hm_trace_event_t ev[NE];
    for (int k = 0; k < NF; k++) ev[k] = event(funcs[k], 100 + (uint32_t)k);
    ev[NF] = event(HM_TRACE_MPI_Isend, 200);
    ev[NF + 1] = event(HM_TRACE_MPI_Request_free, 0);
    ev[NF + 2] = event(HM_TRACE_MPI_Wait, 0);
    hm__trace_chunk_t head;
    hm__trace_chunk_header(&head, ev, NE);
    FILE *f = fopen(path, "wb");
    HM_CHECK(f && fwrite(&head, sizeof head, 1, f) == 1 && fwrite(ev, sizeof *ev, NE, f) == NE,
             "%s written", path);
    if (f) fclose(f);
    hm__trace_rank_t tr = {.has_model = 0};
    snprintf(tr.path, sizeof tr.path, "%s", path);
    int torn = 0;
    HM_CHECK(hm__trace_scan_events(path, &tr.n, &tr.chunks, &torn) == HM_OK && !torn,
             "a chunk with folded records is whole");
    HM_CHECK(tr.n == NE + NF, "%d records, %d folded: %zu events", NE, NF, tr.n);
    hm__trace_stream_t st;
    HM_CHECK(hm__trace_stream_open(&tr, &st) == HM_OK, "the stream opens");
    hm__trace_ev_t got[2 * NE];
    size_t n = 0;
    while (n < 2 * NE && hm__trace_stream_next(&st, &got[n]) == 1) n++;
    hm__trace_stream_close(&st);
    HM_CHECK(n == NE + NF, "the stream gives %zu events", n);
    int right = 0;
    for (int k = 0; k < NF && 2 * k + 1 < (int)n; k++) {
        hm_trace_event_t call = ev[k], done = ev[k];
        call.comm_key = 1, call.peer = call.tag = call.recv_peer = call.recv_tag = -1;
        call.bytes = 0, call.request = 0;
        done.func = HM_TRACE_MPI_T_completed;
        right += same(&got[2 * k].e, &call) && same(&got[2 * k + 1].e, &done) &&
                 got[2 * k].i == (size_t)(2 * k) && got[2 * k + 1].i == (size_t)(2 * k + 1);
    }
    HM_CHECK(right == NF, "each folded record parted into its call and request: %d of %d", right,
             NF);
    for (int k = NF; k < NE && k + NF < (int)n; k++)
        HM_CHECK(same(&got[k + NF].e, &ev[k]), "%s as written", hm_trace_func_name(ev[k].func));
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
    HM_CHECK(!memcmp(head.magic, "HMTRACE4", 8), "the recorder's chunks are HMTRACE4");
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
    /* The earlier formats: the same checksum without folded records... */
    hm__trace_chunk_t old = head;
    memcpy(old.magic, "HMTRACE3", 8);
    put(path, &old, ev);
    HM_CHECK(scan(path) == 1, "an HMTRACE3 chunk is still read");
    /* ... and one lane. */
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
    folded(path);
    unlink(path);
    return hm_test_finish();
}
