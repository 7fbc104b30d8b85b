/* src/pattern/validate.c — every received byte checked against what its
 * sender put there: a byte that depends on the sender's rank and on its
 * place in the sender's buffer, so that a message from the wrong rank, the
 * wrong place, or cut short is caught. */
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

/* splitmix64's finalizer over (rank, 8-byte word): neighbouring words and
 * ranks differ in about half their bits; the byte is the word's byte at
 * the offset's place, so that a fill hashes once per 8 bytes. */
static uint64_t word_of(int rank, uint64_t word)
{
    uint64_t x = ((uint64_t)(uint32_t)rank << 40) ^ word;
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint8_t hm_pattern_byte(int rank, size_t offset)
{
    return (uint8_t)(word_of(rank, offset / 8) >> (8 * (offset % 8)));
}

/* n bytes of rank's data from offset into out. */
static void pattern_run(int rank, size_t offset, uint8_t *out, size_t n)
{
    size_t i = 0;
    for (; i < n && (offset + i) % 8; i++) out[i] = hm_pattern_byte(rank, offset + i);
    for (; i + 8 <= n; i += 8) {
        uint64_t w = word_of(rank, (offset + i) / 8);
        for (int b = 0; b < 8; b++) out[i + b] = (uint8_t)(w >> (8 * b));
    }
    for (; i < n; i++) out[i] = hm_pattern_byte(rank, offset + i);
}

enum { STAGE_BYTES = 1 << 20 };

/* Runs of STAGE_BYTES through a host array, for device memory's sake. */
static int fill_region(hm_buffer_t *b, size_t off, size_t bytes, int rank, size_t src_off,
                       uint8_t *stage)
{
    for (size_t done = 0; done < bytes;) {
        size_t n = bytes - done < STAGE_BYTES ? bytes - done : STAGE_BYTES;
        if (rank < 0)
            memset(stage, 0, n);
        else
            pattern_run(rank, src_off + done, stage, n);
        int rc = hm__buffer_copy_in(b, off + done, stage, n);
        if (rc != HM_OK) return rc;
        done += n;
    }
    return HM_OK;
}

int hm_plan_fill(hm_plan_t *p)
{
    if (!p) return hm__error_null(__func__, "plan");
    uint8_t *stage = malloc(STAGE_BYTES);
    int rc = stage ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    /* Receive regions first: a send region that is also a receive region
     * (a forwarding rank) keeps its send data. */
    for (size_t i = 0; rc == HM_OK && i < p->recv.n; i++) {
        const hm__message_t *m = &p->recv.m[i];
        rc = fill_region(m->buf, m->off, m->bytes, -1, 0, stage);
    }
    for (size_t i = 0; rc == HM_OK && i < p->send.n; i++) {
        const hm__message_t *m = &p->send.m[i];
        rc = fill_region(m->buf, m->off, m->bytes, p->rank, m->off, stage);
    }
    free(stage);
    return rc;
}

static int check_region(const hm__message_t *m, uint8_t *stage, uint64_t *wrong)
{
    uint8_t *want = stage + STAGE_BYTES;
    for (size_t done = 0; done < m->bytes;) {
        size_t n = m->bytes - done < STAGE_BYTES ? m->bytes - done : STAGE_BYTES;
        int rc = hm__buffer_copy_out(m->buf, m->off + done, stage, n);
        if (rc != HM_OK) return rc;
        pattern_run(m->peer, m->peer_off + done, want, n);
        if (memcmp(stage, want, n) != 0)
            for (size_t i = 0; i < n; i++) *wrong += stage[i] != want[i];
        done += n;
    }
    return HM_OK;
}

int hm_plan_check(const hm_plan_t *p, uint64_t *wrong)
{
    if (!p) return hm__error_null(__func__, "plan");
    if (!wrong) return hm__error_null(__func__, "wrong");
    *wrong = 0;
    uint8_t *stage = malloc(2 * STAGE_BYTES);
    int rc = stage ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    for (size_t i = 0; rc == HM_OK && i < p->recv.n; i++)
        rc = check_region(&p->recv.m[i], stage, wrong);
    free(stage);
    return rc;
}
