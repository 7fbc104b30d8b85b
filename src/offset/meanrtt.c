/* src/offset/meanrtt.c — Mean-RTT-Offset of Jones and Koenig, Hunold & Carpen-Amarie 2018
 * Alg. 8, with the RTT estimate of Hunold & Carpen-Amarie 2016, Alg. 17. */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/error_set.h"
#include "offset/offset_impl.h"

static int ref_pongs(hm_offset_pair_t *p, hm_clock_t *clock, int n, int synchronous)
{
    double dummy, t_local;
    for (int i = 0; i < n; i++) {
        if (MPI_Recv(&dummy, 1, MPI_DOUBLE, p->client, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Recv");
        t_local = hm_clock_now(clock);
        int rc = synchronous ? MPI_Ssend(&t_local, 1, MPI_DOUBLE, p->client, HM_OFFSET_TAG, p->comm)
                             : MPI_Send(&t_local, 1, MPI_DOUBLE, p->client, HM_OFFSET_TAG, p->comm);
        if (rc != MPI_SUCCESS)
            return hm__mpi_status(rc, __func__, synchronous ? "MPI_Ssend" : "MPI_Send");
    }
    return HM_OK;
}

/* Mean of the sorted values inside Tukey's fences (1.5 IQR beyond the
 * quartiles): Remove_Outliers + Mean of Alg. 17 lines 16-17. The kept values
 * are a contiguous run of the sorted array. */
static double tukey_mean(double *v, size_t n)
{
    gsl_sort(v, 1, n);
    double q1 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.25);
    double q3 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.75);
    double lo = q1 - 1.5 * (q3 - q1), hi = q3 + 1.5 * (q3 - q1);
    size_t first = 0, end = n;
    while (first < n && v[first] < lo) first++;
    while (end > first && v[end - 1] > hi) end--;
    return gsl_stats_mean(v + first, 1, end - first); /* never empty: q1..q3 lie inside */
}

/* Compute_Rtt, Hunold & Carpen-Amarie 2016, Alg. 17 lines 9-17 (the warm-up of line 3 is the
 * pair's, pair.c). */
static int client_rtt(hm_offset_pair_t *p, hm_clock_t *clock)
{
    double rtt[HM_OFFSET_RTT_PINGPONGS], dummy = 0;
    for (int i = 0; i < HM_OFFSET_RTT_PINGPONGS; i++) {
        double s_time = hm_clock_now(clock);
        if (MPI_Send(&s_time, 1, MPI_DOUBLE, p->ref, HM_OFFSET_TAG, p->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
        if (MPI_Recv(&dummy, 1, MPI_DOUBLE, p->ref, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Recv");
        rtt[i] = hm_clock_now(clock) - s_time;
    }
    p->rtt_s = tukey_mean(rtt, HM_OFFSET_RTT_PINGPONGS);
    return HM_OK;
}

/* Alg. 8 lines 12-18: one-way samples local - reference - rtt/2 (already
 * client - reference, offset.h's sign), MPI_Ssend as in the paper so that a
 * ping cannot be buffered ahead of the previous pong. The sample returned is
 * the median one with its own timestamp; for an even count, the lower of the
 * two middle samples, so that offset and timestamp come from one exchange
 * (line 17 asks for a sample equal to the median). */
static int client_samples(hm_offset_pair_t *p, hm_clock_t *clock, hm_offset_sample_t *out)
{
    size_t n = (size_t)p->exchanges;
    double *local = p->scratch, *offset = p->scratch + n, ref_time, dummy = 0;
    for (size_t i = 0; i < n; i++) {
        if (MPI_Ssend(&dummy, 1, MPI_DOUBLE, p->ref, HM_OFFSET_TAG, p->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Ssend");
        if (MPI_Recv(&ref_time, 1, MPI_DOUBLE, p->ref, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Recv");
        local[i] = hm_clock_now(clock);
        offset[i] = local[i] - ref_time - 0.5 * p->rtt_s;
    }
    gsl_sort_index(p->order, offset, 1, n);
    size_t med = p->order[(n - 1) / 2];
    *out = (hm_offset_sample_t){local[med], offset[med], p->rtt_s};
    return HM_OK;
}

int hm__offset_meanrtt(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out)
{
    int is_ref = pair->me == pair->ref, rc = HM_OK;
    if (!pair->have_rtt) { /* Alg. 8 lines 3-5: once per pair */
        rc = is_ref ? ref_pongs(pair, clock, HM_OFFSET_RTT_PINGPONGS, 0) : client_rtt(pair, clock);
        if (rc != HM_OK) return rc;
        pair->pingpongs += HM_OFFSET_RTT_PINGPONGS;
        pair->have_rtt = 1;
    }
    pair->pingpongs += pair->exchanges;
    return is_ref ? ref_pongs(pair, clock, pair->exchanges, 1) : client_samples(pair, clock, out);
}
