/* examples/overlap_calibrate.c — the reference computation of the overlap
 * methodology [Denis et al. 2022, §4.3, §5.1]: one thread per core, each
 * running a sequential dgemm, with the matrix order calibrated so that the
 * slowest thread takes a target time. The times that matter are the ones
 * measured at the order found, not the targets: the paper takes t_comp_ref
 * as "the actual measured computation time, not the target time".
 *
 * For each target on the command line (seconds; default 0.01) it prints
 * the order found, the probes it took, the slowest thread's time and its
 * error against the target, the calibration's own wall time, and each
 * thread's median GFLOP/s. One handle serves every target: each calibration
 * starts from the order the previous one found.
 *
 * The compute kernel is local: no MPI here. In an MPI program each rank
 * calls the same functions (one rank per node, given the node's cores:
 * mpirun --bind-to none, or --map-by ppr:1:node:pe=N).
 *
 * Usage: example_overlap_calibrate [TARGET_S...]
 * Exit status 0 when every calibration converged within 10 %; 1 when one
 * did not (the reason is printed) or a library call failed. */
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/overlap.h>

static int calibrate(hm_compute_t *c, double target_s, double *per_thread)
{
    hm_compute_calib_params_t p;
    hm_compute_calibration_t r;
    hm_compute_calib_params_default(&p);
    p.target_s = target_s;
    int rc = hm_compute_calibrate(c, &p, &r, per_thread);
    if (rc != HM_OK && r.probes == 0) {
        fprintf(stderr, "example_overlap_calibrate: %s\n", hm_last_error());
        return 1;
    }
    printf("%9.4g %6d %6d %9.4g %+7.1f %8.2f ", target_s, r.n, r.probes, r.time_s, 100 * r.error,
           r.duration_s);
    for (int t = 0; t < hm_compute_threads(c); t++)
        printf(" %6.1f", hm_compute_flop(r.n) / per_thread[t] * 1e-9);
    printf("\n");
    if (rc != HM_OK)
        printf("  not converged (%s): %s\n", hm_overlap_outcome_name(r.outcome), hm_last_error());
    return rc != HM_OK;
}

int main(int argc, char **argv)
{
    hm_compute_t *c;
    if (hm_compute_create(NULL, &c) != HM_OK) {
        fprintf(stderr, "example_overlap_calibrate: %s\n", hm_last_error());
        return 1;
    }
    double *per_thread = calloc((size_t)hm_compute_threads(c), sizeof *per_thread);
    char what[512];
    hm_compute_describe(c, what, sizeof what);
    printf("# %s\n", what);
    printf("# target_s      n probes    time_s error_%%  calib_s  GFLOP/s of each thread\n");
    int failed = per_thread == NULL;
    for (int i = 1; per_thread && i < argc; i++) {
        char *end;
        double target_s = strtod(argv[i], &end);
        if (*end || end == argv[i]) {
            fprintf(stderr, "example_overlap_calibrate: \"%s\" is not a time in seconds\n",
                    argv[i]);
            failed = 1;
            break;
        }
        failed |= calibrate(c, target_s, per_thread);
    }
    if (per_thread && argc < 2) failed = calibrate(c, 0.01, per_thread);
    free(per_thread);
    hm_compute_free(c);
    return failed;
}
