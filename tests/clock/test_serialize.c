/* tests/clock/test_serialize.c — FLATTEN_CLOCK / UNFLATTEN_CLOCK (Hunold & Carpen-Amarie 2018
 * Alg. 3): a serialized chain rebuilt over a timer reads bit-identically,
 * sizes are reported, and malformed buffers are refused.
 *
 * The corruptions write into the documented layout (src/clock/serialize.c):
 * a 16-byte header (magic, version, layer count, 0) and 24-byte records
 * (kind, 0, slope, intercept), innermost layer first. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <harmonia/clock.h>

#include "testutil.h"

enum { HEADER = 16, RECORD = 24, DEPTH = 3, SIZE = HEADER + DEPTH * RECORD };

static hm_clock_t *build(hm_timer_t *timer)
{
    hm_clock_t *id, *c1, *c2, *c3;
    hm_clock_identity(timer, &id);
    hm_clock_model(id, HM_CLOCK_LINEAR, (hm_lm_t){1.234567e-4, 0.987654321}, &c1);
    hm_clock_model(c1, HM_CLOCK_OFFSET, (hm_lm_t){0, -3.25e-6}, &c2);
    hm_clock_model(c2, HM_CLOCK_LINEAR, (hm_lm_t){-2.5e-8, 1.1e-7}, &c3);
    hm_clock_free(c2);
    hm_clock_free(c1);
    hm_clock_free(id);
    return c3;
}

static void test_round_trip(hm_timer_t *timer)
{
    hm_clock_t *c = build(timer), *back = NULL;
    unsigned char buf[SIZE], again[SIZE];
    size_t len = 0, len2 = 0;
    int rc = hm_clock_serialize(c, NULL, 0, &len);
    HM_CHECK(rc == HM_ERANGE && len == SIZE, "cap 0 asks the size: %s, %zu bytes (want %d)",
             hm_strerror(rc), len, SIZE);
    rc = hm_clock_serialize(c, buf, SIZE - 1, &len);
    HM_CHECK(rc == HM_ERANGE && len == SIZE, "cap one byte short: %s, needs %zu", hm_strerror(rc),
             len);
    rc = hm_clock_serialize(c, buf, sizeof buf, &len);
    HM_CHECK(rc == HM_OK && len == SIZE, "serialized: %s, %zu bytes", hm_strerror(rc), len);
    rc = hm_clock_deserialize(buf, len, timer, &back);
    HM_CHECK(rc == HM_OK && back, "deserialized: %s", hm_strerror(rc));
    if (rc != HM_OK) return hm_clock_free(c);

    HM_CHECK(hm_clock_depth(back) == DEPTH && hm_clock_timer(back) == timer,
             "depth %d over the receiver's timer", hm_clock_depth(back));
    int same_layers = 1;
    for (hm_clock_t *a = c, *b = back; a && b; a = hm_clock_base(a), b = hm_clock_base(b)) {
        hm_lm_t la = hm_clock_lm(a), lb = hm_clock_lm(b);
        same_layers &= hm_clock_kind(a) == hm_clock_kind(b) && memcmp(&la, &lb, sizeof la) == 0;
    }
    HM_CHECK(same_layers, "every layer's kind and model are bit-identical");
    int same_reads = 1;
    for (double t = 1e-6; t < 1e6; t *= 1.9) {
        double x = hm_clock_from_local(c, t), y = hm_clock_from_local(back, t);
        same_reads &= memcmp(&x, &y, sizeof x) == 0;
    }
    double t = hm_timer_now(timer), x = hm_clock_from_local(c, t), y = hm_clock_from_local(back, t);
    HM_CHECK(same_reads && memcmp(&x, &y, sizeof x) == 0,
             "readings bit-identical for the same local times (e.g. %.17g)", y);
    rc = hm_clock_serialize(back, again, sizeof again, &len2);
    HM_CHECK(rc == HM_OK && len2 == len && memcmp(buf, again, len) == 0,
             "re-serializing the copy gives the same bytes");
    hm_clock_free(back);
    hm_clock_free(c);
}

static void test_identity_chain(hm_timer_t *timer)
{
    hm_clock_t *id, *back = NULL;
    unsigned char buf[HEADER];
    size_t len;
    hm_clock_identity(timer, &id);
    int rc = hm_clock_serialize(id, buf, sizeof buf, &len);
    HM_CHECK(rc == HM_OK && len == HEADER, "identity serializes to the header: %zu bytes", len);
    rc = hm_clock_deserialize(buf, len, timer, &back);
    HM_CHECK(rc == HM_OK && hm_clock_kind(back) == HM_CLOCK_IDENTITY && hm_clock_depth(back) == 0,
             "and comes back as an identity clock: %s", hm_strerror(rc));
    hm_clock_free(back);
    hm_clock_free(id);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, sizeof v);
}

static void put_f64(unsigned char *p, double v)
{
    memcpy(p, &v, sizeof v);
}

/* Corrupt a copy of good with corrupt() and pass it with len + delta
 * bytes: HM_EINVAL and no clock expected. */
static void expect_refused(hm_timer_t *timer, const unsigned char *good, size_t len, int delta,
                           const char *what, void (*corrupt)(unsigned char *))
{
    unsigned char bad[SIZE + 8] = {0};
    memcpy(bad, good, len);
    if (corrupt) corrupt(bad);
    hm_clock_t *out = NULL;
    int rc = hm_clock_deserialize(bad, (size_t)((long)len + delta), timer, &out);
    HM_CHECK(rc == HM_EINVAL && out == NULL, "%s: %s", what, hm_strerror(rc));
    hm_clock_free(out);
}

static void bad_magic(unsigned char *b)
{
    b[0] ^= 0x20;
}
static void bad_version(unsigned char *b)
{
    put_u32(b + 4, 2);
}
static void bad_count(unsigned char *b)
{
    put_u32(b + 8, DEPTH + 1);
}
static void huge_count(unsigned char *b)
{
    put_u32(b + 8, 0xffffffffu);
}
static void bad_reserved(unsigned char *b)
{
    put_u32(b + 12, 1);
}
static void unknown_kind(unsigned char *b)
{
    put_u32(b + HEADER + RECORD, 3);
}
static void identity_kind(unsigned char *b)
{
    put_u32(b + HEADER, 0);
}
static void bad_padding(unsigned char *b)
{
    put_u32(b + HEADER + 4, 1);
}
static void nan_slope(unsigned char *b)
{
    put_f64(b + HEADER + 8, NAN);
}
static void inf_intercept(unsigned char *b)
{
    put_f64(b + HEADER + 2 * RECORD + 16, -INFINITY);
}
/* Record 1 is the offset layer: a slope there is not a valid offset model. */
static void offset_with_slope(unsigned char *b)
{
    put_f64(b + HEADER + RECORD + 8, 1e-6);
}

static void test_malformed(hm_timer_t *timer)
{
    hm_clock_t *c = build(timer), *out = NULL;
    unsigned char good[SIZE];
    size_t len;
    hm_clock_serialize(c, good, sizeof good, &len);
    expect_refused(timer, good, len, 0, "bad magic", bad_magic);
    expect_refused(timer, good, len, 0, "unknown version", bad_version);
    expect_refused(timer, good, len, -1, "truncated", NULL);
    expect_refused(timer, good, len, 1, "trailing byte", NULL);
    expect_refused(timer, good, len, 0, "layer count beyond the length", bad_count);
    expect_refused(timer, good, len, 0, "layer count 2^32-1", huge_count);
    expect_refused(timer, good, len, 0, "reserved header word not 0", bad_reserved);
    expect_refused(timer, good, len, 0, "unknown kind 3", unknown_kind);
    expect_refused(timer, good, len, 0, "identity record", identity_kind);
    expect_refused(timer, good, len, 0, "record padding not 0", bad_padding);
    expect_refused(timer, good, len, 0, "NaN slope", nan_slope);
    expect_refused(timer, good, len, 0, "infinite intercept", inf_intercept);
    expect_refused(timer, good, len, 0, "offset record with a slope", offset_with_slope);
    HM_CHECK(hm_clock_deserialize(good, 3, timer, &out) == HM_EINVAL,
             "shorter than the header: HM_EINVAL");
    HM_CHECK(hm_clock_deserialize(NULL, len, timer, &out) == HM_EINVAL, "NULL buffer: HM_EINVAL");
    HM_CHECK(hm_clock_deserialize(good, len, NULL, &out) == HM_EINVAL, "NULL timer: HM_EINVAL");
    hm_clock_free(c);
}

int main(void)
{
    hm_timer_t *timer = NULL;
    int rc = hm_timer_create("monotonic", NULL, &timer);
    HM_CHECK(rc == HM_OK, "monotonic timer created: %s", hm_strerror(rc));
    if (rc != HM_OK) return hm_test_finish();
    test_round_trip(timer);
    test_identity_chain(timer);
    test_malformed(timer);
    hm_timer_free(timer);
    return hm_test_finish();
}
