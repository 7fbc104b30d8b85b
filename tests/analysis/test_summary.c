/* tests/analysis/test_summary.c — the statistics of a group (`harmonia
 * stats`) against values worked out by hand:
 *
 * Group 1: 1..9 us and a planted 1000 us, Tukey's filter. Quartiles of the
 * 10 values (type 7): Q1 = 3.25, Q3 = 7.75 us, upper fence 14.5 us: 1000 us
 * goes, 9 kept. Of 1..9: Q1 3, median 5, Q3 7, mean 5, sd sqrt(7.5).
 * Median interval (Conover): B ~ Bin(9, 1/2), P(B <= 1) = 10/512 <= 0.025 <
 * P(B <= 2) = 46/512, so j = 2: [x(2), x(8)] = [2, 8] us. Mean interval:
 * 5 +- t * sqrt(7.5) / 3 with t = qt(0.975, 8) = 2.306004135 (R; checked by
 * integrating the t density). acf1 = sum (x_t - 5)(x_t+1 - 5) / sum (x_t -
 * 5)^2 = 40 / 60.
 *
 * Group 2: 1, 2, 4 us, no filter. Q1 1.5, median 2, Q3 3 us, mean 7/3, sd
 * sqrt(7/3). Median interval: P(B <= 0) = 1/8 > 0.025 for n = 3: none
 * (NaN). Mean: 7/3 +- qt(0.975, 2) * sqrt(7/3) / sqrt(3), qt = 4.302652730.
 * acf1 = ((-4/3)(-1/3) + (-1/3)(5/3)) / (42/9) = -1/42. Shapiro-Wilk for
 * n = 3 is exact (Shapiro & Wilk 1965): W = (sqrt(1/2) (4 - 1))^2 / (42/9)
 * = 27/28, p = 6/pi (asin(sqrt(W)) - asin(sqrt(3/4))) = 0.63688684502897. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/analysis.h>

#include "testutil.h"

static int near_us(double x_s, double want_us)
{
    return hm_test_near(x_s * 1e6, want_us, 1e-9);
}

static void check_group1(const hm_analysis_group_t *g)
{
    hm_analysis_summary_t s;
    int rc = hm_analysis_summarize(g, HM_FILTER_TUKEY, &s);
    double half = 2.306004135204101 * sqrt(7.5) / 3;
    HM_CHECK(rc == HM_OK && s.n == 10 && s.kept == 9, "10 samples, 9 kept (got %zu, %zu)", s.n,
             s.kept);
    HM_CHECK(near_us(s.s.min, 1) && near_us(s.s.q1, 3) && near_us(s.s.median, 5) &&
                 near_us(s.s.q3, 7) && near_us(s.s.max, 9) && near_us(s.s.mean, 5),
             "min 1, Q1 3, median 5, Q3 7, max 9, mean 5 us");
    HM_CHECK(near_us(s.median_lo_s, 2) && near_us(s.median_hi_s, 8),
             "median interval [2, 8] us (got [%g, %g])", s.median_lo_s * 1e6, s.median_hi_s * 1e6);
    HM_CHECK(near_us(s.mean_lo_s, 5 - half) && near_us(s.mean_hi_s, 5 + half),
             "mean interval 5 +- %.9f us (got [%.9f, %.9f])", half, s.mean_lo_s * 1e6,
             s.mean_hi_s * 1e6);
    HM_CHECK(hm_test_near(s.acf1, 40.0 / 60.0, 1e-12), "acf1 2/3 (got %.15g)", s.acf1);
    HM_CHECK(s.shapiro_p > 0 && s.shapiro_p <= 1, "a Shapiro-Wilk p-value (%g)", s.shapiro_p);
    HM_CHECK(g->n == 10 && g->x_s[9] == 1000e-6, "the group itself is left unfiltered");
}

static void check_group2(const hm_analysis_group_t *g)
{
    hm_analysis_summary_t s;
    int rc = hm_analysis_summarize(g, HM_FILTER_NONE, &s);
    double mean = 7.0 / 3, half = 4.302652729749209 * sqrt(7.0 / 3) / sqrt(3);
    HM_CHECK(rc == HM_OK && s.kept == 3 && near_us(s.s.q1, 1.5) && near_us(s.s.median, 2) &&
                 near_us(s.s.q3, 3) && near_us(s.s.mean, mean) && near_us(s.s.sd, sqrt(7.0 / 3)),
             "Q1 1.5, median 2, Q3 3, mean 7/3, sd sqrt(7/3) us");
    HM_CHECK(isnan(s.median_lo_s) && isnan(s.median_hi_s), "no median interval for n = 3");
    HM_CHECK(near_us(s.mean_lo_s, mean - half) && near_us(s.mean_hi_s, mean + half),
             "mean interval 7/3 +- %.9f us (got [%.9f, %.9f])", half, s.mean_lo_s * 1e6,
             s.mean_hi_s * 1e6);
    HM_CHECK(hm_test_near(s.acf1, -1.0 / 42, 1e-12), "acf1 -1/42 (got %.15g)", s.acf1);
    HM_CHECK(hm_test_near(s.shapiro_p, 0.6368868450289692, 1e-6), "Shapiro-Wilk p %.15g",
             s.shapiro_p);
}

/* Two values: no interval of the median, no acf1, no Shapiro-Wilk. */
static void check_small(void)
{
    double x[] = {1e-6, 2e-6};
    hm_analysis_group_t g = {.op = "bcast", .sync = "barrier", .x_s = x, .n = 2};
    hm_analysis_summary_t s;
    int rc = hm_analysis_summarize(&g, HM_FILTER_TUKEY, &s);
    HM_CHECK(rc == HM_OK && s.kept == 2 && isnan(s.median_lo_s) && isnan(s.acf1) &&
                 isnan(s.shapiro_p) && !isnan(s.mean_lo_s),
             "n = 2: median interval, acf1 and Shapiro-Wilk n/a, mean interval defined");
}

/* The CSV row: the columns of the stats schema, seconds, NaN as "NaN". */
static void check_row(const hm_analysis_group_t *g)
{
    char path[] = "/tmp/hm_summary_XXXXXX";
    hm_analysis_summary_t s;
    hm_csv_t *csv = NULL;
    hm_csv_reader_t *r = NULL;
    int fd = mkstemp(path), more = 0;
    size_t i;
    double v = 0;
    int rc = fd >= 0 ? hm_analysis_summarize(g, HM_FILTER_NONE, &s) : HM_EIO;
    if (rc == HM_OK) rc = hm_results_csv_open(path, NULL, HM_RESULTS_STATS, &csv);
    if (rc == HM_OK) rc = hm_analysis_summary_write_row(csv, g, &s);
    if (rc == HM_OK) rc = hm_csv_close(csv);
    if (rc == HM_OK) rc = hm_csv_reader_open(path, &r);
    if (rc == HM_OK) rc = hm_csv_reader_next(r, &more);
    if (rc == HM_OK) rc = hm_csv_reader_find(r, "median_ci_lo_s", &i);
    if (rc == HM_OK) rc = hm_csv_reader_double(r, i, &v);
    HM_CHECK(rc == HM_OK && more && isnan(v) && hm_csv_reader_columns(r) == 18 &&
                 !strcmp(hm_csv_reader_cell(r, 0), "allgather") &&
                 !strcmp(hm_csv_reader_cell(r, 3), "dissem"),
             "stats row: 18 columns, op and sync, median_ci_lo_s NaN for n = 3 (%s)",
             hm_last_error());
    hm_csv_reader_close(r);
    if (fd >= 0) unlink(path);
}

int main(void)
{
    hm_analysis_groups_t gs = {0};
    int rc = HM_OK;
    /* Out of order and interleaved: each sample finds its group. */
    for (int i = 1; rc == HM_OK && i <= 9; i++) {
        rc = hm_analysis_groups_add(&gs, "bcast", 8, 2, "barrier", i * 1e-6);
        if (rc == HM_OK && i <= 3)
            rc = hm_analysis_groups_add(&gs, "allgather", 64, 4, "dissem", (i == 3 ? 4 : i) * 1e-6);
    }
    if (rc == HM_OK) rc = hm_analysis_groups_add(&gs, "bcast", 8, 2, "barrier", 1000e-6);
    hm_analysis_groups_sort(&gs);
    HM_CHECK(rc == HM_OK && gs.n == 2 && !strcmp(gs.g[0].op, "allgather") && gs.g[1].n == 10,
             "2 groups, sorted by op: allgather (3), bcast (10)");
    if (gs.n == 2) {
        check_group1(&gs.g[1]);
        check_group2(&gs.g[0]);
        check_row(&gs.g[0]);
    }
    check_small();
    hm_analysis_groups_free(&gs);
    HM_CHECK(gs.n == 0 && !gs.g, "freed groups are {0} again");
    return hm_test_finish();
}
