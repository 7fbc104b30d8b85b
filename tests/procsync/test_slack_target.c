/* tests/procsync/test_slack_target.c — hm__hz_slack_target, the slack
 * hm_harmonize's root aims for, against an oracle: the expected cost per
 * call of every candidate counted directly (O(n^2)), on hand-made histories
 * whose answer is known and on random ones; and hm__hz_history_add, whose
 * sorted copy must equal the ring's last 256 values sorted (qsort), full
 * rings included. Pure functions: exact comparisons, no tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/rng.h>
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A history filled through hm__hz_history_add; *n receives how many values
 * it holds. */
static hm__hz_state_t *history_of(const double *used, int count, int *n)
{
    hm__hz_state_t *st = calloc(1, sizeof *st);
    for (int i = 0; st && i < count; i++) hm__hz_history_add(st, used[i]);
    *n = count < HZ_HISTORY ? count : HZ_HISTORY;
    return st;
}

static double target(const double *used, int count, double refresh_cost_s)
{
    int n;
    hm__hz_state_t *st = history_of(used, count, &n);
    double s = st ? hm__hz_slack_target(st->sorted_s, n, MARGIN, refresh_cost_s) : NAN;
    free(st);
    return s;
}

/* 250 calls used 5 us, 6 used 50 us (a tail of interruptions). */
static void test_tail(void)
{
    double used[256];
    for (int i = 0; i < 256; i++) used[i] = i % 40 == 7 && i < 240 ? 50e-6 : 5e-6;
    /* A 0.5 ms refresh: covering the tail costs 62.5 us per call, missing it
     * 6/256 x 500 = 11.7 us: the slack stays at 1.25 x 5 us. */
    double s = target(used, 256, 500e-6);
    HM_CHECK(s == MARGIN * 5e-6, "tail of 6 x 50 us, refresh 0.5 ms: %.3f us == 6.25 us", s * 1e6);
    /* A 10 ms refresh (a full synchronization): 6/256 x 10 ms = 234 us, so
     * the tail is worth covering. */
    s = target(used, 256, 10e-3);
    HM_CHECK(s == MARGIN * 50e-6, "refresh 10 ms: %.3f us == 62.5 us", s * 1e6);
    /* No refresh timed yet: 1.25 x the second largest. */
    s = target(used, 256, 0.0);
    HM_CHECK(s == MARGIN * 50e-6, "no refresh timed: %.3f us == 62.5 us", s * 1e6);
}

static void test_small(void)
{
    double one = 3e-6, two[2] = {4e-6, 2e-6};
    HM_CHECK(target(&one, 1, 0.0) == MARGIN * 3e-6, "n = 1: 1.25 x the value");
    HM_CHECK(target(&one, 1, 1e-3) == MARGIN * 3e-6, "n = 1 with a refresh cost: 1.25 x the value");
    HM_CHECK(target(two, 2, 0.0) == MARGIN * 2e-6, "n = 2: 1.25 x the second largest");
    /* 1.25 x 2 us misses the 4 us call: 2.5 + 0.5 x 1 us = 3 us < 5 us. */
    HM_CHECK(target(two, 2, 1e-6) == MARGIN * 2e-6, "n = 2, refresh 1 us: the smaller candidate");
    HM_CHECK(target(two, 2, 10e-6) == MARGIN * 4e-6, "n = 2, refresh 10 us: the larger candidate");
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
            agree += target(used, n, costs[c]) == oracle(used, n, costs[c]);
    }
    HM_CHECK(agree == total, "random histories: %d of %d targets equal the oracle's", agree, total);
}

/* More values than the ring holds, with repeats: after each addition the
 * sorted copy is the last min(count, 256) values sorted. */
static void test_history(void)
{
    enum { COUNT = 700 };
    hm_rng_t rng;
    hm_rng_seed(&rng, 7, 0);
    double used[COUNT], expect[HZ_HISTORY];
    hm__hz_state_t *st = calloc(1, sizeof *st);
    int good = 0;
    for (int i = 0; st && i < COUNT; i++) {
        /* repeats on purpose: 1-in-4 values from a set of 3 */
        used[i] = hm_rng_uniform(&rng) < 0.25 ? 1e-6 * (1 + (i % 3)) : 1e-5 * hm_rng_uniform(&rng);
        hm__hz_history_add(st, used[i]);
        int n = i + 1 < HZ_HISTORY ? i + 1 : HZ_HISTORY;
        memcpy(expect, &used[i + 1 - n], (size_t)n * sizeof *expect);
        qsort(expect, (size_t)n, sizeof *expect, cmp_double);
        good += memcmp(expect, st->sorted_s, (size_t)n * sizeof *expect) == 0;
    }
    HM_CHECK(st && good == COUNT, "sorted history right after %d of %d additions", good, COUNT);
    free(st);
}

int main(void)
{
    test_history();
    test_tail();
    test_small();
    test_random();
    return hm_test_finish();
}
