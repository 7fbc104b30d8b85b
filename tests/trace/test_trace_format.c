/* tests/trace/test_trace_format.c — the merged trace's numbers as text
 * (src/trace/format.c, written without printf) against printf and strtod:
 * integers at every digit count and at the extremes, and times at every
 * number of decimals, by hand and at random. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "trace/merge_impl.h"

enum { NRANDOM = 200000 };

static uint64_t next(uint64_t *state)
{
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return *state;
}

/* Both writers of a whole number against printf: what they return is
 * what they wrote, ended by a NUL. */
static int integer_matches(int64_t s, uint64_t u)
{
    char mine[32], theirs[32];
    size_t n = hm__trace_int(mine, s);
    snprintf(theirs, sizeof theirs, "%" PRId64, s);
    int ok = n == strlen(mine) && !strcmp(mine, theirs);
    n = hm__trace_uint(mine, u);
    snprintf(theirs, sizeof theirs, "%" PRIu64, u);
    ok &= n == strlen(mine) && !strcmp(mine, theirs);
    if (!ok) hm_test_note("%" PRId64 " / %" PRIu64 ": wrote %s, printf %s", s, u, mine, theirs);
    return ok;
}

static void check_integers(void)
{
    int bad = 0;
    /* Every count of digits, and the numbers on either side of each
     * power of ten (where the digit count changes). */
    uint64_t p = 1;
    for (int d = 0; d < 20; d++, p *= 10)
        for (uint64_t k = p > 2 ? p - 2 : 0; k <= p + 2; k++)
            bad += !integer_matches((int64_t)k, k) + !integer_matches(-(int64_t)k, k);
    bad += !integer_matches(INT64_MIN, UINT64_MAX) + !integer_matches(INT64_MAX, UINT64_MAX - 1);
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < NRANDOM; i++) {
        uint64_t u = next(&state) >> (next(&state) % 64); /* every magnitude */
        bad += !integer_matches((int64_t)u, u);
    }
    HM_CHECK(bad == 0, "whole numbers as printf writes them (%d differ, above)", bad);
}

/* A time with d decimals: exactly d digits after the point, no leading
 * zero before it beyond one, a sign only on a nonzero value; within half
 * a unit of the last place of v, and equal to printf's (correctly
 * rounded) %.*f but where v*10^d lies within its rounding error of a
 * half: format.c rounds that product, which is 2^-53 relative off (at
 * 10^5 s and 9 decimals, 0.02 of a unit), so either neighbour is right
 * there. */
static int fixed_matches(double v, int d)
{
    char mine[64], theirs[400];
    size_t n = hm__trace_fixed(mine, v, d);
    snprintf(theirs, sizeof theirs, "%.*f", d, v);
    if (theirs[0] == '-' && strtod(theirs, NULL) == 0) /* printf's "-0.00": no sign here */
        memmove(theirs, theirs + 1, strlen(theirs));
    const char *point = strchr(mine, '.');
    const char *digits = mine + (mine[0] == '-');
    int shape = n == strlen(mine) && (d ? point && strlen(point + 1) == (size_t)d : !point) &&
                (digits[0] != '0' || digits[1] == '.' || digits[1] == '\0') &&
                (mine[0] != '-' || strtod(mine, NULL) != 0);
    double unit = pow(10, -d), got = strtod(mine, NULL);
    int near = fabs(got - v) <= 0.5 * unit + fabs(v) * 0x1p-52 + fabs(got) * 0x1p-53;
    double x = fabs(v / unit); /* within its rounding error of a half: either neighbour */
    int same = !strcmp(mine, theirs) ||
               (fabs(got - strtod(theirs, NULL)) <= unit * 1.000001 + fabs(got) * 0x1p-50 &&
                fabs(x - trunc(x) - 0.5) <= x * 0x1p-50 + 1e-6);
    if (!(shape && near && same))
        hm_test_note("%.17g at %d decimals: wrote %s, printf %s (shape %d, near %d)", v, d, mine,
                     theirs, shape, near);
    return shape && near && same;
}

static void check_times(void)
{
    const double by_hand[] = {
        0,       -0.0,          1,        -1,   0.5e-9,         1.5e-9, 0.999999999, 0.9999999995,
        9.99995, 123.456789012, -2.5e-10, 1e-9, 3600.000000001, 1e9,    8.9e9,       -8.9e9,
        DBL_MIN, 0.1,           1.0 / 3,  2e10};
    int bad = 0;
    for (size_t i = 0; i < sizeof by_hand / sizeof *by_hand; i++)
        for (int d = 0; d <= 9; d++) bad += !fixed_matches(by_hand[i], d);
    uint64_t state = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < NRANDOM; i++) {
        /* Times of a run: 1 ns to 10^6 s, either sign. */
        double v = pow(10, (double)(next(&state) % 15000) / 1000 - 9);
        if (next(&state) & 1) v = -v;
        bad += !fixed_matches(v, (int)(next(&state) % 10));
    }
    HM_CHECK(bad == 0, "times at 0-9 decimals as printf writes them (%d differ, above)", bad);
    char text[64];
    HM_CHECK(hm__trace_fixed(text, NAN, 9) == 0 && text[0] == '\0' &&
                 hm__trace_fixed(text, INFINITY, 4) == 0,
             "no value, an empty cell");
    HM_CHECK(hm__trace_fixed(text, 1.25, 12) == strlen("1.250000000") &&
                 !strcmp(text, "1.250000000") && hm__trace_fixed(text, 1.5, -1) == 1 &&
                 !strcmp(text, "2"),
             "decimals beyond 0-9 taken as the nearest: %s", text);
}

int main(void)
{
    check_integers();
    check_times();
    return hm_test_finish();
}
