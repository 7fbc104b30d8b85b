/* tests/procsync/test_slack_target.c — hm_hz_slack_target, the slack
 * hm_harmonize's root aims for, against an oracle: the expected cost per
 * call of every candidate counted directly (O(n^2)), on hand-made histories
 * whose answer is known and on random ones. Pure functions: exact
 * comparisons, no tolerance. */
#include <math.h>

#include "common/rng.h"
#include "procsync/harmonize_state.h"
#include "testutil.h"

static const double MARGIN = 1.25;

/* Oracle: the lowest candidate margin x used[k] of least cost. */
static double oracle(const double *used, int n, double refresh_cost_s)
{
    double best = INFINITY, best_cost = INFINITY;
    for (int k = 0; k < n; k++) {
        double s = MARGIN * used[k];
        int above = 0;
        for (int j = 0; j < n; j++) above += used[j] > s;
        double cost = s + (double)above / n * refresh_cost_s;
        if (cost < best_cost || (cost == best_cost && s < best)) best = s, best_cost = cost;
    }
    return best;
}

/* 250 calls used 5 us, 6 used 50 us (a tail of interruptions). */
static void test_tail(void)
{
    double used[256];
    for (int i = 0; i < 256; i++) used[i] = i % 40 == 7 && i < 240 ? 50e-6 : 5e-6;
    /* A 0.5 ms refresh: covering the tail costs 62.5 us per call, missing it
     * 6/256 x 500 = 11.7 us: the slack stays at 1.25 x 5 us. */
    double s = hm_hz_slack_target(used, 256, MARGIN, 500e-6);
    HM_CHECK(s == MARGIN * 5e-6, "tail of 6 x 50 us, refresh 0.5 ms: %.3f us == 6.25 us", s * 1e6);
    /* A 10 ms refresh (a full synchronization): 6/256 x 10 ms = 234 us, so
     * the tail is worth covering. */
    s = hm_hz_slack_target(used, 256, MARGIN, 10e-3);
    HM_CHECK(s == MARGIN * 50e-6, "refresh 10 ms: %.3f us == 62.5 us", s * 1e6);
    /* No refresh timed yet: 1.25 x the second largest. */
    s = hm_hz_slack_target(used, 256, MARGIN, 0.0);
    HM_CHECK(s == MARGIN * 50e-6, "no refresh timed: %.3f us == 62.5 us", s * 1e6);
}

static void test_small(void)
{
    double one = 3e-6, two[2] = {4e-6, 2e-6};
    HM_CHECK(hm_hz_slack_target(&one, 1, MARGIN, 0.0) == MARGIN * 3e-6, "n = 1: 1.25 x the value");
    HM_CHECK(hm_hz_slack_target(&one, 1, MARGIN, 1e-3) == MARGIN * 3e-6,
             "n = 1 with a refresh cost: 1.25 x the value");
    HM_CHECK(hm_hz_slack_target(two, 2, MARGIN, 0.0) == MARGIN * 2e-6,
             "n = 2: 1.25 x the second largest");
    /* 1.25 x 2 us misses the 4 us call: 2.5 + 0.5 x 1 us = 3 us < 5 us. */
    HM_CHECK(hm_hz_slack_target(two, 2, MARGIN, 1e-6) == MARGIN * 2e-6,
             "n = 2, refresh 1 us: the smaller candidate");
    HM_CHECK(hm_hz_slack_target(two, 2, MARGIN, 10e-6) == MARGIN * 4e-6,
             "n = 2, refresh 10 us: the larger candidate");
}

/* Random histories: a body of ~5 us and a heavy tail, several refresh
 * costs, the function against the oracle exactly. */
static void test_random(void)
{
    hm_rng_t rng;
    hm_rng_seed(&rng, 42, 0);
    const double costs[] = {1e-6, 50e-6, 500e-6, 5e-3};
    int agree = 0, total = 0;
    for (int trial = 0; trial < 200; trial++) {
        double used[256];
        int n = 1 + (int)(hm_rng_uniform(&rng) * 256);
        for (int i = 0; i < n; i++) {
            double body = 5e-6 * exp(0.2 * hm_rng_gaussian(&rng));
            used[i] = hm_rng_uniform(&rng) < 0.02 ? body + 100e-6 * hm_rng_uniform(&rng) : body;
        }
        for (size_t c = 0; c < sizeof costs / sizeof costs[0]; c++, total++)
            agree += hm_hz_slack_target(used, n, MARGIN, costs[c]) == oracle(used, n, costs[c]);
    }
    HM_CHECK(agree == total, "random histories: %d of %d targets equal the oracle's", agree, total);
}

int main(void)
{
    test_tail();
    test_small();
    test_random();
    return hm_test_finish();
}
