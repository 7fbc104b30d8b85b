/* examples/harmonize_loop.c — a measurement loop synchronized with
 * hm_harmonize: every iteration starts with hm_harmonize, so that all ranks
 * enter the measured operation at one deadline on the global clock, then
 * times the operation (MPI_Allreduce of one int) with global timestamps.
 *
 * The ranks arrive unevenly on purpose: rank r computes r x 20 us before
 * each iteration, as the ranks of a real application finish their work at
 * different times. A barrier would release them when the last one arrives,
 * in the order the MPI library's algorithm lets them out; hm_harmonize
 * releases them at one instant, and says when this rank could not make it
 * (flag 0: it arrived after the deadline, or it was preempted across it).
 * The flags are local: every CHECK_EVERY iterations one MPI_Allreduce
 * (logical and) keeps the iterations valid on every rank, as in
 * [Schuchart et al. 2023, Listing 1]; their start timestamps go to rank 0,
 * which prints the exit skew (max - min over ranks of the timestamp taken
 * right after hm_harmonize returned) of the valid iterations.
 *
 * Usage: mpirun -n 2 example_harmonize_loop
 * Exit status 0 when the median exit skew of the valid iterations is within
 * MAX_SKEW_S and at least a tenth of the iterations were valid; 1 otherwise
 * or when a library call fails. The tenth is functional: flags stuck at 0
 * fail it, while a loaded shared 2-core machine passes (there, under MPICH's
 * busy polling, about half the iterations have a rank preempted across the
 * deadline). */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <harmonia/procsync.h>
#include <harmonia/stats.h>

/* A valid exit lies within late_s (1 us by default) after the deadline on
 * every rank's global clock, and the start timestamp is one clock read
 * later: a quiet machine shows ~0.1 us. 5 us leaves room for a loaded
 * shared machine; ranks that left at their own arrival would show the
 * imbalance, 20 us and more. When ranks outnumber the processors they take
 * turns on a core and leave a scheduler switch apart: then the skew is
 * printed but not checked. */
#define MAX_SKEW_S 5e-6
#define WORK_S     20e-6
enum { ITERATIONS = 1000, CHECK_EVERY = 16 };

static void check(int rc, const char *what)
{
    if (rc == HM_OK) return;
    fprintf(stderr, "harmonize_loop: %s: %s (%s)\n", what, hm_last_error(), hm_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The uneven work before an iteration. */
static void compute(double seconds)
{
    double end = MPI_Wtime() + seconds;
    while (MPI_Wtime() < end) {
    }
}

int main(int argc, char **argv)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, size, flags[CHECK_EVERY], in = 1, out;
    double times[3 * CHECK_EVERY], reduced[3 * CHECK_EVERY];
    double *skew_s = malloc(ITERATIONS * sizeof *skew_s);
    double *run_s = malloc(ITERATIONS * sizeof *run_s);
    long nvalid = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (!skew_s || !run_s) check(HM_ENOMEM, "arrays");

    /* Optional: without it the first hm_harmonize synchronizes the clocks
     * (hca3 over CLOCK_MONOTONIC) and takes long; here that happens now. */
    hm_harmonize_options_t opts;
    hm_harmonize_options_default(&opts);
    check(hm_harmonize_configure(comm, &opts), "hm_harmonize_configure");

    for (int i = 0; i < ITERATIONS; i++) {
        int k = i % CHECK_EVERY;
        compute(rank * WORK_S);
        check(hm_harmonize(comm, &flags[k]), "hm_harmonize");
        /* Borrowed until the next hm_harmonize, which may re-synchronize. */
        hm_clock_t *clock = hm_harmonize_clock(comm);
        double start = hm_clock_now(clock);
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, comm);
        double end = hm_clock_now(clock);
        /* One MPI_Reduce with MAX gives max start, max end and min start. */
        times[3 * k] = start, times[3 * k + 1] = end, times[3 * k + 2] = -start;
        if (k == CHECK_EVERY - 1 || i == ITERATIONS - 1) {
            MPI_Allreduce(MPI_IN_PLACE, flags, k + 1, MPI_INT, MPI_LAND, comm);
            MPI_Reduce(times, reduced, 3 * (k + 1), MPI_DOUBLE, MPI_MAX, 0, comm);
            for (int j = 0; j <= k; j++) {
                if (!flags[j]) continue; /* some rank missed the deadline */
                const double *t = reduced + 3 * j;
                if (rank == 0) skew_s[nvalid] = t[0] + t[2], run_s[nvalid] = t[1] + t[2];
                nvalid++;
            }
        }
    }

    hm_harmonize_info_t info;
    check(hm_harmonize_info(comm, &info), "hm_harmonize_info");
    int oversubscribed = hm_procsync_oversubscribed(comm);
    int ok = nvalid >= ITERATIONS / 10;
    if (rank == 0) {
        hm_stats_summary_t skew, run;
        check(hm_stats_summarize(skew_s, (size_t)nvalid, &skew), "hm_stats_summarize");
        check(hm_stats_summarize(run_s, (size_t)nvalid, &run), "hm_stats_summarize");
        printf("%d ranks, %ld of %d iterations valid; rank 0: %ld missed, %ld late exits, "
               "%ld re-synchronizations, slack %.1f us\n",
               size, nvalid, ITERATIONS, info.missed, info.late_exits, info.resyncs,
               info.slack_s * 1e6);
        printf("exit skew on the global clock: median %.3f us, p99 %.3f us, max %.3f us "
               "(arrival imbalance %.0f us)\n",
               skew.median * 1e6, skew.p99 * 1e6, skew.max * 1e6, (size - 1) * WORK_S * 1e6);
        printf("MPI_Allreduce, 1 int, global run-time: median %.3f us\n", run.median * 1e6);
        if (oversubscribed)
            printf("more ranks than processors: the skew is not checked\n");
        else
            ok = ok && skew.median <= MAX_SKEW_S;
        printf("%s\n", ok ? "ok" : "FAILED: too few valid iterations or too large a skew");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    free(skew_s);
    free(run_s);
    MPI_Finalize();
    return ok ? 0 : 1;
}
