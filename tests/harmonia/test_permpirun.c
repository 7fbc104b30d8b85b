/* tests/harmonia/test_permpirun.c — the per-mpirun dataset (Alg. 6) on raw files
 * written here with known values: the filter, the median and mean of each
 * group, the file written and read back bit for bit (a seed above INT64_MAX
 * included), the summary table, the reproducibility report (Fig. 29), and
 * bad input refused with the file and line named. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "commands/permpirun.h"
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

/* allreduce 8 B: 1..9 us and a planted 1 ms that Tukey drops (median 5 us,
 * mean 5 us); a valid = 0 row not counted. bcast 1 KiB: 2, 4, 6, 10 us all
 * kept (median 5 us, mean 5.5 us). Listed bcast first: rows come out in (op,
 * size) order whatever the file's order. factor scales run 2. */
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

static void check_built(const hm_permpirun_t *ds)
{
    HM_CHECK(ds->n == 4, "2 runs x 2 groups give 4 rows (got %zu)", ds->n);
    if (ds->n != 4) return;
    const hm_permpirun_row_t *a = &ds->rows[0], *b = &ds->rows[1], *c = &ds->rows[2];
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
}

static void check_round_trip(const hm_permpirun_t *ds)
{
    hm_permpirun_t back = {0};
    char why[512] = "";
    int rc = hm_permpirun_write(ds, path_of("per-mpirun.csv"), NULL, why, sizeof why);
    HM_CHECK(rc == HM_OK, "write per-mpirun.csv (%s)", why);
    rc = hm_permpirun_read(path_of("per-mpirun.csv"), &back, why, sizeof why);
    int same = rc == HM_OK && back.n == ds->n;
    for (size_t i = 0; same && i < ds->n; i++) {
        const hm_permpirun_row_t *x = &ds->rows[i], *y = &back.rows[i];
        same = x->run == y->run && x->seed == y->seed && !strcmp(x->op, y->op) &&
               x->size_bytes == y->size_bytes && x->processes == y->processes &&
               !strcmp(x->sync, y->sync) && x->n == y->n && x->kept == y->kept &&
               x->median_s == y->median_s && x->mean_s == y->mean_s;
    }
    HM_CHECK(same, "read back: the same %zu rows, doubles bit for bit (%s)", back.n, why);
    hm_permpirun_free(&back);
}

static void check_summary(const hm_permpirun_t *ds)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = f ? hm_permpirun_print_summary(ds, "mean", f) : HM_ENOMEM;
    if (f) fclose(f);
    /* Run 2 is run 1 x 1.1: every group's repro is 1.100. */
    HM_CHECK(rc == HM_OK && text && strstr(text, "repro") && strstr(text, "1.100") &&
                 strstr(text, "5.50") && strstr(text, "6.05"),
             "summary (mean): bcast 5.50 us .. 6.05 us, repro 1.100; got:\n%s", text);
    free(text);
    HM_CHECK(hm_permpirun_print_summary(ds, "mode", stdout) == HM_EINVAL,
             "summary refuses statistic \"mode\"");
}

static void check_reproducibility(const hm_permpirun_t *ds)
{
    hm_csv_reader_t *r = NULL;
    char why[512] = "";
    size_t inorm, imax, ivalue;
    int more, rows = 0, good = 1;
    int rc = hm_permpirun_write_reproducibility(ds, "median", path_of("repro.csv"), NULL, why,
                                                sizeof why);
    if (rc == HM_OK) rc = hm_csv_reader_open(path_of("repro.csv"), &r);
    HM_CHECK(rc == HM_OK, "reproducibility.csv written and opened (%s)", why);
    if (rc != HM_OK) return;
    good = hm_csv_reader_find(r, "normalized", &inorm) == HM_OK &&
           hm_csv_reader_find(r, "max_normalized", &imax) == HM_OK &&
           hm_csv_reader_find(r, "median_s", &ivalue) == HM_OK;
    while (good && hm_csv_reader_next(r, &more) == HM_OK && more) {
        double norm, max, value;
        hm_csv_reader_double(r, inorm, &norm);
        hm_csv_reader_double(r, imax, &max);
        hm_csv_reader_double(r, ivalue, &value);
        /* Rows go by group, then run: run 1 is the smallest (1), run 2 x 1.1. */
        double want = rows % 2 ? 1.1 : 1.0;
        good = hm_test_near(norm, want, 1e-12) && hm_test_near(max, 1.1, 1e-12) && value > 0;
        rows++;
    }
    const char *stat = NULL;
    hm_factors_get(hm_csv_reader_factors(r), "statistic", &stat);
    HM_CHECK(good && rows == 4 && stat && !strcmp(stat, "median"),
             "reproducibility: 4 rows, normalized 1 and 1.1, max_normalized 1.1, factor "
             "statistic median (rows %d)",
             rows);
    hm_csv_reader_close(r);
}

static void expect_refused(int rc, const char *why, const char *fragment)
{
    HM_CHECK(rc == HM_EINVAL && strstr(why, fragment), "refused with \"%s\" (got %d: %s)", fragment,
             rc, why);
}

static void check_bad_input(void)
{
    hm_permpirun_t ds = {0};
    char why[512] = "";
    expect_refused(
        hm_permpirun_add_raw(&ds, path_of("none.csv"), 1, 1, "global_s", "tukey", why, sizeof why),
        why, "none.csv: No such file or directory");
    write_file("abc.csv", RAW_HEAD "bcast,8,0,1,1e-6,0\nbcast,8,1,1,abc,0\n");
    expect_refused(
        hm_permpirun_add_raw(&ds, path_of("abc.csv"), 1, 1, "global_s", "tukey", why, sizeof why),
        why, "abc.csv:5: \"abc\" is not a number (column global_s)");
    write_file("invalid.csv", RAW_HEAD "bcast,8,0,0,1e-6,0\n");
    expect_refused(hm_permpirun_add_raw(&ds, path_of("invalid.csv"), 1, 1, "global_s", "tukey", why,
                                        sizeof why),
                   why, "invalid.csv: no valid repetitions");
    write_raw("ok.csv", 1.0);
    expect_refused(
        hm_permpirun_add_raw(&ds, path_of("ok.csv"), 1, 1, "global_s", "median", why, sizeof why),
        why, "unknown filter \"median\"");
    HM_CHECK(ds.n == 0, "nothing added by refused files (got %zu rows)", ds.n);
    write_file("cols.csv", "run,op\n1,bcast\n");
    expect_refused(hm_permpirun_read(path_of("cols.csv"), &ds, why, sizeof why), why,
                   "cols.csv: missing columns: seed, size_bytes, processes, sync, n, kept, "
                   "median_s, mean_s");
    write_file("pm.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                         "1,1,bcast,8,2,barrier,10,9,1e-6,1e-6\n"
                         "x,1,bcast,8,2,barrier,10,9,1e-6,1e-6\n");
    expect_refused(hm_permpirun_read(path_of("pm.csv"), &ds, why, sizeof why), why,
                   "pm.csv:3: \"x\" is not an integer >= 1 (column run)");
    write_file("pm2.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                          "1,-1,bcast,8,2,barrier,10,9,1e-6,1e-6\n");
    expect_refused(hm_permpirun_read(path_of("pm2.csv"), &ds, why, sizeof why), why,
                   "pm2.csv:2: \"-1\" is not a seed");
    write_file("pm3.csv", "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n"
                          "1,1,bcast,8,2,barrier,10,9,NaN,1e-6\n");
    expect_refused(hm_permpirun_read(path_of("pm3.csv"), &ds, why, sizeof why), why,
                   "pm3.csv:2: \"NaN\" is not a finite run-time (column median_s)");
    hm_permpirun_free(&ds);
}

int main(void)
{
    hm_permpirun_t ds = {0};
    char why[512] = "";
    if (!mkdtemp(dir)) return 1;
    write_raw("run1.csv", 1.0);
    write_raw("run2.csv", 1.1);
    int rc = hm_permpirun_add_raw(&ds, path_of("run1.csv"), 1, UINT64_MAX, "global_s", "tukey", why,
                                  sizeof why);
    if (rc == HM_OK)
        rc = hm_permpirun_add_raw(&ds, path_of("run2.csv"), 2, 7, "global_s", "tukey", why,
                                  sizeof why);
    HM_CHECK(rc == HM_OK, "add_raw of 2 runs (%s)", why);
    check_built(&ds);
    check_round_trip(&ds);
    check_summary(&ds);
    check_reproducibility(&ds);
    hm_permpirun_free(&ds);
    check_bad_input();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
