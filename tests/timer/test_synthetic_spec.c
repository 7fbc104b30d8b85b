/* tests/timer/test_synthetic_spec.c — the synthetic clock without MPI: the
 * spec parser, draws reproducible from (seed, rank) and within their bounds,
 * and the reading equal to truth*(1+drift)+offset, with jitter of the
 * requested standard deviation. */
#include <math.h>
#include <string.h>

#include <harmonia/timer.h>

#include "testutil.h"

static void test_parser(void)
{
    hm_synthetic_spec_t s;
    const char *why = hm_last_error();
    int rc = hm_timer_parse_synthetic("jitter=2e-7,offset=1,drift=1e-4", &s);
    HM_CHECK(rc == HM_OK && s.offset_s == 1 && s.drift == 1e-4 && s.jitter_s == 2e-7,
             "spec in any order parses: %g %g %g", s.offset_s, s.drift, s.jitter_s);
    rc = hm_timer_parse_synthetic("drift=1e-5", &s);
    HM_CHECK(rc == HM_OK && s.offset_s == 0 && s.jitter_s == 0, "missing keys are 0");
    static const char *const bad[][2] = {
        {"offset", "is not key=value"},   {"offset=", "is not a number"},
        {"offset=1s", "is not a number"}, {"drift=0.5", "is outside [0, 0.01]"},
        {"offset=-1", "is outside"},      {"speed=3", "unknown key \"speed\""},
        {"", "empty specification"},      {"offset=nan", "is not a number"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = hm_timer_parse_synthetic(bad[i][0], &s);
        HM_CHECK(rc == HM_EINVAL && strstr(why, bad[i][1]), "\"%s\" refused: %s", bad[i][0], why);
    }
}

static hm_timer_t *make(uint64_t seed, int rank, double jitter)
{
    hm_timer_options_t o = {.synthetic = 1,
                            .seed = seed,
                            .domain = rank,
                            .rank = rank,
                            .spec = {.offset_s = 1.0, .drift = 1e-4, .jitter_s = jitter}};
    hm_timer_t *t = NULL;
    hm_timer_create("monotonic", &o, &t);
    return t;
}

static void test_draws(void)
{
    double o1, d1, o2, d2, o3, d3;
    hm_timer_t *a = make(7, 1, 0), *b = make(7, 1, 0), *c = make(7, 2, 0);
    hm_timer_synthetic_draw(a, &o1, &d1);
    hm_timer_synthetic_draw(b, &o2, &d2);
    hm_timer_synthetic_draw(c, &o3, &d3);
    HM_CHECK(o1 == o2 && d1 == d2, "same (seed, rank) draws the same clock: %.9f %.3e", o1, d1);
    HM_CHECK(o1 != o3 && d1 != d3, "another rank draws another clock: %.9f %.3e", o3, d3);
    int inside = 1;
    for (int r = 0; r < 1000; r++) {
        hm_timer_t *t = make(11, r, 0);
        double o, d;
        hm_timer_synthetic_draw(t, &o, &d);
        inside &= fabs(o) <= 1.0 && fabs(d) <= 1e-4;
        hm_timer_free(t);
    }
    HM_CHECK(inside, "1000 draws lie within offset +-1 s and drift +-1e-4");
    /* Exact model: the synthetic reading is a function of the same truth. */
    double truth, syn = hm_timer_now_truth(a, &truth);
    HM_CHECK(fabs(syn - (truth * (1 + d1) + o1)) < 1e-12,
             "reading = truth*(1+drift)+offset (error %.2e s)", syn - (truth * (1 + d1) + o1));
    HM_CHECK(!hm_timer_synthetic_draw(a, NULL, NULL) && hm_timer_is_monotonic(a),
             "without jitter a synthetic monotonic clock stays monotonic");
    hm_timer_free(a), hm_timer_free(b), hm_timer_free(c);
}

static void test_jitter(void)
{
    const double jitter = 1e-6;
    const int n = 200000;
    hm_timer_t *t = make(3, 0, jitter);
    double o, d, sum = 0, sum2 = 0;
    hm_timer_synthetic_draw(t, &o, &d);
    for (int i = 0; i < n; i++) {
        double truth, syn = hm_timer_now_truth(t, &truth);
        double e = syn - (truth * (1 + d) + o);
        sum += e, sum2 += e * e;
    }
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    /* The sample sd of n Gaussians has relative sd 1/sqrt(2n) = 0.16%: a 2%
     * band cannot fail by chance and catches a wrong scale. */
    HM_CHECK(fabs(sd / jitter - 1) < 0.02, "jitter sd %.4e s for requested %.1e", sd, jitter);
    HM_CHECK(fabs(mean) < 5 * jitter / sqrt(n), "jitter mean %.2e s is ~0", mean);
    HM_CHECK(!hm_timer_is_monotonic(t), "a clock with jitter does not claim monotonicity");
    hm_timer_free(t);
}

int main(void)
{
    test_parser();
    test_draws();
    test_jitter();
    return hm_test_finish();
}
