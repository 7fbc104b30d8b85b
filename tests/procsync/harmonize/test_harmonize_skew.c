/* tests/procsync/harmonize/test_harmonize_skew.c — 2 ranks on one machine: how
 * closely in time do the ranks leave hm_harmonize?
 *
 * Both ranks read one CLOCK_MONOTONIC (origin agreed), so exit times are
 * directly comparable: the exit skew of a call is |exit0 - exit1|. hm_harmonize
 * runs with its defaults (its own monotonic timer, hca3 every second), 1000
 * calls back to back after a first call that synchronizes the clocks.
 * The median skew must be <= 2 us (the requirement). What sets it:
 * hca3 over shared memory is within ~15 ns of the truth, and each rank leaves
 * a spin loop within one clock read (~25 ns) of the deadline, so a quiet
 * machine shows ~0.1 us; 2 us leaves room for a loaded machine (other builds
 * share the 2 cores) while a rank that did not wait for the deadline would
 * show the MPI_Bcast latency and a missing clock model the clocks' offset.
 * Only calls valid on both ranks count (a late rank did not wait); at least
 * half must be valid, a functional bound: misses come from preemptions. */
#include <stdlib.h>

#include <harmonia/procsync.h>
#include <harmonia/timer.h>

#include "skew.h"
#include "testutil.h"

enum { CALLS = 1000 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    int rank, flag = 0, *flags = calloc(CALLS, sizeof(int));
    double *exits = calloc(CALLS, sizeof(double)), *calls = calloc(CALLS, sizeof(double));
    hm_timer_t *t = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    int rc = hm_timer_create("monotonic", NULL, &t);
    HM_CHECK(rc == HM_OK && flags && exits && calls, "monotonic timer and arrays (status %d)", rc);
    if (rc == HM_OK && flags && exits && calls) {
        hm_timer_agree_origin(t, comm);
        rc = hm_harmonize(comm, &flag); /* first call: bcast latency, clock sync */
        HM_CHECK(rc == HM_OK, "first hm_harmonize succeeds (status %d)", rc);
        double start = hm_timer_now(t);
        for (int i = 0; i < CALLS && rc == HM_OK; i++) {
            double entry = hm_timer_now(t);
            rc = hm_harmonize(comm, &flags[i]);
            exits[i] = hm_timer_now(t);
            calls[i] = exits[i] - entry;
        }
        double wall = hm_timer_now(t) - start;
        HM_CHECK(rc == HM_OK, "%d calls succeed (status %d)", CALLS, rc);
        skew_t s;
        hm_harmonize_info_t info = {0};
        hm_harmonize_info(comm, &info);
        if (skew_summarize(comm, exits, flags, CALLS, &s) == 0 && rank == 0) {
            hm_test_note("exit skew over %d/%d valid calls: median %.3f us, p90 %.3f us, "
                         "p99 %.3f us, max %.3f us",
                         s.valid, s.n, s.median_s * 1e6, s.p90_s * 1e6, s.p99_s * 1e6,
                         s.max_s * 1e6);
            hm_test_note("cost per call %.3f us (%.3f ms for %d calls, re-synchronizations "
                         "included; median call %.3f us); slack %.3f us, MPI_Bcast %.3f us, "
                         "%ld resyncs, %ld grows, %ld shrinks, %ld missed",
                         wall / CALLS * 1e6, wall * 1e3, CALLS, median(calls, CALLS) * 1e6,
                         info.slack_s * 1e6, info.bcast_latency_s * 1e6, info.resyncs,
                         info.slack_grows, info.slack_shrinks, info.missed);
            HM_CHECK(s.valid >= CALLS / 2, "at least half the calls valid on both ranks (%d)",
                     s.valid);
            HM_CHECK(s.valid > 0 && s.median_s <= 2e-6, "median exit skew %.3f us <= 2 us",
                     s.median_s * 1e6);
        }
    }
    hm_timer_free(t);
    free(flags);
    free(exits);
    free(calls);
    MPI_Comm_free(&comm);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
