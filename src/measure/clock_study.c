/* src/measure/clock_study.c — hm_clock_study: one synchronization, then
 * its global clock checked after each wait (Hunold & Carpen-Amarie 2018,
 * Alg. 6) on a seeded sample of the ranks; a refining synchronization
 * refined on its schedule while the checks wait. */
#include <math.h>
#include <stdlib.h>

#include <harmonia/agree.h>
#include <harmonia/clock_study.h>
#include <harmonia/procsync.h>
#include <harmonia/rng.h>

#include "common/comm_check.h"
#include "common/error_set.h"

/* Ranks 1..p-1 whose offsets are measured: the first ceil(sample x (p-1))
 * of them shuffled with the seed (at least one), the same on every rank. */
static int *sample_ranks(const hm_clock_study_params_t *p, int size, int *n)
{
    int *r = malloc((size_t)(size > 1 ? size - 1 : 1) * sizeof *r);
    hm_rng_t rng;
    if (!r) return NULL;
    for (int i = 1; i < size; i++) r[i - 1] = i;
    hm_rng_seed(&rng, p->seed, 0x73616d70);
    for (int i = size - 2; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(hm_rng_next(&rng) % (uint64_t)(i + 1)), t = r[i];
        r[i] = r[j], r[j] = t;
    }
    *n = (int)ceil(p->sample * (size - 1));
    if (*n < 1 && size > 1) *n = 1;
    return r;
}

/* Sleep until target_s on the global clock, then spin the last 200 us:
 * every rank wakes at the same global time without burning a core. A long
 * wait sleeps a second at a time, so that the progress moves. */
static void wait_for_check(hm_clock_t *global, double from_s, double target_s,
                           const hm_progress_t *progress)
{
    double now;
    while ((now = hm_clock_now(global)) < target_s - 1.0) {
        hm_procsync_wait_until(global, now + 1.0, 200e-6, 0);
        if (progress->fn)
            progress->fn(progress->arg, hm_clock_now(global) - from_s, target_s - from_s);
    }
    hm_procsync_wait_until(global, target_s, 200e-6, 0);
}

/* Collective: wait for target_s, refining the clock at every refinement due
 * before it (rf NULL: none). Every rank computes the same due times
 * (hm_sync_refiner_next_s), so the ranks meet there without a message. */
static int wait_refining(hm_sync_refiner_t *rf, hm_clock_t **global, double from_s, double target_s,
                         const hm_progress_t *progress)
{
    while (rf && hm_sync_refiner_next_s(rf) <= target_s) {
        wait_for_check(*global, from_s, hm_sync_refiner_next_s(rf), progress);
        hm_clock_t *fresh = NULL;
        int rc = hm_sync_refiner_refine(rf, &fresh);
        if (rc != HM_OK) return rc;
        hm_clock_free(*global);
        *global = fresh;
    }
    wait_for_check(*global, from_s, target_s, progress);
    return HM_OK;
}

/* Collective: the checks after each wait, each handed to row on rank 0. */
static int check_all(MPI_Comm comm, hm_clock_t **global, hm_sync_refiner_t *rf,
                     const hm_clock_study_params_t *p, const hm_sync_report_t *sr,
                     double *offsets_s, double *true_errors_s, hm_clock_study_fn row, void *ctx,
                     hm_clock_study_failed_t *failed)
{
    *failed = HM_CLOCK_STUDY_FAILED_CHECK;
    int rank, size, nsampled = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double synced_at = hm_clock_now(*global);
    MPI_Bcast(&synced_at, 1, MPI_DOUBLE, 0, comm);
    int *sampled = sample_ranks(p, size, &nsampled);
    int rc = hm_agree(comm, sampled ? HM_OK : hm__error_set(HM_ENOMEM, "no memory for the sample"));
    for (int w = 0; rc == HM_OK && w < p->ncheck_after; w++) {
        hm_sync_check_t check;
        double after_s = p->check_after_s[w];
        if (rank == 0 && p->waiting) p->waiting(p->waiting_arg, w, after_s);
        rc = wait_refining(rf, global, synced_at, synced_at + after_s, &p->wait_progress);
        if (rc == HM_OK)
            rc = hm_sync_check(comm, *global, p->exchanges, sampled, nsampled, &check, offsets_s,
                               true_errors_s);
        rc = hm_agree(comm, rc);
        if (rc != HM_OK) {
            hm__error_set(rc, "clock check failed: %s", hm_last_error());
            break;
        }
        hm_sync_refiner_stats_t rs = {0};
        if (rf) hm_sync_refiner_stats(rf, &rs);
        hm_clock_study_check_t c = {w, after_s, sr, &check, rs.refinements, rs.refine_cost_s};
        if (rank == 0 && row) rc = row(ctx, &c);
        if (MPI_Bcast(&rc, 1, MPI_INT, 0, comm) != MPI_SUCCESS)
            rc = hm__error_mpi(__func__, "MPI_Bcast");
        else if (rc != HM_OK && rank != 0)
            hm__error_set(rc, "the row of the check after %g s failed on rank 0", after_s);
        if (rc != HM_OK) *failed = HM_CLOCK_STUDY_FAILED_ROW;
    }
    if (rc == HM_OK) *failed = HM_CLOCK_STUDY_FAILED_NONE;
    free(sampled);
    return rc;
}

int hm_clock_study(MPI_Comm comm, hm_clock_t *base, const hm_clock_study_params_t *p,
                   double *offsets_s, double *true_errors_s, hm_clock_study_fn row, void *ctx,
                   hm_clock_study_failed_t *failed)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm_clock_study_failed_t unused;
    if (!failed) failed = &unused;
    *failed = HM_CLOCK_STUDY_FAILED_PARAMS;
    if (!base) return hm__error_null(__func__, "base");
    if (!p) return hm__error_null(__func__, "p");
    if (!p->spec || p->ncheck_after < 1 || !p->check_after_s ||
        !(p->sample > 0 && p->sample <= 1) || p->exchanges < 1)
        return hm_agree(comm, hm__error_set(HM_EINVAL, "a clock study needs a spec, a base "
                                                       "clock, checks, exchanges and a sample "
                                                       "in (0, 1]"));
    hm_sync_report_t sr;
    hm_clock_t *global = NULL;
    hm_sync_refiner_t *rf = NULL;
    *failed = HM_CLOCK_STUDY_FAILED_SYNC;
    int rc = hm_sync_run_refining(comm, p->spec, &p->sync, base, &global, &sr, &rf);
    if (rc != HM_OK) return rc; /* agreed, with its sentence */
    rc = check_all(comm, &global, rf, p, &sr, offsets_s, true_errors_s, row, ctx, failed);
    hm_clock_free(global);
    hm_sync_refiner_free(rf);
    return rc;
}
