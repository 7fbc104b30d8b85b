/* tests/analysis/test_overlap.c — the analysis of overlap raw files on
 * files written here with known values: the reader (valid rows of one
 * metric, targets that may be empty, overhead below 0 accepted and other
 * ratios not), cells grouped by their targets whatever size each mpirun
 * calibrated, the per-mpirun dataset (Alg. 6) and its file read back, the
 * reproducibility of a ratio whose smallest run is 0 (differences, no
 * quotients), the comparison by difference with its verdict, and the kinds
 * of file the analysis commands tell apart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/analysis.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_overlap_analysis_XXXXXX";

static const char *path_of(const char *name)
{
    return hm_test_path(dir, name);
}

static const char *write_file(const char *name, const char *text)
{
    return hm_test_write_file(dir, name, text);
}

#define FACTORS "# processes: 2\n# sync: harmonize\n# progress: basic\n"
#define COLS                                                                                       \
    "op,comm_target_s,size_bytes,comp_target_s,attempt,valid,measured_s,comp_s,mpi_s,overhead,"    \
    "comp_slowdown,comm_ratio\n"

/* Run 1: cell (1 ms, 4 ms) overhead -0.2 .. 0.2 (median 0, mean 0) at the
 * calibrated size 1000 B, an invalid row whose cells are not numbers; cell
 * (1 ms, comp = comm) overhead 1, 2, 3. Run 2: the first cell at size 1200
 * B (another calibration), overhead 1.1 .. 1.5 (median 1.3), measured 6 ms
 * instead of 5; the second 1, 2, 3 again. */
static void write_runs(void)
{
    write_file("o1.csv", FACTORS COLS "iallreduce,0.001,1000,0.004,0,1,5e-3,4e-3,1e-3,-0.2,1,0.5\n"
                                      "iallreduce,0.001,1000,0.004,1,0,abc,x,x,x,x,x\n"
                                      "iallreduce,0.001,1000,0.004,2,1,5e-3,4e-3,1e-3,-0.1,1,0.5\n"
                                      "iallreduce,0.001,1000,0.004,3,1,5e-3,4e-3,1e-3,0,1,0.5\n"
                                      "iallreduce,0.001,1000,0.004,4,1,5e-3,4e-3,1e-3,0.1,1,0.5\n"
                                      "iallreduce,0.001,1000,0.004,5,1,5e-3,4e-3,1e-3,0.2,1,0.5\n"
                                      "iallreduce,0.001,1000,,0,1,2e-3,1e-3,1e-3,1,1,1\n"
                                      "iallreduce,0.001,1000,,1,1,2e-3,1e-3,1e-3,2,1,1\n"
                                      "iallreduce,0.001,1000,,2,1,2e-3,1e-3,1e-3,3,1,1\n");
    write_file("o2.csv", FACTORS COLS "iallreduce,0.001,1200,0.004,0,1,6e-3,4e-3,1e-3,1.1,1,0.5\n"
                                      "iallreduce,0.001,1200,0.004,1,1,6e-3,4e-3,1e-3,1.2,1,0.5\n"
                                      "iallreduce,0.001,1200,0.004,2,1,6e-3,4e-3,1e-3,1.3,1,0.5\n"
                                      "iallreduce,0.001,1200,0.004,3,1,6e-3,4e-3,1e-3,1.4,1,0.5\n"
                                      "iallreduce,0.001,1200,0.004,4,1,6e-3,4e-3,1e-3,1.5,1,0.5\n"
                                      "iallreduce,0.001,1200,,0,1,2e-3,1e-3,1e-3,1,1,1\n"
                                      "iallreduce,0.001,1200,,1,1,2e-3,1e-3,1e-3,2,1,1\n"
                                      "iallreduce,0.001,1200,,2,1,2e-3,1e-3,1e-3,3,1,1\n");
}

static void check_reader(void)
{
    hm_results_overlap_raw_t *raw = NULL;
    hm_results_overlap_raw_row_t row;
    int more = 0, n = 0,
        rc = hm_results_overlap_raw_open(path_of("o1.csv"), HM_METRIC_OVERHEAD, &raw);
    double sum = 0;
    HM_CHECK(rc == HM_OK && hm_results_overlap_raw_processes(raw) == 2 &&
                 !strcmp(hm_results_overlap_raw_sync(raw), "harmonize") &&
                 !strcmp(hm_results_overlap_raw_progress(raw), "basic"),
             "opened, factors processes 2, sync harmonize, progress basic (%s)", hm_last_error());
    while (rc == HM_OK && (rc = hm_results_overlap_raw_next(raw, &row, &more)) == HM_OK && more) {
        n++;
        sum += row.x;
        if (n == 1)
            HM_CHECK(row.comm_target_s == 0.001 && row.comp_target_s == 0.004 &&
                         row.size_bytes == 1000 && row.x == -0.2,
                     "first row: 1 ms, 4 ms, 1000 B, overhead -0.2 (below 0 is read)");
        if (n == 6) HM_CHECK(isnan(row.comp_target_s), "an empty comp_target_s is no target (NaN)");
    }
    HM_CHECK(rc == HM_OK && n == 8 && hm_test_near(sum, 6, 1e-12),
             "8 valid rows, the invalid one skipped unread; overheads sum to 6 (got %d, %g)", n,
             sum);
    hm_results_overlap_raw_close(raw);

    const char *bad = write_file("neg.csv", FACTORS COLS
                                 "iallreduce,0.001,1000,0.004,0,1,5e-3,4e-3,1e-3,0.1,1,-0.5\n");
    rc = hm_results_overlap_raw_open(bad, HM_METRIC_COMM_RATIO, &raw);
    if (rc == HM_OK) rc = hm_results_overlap_raw_next(raw, &row, &more);
    HM_CHECK(rc == HM_EINVAL &&
                 strstr(hm_last_error(), "neg.csv:5: \"-0.5\" is not a finite number, at least 0 "
                                         "(column comm_ratio)"),
             "a comm_ratio below 0 is refused with file, line and column (%s)", hm_last_error());
    hm_results_overlap_raw_close(raw);
    bad = write_file("noprog.csv", "# processes: 2\n# sync: harmonize\n" COLS);
    HM_CHECK(hm_results_overlap_raw_open(bad, HM_METRIC_OVERHEAD, &raw) == HM_EINVAL && !raw &&
                 strstr(hm_last_error(), "noprog.csv: missing factor \"# progress: ...\""),
             "a file without the progress factor is refused (%s)", hm_last_error());
    HM_CHECK(hm_results_overlap_raw_open(path_of("o1.csv"), HM_METRIC_GLOBAL, &raw) == HM_EINVAL &&
                 strstr(hm_last_error(), "metric global is not one of overlap raw files"),
             "a metric of bench is refused (%s)", hm_last_error());
}

/* Both runs into one set of groups: the first cell pools 10 values although
 * its size differs between the runs; a metric of bench cannot join. */
static void check_groups(void)
{
    hm_analysis_groups_t gs = {0};
    int rc = hm_analysis_groups_read_raw(&gs, path_of("o1.csv"), HM_METRIC_OVERHEAD);
    if (rc == HM_OK) rc = hm_analysis_groups_read_raw(&gs, path_of("o2.csv"), HM_METRIC_OVERHEAD);
    hm_analysis_groups_sort(&gs);
    HM_CHECK(rc == HM_OK && gs.n == 2, "2 cells over 2 runs (got %zu: %s)", gs.n, hm_last_error());
    if (gs.n == 2) {
        const hm_analysis_group_t *comm = &gs.g[0], *four = &gs.g[1];
        HM_CHECK(isnan(comm->comp_target_s) && comm->n == 6 && four->comp_target_s == 0.004 &&
                     four->n == 10 && four->size_bytes == -1 && !strcmp(four->progress, "basic") &&
                     hm_analysis_group_is_overlap(four),
                 "comp = comm first (6 values), then 4 ms with 10 values, size not in the key");
    }
    hm_analysis_key_t key = {.metric = HM_METRIC_GLOBAL, .op = "bcast", .sync = "barrier"};
    HM_CHECK(hm_analysis_groups_add_key(&gs, &key, 1e-6) == HM_EINVAL,
             "a sample of another metric is refused (%s)", hm_last_error());
    hm_analysis_groups_free(&gs);

    /* Under --sizes the size is the cell. */
    write_file("s.csv", FACTORS COLS "iallreduce,,65536,,0,1,2e-3,1e-3,1e-3,0.5,1,1\n"
                                     "iallreduce,,1024,,0,1,2e-3,1e-3,1e-3,0.5,1,1\n");
    rc = hm_analysis_groups_read_raw(&gs, path_of("s.csv"), HM_METRIC_OVERHEAD);
    hm_analysis_groups_sort(&gs);
    HM_CHECK(rc == HM_OK && gs.n == 2 && gs.g[0].size_bytes == 1024 && gs.g[1].size_bytes == 65536,
             "--sizes: one cell per size, in size order");
    hm_analysis_groups_free(&gs);
}

/* Alg. 6 per run, the file read back, the reproducibility: cell (1 ms, 4
 * ms) has medians 0 and 1.3, so no quotient, a difference of 1.3. */
static void check_dataset(void)
{
    hm_results_permpirun_t ds = {0}, back = {0};
    int rc = hm_analysis_permpirun_add_run(&ds, path_of("o1.csv"), 1, 11, HM_METRIC_OVERHEAD,
                                           HM_FILTER_TUKEY);
    if (rc == HM_OK)
        rc = hm_analysis_permpirun_add_run(&ds, path_of("o2.csv"), 2, 22, HM_METRIC_OVERHEAD,
                                           HM_FILTER_TUKEY);
    HM_CHECK(rc == HM_OK && ds.n == 4 && ds.metric == HM_METRIC_OVERHEAD,
             "2 runs x 2 cells, metric overhead (%s)", hm_last_error());
    if (ds.n != 4) return;
    const hm_results_permpirun_row_t *r = &ds.rows[1];
    HM_CHECK(r->run == 1 && r->comp_target_s == 0.004 && r->size_bytes == -1 && r->n == 5 &&
                 r->kept == 5 && hm_test_near(r->median_s, 0, 1e-15) &&
                 hm_test_near(r->mean_s, 0, 1e-15) && !strcmp(r->progress, "basic"),
             "run 1, 4 ms: 5 values, median 0, mean 0, progress basic");
    HM_CHECK(hm_analysis_permpirun_add_run(&ds, path_of("o1.csv"), 3, 33, HM_METRIC_COMM_RATIO,
                                           HM_FILTER_TUKEY) == HM_EINVAL &&
                 ds.n == 4,
             "a run of another metric is refused, nothing added (%s)", hm_last_error());

    rc = hm_results_permpirun_write(&ds, path_of("per-mpirun.csv"), NULL);
    if (rc == HM_OK) rc = hm_results_permpirun_read(path_of("per-mpirun.csv"), &back);
    int same = rc == HM_OK && back.n == ds.n && back.metric == HM_METRIC_OVERHEAD;
    for (size_t i = 0; same && i < ds.n; i++) {
        const hm_results_permpirun_row_t *x = &ds.rows[i], *y = &back.rows[i];
        same = x->run == y->run && x->seed == y->seed && !strcmp(x->op, y->op) &&
               x->size_bytes == y->size_bytes && x->comm_target_s == y->comm_target_s &&
               (x->comp_target_s == y->comp_target_s ||
                (isnan(x->comp_target_s) && isnan(y->comp_target_s))) &&
               !strcmp(x->progress, y->progress) && x->median_s == y->median_s &&
               x->mean_s == y->mean_s && x->n == y->n && x->kept == y->kept;
    }
    HM_CHECK(same,
             "per-mpirun.csv of overlap read back: rows, empty targets and sizes, metric (%s)",
             rc == HM_OK ? "" : hm_last_error());
    hm_results_kind_t kind = HM_RESULTS_NKINDS;
    HM_CHECK(hm_results_input_kind(path_of("per-mpirun.csv"), &kind) == HM_OK &&
                 kind == HM_RESULTS_PERMPIRUN_OVERLAP,
             "its kind: a per-mpirun dataset of overlap");
    hm_results_permpirun_free(&back);

    hm_analysis_repro_t *rp = NULL;
    rc = hm_analysis_repro_create(&ds, HM_STATISTIC_MEDIAN, &rp);
    const hm_analysis_repro_group_t *g = rc == HM_OK ? hm_analysis_repro_group(rp, 1) : NULL;
    HM_CHECK(g && g->nruns == 2 && isnan(g->max_normalized) && isnan(g->runs[0].normalized) &&
                 hm_test_near(g->runs[1].difference, 1.3, 1e-12) &&
                 hm_test_near(g->max_difference, 1.3, 1e-12) &&
                 hm_analysis_repro_metric(rp) == HM_METRIC_OVERHEAD,
             "repro of 4 ms: smallest median 0, no quotient; differences 0 and 1.3");
    if (rc == HM_OK) rc = hm_analysis_repro_write(rp, path_of("repro.csv"), NULL);
    hm_csv_reader_t *rd = NULL;
    size_t col;
    if (rc == HM_OK) rc = hm_csv_reader_open(path_of("repro.csv"), &rd);
    if (rc == HM_OK) rc = hm_csv_reader_find(rd, "max_difference", &col);
    HM_CHECK(rc == HM_OK, "reproducibility.csv of overlap written, with max_difference (%s)",
             hm_last_error());
    hm_csv_reader_close(rd);
    hm_analysis_repro_free(rp);
    hm_results_permpirun_free(&ds);
}

/* A = run 1, B = run 2 as raw sides: cell (1 ms, 4 ms) separated, W = 0,
 * exact p = 2 / C(10, 5); overhead is told by B - A = 1.3 (no ratio: A's
 * median is 0), the measured time by B / A = 1.2. */
static void check_compare(void)
{
    for (int m = 0; m < 2; m++) {
        hm_metric_t metric = m ? HM_METRIC_MEASURED : HM_METRIC_OVERHEAD;
        hm_analysis_side_t a = {.path = "o1.csv", .raw = 1}, b = {.path = "o2.csv", .raw = 1};
        hm_analysis_comparison_t c;
        int rc = hm_analysis_groups_read_raw(&a.groups, path_of("o1.csv"), metric);
        if (rc == HM_OK) rc = hm_analysis_groups_read_raw(&b.groups, path_of("o2.csv"), metric);
        if (rc == HM_OK) rc = hm_analysis_side_check(&a);
        if (rc == HM_OK) rc = hm_analysis_side_check(&b);
        if (rc == HM_OK) rc = hm_analysis_compare_check(&a, &b);
        if (rc == HM_OK) rc = hm_analysis_compare(&a, &b, 1, HM_ALT_TWO_SIDED, &c);
        HM_CHECK(rc == HM_OK, "%s: compared (%s)", hm_results_metric_name(metric), hm_last_error());
        if (rc == HM_OK && !m)
            HM_CHECK(hm_test_near(c.difference, 1.3, 1e-12) && isnan(c.ratio) && c.test.w == 0 &&
                         hm_test_near(c.test.p, 2.0 / 252, 1e-12) &&
                         c.verdict == HM_VERDICT_B_LARGER && isnan(c.range_a),
                     "overhead: B - A 1.3, no ratio, W 0, p 2/252, \"B larger\" (got %g, %g, %s)",
                     c.difference, c.test.p, hm_analysis_verdict_name(c.verdict));
        if (rc == HM_OK && m)
            HM_CHECK(hm_test_near(c.ratio, 1.2, 1e-12) && c.verdict == HM_VERDICT_B_SLOWER,
                     "measured: B / A 1.2, \"B slower\" (got %g, %s)", c.ratio,
                     hm_analysis_verdict_name(c.verdict));
        hm_analysis_groups_free(&a.groups);
        hm_analysis_groups_free(&b.groups);
    }
    hm_analysis_side_t a = {.path = "o1.csv", .raw = 1}, b = {.path = "o2.csv", .raw = 1};
    hm_analysis_groups_read_raw(&a.groups, path_of("o1.csv"), HM_METRIC_OVERHEAD);
    hm_analysis_groups_read_raw(&b.groups, path_of("o2.csv"), HM_METRIC_COMP_SLOWDOWN);
    HM_CHECK(hm_analysis_compare_check(&a, &b) == HM_EINVAL &&
                 strstr(hm_last_error(), "of metric overhead, B (o2.csv) of metric comp_slowdown"),
             "sides of two metrics are refused (%s)", hm_last_error());
    hm_analysis_groups_free(&a.groups);
    hm_analysis_groups_free(&b.groups);
}

static void check_kinds(void)
{
    hm_results_kind_t kind = HM_RESULTS_NKINDS;
    const char *bench = write_file("b.csv", "op,size_bytes,attempt,valid,global_s,local_s\n");
    HM_CHECK(hm_results_input_kind(path_of("o1.csv"), &kind) == HM_OK &&
                 kind == HM_RESULTS_OVERLAP_RAW,
             "an overlap raw file");
    HM_CHECK(hm_results_input_kind(bench, &kind) == HM_OK && kind == HM_RESULTS_BENCH_RAW,
             "a bench raw file");
    const char *other = write_file("x.csv", "a,b\n1,2\n");
    HM_CHECK(hm_results_input_kind(other, &kind) == HM_EINVAL &&
                 strstr(hm_last_error(), "x.csv: neither a per-mpirun.csv"),
             "another file is neither (%s)", hm_last_error());
    HM_CHECK(hm_results_input_kind(path_of("none.csv"), &kind) == HM_ENOENT, "no file: HM_ENOENT");
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    write_runs();
    check_reader();
    check_groups();
    check_dataset();
    check_compare();
    check_kinds();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
