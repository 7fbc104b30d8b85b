/* src/clock/serialize.c — FLATTEN_CLOCK / UNFLATTEN_CLOCK of Hunold & Carpen-Amarie 2018
 * Alg. 3: a chain of models as a flat buffer, for clock propagation between
 * processes that read one time source.
 *
 * Layout (native byte order and doubles: the buffer never leaves the node
 * whose processes share the time source):
 *   header  uint32 magic "HMCK", uint32 version, uint32 nlayers, uint32 0
 *   record  uint32 kind, uint32 0, double slope, double intercept
 * one record per model layer, innermost first; the identity at the bottom is
 * implied (the receiver supplies its own timer). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "clock/clock_impl.h"
#include "common/error_set.h"

enum {
    HM_CLOCK_MAGIC = 0x4b434d48, /* "HMCK" read as little-endian bytes */
    HM_CLOCK_VERSION = 1,
    HEADER_BYTES = 16,
    RECORD_BYTES = 24,
    /* Far beyond any real hierarchy (a few levels); bounds the allocation a
     * corrupted header could ask for. */
    MAX_LAYERS = 1024
};

static void put_u32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, sizeof v);
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static double get_f64(const unsigned char *p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

int hm_clock_serialize(const hm_clock_t *clock, void *buf, size_t cap, size_t *len)
{
    if (!clock) return hm__error_null(__func__, "clock");
    if (!len) return hm__error_null(__func__, "len");
    if (cap > 0 && !buf) return hm__error_null(__func__, "buf");
    size_t need = HEADER_BYTES + (size_t)clock->depth * RECORD_BYTES;
    *len = need;
    if (cap < need)
        return hm__error_set(HM_ERANGE, "%s: cap %zu is below the %zu bytes needed", __func__, cap,
                             need);
    unsigned char *p = buf;
    put_u32(p, HM_CLOCK_MAGIC);
    put_u32(p + 4, HM_CLOCK_VERSION);
    put_u32(p + 8, (uint32_t)clock->depth);
    put_u32(p + 12, 0);
    /* The chain array already holds the layers innermost first, with the
     * slope of offset layers stored as 0; walk the base pointers for the
     * kinds. */
    const hm_clock_t *c = clock;
    for (int i = clock->depth - 1; i >= 0; i--, c = c->base) {
        unsigned char *r = p + HEADER_BYTES + (size_t)i * RECORD_BYTES;
        put_u32(r, (uint32_t)c->kind);
        put_u32(r + 4, 0);
        memcpy(r + 8, &c->lm.slope, sizeof(double));
        memcpy(r + 16, &c->lm.intercept, sizeof(double));
    }
    return HM_OK;
}

/* One record: known kind, zero padding, finite numbers, no slope on an
 * offset layer. */
static int read_record(const unsigned char *r, hm_clock_kind_t *kind, hm_lm_t *lm)
{
    uint32_t k = get_u32(r);
    if (k != HM_CLOCK_OFFSET && k != HM_CLOCK_LINEAR)
        return hm__error_set(HM_EINVAL, "layer kind %u is not offset or linear", (unsigned)k);
    if (get_u32(r + 4) != 0) return hm__error_set(HM_EINVAL, "a layer's padding is not zero");
    lm->slope = get_f64(r + 8);
    lm->intercept = get_f64(r + 16);
    if (!isfinite(lm->slope) || !isfinite(lm->intercept))
        return hm__error_set(HM_EINVAL, "layer slope %g, intercept %g is not finite", lm->slope,
                             lm->intercept);
    if (k == HM_CLOCK_OFFSET && lm->slope != 0)
        return hm__error_set(HM_EINVAL, "offset layer has slope %g (must be 0)", lm->slope);
    *kind = (hm_clock_kind_t)k;
    return HM_OK;
}

static int check_header(const unsigned char *p, size_t len, uint32_t *nlayers)
{
    if (len < HEADER_BYTES)
        return hm__error_set(HM_EINVAL, "shorter than its %d-byte header", HEADER_BYTES);
    if (get_u32(p) != HM_CLOCK_MAGIC || get_u32(p + 4) != HM_CLOCK_VERSION)
        return hm__error_set(HM_EINVAL, "not a version %d clock (magic or version differs)",
                             HM_CLOCK_VERSION);
    if (get_u32(p + 12) != 0) return hm__error_set(HM_EINVAL, "the header's padding is not zero");
    *nlayers = get_u32(p + 8);
    if (*nlayers > MAX_LAYERS)
        return hm__error_set(HM_EINVAL, "%u layers exceed the limit of %d", (unsigned)*nlayers,
                             MAX_LAYERS);
    if (len != HEADER_BYTES + (size_t)*nlayers * RECORD_BYTES)
        return hm__error_set(HM_EINVAL, "%u layers need %zu bytes", (unsigned)*nlayers,
                             HEADER_BYTES + (size_t)*nlayers * RECORD_BYTES);
    return HM_OK;
}

int hm_clock_deserialize(const void *buf, size_t len, hm_timer_t *timer, hm_clock_t **out)
{
    const unsigned char *p = buf;
    uint32_t n = 0;
    if (!buf) return hm__error_null(__func__, "buf");
    if (!timer) return hm__error_null(__func__, "timer");
    if (!out) return hm__error_null(__func__, "out");
    int rc = check_header(p, len, &n);
    /* Validate every record before building anything, so that a bad buffer
     * never leaves a half-built chain behind. */
    hm_clock_kind_t kind;
    hm_lm_t lm;
    for (uint32_t i = 0; rc == HM_OK && i < n; i++)
        rc = read_record(p + HEADER_BYTES + (size_t)i * RECORD_BYTES, &kind, &lm);
    if (rc != HM_OK)
        return hm__error_set(rc, "%s: malformed clock buffer of %zu bytes: %s", __func__, len,
                             hm_last_error());

    hm_clock_t *c;
    if ((rc = hm_clock_identity(timer, &c)) != HM_OK) return rc;
    for (uint32_t i = 0; i < n; i++) {
        hm_clock_t *next;
        read_record(p + HEADER_BYTES + (size_t)i * RECORD_BYTES, &kind, &lm);
        rc = hm_clock_model(c, kind, lm, &next);
        hm_clock_free(c); /* next holds the reference it needs */
        if (rc != HM_OK) return rc;
        c = next;
    }
    *out = c;
    return HM_OK;
}
