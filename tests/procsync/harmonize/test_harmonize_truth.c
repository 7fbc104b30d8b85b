/* tests/procsync/harmonize/test_harmonize_truth.c — 2 ranks with synthetic clocks
 * (offset within +-1 s, drift within +-100 ppm, no jitter): do the ranks
 * leave hm_harmonize at the same TRUE instant, across re-synchronizations?
 *
 * The first global clock comes from hm_sync_run("hca3") over the synthetic
 * base and is handed to hm_harmonize_configure (options.global), with
 * resync_s = 0.5; then calls run for 2.5 s of global time. Exit times are
 * read as true time (the monotonic clock beneath the synthetic one), so the
 * skew is the real one, not the clocks' opinion. The median true skew must
 * be <= 5 us: hca3 right after a synchronization is within ~15 ns of the
 * truth and its slope within ~0.1 ppm, i.e. < 0.1 us after 0.5 s, so a quiet
 * machine shows ~0.1 us; an ignored drift (up to 200 ppm between the clocks)
 * would reach 100 us within 0.5 s and an ignored offset a second. 5 us
 * leaves room for load. At least 2 re-synchronizations must have happened
 * (2.5 s at one per 0.5 s, the first saved by options.global): they are
 * what keeps the drift in check. */
#include <stdlib.h>

#include <harmonia/procsync.h>

#include "skew.h"
#include "testutil.h"
#include "truth.h"

enum { MAX_CALLS = 400000 };
#define RUN_S    2.5
#define RESYNC_S 0.5

/* Calls until RUN_S of global time passed: every rank decides alike, on the
 * deadline it received from the root. */
static int run_calls(MPI_Comm comm, hm_timer_t *timer, double *exits, int *flags)
{
    hm_harmonize_info_t info;
    int n = 0, rc = hm_harmonize(comm, &flags[0]);
    hm_harmonize_info(comm, &info);
    double end = info.deadline_s + RUN_S;
    while (rc == HM_OK && n < MAX_CALLS) {
        rc = hm_harmonize(comm, &flags[n]);
        hm_timer_now_truth(timer, &exits[n]);
        n++;
        hm_harmonize_info(comm, &info);
        if (info.deadline_s > end) break;
    }
    HM_CHECK(rc == HM_OK, "%d calls succeed (status %d)", n, rc);
    return n;
}

static void check(MPI_Comm comm, const double *exits, const int *flags, int n)
{
    hm_harmonize_info_t info = {0};
    skew_t s;
    hm_harmonize_info(comm, &info);
    if (skew_summarize(comm, exits, flags, n, &s) != 0) return;
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank != 0) return;
    hm_test_note("true exit skew over %d/%d valid calls: median %.3f us, p90 %.3f us, "
                 "p99 %.3f us, max %.3f us",
                 s.valid, s.n, s.median_s * 1e6, s.p90_s * 1e6, s.p99_s * 1e6, s.max_s * 1e6);
    hm_test_note("slack %.3f us, %ld resyncs, %ld grows, %ld shrinks, %ld missed on rank 0",
                 info.slack_s * 1e6, info.resyncs, info.slack_grows, info.slack_shrinks,
                 info.missed);
    HM_CHECK(s.valid > 0 && s.median_s <= 5e-6, "median true exit skew %.3f us <= 5 us",
             s.median_s * 1e6);
    HM_CHECK(info.resyncs >= 2, "re-synchronized %ld times in %.1f s (>= 2)", info.resyncs, RUN_S);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    hm_truth_t t = {0};
    hm_clock_t *global = NULL;
    int rank, *flags = calloc(MAX_CALLS, sizeof(int));
    double *exits = calloc(MAX_CALLS, sizeof(double));
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    hm_synthetic_spec_t spec = {1.0, 1e-4, 0};
    int rc = hm_truth_open(&t, comm, spec, HM_TRUTH_SEED, HM_TRUTH_OWN_CLOCK);
    HM_CHECK(rc == HM_OK && flags && exits, "synthetic clocks and arrays (status %d)", rc);
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    if (rc == HM_OK) rc = hm_sync_run(comm, "hca3", &o.sync, t.base, &global, NULL);
    HM_CHECK(rc == HM_OK, "hca3 over the synthetic clocks (status %d)", rc);
    o.global = global;
    o.resync_s = RESYNC_S;
    if (rc == HM_OK) rc = hm_harmonize_configure(comm, &o);
    HM_CHECK(rc == HM_OK, "hm_harmonize_configure with the global clock (status %d)", rc);
    if (rc == HM_OK && flags && exits) {
        int n = run_calls(comm, t.timer, exits, flags);
        check(comm, exits, flags, n);
    }
    MPI_Comm_free(&comm); /* frees the harmonize state before the timer it reads */
    hm_clock_free(global);
    hm_truth_close(&t);
    free(flags);
    free(exits);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
