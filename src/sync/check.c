/* src/sync/check.c — Check-Global-Clock (Hunold & Carpen-Amarie 2018, Alg. 6): how far each
 * rank's global clock is from rank 0's, measured with ping-pongs, and, on the
 * test bed, the true error of every rank's global clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/comm_check.h"
#include "common/idle.h"
#include "sync/sync_impl.h"

enum { TAG_TURN = 0x4843, TAG_RESULT = 0x4844 };

/* Rank 0 serves the sampled ranks one at a time; a rank waits for its turn
 * asleep, so an oversubscribed check measures the pair, not the scheduler. */
static int measure_one(MPI_Comm comm, hm_clock_t *global, int exchanges, int r, double *offset)
{
    int rank;
    hm_offset_pair_t *pair = NULL;
    hm_offset_sample_t s = {0};
    MPI_Comm_rank(comm, &rank);
    int rc = hm_offset_pair_create(comm, 0, r, HM_OFFSET_SKAMPI, exchanges, &pair);
    if (rc != HM_OK) return rc;
    if (rank == 0)
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_TURN, comm);
    else
        hm__idle_wait_token(comm, 0, TAG_TURN);
    rc = hm_offset_measure(pair, global, &s);
    hm_offset_pair_free(pair);
    if (rank == r)
        MPI_Send(&s.offset_s, 1, MPI_DOUBLE, 0, TAG_RESULT, comm);
    else
        MPI_Recv(offset, 1, MPI_DOUBLE, r, TAG_RESULT, comm, MPI_STATUS_IGNORE);
    return rc;
}

static int is_sampled(const int *sampled, int nsampled, int r)
{
    if (nsampled < 0) return r != 0;
    for (int i = 0; i < nsampled; i++)
        if (sampled[i] == r) return 1;
    return 0;
}

/* max and median of |v| over the finite entries; 0 when there are none. */
static void abs_summary(const double *v, int n, double *max, double *median)
{
    double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    int k = 0;
    for (int i = 0; a && i < n; i++)
        if (isfinite(v[i])) a[k++] = fabs(v[i]);
    *max = *median = 0;
    if (a && k > 0) {
        gsl_sort(a, 1, (size_t)k);
        *max = a[k - 1];
        *median = gsl_stats_median_from_sorted_data(a, 1, (size_t)k);
    }
    free(a);
}

/* The reference's time at true time T: rank 0 reads the same real clock
 * (equal domains), or a synthetic clock whose draw it shares. */
static int reference_model(MPI_Comm comm, hm_clock_t *global, double ref[3])
{
    hm_timer_t *t = hm_clock_timer(global);
    uint64_t dom = hm_timer_domain(t), lo, hi;
    int rank, synthetic = hm_timer_synthetic_draw(t, &ref[1], &ref[2]) == HM_OK;
    MPI_Comm_rank(comm, &rank);
    ref[0] = synthetic;
    MPI_Bcast(ref, 3, MPI_DOUBLE, 0, comm);
    /* A real source is ground truth only when every rank reads the same one. */
    MPI_Allreduce(&dom, &lo, 1, MPI_UINT64_T, MPI_MIN, comm);
    MPI_Allreduce(&dom, &hi, 1, MPI_UINT64_T, MPI_MAX, comm);
    int mine = ref[0] ? synthetic : (!synthetic && lo == hi), all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    return all;
}

static double true_error(hm_clock_t *global, const double ref[3])
{
    double truth, g = hm_clock_now_truth(global, &truth);
    double reference = ref[0] ? truth * (1.0 + ref[2]) + ref[1] : truth;
    return g - reference;
}

int hm_sync_check(MPI_Comm comm, hm_clock_t *global, int exchanges, const int *sampled,
                  int nsampled, hm_sync_check_t *check, double *offsets_s, double *true_errors_s)
{
    if (!global) return hm__error_null(__func__, "global");
    if (!check) return hm__error_null(__func__, "check");
    if (!sampled && nsampled > 0) return hm__error_null(__func__, "sampled");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    int rank, size, rc = HM_OK;
    double ref[3];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double *offs = rank == 0 ? malloc((size_t)size * sizeof *offs) : NULL;
    double *errs = rank == 0 ? malloc((size_t)size * sizeof *errs) : NULL;
    int ok = rank != 0 || (offs && errs), all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm);
    if (!all_ok) rc = hm__error_set(HM_ENOMEM, "%s: rank 0 is out of memory", __func__);
    int truth = rc == HM_OK ? reference_model(comm, global, ref) : 0;
    for (int r = 0; offs && r < size; r++) offs[r] = NAN;
    for (int r = 1; rc == HM_OK && r < size; r++)
        if (is_sampled(sampled, nsampled, r) && (rank == 0 || rank == r))
            rc = measure_one(comm, global, exchanges, r, rank == 0 ? &offs[r] : NULL);
    /* The true errors need no message: read them at once, everywhere. */
    double err = rc == HM_OK && truth ? true_error(global, ref) : NAN;
    MPI_Gather(&err, 1, MPI_DOUBLE, errs, 1, MPI_DOUBLE, 0, comm);
    if (rank == 0 && rc == HM_OK) {
        memset(check, 0, sizeof *check);
        for (int r = 1; r < size; r++) check->nsampled += isfinite(offs[r]);
        abs_summary(offs + 1, size - 1, &check->offset_max_s, &check->offset_median_s);
        check->truth_known = truth;
        if (truth) abs_summary(errs + 1, size - 1, &check->true_max_s, &check->true_median_s);
        if (offsets_s) memcpy(offsets_s, offs, (size_t)size * sizeof *offs);
        if (true_errors_s) memcpy(true_errors_s, errs, (size_t)size * sizeof *errs);
    }
    free(offs);
    free(errs);
    int mine = rc;
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, comm);
    if (rc != mine) /* another rank's failure: its sentence stays there */
        hm__error_set(rc, "%s: %s on another rank", __func__, hm_strerror(rc));
    return rc;
}
