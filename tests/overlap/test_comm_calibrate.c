/* tests/overlap/test_comm_calibrate.c — the calibration of the
 * communication [Denis et al. 2022, §4.3, §5.1] at 2 ranks: iallreduce
 * reaches targets over three decades within the paper's 10 % (Open MPI:
 * 20 us to 20 ms; 2 us at 1 KiB, 37 ms at 64 MiB here), and a target that
 * no size can reach is reported as such, never as a size that does not
 * take it. MPICH's iallreduce has steps, true gaps where no size takes the
 * target: 5 to 23 us between 4 and 12 KiB (not monotonic: 22 us at 12 KiB,
 * 17 at 16 KiB) and one at 32 MiB whose edges depend on the host: 17 to
 * 29 ms on one, 13 to 110 ms on a faster one (8.8-13 ms up to 33.3 MB,
 * 110-186 ms from 33.6 MB: a 15 ms target failed both tries in CI); its
 * targets avoid them, 30 us to 8 ms (2.4 decades).
 *
 * Tolerance: the calibration's own, 10 %, on the median of 11 runs of the
 * probe it kept; the assertion re-reads that median (it is what the
 * metrics use), so only the search is under test, and a run of the search
 * on a loaded machine that needs more probes still ends within 10 %.
 * Precision test (retried once): a neighbour's burst during the last probe
 * can push its median out. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <harmonia/experiment.h>
#include <harmonia/overlap.h>

#include "testutil.h"

static hm_experiment_t *open_experiment(void)
{
    hm_experiment_params_t p;
    hm_experiment_t *e = NULL;
    hm_experiment_params_default(&p);
    p.sync.fitpoints = 200;
    /* 1 % of the run-time tolerated as a late start: milliseconds long
     * probes on a shared machine would otherwise lose many repetitions to
     * microsecond wake-ups. */
    p.procsync_params.late_run_factor = 0.01;
    int rc = hm_experiment_open(MPI_COMM_WORLD, &p, &e, NULL);
    HM_CHECK(rc == HM_OK, "experiment open: %s", hm_last_error());
    return e;
}

static void converges(hm_experiment_t *e, double target_s, size_t *start_bytes)
{
    hm_overlap_comm_params_t p;
    hm_overlap_comm_calibration_t c;
    hm_overlap_comm_params_default(&p);
    p.target_s = target_s;
    p.runs = 11;
    int rank, rc = hm_overlap_calibrate_comm(MPI_COMM_WORLD, hm_experiment_procsync(e),
                                             hm_op_find("iallreduce"), NULL, &p, *start_bytes, &c);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("target %8.3f ms: %2d probes:", target_s * 1e3, c.probes);
        for (int i = 0; i < c.probes; i++)
            printf(" %zu B %.3f ms;", c.probe[i].size_bytes, c.probe[i].time_s * 1e3);
        printf(" kept %zu B, error %+.1f %% (%.1f s)\n", c.size_bytes, c.error * 100, c.duration_s);
    }
    HM_CHECK(rc == HM_OK && c.converged && fabs(c.error) <= 0.1,
             "iallreduce to %g ms: %s, %zu B at %.4f ms (error %+.1f %%) in %d probes",
             target_s * 1e3, hm_overlap_outcome_name(c.outcome), c.size_bytes, c.time_s * 1e3,
             c.error * 100, c.probes);
    /* Not necessarily the last: a gap's recheck measures both its ends
     * again, and either may be the one within the band. */
    int measured = 0;
    for (int i = 0; i < c.probes; i++)
        measured |= c.probe[i].time_s == c.time_s && c.probe[i].size_bytes == c.size_bytes;
    HM_CHECK(measured, "the kept time is a measured probe, not the target");
    *start_bytes = c.size_bytes;
}

/* 1 ns is below the latency of any message: BELOW_MIN after the smallest
 * size; 10 s with at most 1 MiB (0.5 ms): ABOVE_MAX. Both HM_ERANGE, the
 * result still filled with the nearest probe and marked unconverged. */
static void unreachable(hm_experiment_t *e)
{
    hm_overlap_comm_params_t p;
    hm_overlap_comm_calibration_t c;
    hm_overlap_comm_params_default(&p);
    p.runs = 5;
    p.target_s = 1e-9;
    int rc = hm_overlap_calibrate_comm(MPI_COMM_WORLD, hm_experiment_procsync(e),
                                       hm_op_find("iallreduce"), NULL, &p, 0, &c);
    HM_CHECK(rc == HM_ERANGE && !c.converged && c.outcome == HM_OVERLAP_BELOW_MIN &&
                 c.probe[c.probes - 1].size_bytes == p.min_bytes,
             "1 ns: status %d, %s after %zu B (%s)", rc, hm_overlap_outcome_name(c.outcome),
             c.probe[c.probes - 1].size_bytes, hm_last_error());
    p.target_s = 10;
    p.max_bytes = (size_t)1 << 20;
    rc = hm_overlap_calibrate_comm(MPI_COMM_WORLD, hm_experiment_procsync(e),
                                   hm_op_find("iallreduce"), NULL, &p, 0, &c);
    HM_CHECK(rc == HM_ERANGE && !c.converged && c.outcome == HM_OVERLAP_ABOVE_MAX &&
                 c.size_bytes == p.max_bytes,
             "10 s within 1 MiB: status %d, %s at %zu B (%s)", rc,
             hm_overlap_outcome_name(c.outcome), c.size_bytes, hm_last_error());
    HM_CHECK(hm_overlap_calibrate_comm(MPI_COMM_WORLD, hm_experiment_procsync(e),
                                       hm_op_find("allreduce"), NULL, &p, 0, &c) == HM_EINVAL,
             "a blocking operation is refused");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hm_experiment_t *e = open_experiment();
    size_t start = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    const double open_mpi_s[] = {20e-6, 200e-6, 2e-3, 20e-3},
                 mpich_s[] = {30e-6, 300e-6, 3e-3, 8e-3};
    const double *targets_s = strstr(version, "MPICH") ? mpich_s : open_mpi_s;
    for (size_t i = 0; i < 4; i++) converges(e, targets_s[i], &start);
    unreachable(e);
    hm_experiment_close(e);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
