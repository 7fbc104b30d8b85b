/* src/offset/skampi.c — SKaMPI-Offset, Hunold & Carpen-Amarie 2018, Alg. 7 (after SKaMPI,
 * paper [8] Alg. 1): the client keeps the tightest bounds on the clock
 * difference over N ping-pongs and returns their midpoint. */
#include <float.h>
#include <math.h>

#include "common/error_set.h"
#include "offset/offset_impl.h"

/* Alg. 7 lines 6-9: answer each ping with the reference clock's reading. */
static int reference(hm_offset_pair_t *p, hm_clock_t *clock)
{
    double dummy, t_last;
    for (int i = 0; i < p->exchanges; i++) {
        if (MPI_Recv(&dummy, 1, MPI_DOUBLE, p->client, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Recv");
        t_last = hm_clock_now(clock);
        if (MPI_Send(&t_last, 1, MPI_DOUBLE, p->client, HM_OFFSET_TAG, p->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
    }
    return HM_OK;
}

/* Alg. 7 lines 11-19. td = reference - client is bounded below by
 * t_last - s_now (the reference read its clock before the client's s_now)
 * and above by t_last - s_last (... after the client's s_last). The paper
 * returns the midpoint diff = reference - client; offset.h's convention is
 * client - reference, so the sample holds -diff. */
static int client(hm_offset_pair_t *p, hm_clock_t *clock, hm_offset_sample_t *out)
{
    double td_min = -INFINITY, td_max = INFINITY, rtt_min = DBL_MAX;
    for (int i = 0; i < p->exchanges; i++) {
        double t_last, s_last = hm_clock_now(clock);
        if (MPI_Send(&s_last, 1, MPI_DOUBLE, p->ref, HM_OFFSET_TAG, p->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
        if (MPI_Recv(&t_last, 1, MPI_DOUBLE, p->ref, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Recv");
        double s_now = hm_clock_now(clock);
        td_min = fmax(td_min, t_last - s_now);
        td_max = fmin(td_max, t_last - s_last);
        rtt_min = fmin(rtt_min, s_now - s_last);
    }
    double diff = 0.5 * (td_min + td_max);
    out->timestamp_s = hm_clock_now(clock); /* line 19: the client's clock at the end */
    out->offset_s = -diff;
    out->rtt_s = rtt_min;
    return HM_OK;
}

int hm__offset_skampi(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out)
{
    pair->pingpongs += pair->exchanges;
    return pair->me == pair->ref ? reference(pair, clock) : client(pair, clock, out);
}
