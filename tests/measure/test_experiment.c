/* tests/measure/test_experiment.c — hm_experiment_open and its files
 * against the truth.
 *
 * Synthetic clocks (offset within +-1 ms, drift within +-100 ppm, seed 7)
 * over the one CLOCK_MONOTONIC every rank of this machine reads: the global
 * clock the experiment synchronizes with hca3 must read rank 0's synthetic
 * time at every true instant. Tolerance 20 us: hca3 over shared memory is
 * within ~0.1 us here, and a loaded 2-core CI machine stretches its
 * ping-pongs; an unsynchronized clock is up to 2 ms off, a lost drift
 * model 100 us per second. With the argument "functional" (3 ranks on 2
 * cores), 500 us: the scheduler sets the ping-pongs' times there (35 us of
 * error seen in CI under MPICH), and 500 us still tells a synchronized
 * clock from none. Then the failures: each stage's refusal comes back with
 * the same status, stage and sentence on every rank. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/experiment.h>

#include "testutil.h"

static void synthetic_params(hm_experiment_params_t *p)
{
    hm_experiment_params_default(p);
    p->timer_options.synthetic = 1;
    p->timer_options.spec = (hm_synthetic_spec_t){.offset_s = 1e-3, .drift = 1e-4};
    p->timer_options.seed = 7;
    p->seed = 7;
    p->sync.fitpoints = 200;
}

/* Rank 0's synthetic clock at true time t, known to every rank. */
static double reference_at(MPI_Comm comm, hm_timer_t *timer, double true_s)
{
    double draw[2] = {0, 0};
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) hm_timer_synthetic_draw(timer, &draw[0], &draw[1]);
    MPI_Bcast(draw, 2, MPI_DOUBLE, 0, comm);
    return true_s * (1 + draw[1]) + draw[0];
}

static void check_global_clock(MPI_Comm comm, hm_experiment_t *e, double bound_s)
{
    double truth_s, worst_s = 0;
    for (int k = 0; k < 5; k++) {
        /* One read gives both the global clock and the true time: two
         * reads were once 38.8 us apart under a busy CI machine's
         * preemption, and the gap counted as clock error. */
        double g_s = hm_clock_now_truth(hm_experiment_global_clock(e), &truth_s);
        double ref_s = reference_at(comm, hm_experiment_timer(e), truth_s);
        double err_s = g_s - ref_s;
        if (err_s < 0) err_s = -err_s;
        if (err_s > worst_s) worst_s = err_s;
        usleep(20000);
    }
    /* The tolerance is in the header. */
    HM_CHECK(worst_s < bound_s, "global clock within %.0f us of rank 0's clock: %.3f us",
             bound_s * 1e6, worst_s * 1e6);
}

static void check_factors(hm_experiment_t *e)
{
    static const char *const keys[] = {"harmonia_version",      "clock_sync", "offset", "drift",
                                       "clock_sync_duration_s", "sync",       "late_us"};
    const char *v = NULL;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        HM_CHECK(hm_factors_get(hm_experiment_factors(e), keys[i], &v) == HM_OK,
                 "factor %s recorded", keys[i]);
    hm_factors_get(hm_experiment_factors(e), "clock_sync", &v);
    HM_CHECK(v && !strcmp(v, "hca3"), "clock_sync is hca3 (%s)", v ? v : "none");
    hm_factors_get(hm_experiment_factors(e), "sync", &v);
    HM_CHECK(v && !strcmp(v, "harmonize"), "sync is harmonize (%s)", v ? v : "none");
}

/* The late-start tolerance: 1 us on dedicated cores, measured when ranks
 * outnumber the processors (3 ranks on the 2-core test machine); the
 * factors and the fitted parameters say the same as the fit. */
static void check_fit(MPI_Comm comm, hm_experiment_t *e)
{
    const hm_procsync_fit_t *f = hm_experiment_fit(e);
    const hm_procsync_params_t *pp = hm_experiment_procsync_params(e);
    const char *v = NULL, *src = NULL;
    char want[64], late[32];
    int size;
    MPI_Comm_size(comm, &size);
    int over = size > sysconf(_SC_NPROCESSORS_ONLN);
    /* Other work on the machine (a loaded CI runner) makes it busy: the
     * tolerance is derived then too. */
    int busy = hm_experiment_interference(e)->busy, fitted = over || busy;
    HM_CHECK(f->oversubscribed == over && f->busy == busy && f->derived == fitted &&
                 pp->late_s == f->late_s && (fitted || pp->late_s == 1e-6),
             "fit: oversubscribed %d, busy %d, derived %d, late_s %.3f us", f->oversubscribed,
             f->busy, f->derived, pp->late_s * 1e6);
    hm_factors_get(hm_experiment_factors(e), "interference", &v);
    HM_CHECK(v && !strncmp(v, busy ? "busy (" : "quiet (", busy ? 6 : 7),
             "factor interference says %s: %s", busy ? "busy" : "quiet", v ? v : "none");
    snprintf(want, sizeof want, "%s (%d ranks, %ld processors)", over ? "yes" : "no", size,
             sysconf(_SC_NPROCESSORS_ONLN));
    hm_factors_get(hm_experiment_factors(e), "oversubscribed", &v);
    hm_factors_get(hm_experiment_factors(e), "late_us_source", &src);
    HM_CHECK(v && !strcmp(v, want) && src && !strncmp(src, fitted ? "derived (" : "default", 7),
             "factors oversubscribed: %s, late_us_source: %s", v ? v : "none", src ? src : "none");
    snprintf(late, sizeof late, "%g", pp->late_s * 1e6);
    hm_factors_get(hm_experiment_factors(e), "late_us", &v);
    HM_CHECK(v && !strcmp(v, late), "factor late_us %s = the tolerance in effect (%s)",
             v ? v : "none", late);
}

/* The summary file on rank 0: factor lines, the header, the row. */
static void check_file(MPI_Comm comm, const char *path)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank != 0) return;
    FILE *f = fopen(path, "r");
    char line[4096];
    int factors = 0, header = 0, row = 0;
    while (f && fgets(line, sizeof line, f)) {
        factors += line[0] == '#';
        header += !strcmp(line, "op,median_s\n");
        row += !strcmp(line, "ring,1.5e-06\n");
    }
    if (f) fclose(f);
    HM_CHECK(factors >= 20 && header == 1 && row == 1,
             "summary written: %d factor lines, header %d, row %d", factors, header, row);
}

static void check_success(MPI_Comm comm, const char *dir, double bound_s)
{
    hm_experiment_params_t p;
    hm_experiment_t *e = NULL;
    hm_experiment_stage_t stage;
    char path[512];
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    synthetic_params(&p);
    p.summary_path = path;
    int rc = hm_experiment_open(comm, &p, &e, &stage);
    HM_CHECK(rc == HM_OK && e && stage == HM_EXPERIMENT_OK, "experiment opened (%d: %s)", rc,
             hm_last_error());
    if (rc != HM_OK) return;
    HM_CHECK(hm_experiment_procsync(e) != NULL, "harmonize created");
    check_global_clock(comm, e, bound_s);
    check_factors(e);
    check_fit(comm, e);
    static const char *const cols[] = {"op", "median_s"};
    rc = hm_experiment_files_open(e, cols, 2, NULL, 0);
    HM_CHECK(rc == HM_OK, "files opened (%s)", hm_last_error());
    hm_csv_t *csv = hm_experiment_summary(e);
    int rank;
    MPI_Comm_rank(comm, &rank);
    HM_CHECK((rank == 0) == (csv != NULL), "only rank 0 holds the file");
    HM_CHECK(hm_experiment_raw(e) == NULL, "no raw file when none was asked for");
    if (csv) {
        hm_csv_put_string(csv, "ring");
        hm_csv_put_double(csv, 1.5e-6);
        hm_csv_end_row(csv);
    }
    HM_CHECK(hm_experiment_close(e) == HM_OK, "published (%s)", hm_last_error());
    check_file(comm, path);
}

/* Every rank must return the same status and stage with the same sentence,
 * containing fragment. */
static void expect_refused(MPI_Comm comm, const hm_experiment_params_t *p, int status,
                           hm_experiment_stage_t stage, const char *fragment)
{
    hm_experiment_t *e = (hm_experiment_t *)p; /* must come back NULL */
    hm_experiment_stage_t got = HM_EXPERIMENT_OK;
    int rc = hm_experiment_open(comm, p, &e, &got);
    char mine[256], first[256];
    snprintf(mine, sizeof mine, "%s", hm_last_error());
    snprintf(first, sizeof first, "%s", mine);
    MPI_Bcast(first, sizeof first, MPI_CHAR, 0, comm);
    HM_CHECK(rc == status && got == stage && e == NULL && strstr(mine, fragment),
             "refused with %d at stage %d: \"%s\" (got %d at %d: \"%s\")", status, (int)stage,
             fragment, rc, (int)got, mine);
    HM_CHECK(!strcmp(mine, first), "the same sentence on every rank");
}

static void check_refusals(MPI_Comm comm, const char *dir)
{
    hm_experiment_params_t p;
    synthetic_params(&p);
    p.timer = "sundial";
    expect_refused(comm, &p, HM_ENOENT, HM_EXPERIMENT_TIMER, "known: wtime");
    synthetic_params(&p);
    p.clock_sync = "hca4";
    expect_refused(comm, &p, HM_ENOENT, HM_EXPERIMENT_CLOCK, "unknown algorithm \"hca4\"");
    synthetic_params(&p);
    p.clock_sync = "hca3,skampi";
    expect_refused(comm, &p, HM_EINVAL, HM_EXPERIMENT_CLOCK, "is a list");
    synthetic_params(&p);
    p.procsync = "semaphore";
    expect_refused(comm, &p, HM_ENOENT, HM_EXPERIMENT_PROCSYNC, "semaphore");

    /* A file that cannot be opened fails on rank 0 and on every rank. */
    char path[600];
    snprintf(path, sizeof path, "%s/missing/summary.csv", dir);
    synthetic_params(&p);
    p.procsync = NULL;
    p.summary_path = path;
    hm_experiment_t *e = NULL;
    int rc = hm_experiment_open(comm, &p, &e, NULL);
    HM_CHECK(rc == HM_OK && hm_experiment_procsync(e) == NULL, "no procsync asked for");
    static const char *const cols[] = {"a"};
    rc = hm_experiment_files_open(e, cols, 1, NULL, 0);
    HM_CHECK(rc == HM_ENOENT && strstr(hm_last_error(), path), "missing directory: %d, %s", rc,
             hm_last_error());
    HM_CHECK(hm_experiment_close(e) == HM_OK, "closed after the failure");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    char dir[] = "/tmp/hm_test_experiment_XXXXXX";
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && !mkdtemp(dir)) dir[0] = '\0';
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    int functional = argc > 1 && !strcmp(argv[1], "functional");
    check_success(MPI_COMM_WORLD, dir, functional ? 500e-6 : 20e-6);
    check_refusals(MPI_COMM_WORLD, dir);
    if (rank == 0) {
        char path[600];
        snprintf(path, sizeof path, "%s/summary.csv", dir);
        unlink(path);
        rmdir(dir);
    }
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
