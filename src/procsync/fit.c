/* src/procsync/fit.c — hm_procsync_fit: the late-start tolerance measured on
 * this machine when ranks outnumber its processors.
 *
 * The 1 us default of late_s rests on each rank having its own core: a spin
 * loop then ends within a clock read of the deadline (Hunold & Carpen-Amarie
 * 2016, §3.3, where a late start invalidates a repetition). Ranks that share
 * a core cannot all run at one instant: the yielding spin of
 * hm_procsync_wait_until lets them take turns, so each leaves a scheduler
 * switch, or a slice, late. A constant cannot know how late that is on a
 * given machine, scheduler and MPI library, so it is measured: under the
 * same wait as the methods use, the way they use it (a deadline broadcast by
 * rank 0, every rank waiting for it). */
#include <math.h>
#include <stdlib.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "procsync/procsync_impl.h"

/* 200 deadlines, in chunks of 16 (the flags' chunk of the methods): the
 * 0.99 quantile of 200 per-deadline maxima is their second largest, one
 * interruption of the calibration does not set it. */
enum { FIT_WAITS = 200, FIT_CHUNK = 16 };
#define FIT_QUANTILE 0.99
/* Why 3: the lateness drifts between the calibration and the run (other
 * processes' slices come and go: on the 2-core test VM the same p99 came out
 * 7 us and 60 us minutes apart); with 3 x, harmonize and roundtime kept
 * 97-99.8% of their attempts at 3 and 4 ranks (docs/measure.md has the
 * numbers), and the attempts (10 x nrep + 100) absorb the rest. What the
 * operation itself adds is allowed separately (late_run_factor below). */
#define FIT_FACTOR 3.0
/* The run-time on top (late_run_factor) follows the machine, but the whole
 * tolerance never exceeds this fraction of the repetition's own run-time
 * (nor 1 us, the spin's precision): a rank that started that late moved
 * the makespan by half of what is measured. Under other processes' load
 * the derived tolerance reached 28 ms for operations of 10 us, and a start
 * 28 ms late was "valid". Under the cap such starts are discarded and
 * counted, and the result says how many were. */
#define FIT_CAP_FRACTION 0.5

/* The first lead of a deadline over rank 0's clock read: 3 MPI_Bcast
 * latencies, as Round-Time's default start (Hunold & Carpen-Amarie 2018,
 * Alg. 5), so the ranks spin through it as they do before a harmonize
 * deadline or a Round-Time start. Doubled after a chunk where a quarter of
 * the deadlines came late to some rank (the broadcast waited for a slice:
 * MPICH's busy polling at 4 ranks on 2 cores needs ms), at most
 * FIT_LEAD_MAX_S. */
#define FIT_LEAD_LATENCIES 3.0
#define FIT_LEAD_MAX_S     0.1

/* One chunk of deadlines: late_s[i] the lateness of this rank's start
 * timestamp, in_time[i] 0 when the deadline had passed before it waited. */
static int wait_chunk(MPI_Comm comm, int rank, hm_clock_t *global, double lead_s, double spin_s,
                      double *late_s, int *in_time, int n)
{
    for (int i = 0; i < n; i++) {
        double target = rank == 0 ? hm_clock_now(global) + lead_s : 0.0;
        if (MPI_Bcast(&target, 1, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Bcast");
        in_time[i] = hm_clock_now(global) < target;
        hm_procsync_wait_until(global, target, spin_s, 1);
        late_s[i] = hm_clock_now(global) - target;
    }
    return HM_OK;
}

/* Every rank: FIT_WAITS deadlines from the lead *lead_s on, the lead doubled
 * after a chunk where a quarter came late to some rank; *lead_s the last. */
static int measure(MPI_Comm comm, int rank, hm_clock_t *global, double *late_s, int *in_time,
                   double *lead_s)
{
    double spin_s = hm__procsync_spin_setup();
    for (int done = 0; done < FIT_WAITS; done += FIT_CHUNK) {
        int n = FIT_WAITS - done < FIT_CHUNK ? FIT_WAITS - done : FIT_CHUNK, late = 0, most;
        int rc = wait_chunk(comm, rank, global, *lead_s, spin_s, late_s + done, in_time + done, n);
        if (rc != HM_OK) return rc;
        for (int i = 0; i < n; i++) late += !in_time[done + i];
        if (MPI_Allreduce(&late, &most, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Allreduce");
        if (4 * most >= n) *lead_s = fmin(2.0 * *lead_s, FIT_LEAD_MAX_S);
    }
    return HM_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Root: the quantile (nearest rank) of the slowest rank's lateness over the
 * deadlines every rank reached in time (all of them if none was). */
static double quantile(double *late_s, const int *in_time, int n, long *used)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (in_time[i]) late_s[m++] = late_s[i];
    if (m == 0) m = n;
    qsort(late_s, (size_t)m, sizeof *late_s, cmp_double);
    int k = (int)ceil(FIT_QUANTILE * m) - 1;
    *used = m;
    return late_s[k < 0 ? 0 : k];
}

/* Collective, after measure: the slowest rank's lateness per deadline and
 * whether every rank reached it in time, reduced to the root, which gives
 * every rank its quantile and how many deadlines it used. */
static int reduce_quantile(MPI_Comm comm, int rank, const double *late_s, int *in_time,
                           double *slowest_s, double *lateness_s, long *waits)
{
    double msg[2] = {0.0, 0.0};
    if (MPI_Reduce(late_s, slowest_s, FIT_WAITS, MPI_DOUBLE, MPI_MAX, 0, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Reduce");
    if (MPI_Allreduce(MPI_IN_PLACE, in_time, FIT_WAITS, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    if (rank == 0) {
        long used;
        msg[0] = quantile(slowest_s, in_time, FIT_WAITS, &used);
        msg[1] = (double)used;
    }
    if (MPI_Bcast(msg, 2, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    *lateness_s = msg[0];
    *waits = (long)msg[1];
    return HM_OK;
}

/* Collective: the buffers (agreed), the first lead, the waits, the
 * quantile, the last lead. */
static int measure_lateness(MPI_Comm comm, hm_clock_t *global, hm_procsync_fit_t *fit)
{
    int rank, all = 0;
    MPI_Comm_rank(comm, &rank);
    double *late = malloc(FIT_WAITS * sizeof *late), *slowest = malloc(FIT_WAITS * sizeof *late);
    int *in_time = malloc(FIT_WAITS * sizeof *in_time), ok = late && slowest && in_time;
    int rc = hm__mpi_status(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm), __func__,
                            "MPI_Allreduce");
    if (rc == HM_OK && !all)
        rc = hm__error_set(HM_ENOMEM, "%s: out of memory on %s", __func__,
                           ok ? "another rank" : "this rank");
    double latency_s = 0.0;
    if (rc == HM_OK) rc = hm_procsync_bcast_latency(comm, HM_PROCSYNC_LATENCY_REPS, &latency_s);
    fit->first_lead_s = fit->lead_s = FIT_LEAD_LATENCIES * latency_s;
    if (rc == HM_OK) rc = measure(comm, rank, global, late, in_time, &fit->lead_s);
    if (rc == HM_OK)
        rc = reduce_quantile(comm, rank, late, in_time, slowest, &fit->lateness_s, &fit->waits);
    free(late), free(slowest), free(in_time);
    return rc;
}

int hm_procsync_fit(MPI_Comm comm, hm_clock_t *global, int late_given,
                    const hm_interference_t *interference, hm_procsync_params_t *params,
                    hm_procsync_fit_t *fit)
{
    if (!global) return hm__error_null(__func__, "global");
    if (!params) return hm__error_null(__func__, "params");
    if (!fit) return hm__error_null(__func__, "fit");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    *fit = (hm_procsync_fit_t){.late_given = late_given != 0, .late_s = params->late_s};
    fit->oversubscribed = hm__procsync_node_load(comm, &fit->ranks, &fit->processors);
    fit->busy = interference && interference->busy;
    if (!(fit->oversubscribed || fit->busy) || late_given) return HM_OK;
    int rc = measure_lateness(comm, global, fit);
    if (rc == HM_ENOMEM)
        return hm__error_set(rc, "measuring the late-start tolerance: no memory for %d waits",
                             FIT_WAITS);
    if (rc != HM_OK)
        return hm__error_set(rc, "measuring the late-start tolerance: %s", hm_last_error());
    fit->quantile = FIT_QUANTILE;
    fit->factor = FIT_FACTOR;
    fit->derived = 1;
    fit->late_s = params->late_s = fmax(params->late_s, FIT_FACTOR * fit->lateness_s);
    /* The lead that brought the deadlines to every rank in time. Round-Time's
     * own, 3 x its measured MPI_Bcast latency, is not enough on its own: with
     * ranks taking turns, the median of that latency came out anywhere from
     * 0.3 to 9 us at 4 ranks on 2 cores, and a 1-2 us lead left 0 of 1100
     * rounds in time. */
    params->min_lead_s = fit->lead_s;
    /* The calibration's ranks leave their waits into nothing; a benchmark's
     * into its operation, and a rank behind another on its core starts only
     * when that one blocks or yields inside it: up to about the operation's
     * run-time later, the same operation on both. At 4 ranks on 2 cores and
     * a tolerance of 20 us, the window method kept 9 of 10100 repetitions
     * of alltoall of 4 KiB (~100 us). No factor on a quantile measured
     * without the operation covers that, so the repetition's own run-time
     * is allowed on top. */
    fit->late_run_factor = params->late_run_factor = 1.0;
    /* ... but never by more than half the run-time: see FIT_CAP_FRACTION. */
    fit->late_cap_fraction = params->late_cap_fraction = FIT_CAP_FRACTION;
    return HM_OK;
}
