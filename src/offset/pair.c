/* src/offset/pair.c — a (reference, client) pair: creation, warm-up, and
 * the measurement entry point that dispatches to the algorithm. */
#include <stdlib.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "offset/offset_impl.h"

int hm_offset_pair_create(MPI_Comm comm, int ref, int client, hm_offset_kind_t kind, int exchanges,
                          hm_offset_pair_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    int size, me;
    if (exchanges < 1)
        return hm__error_set(HM_EINVAL, "%s: exchanges %d is below 1", __func__, exchanges);
    if (ref == client)
        return hm__error_set(HM_EINVAL, "%s: ref and client are both rank %d", __func__, ref);
    if (!hm__offset_function(kind))
        return hm__error_set(HM_EINVAL, "%s: unknown offset kind %d", __func__, (int)kind);
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &me) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "%s: cannot query the communicator", __func__);
    if (ref < 0 || ref >= size || client < 0 || client >= size)
        return hm__error_set(HM_EINVAL, "%s: ranks %d and %d are not both in [0, %d)", __func__,
                             ref, client, size);

    hm_offset_pair_t *p = calloc(1, sizeof *p);
    if (!p) return hm__error_set(HM_ENOMEM, "cannot allocate an offset pair");
    *p = (hm_offset_pair_t){
        .comm = comm, .ref = ref, .client = client, .me = me, .kind = kind, .exchanges = exchanges};
    /* Scratch space now, so that a measurement never allocates. */
    if (kind == HM_OFFSET_MEANRTT) {
        p->scratch = malloc(2 * (size_t)exchanges * sizeof *p->scratch);
        p->order = malloc((size_t)exchanges * sizeof *p->order);
        if (!p->scratch || !p->order) {
            hm_offset_pair_free(p);
            return hm__error_set(HM_ENOMEM, "cannot allocate %d exchanges of scratch", exchanges);
        }
    }
    *out = p;
    return HM_OK;
}

void hm_offset_pair_free(hm_offset_pair_t *pair)
{
    if (!pair) return;
    free(pair->scratch);
    free(pair->order);
    free(pair);
}

long hm_offset_pair_pingpongs(const hm_offset_pair_t *pair)
{
    if (!pair) {
        hm__error_null(__func__, "pair");
        return 0;
    }
    return pair->pingpongs;
}

int hm_offset_pair_peer(const hm_offset_pair_t *pair, MPI_Comm *comm, int *peer)
{
    if (!pair) return hm__error_null(__func__, "pair");
    if (!comm) return hm__error_null(__func__, "comm");
    if (!peer) return hm__error_null(__func__, "peer");
    *comm = pair->comm;
    *peer = pair->me == pair->ref ? pair->client : pair->ref;
    return HM_OK;
}

/* One untimed ping-pong, with the send mode the measurement will use. */
static int untimed_pingpong(hm_offset_pair_t *p, int synchronous)
{
    double dummy = 0;
    int client = p->me == p->client, peer = client ? p->ref : p->client, rc = MPI_SUCCESS;
    const char *send = synchronous ? "MPI_Ssend" : "MPI_Send", *call = "MPI_Recv";
    if (!client)
        rc = MPI_Recv(&dummy, 1, MPI_DOUBLE, peer, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) {
        call = send;
        rc = synchronous ? MPI_Ssend(&dummy, 1, MPI_DOUBLE, peer, HM_OFFSET_TAG, p->comm)
                         : MPI_Send(&dummy, 1, MPI_DOUBLE, peer, HM_OFFSET_TAG, p->comm);
    }
    if (client && rc == MPI_SUCCESS) {
        call = "MPI_Recv";
        rc = MPI_Recv(&dummy, 1, MPI_DOUBLE, peer, HM_OFFSET_TAG, p->comm, MPI_STATUS_IGNORE);
    }
    return hm__mpi_status(rc, __func__, call);
}

/* Mean-RTT also warms MPI_Ssend up, which its one-way samples use. */
static int warm_up(hm_offset_pair_t *p)
{
    int rc = HM_OK, modes = p->kind == HM_OFFSET_MEANRTT ? 2 : 1;
    for (int mode = 0; mode < modes; mode++)
        for (int i = 0; i < HM_OFFSET_WARMUP && rc == HM_OK; i++) rc = untimed_pingpong(p, mode);
    if (rc != HM_OK) return rc;
    p->pingpongs += (long)modes * HM_OFFSET_WARMUP;
    p->warmed = 1;
    return HM_OK;
}

int hm_offset_measure(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out)
{
    if (!pair) return hm__error_null(__func__, "pair");
    if (!clock) return hm__error_null(__func__, "clock");
    if (pair->me != pair->ref && pair->me != pair->client)
        return hm__error_set(HM_EINVAL, "%s: rank %d is neither the reference %d nor the client %d",
                             __func__, pair->me, pair->ref, pair->client);
    hm_offset_sample_t unused;
    if (!out) out = &unused; /* a client that discards the sample still answers its peer */
    int rc = pair->warmed ? HM_OK : warm_up(pair);
    if (rc != HM_OK) return rc;
    return hm__offset_function(pair->kind)(pair, clock, out);
}
