/* tests/analysis/test_permpirun.c — the per-mpirun dataset (Alg. 6) on raw
 * files written here with known values: the filter, the median and mean of
 * each group, the file written and read back bit for bit (a seed above
 * INT64_MAX included), the reproducibility over the runs (Fig. 29) and its
 * file, and bad input refused with the file and line named. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/analysis.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_permpirun_XXXXXX";

static const char *path_of(const char *name)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path_of(name), "w");
    if (f) fputs(text, f), fclose(f);
}

#define RAW_HEAD "# processes: 2\n# sync: barrier\nop,size_bytes,attempt,valid,global_s,local_s\n"

/* allreduce 8 B: 1..9 us and a planted 1 ms that Tukey drops (Q1 = 3.25,
 * Q3 = 7.75 us by type 7, upper fence 14.5 us; median 5 us, mean 5 us); a
 * valid = 0 row not counted. bcast 1 KiB: 2, 4, 6, 10 us all kept (fences
 * -4.25 and 16.75 us; median 5 us, mean 5.5 us). Listed bcast first: rows
 * come out in (op, size) order whatever the file's order. factor scales
 * run 2. */
static void write_raw(const char *name, double factor)
{
    char text[4096];
    size_t used = snprintf(text, sizeof text, "%s", RAW_HEAD);
    const double bcast[] = {2, 4, 6, 10};
    for (int i = 0; i < 4; i++)
        used += snprintf(text + used, sizeof text - used, "bcast,1024,%d,1,%.17g,0\n", i,
                         bcast[i] * 1e-6 * factor);
    for (int i = 1; i <= 9; i++)
        used += snprintf(text + used, sizeof text - used, "allreduce,8,%d,1,%.17g,0\n", i,
                         i * 1e-6 * factor);
    used += snprintf(text + used, sizeof text - used, "allreduce,8,10,1,1e-3,0\n");
    snprintf(text + used, sizeof text - used, "allreduce,8,11,0,5e-1,0\n");
    write_file(name, text);
}

static void check_built(const hm_results_permpirun_t *ds)
{
    HM_CHECK(ds->n == 4, "2 runs x 2 groups give 4 rows (got %zu)", ds->n);
    if (ds->n != 4) return;
    const hm_results_permpirun_row_t *a = &ds->rows[0], *b = &ds->rows[1], *c = &ds->rows[2];
    HM_CHECK(!strcmp(a->op, "allreduce") && a->size_bytes == 8 && !strcmp(b->op, "bcast"),
             "run 1: allreduce 8 first, then bcast (got %s %lld, %s)", a->op, a->size_bytes, b->op);
    HM_CHECK(a->n == 10 && a->kept == 9, "allreduce: 10 valid, Tukey keeps 9 (got %zu, %zu)", a->n,
             a->kept);
    HM_CHECK(hm_test_near(a->median_s, 5e-6, 1e-15) && hm_test_near(a->mean_s, 5e-6, 1e-15),
             "allreduce: median 5 us, mean 5 us of the kept (got %g, %g)", a->median_s, a->mean_s);
    HM_CHECK(b->kept == 4 && hm_test_near(b->median_s, 5e-6, 1e-15) &&
                 hm_test_near(b->mean_s, 5.5e-6, 1e-15),
             "bcast: 4 kept, median 5 us (type 7), mean 5.5 us (got %zu, %g, %g)", b->kept,
             b->median_s, b->mean_s);
    HM_CHECK(a->processes == 2 && !strcmp(a->sync, "barrier") && a->run == 1 &&
                 a->seed == UINT64_MAX && c->run == 2 && c->seed == 7,
             "factors and tags: processes 2, sync barrier, run 1 seed 2^64-1, run 2 seed 7");
    HM_CHECK(hm_analysis_permpirun_value(b, HM_STATISTIC_MEAN) == b->mean_s &&
                 hm_analysis_permpirun_value(b, HM_STATISTIC_MEDIAN) == b->median_s,
             "the value of a statistic is its column");
}

/* --filter none keeps the planted 1 ms: mean (45 + 1000) / 10 us. */
static void check_no_filter(void)
{
    hm_results_permpirun_t ds = {0};
    int rc = hm_analysis_permpirun_add_run(&ds, path_of("run1.csv"), 1, 1, HM_METRIC_GLOBAL,
                                           HM_FILTER_NONE);
    HM_CHECK(rc == HM_OK && ds.n == 2 && ds.rows[0].kept == 10 &&
                 hm_test_near(ds.rows[0].mean_s, 104.5e-6, 1e-15) &&
                 hm_test_near(ds.rows[0].median_s, 5.5e-6, 1e-15),
             "filter none: allreduce keeps 10, mean 104.5 us, median 5.5 us (got %g, %g)",
             ds.n ? ds.rows[0].mean_s : NAN, ds.n ? ds.rows[0].median_s : NAN);
    hm_results_permpirun_free(&ds);
}

static void check_round_trip(const hm_results_permpirun_t *ds)
{
    hm_results_permpirun_t back = {0};
    int rc = hm_results_permpirun_write(ds, path_of("per-mpirun.csv"), NULL);
    HM_CHECK(rc == HM_OK, "write per-mpirun.csv (%s)", hm_last_error());
    rc = hm_results_permpirun_read(path_of("per-mpirun.csv"), &back);
    int same = rc == HM_OK && back.n == ds->n;
    for (size_t i = 0; same && i < ds->n; i++) {
        const hm_results_permpirun_row_t *x = &ds->rows[i], *y = &back.rows[i];
        same = x->run == y->run && x->seed == y->seed && !strcmp(x->op, y->op) &&
               x->size_bytes == y->size_bytes && x->processes == y->processes &&
               !strcmp(x->sync, y->sync) && x->n == y->n && x->kept == y->kept &&
               x->median_s == y->median_s && x->mean_s == y->mean_s;
    }
    HM_CHECK(same, "read back: the same %zu rows, doubles bit for bit (%s)", back.n,
             rc == HM_OK ? "" : hm_last_error());
    hm_results_permpirun_free(&back);
}

/* Run 2 is run 1 x 1.1: per group, runs 1 and 2 normalized 1 and 1.1; the
 * median over 2 runs (type 7) is their mean, 1.05 x run 1's. */
static void check_repro(const hm_results_permpirun_t *ds)
{
    hm_analysis_repro_t *rp = NULL;
    int rc = hm_analysis_repro_create(ds, HM_STATISTIC_MEAN, &rp);
    HM_CHECK(rc == HM_OK && hm_analysis_repro_count(rp) == 2, "2 groups (%s)", hm_last_error());
    if (rc != HM_OK) return;
    const hm_analysis_repro_group_t *g = hm_analysis_repro_group(rp, 1);
    HM_CHECK(!strcmp(g->key->op, "bcast") && g->nruns == 2 && g->runs[0].run == 1 &&
                 g->runs[1].run == 2,
             "group 2 is bcast, runs 1 and 2 in order");
    HM_CHECK(hm_test_near(g->min_s, 5.5e-6, 1e-15) && hm_test_near(g->max_s, 6.05e-6, 1e-15) &&
                 hm_test_near(g->median_s, 5.775e-6, 1e-15),
             "bcast means: min 5.5 us, max 6.05 us, median 5.775 us (got %g, %g, %g)", g->min_s,
             g->max_s, g->median_s);
    HM_CHECK(hm_test_near(g->runs[0].normalized, 1.0, 1e-12) &&
                 hm_test_near(g->runs[1].normalized, 1.1, 1e-12) &&
                 hm_test_near(g->max_normalized, 1.1, 1e-12),
             "normalized 1 and 1.1, max 1.1 (got %g, %g, %g)", g->runs[0].normalized,
             g->runs[1].normalized, g->max_normalized);
    HM_CHECK(hm_analysis_repro_statistic(rp) == HM_STATISTIC_MEAN &&
                 !hm_analysis_repro_group(rp, 2),
             "the statistic kept; no group past the end");
    hm_analysis_repro_free(rp);
    HM_CHECK(hm_analysis_repro_create(ds, (hm_statistic_t)7, &rp) == HM_EINVAL && !rp,
             "a statistic outside the enum is refused");
}

/* A campaign of 3 runs whose medians are 4, 2 and 3 us: sorted 2, 3, 4,
 * normalized 2, 1, 1.5 in run order; a smallest value of 0 leaves every
 * ratio undefined. */
static void check_repro_values(void)
{
    hm_results_permpirun_t ds = {0};
    const double medians[] = {4e-6, 2e-6, 3e-6, 0, 1e-6};
    for (int i = 0; i < 5; i++) {
        hm_results_permpirun_row_t row = {.run = 1 + i % 3,
                                          .size_bytes = 8,
                                          .processes = 2,
                                          .n = 1,
                                          .kept = 1,
                                          .median_s = medians[i]};
        strcpy(row.op, "bcast");
        strcpy(row.sync, i < 3 ? "barrier" : "dissem");
        hm_results_permpirun_append(&ds, &row);
    }
    hm_analysis_repro_t *rp = NULL;
    int rc = hm_analysis_repro_create(&ds, HM_STATISTIC_MEDIAN, &rp);
    const hm_analysis_repro_group_t *b = rc == HM_OK ? hm_analysis_repro_group(rp, 0) : NULL;
    const hm_analysis_repro_group_t *d = rc == HM_OK ? hm_analysis_repro_group(rp, 1) : NULL;
    HM_CHECK(b && d && b->nruns == 3 && hm_test_near(b->runs[0].normalized, 2, 1e-12) &&
                 hm_test_near(b->runs[1].normalized, 1, 1e-12) &&
                 hm_test_near(b->runs[2].normalized, 1.5, 1e-12) &&
                 hm_test_near(b->median_s, 3e-6, 1e-18) &&
                 hm_test_near(b->max_normalized, 2, 1e-12),
             "barrier: normalized 2, 1, 1.5, median 3 us, max 2");
    HM_CHECK(d && d->nruns == 2 && isnan(d->max_normalized) && isnan(d->runs[1].normalized),
             "dissem: smallest value 0, every ratio NaN");
    if (rc == HM_OK) rc = hm_analysis_repro_write(rp, path_of("repro.csv"), NULL);
    HM_CHECK(rc == HM_OK, "reproducibility.csv written (%s)", hm_last_error());
    hm_csv_reader_t *r = NULL;
    const char *stat = NULL;
    size_t i;
    int more = 0;
    double norm = 0;
    if (rc == HM_OK) rc = hm_csv_reader_open(path_of("repro.csv"), &r);
    if (rc == HM_OK) rc = hm_csv_reader_find(r, "median_s", &i);
    if (rc == HM_OK) rc = hm_csv_reader_find(r, "normalized", &i);
    if (rc == HM_OK) rc = hm_csv_reader_next(r, &more);
    if (rc == HM_OK) rc = hm_csv_reader_double(r, i, &norm);
    if (rc == HM_OK) hm_factors_get(hm_csv_reader_factors(r), "statistic", &stat);
    HM_CHECK(rc == HM_OK && more && norm == 2 && stat && !strcmp(stat, "median"),
             "file: columns median_s and normalized, first row normalized 2, factor statistic "
             "median");
    hm_csv_reader_close(r);
    hm_analysis_repro_free(rp);
    hm_results_permpirun_free(&ds);
}

static void expect_refused(int rc, int want, const char *fragment)
{
    const char *why = hm_last_error();
    HM_CHECK(rc == want && strstr(why, fragment), "refused with \"%s\" (got %d: %s)", fragment, rc,
             why);
}

static void check_bad_input(void)
{
    hm_results_permpirun_t ds = {0};
    expect_refused(hm_analysis_permpirun_add_run(&ds, path_of("none.csv"), 1, 1, HM_METRIC_GLOBAL,
                                                 HM_FILTER_TUKEY),
                   HM_EINVAL, "none.csv: No such file or directory");
    write_file("abc.csv", RAW_HEAD "bcast,8,0,1,1e-6,0\nbcast,8,1,1,abc,0\n");
    expect_refused(hm_analysis_permpirun_add_run(&ds, path_of("abc.csv"), 1, 1, HM_METRIC_GLOBAL,
                                                 HM_FILTER_TUKEY),
                   HM_EINVAL, "abc.csv:5: \"abc\" is not a number (column global_s)");
    write_file("invalid.csv", RAW_HEAD "bcast,8,0,0,1e-6,0\n");
    expect_refused(hm_analysis_permpirun_add_run(&ds, path_of("invalid.csv"), 1, 1,
                                                 HM_METRIC_GLOBAL, HM_FILTER_TUKEY),
                   HM_EINVAL, "invalid.csv: no valid repetitions");
    write_file("long.csv", "# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s\n"
                           "an_operation_name_of_forty_characters_xx,8,1,1e-6\n");
    expect_refused(hm_analysis_permpirun_add_run(&ds, path_of("long.csv"), 1, 1, HM_METRIC_GLOBAL,
                                                 HM_FILTER_TUKEY),
                   HM_EINVAL, "is too long a name");
    HM_CHECK(ds.n == 0, "nothing added by refused files (got %zu rows)", ds.n);
    write_file("cols.csv", "run,op\n1,bcast\n");
    expect_refused(hm_results_permpirun_read(path_of("cols.csv"), &ds), HM_EINVAL,
                   "cols.csv: missing columns: seed, size_bytes, processes, sync, n, kept, "
                   "median_s, mean_s (expected the per-mpirun.csv of 'harmonia campaign')");
    write_file("pm.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                         "1,1,bcast,8,2,barrier,10,9,1e-6,1e-6\n"
                         "x,1,bcast,8,2,barrier,10,9,1e-6,1e-6\n");
    expect_refused(hm_results_permpirun_read(path_of("pm.csv"), &ds), HM_EINVAL,
                   "pm.csv:3: \"x\" is not an integer >= 1 (column run)");
    hm_results_permpirun_free(&ds);
    write_file("pm2.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                          "1,-1,bcast,8,2,barrier,10,9,1e-6,1e-6\n");
    expect_refused(hm_results_permpirun_read(path_of("pm2.csv"), &ds), HM_EINVAL,
                   "pm2.csv:2: \"-1\" is not a seed");
    write_file("pm3.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                          "1,1,bcast,8,2,barrier,10,9,NaN,1e-6\n");
    expect_refused(hm_results_permpirun_read(path_of("pm3.csv"), &ds), HM_EINVAL,
                   "pm3.csv:2: \"NaN\" is not a run-time (finite, at least 0) (column median_s)");
    write_file("pm5.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                          "1,1,bcast,8,2,barrier,10,9,-1e-6,1e-6\n");
    expect_refused(hm_results_permpirun_read(path_of("pm5.csv"), &ds), HM_EINVAL,
                   "pm5.csv:2: \"-1e-6\" is not a run-time (finite, at least 0) (column median_s)");
    write_file("pm4.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                          "1,1,bcast,8,2,barrier,10,11,1e-6,1e-6\n");
    expect_refused(hm_results_permpirun_read(path_of("pm4.csv"), &ds), HM_EINVAL,
                   "pm4.csv:2: \"11\" is not at most n (column kept)");
    write_file("twice.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                            "3,1,bcast,8,2,barrier,10,9,1e-6,1e-6\n"
                            "3,1,bcast,8,2,barrier,10,9,2e-6,2e-6\n");
    expect_refused(hm_results_permpirun_read(path_of("twice.csv"), &ds), HM_EINVAL,
                   "twice.csv: run 3 appears twice for bcast 8 B, 2 processes, sync barrier");
    hm_results_permpirun_free(&ds);
}

/* A campaign directory stands for its per-mpirun.csv. */
static void check_path(void)
{
    char path[300], tiny[8];
    int is_dir = -1;
    int rc = hm_results_permpirun_path(dir, path, sizeof path, &is_dir);
    HM_CHECK(rc == HM_OK && is_dir == 1 && !strcmp(path, path_of("per-mpirun.csv")),
             "a directory gives DIR/per-mpirun.csv (got %s)", path);
    rc = hm_results_permpirun_path(path_of("x.csv"), path, sizeof path, &is_dir);
    HM_CHECK(rc == HM_OK && is_dir == 0 && !strcmp(path, path_of("x.csv")), "a file gives itself");
    HM_CHECK(hm_results_permpirun_path(dir, tiny, sizeof tiny, &is_dir) == HM_ERANGE,
             "a path that does not fit is HM_ERANGE");
}

int main(void)
{
    hm_results_permpirun_t ds = {0};
    if (!mkdtemp(dir)) return 1;
    write_raw("run1.csv", 1.0);
    write_raw("run2.csv", 1.1);
    int rc = hm_analysis_permpirun_add_run(&ds, path_of("run1.csv"), 1, UINT64_MAX,
                                           HM_METRIC_GLOBAL, HM_FILTER_TUKEY);
    if (rc == HM_OK)
        rc = hm_analysis_permpirun_add_run(&ds, path_of("run2.csv"), 2, 7, HM_METRIC_GLOBAL,
                                           HM_FILTER_TUKEY);
    HM_CHECK(rc == HM_OK, "add_run of 2 runs (%s)", hm_last_error());
    check_built(&ds);
    check_no_filter();
    check_round_trip(&ds);
    check_repro(&ds);
    hm_results_permpirun_free(&ds);
    check_repro_values();
    check_bad_input();
    check_path();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
