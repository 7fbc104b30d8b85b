/* tests/results/test_bench_raw.c — the reader of `bench --raw` files on
 * files written here: only valid repetitions, in file order, of the chosen
 * metric, with the processes and sync factors; every kind of bad input
 * refused with the file (and line, and column) named, as stats, compare and
 * plot report it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/results.h>

#include "testutil.h"

static char dir[] = "/tmp/hm_bench_raw_XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    return hm_test_write_file(dir, name, text);
}

#define HEAD "# processes: 4\n# sync: harmonize\nop,size_bytes,attempt,valid,global_s,local_s\n"

/* Three valid rows and an invalid one whose cells are not even numbers:
 * it is skipped before they are read. */
static void check_rows(void)
{
    const char *p = write_file("r.csv", HEAD "bcast,8,0,1,2e-6,1e-6\n"
                                             "bcast,8,1,0,abc,abc\n"
                                             "bcast,8,2,1,3e-6,1.5e-6\n"
                                             "allreduce,1048576,0,1,0.25,0.125\n");
    for (int m = 0; m < 2; m++) {
        hm_results_bench_raw_t *raw = NULL;
        hm_results_bench_raw_row_t row;
        double sum = 0;
        int more = 0, n = 0, rc = hm_results_bench_raw_open(p, (hm_metric_t)m, &raw);
        HM_CHECK(rc == HM_OK && hm_results_bench_raw_processes(raw) == 4 &&
                     !strcmp(hm_results_bench_raw_sync(raw), "harmonize"),
                 "opened, factors processes 4, sync harmonize (%s)", hm_last_error());
        while (rc == HM_OK && (rc = hm_results_bench_raw_next(raw, &row, &more)) == HM_OK && more) {
            n++;
            sum += row.x_s;
            if (n == 3)
                HM_CHECK(!strcmp(row.op, "allreduce") && row.size_bytes == 1048576,
                         "third valid row: allreduce 1 MiB");
        }
        double want = m == HM_METRIC_LOCAL ? 0.1250025 : 0.250005;
        HM_CHECK(rc == HM_OK && n == 3 && hm_test_near(sum, want, 1e-15),
                 "%s: 3 valid rows summing to %g s (got %d, %.17g)",
                 hm_results_metric_name((hm_metric_t)m), want, n, sum);
        hm_results_bench_raw_close(raw);
    }
}

static void expect(const char *name, const char *text, hm_metric_t metric, int want,
                   const char *fragment)
{
    const char *p = text ? write_file(name, text) : name;
    hm_results_bench_raw_t *raw = NULL;
    hm_results_bench_raw_row_t row;
    int more = 1, rc = hm_results_bench_raw_open(p, metric, &raw);
    while (rc == HM_OK && (rc = hm_results_bench_raw_next(raw, &row, &more)) == HM_OK && more)
        ;
    HM_CHECK(rc == want && strstr(hm_last_error(), fragment), "%s: %d \"%s\" (got %d: %s)", name,
             want, fragment, rc, hm_last_error());
    hm_results_bench_raw_close(raw);
}

static void check_refused(void)
{
    expect("/nonexistent/x.csv", NULL, HM_METRIC_GLOBAL, HM_ENOENT,
           "x.csv: No such file or directory");
    expect("nocols.csv", "a,b\n1,2\n", HM_METRIC_GLOBAL, HM_EINVAL,
           "nocols.csv: missing columns: op, size_bytes, valid, global_s (expected a raw file of "
           "'harmonia bench --raw')");
    expect("local.csv", "# processes: 2\n# sync: b\nop,size_bytes,valid,local_s\n",
           HM_METRIC_GLOBAL, HM_EINVAL, "local.csv: missing columns: global_s");
    expect("nofactor.csv", "# sync: b\nop,size_bytes,valid,global_s\n", HM_METRIC_GLOBAL, HM_EINVAL,
           "nofactor.csv: missing factor \"# processes: ...\"");
    expect("nosync.csv", "# processes: 2\nop,size_bytes,valid,global_s\n", HM_METRIC_GLOBAL,
           HM_EINVAL, "nosync.csv: missing factor \"# sync: ...\"");
    expect("procs.csv", "# processes: two\n# sync: b\nop,size_bytes,valid,global_s\n",
           HM_METRIC_GLOBAL, HM_EINVAL,
           "procs.csv: factor processes: \"two\" is not a number of processes");
    expect("bad.csv", HEAD "bcast,8,0,1,1e-6,0\nbcast,8,1,1,abc,0\n", HM_METRIC_GLOBAL, HM_EINVAL,
           "bad.csv:5: \"abc\" is not a number (column global_s)");
    expect("size.csv", HEAD "bcast,8.5,0,1,1e-6,0\n", HM_METRIC_GLOBAL, HM_EINVAL,
           "size.csv:4: \"8.5\" is not a size in bytes (column size_bytes)");
    /* Inf is refused by the reader itself; no value where a run-time is
     * required, and a negative one, by the raw reader. */
    expect("inf.csv", HEAD "bcast,8,0,1,1e-6,Inf\n", HM_METRIC_LOCAL, HM_EINVAL,
           "inf.csv:4: \"Inf\" is not a number (column local_s)");
    expect("empty.csv", HEAD "bcast,8,0,1,1e-6,\n", HM_METRIC_LOCAL, HM_EINVAL,
           "empty.csv:4: \"\" is not a run-time (finite, at least 0) (column local_s)");
    expect("negative.csv", HEAD "bcast,8,0,1,1e-6,-2e-6\n", HM_METRIC_LOCAL, HM_EINVAL,
           "negative.csv:4: \"-2e-6\" is not a run-time (finite, at least 0) (column local_s)");
    expect("valid.csv", HEAD "bcast,8,0,x,1e-6,0\n", HM_METRIC_GLOBAL, HM_EINVAL,
           "valid.csv:4: \"x\" is not a number (column valid)");
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    check_rows();
    check_refused();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
