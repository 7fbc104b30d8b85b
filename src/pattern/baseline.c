/* src/pattern/baseline.c — the MPI collectives that move a pattern's data
 * over all the ranks (CommBench §5.2.5; the mapping is in docs/pattern.md,
 * "MPI collective baselines"): MPI_Scatter beside asymmetric k = 1 uni,
 * MPI_Alltoall beside symmetric k = g omni (bi at two groups), and
 * MPI_Alltoallv with a file's counts (CommBench's measure_MPI_Alltoallv).
 * Timed through the same engine as the plans, validated the same way: every
 * received byte against hm_pattern_byte(sender, offset in its send
 * buffer). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/memory.h"

struct hm_baseline {
    MPI_Comm comm; /* the caller's: kept, not duplicated */
    hm_baseline_kind_t kind;
    int rank, size, block; /* block: bytes per rank of scatter and alltoall */
    int *sendcounts, *sdispls, *recvcounts, *rdispls;
    size_t *peer_sdispl; /* where each sender's data for this rank starts in its buffer */
    char *send, *recv;
    size_t send_bytes, recv_bytes;
    uint64_t moved_bytes; /* between distinct ranks, over all ranks */
    uint64_t wrong;       /* this rank, every check */
};

static const char *const names[] = {"", "MPI_Scatter", "MPI_Alltoall", "MPI_Alltoallv"};

const char *hm_baseline_name(hm_baseline_kind_t kind)
{
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "";
}

/* docs/pattern.md: asymmetric (n, g, 1) uni is rank 0 sending each rank of
 * the other groups its own block of buffer 0, MPI_Scatter's messages but
 * the ones inside group 0; with g = k = 1 every family is that over all
 * ranks. Symmetric (n, g, g) omni (= asymmetric at k = g) is every rank
 * sending every rank outside its group its block, MPI_Alltoall's messages
 * but the ones inside a group; bi covers only the pairs with group 0, the
 * same pattern at n = 2. */
hm_baseline_kind_t hm_baseline_for_group(const hm_generator_t *gen, const hm_group_params_t *p)
{
    if (!gen || !p) {
        hm__error_null(__func__, gen ? "params" : "gen");
        return HM_BASELINE_NONE;
    }
    const char *name = hm_generator_name(gen);
    if (strcmp(name, "self") == 0) return HM_BASELINE_NONE;
    int single = p->g == 1 && p->k == 1;
    int asym = strcmp(name, "asymmetric") == 0, sym = strcmp(name, "symmetric") == 0;
    if (p->direction == HM_DIRECTION_UNI && p->k == 1 && (asym || single))
        return HM_BASELINE_SCATTER;
    int bi = p->direction == HM_DIRECTION_BI || p->direction == HM_DIRECTION_BI_MIRROR;
    int every = p->direction == HM_DIRECTION_OMNI || (bi && p->n == 2);
    if (every && ((p->k == p->g && (asym || sym)) || single)) return HM_BASELINE_ALLTOALL;
    return HM_BASELINE_NONE;
}

/* MPI 3's counts and displacements are ints; Open MPI 4.1 and MPICH 4.0
 * have no MPI_Alltoallv_c. The sentences name what a user can change: the
 * pair and its bytes, or where a rank's data would start. */
static int pair_too_big(int src, int dst, size_t bytes)
{
    return hm__error_set(HM_EINVAL,
                         "MPI_Alltoallv: %zu bytes from rank %d to rank %d exceed its int count "
                         "(%d)",
                         bytes, src, dst, INT_MAX);
}

/* rank's data for or from peer would start at byte at of rank's buffer. */
static int displ_too_big(int rank, const char *for_from, int peer, size_t at, const char *buffer)
{
    return hm__error_set(HM_EINVAL,
                         "MPI_Alltoallv: rank %d's data %s rank %d would start at byte %zu of its "
                         "%s buffer, beyond its int displacement (%d)",
                         rank, for_from, peer, at, buffer, INT_MAX);
}

/* Per peer r: bytes to r, from r, and r's bytes to the ranks below this
 * one (where r's data for this rank starts in r's send buffer). */
typedef struct vsums {
    size_t *to, *from, *before;
} vsums_t;

/* Every edge (every rank holds them all, so every rank finds the same
 * first bad edge): a rank outside comm, a pair above the int count. */
static int vsum(hm_baseline_t *b, const hm_edges_t *edges, vsums_t *v)
{
    for (size_t i = 0; i < edges->n; i++) {
        const hm_edge_t *e = &edges->edge[i];
        if (e->src < 0 || e->src >= b->size || e->dst < 0 || e->dst >= b->size)
            return hm__error_set(HM_EINVAL,
                                 "MPI_Alltoallv: a message from rank %d to rank %d names a rank "
                                 "outside the %d ranks of the communicator",
                                 e->src, e->dst, b->size);
        if (e->bytes > (size_t)INT_MAX) return pair_too_big(e->src, e->dst, e->bytes);
        b->moved_bytes += e->bytes;
        if (e->src == b->rank) v->to[e->dst] += e->bytes;
        if (e->dst == b->rank) v->from[e->src] += e->bytes;
        if (e->dst < b->rank) v->before[e->src] += e->bytes;
    }
    return HM_OK;
}

/* The counts and displacements of an alltoallv, packed in rank order, and
 * where each sender's data for this rank starts in its buffer. A pair whose
 * edges add up beyond the int count, or a displacement beyond it, is found
 * by the ranks it concerns only: create agrees before allocating. */
static int vcounts(hm_baseline_t *b, const hm_edges_t *edges)
{
    size_t n = (size_t)b->size;
    vsums_t v = {calloc(n, sizeof(size_t)), calloc(n, sizeof(size_t)), calloc(n, sizeof(size_t))};
    int rc;
    if (!v.to || !v.from || !v.before)
        rc = hm__error_set(HM_ENOMEM, "MPI_Alltoallv: no memory for 3 x %zu bytes on rank %d",
                           n * sizeof(size_t), b->rank);
    else
        rc = vsum(b, edges, &v);
    size_t sent = 0, received = 0;
    for (int r = 0; rc == HM_OK && r < b->size; r++) {
        if (v.to[r] > INT_MAX)
            rc = pair_too_big(b->rank, r, v.to[r]);
        else if (v.from[r] > INT_MAX)
            rc = pair_too_big(r, b->rank, v.from[r]);
        else if (v.to[r] && sent > INT_MAX)
            rc = displ_too_big(b->rank, "for", r, sent, "send");
        else if (v.from[r] && received > INT_MAX)
            rc = displ_too_big(b->rank, "from", r, received, "receive");
        else if (v.from[r] && v.before[r] > INT_MAX)
            rc = displ_too_big(r, "for", b->rank, v.before[r], "send");
        if (rc != HM_OK) break;
        b->sendcounts[r] = (int)v.to[r], b->sdispls[r] = v.to[r] ? (int)sent : 0;
        b->recvcounts[r] = (int)v.from[r], b->rdispls[r] = v.from[r] ? (int)received : 0;
        b->peer_sdispl[r] = v.before[r];
        sent += v.to[r], received += v.from[r];
    }
    b->send_bytes = sent, b->recv_bytes = received;
    free(v.to), free(v.from), free(v.before);
    return rc;
}

/* Scatter and alltoall: a block of bytes per rank (the edges' size). */
static int blocks(hm_baseline_t *b, const hm_edges_t *edges)
{
    size_t bytes = edges->n ? edges->edge[0].bytes : 0;
    if (bytes == 0 || bytes > (size_t)INT_MAX)
        return hm__error_set(HM_EINVAL,
                             "%s: a block of %zu bytes is outside its int count (1 to %d)",
                             hm_baseline_name(b->kind), bytes, INT_MAX);
    b->block = (int)bytes;
    int all = b->kind == HM_BASELINE_ALLTOALL;
    b->send_bytes = all || b->rank == 0 ? (size_t)b->size * bytes : 0;
    b->recv_bytes = all ? (size_t)b->size * bytes : bytes;
    b->moved_bytes = (uint64_t)(b->size - 1) * bytes * (all ? (uint64_t)b->size : 1);
    /* size_t: rank x block passes INT_MAX for large blocks at a few ranks. */
    for (int r = 0; r < b->size; r++) b->peer_sdispl[r] = (size_t)b->rank * bytes;
    return HM_OK;
}

/* Local: the counts, before any buffer (a refusal allocates nothing). */
static int counts(hm_baseline_t *b, const hm_edges_t *edges)
{
    size_t n = (size_t)b->size;
    b->sendcounts = calloc(n, sizeof(int)), b->sdispls = calloc(n, sizeof(int));
    b->recvcounts = calloc(n, sizeof(int)), b->rdispls = calloc(n, sizeof(int));
    b->peer_sdispl = calloc(n, sizeof(size_t));
    if (!b->sendcounts || !b->sdispls || !b->recvcounts || !b->rdispls || !b->peer_sdispl)
        return hm__error_set(HM_ENOMEM, "%s: no memory for 5 x %zu bytes of counts on rank %d",
                             hm_baseline_name(b->kind), n * sizeof(size_t), b->rank);
    return b->kind == HM_BASELINE_ALLTOALLV ? vcounts(b, edges) : blocks(b, edges);
}

static int buffers(hm_baseline_t *b)
{
    b->send = hm__page_alloc(b->send_bytes);
    b->recv = hm__page_alloc(b->recv_bytes);
    if (b->recv) memset(b->recv, 0, b->recv_bytes);
    if (!b->send || !b->recv)
        return hm__error_set(HM_ENOMEM, "%s: no memory for %zu + %zu bytes on rank %d",
                             hm_baseline_name(b->kind), b->send_bytes, b->recv_bytes, b->rank);
    return HM_OK;
}

int hm_baseline_create(MPI_Comm comm, hm_baseline_kind_t kind, const hm_edges_t *edges,
                       hm_baseline_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (out) *out = NULL;
    if (!out) return hm_agree(comm, hm__error_null(__func__, "out"));
    if (!edges) return hm_agree(comm, hm__error_null(__func__, "edges"));
    if (kind <= HM_BASELINE_NONE || kind > HM_BASELINE_ALLTOALLV)
        return hm_agree(
            comm, hm__error_set(HM_EINVAL, "%s: kind %d is not a collective", __func__, (int)kind));
    hm_baseline_t *b = calloc(1, sizeof *b);
    int rc = b ? HM_OK
               : hm__error_set(HM_ENOMEM, "%s: no memory for %zu bytes", hm_baseline_name(kind),
                               sizeof *b);
    if (b) {
        b->comm = comm, b->kind = kind;
        MPI_Comm_rank(comm, &b->rank);
        MPI_Comm_size(comm, &b->size);
        rc = counts(b, edges);
    }
    /* Every rank knows its counts are in range before any rank allocates. */
    if ((rc = hm_agree(comm, rc)) == HM_OK) rc = hm_agree(comm, buffers(b));
    if (rc != HM_OK) {
        hm_baseline_free(b);
        return rc;
    }
    *out = b;
    return HM_OK;
}

int hm_baseline_run(hm_baseline_t *b)
{
    int rc;
    if (!b) return hm__error_null(__func__, "b");
    if (b->kind == HM_BASELINE_SCATTER)
        rc = MPI_Scatter(b->send, b->block, MPI_CHAR, b->recv, b->block, MPI_CHAR, 0, b->comm);
    else if (b->kind == HM_BASELINE_ALLTOALL)
        rc = MPI_Alltoall(b->send, b->block, MPI_CHAR, b->recv, b->block, MPI_CHAR, b->comm);
    else
        rc = MPI_Alltoallv(b->send, b->sendcounts, b->sdispls, MPI_CHAR, b->recv, b->recvcounts,
                           b->rdispls, MPI_CHAR, b->comm);
    return rc == MPI_SUCCESS ? HM_OK
                             : hm__error_set(HM_EMPI, "%s failed", hm_baseline_name(b->kind));
}

void hm_baseline_fill(hm_baseline_t *b)
{
    if (!b) {
        hm__error_null(__func__, "b");
        return;
    }
    for (size_t i = 0; i < b->send_bytes; i++) b->send[i] = (char)hm_pattern_byte(b->rank, i);
    memset(b->recv, 0, b->recv_bytes);
}

/* Where sender s's data for this rank lands, and how long it is. */
static void from_sender(const hm_baseline_t *b, int s, size_t *at, size_t *n)
{
    if (b->kind == HM_BASELINE_ALLTOALLV)
        *at = (size_t)b->rdispls[s], *n = (size_t)b->recvcounts[s];
    else if (b->kind == HM_BASELINE_ALLTOALL)
        *at = (size_t)s * (size_t)b->block, *n = (size_t)b->block;
    else
        *at = 0, *n = s == 0 ? (size_t)b->block : 0;
}

uint64_t hm_baseline_check(const hm_baseline_t *b)
{
    uint64_t wrong = 0;
    if (!b) {
        hm__error_null(__func__, "b");
        return 0;
    }
    for (int s = 0; s < b->size; s++) {
        size_t at, n;
        from_sender(b, s, &at, &n);
        for (size_t i = 0; i < n; i++)
            wrong += (uint8_t)b->recv[at + i] != hm_pattern_byte(s, b->peer_sdispl[s] + i);
    }
    return wrong;
}

void *hm_baseline_recv_buffer(hm_baseline_t *b, size_t *len_bytes)
{
    if (len_bytes) *len_bytes = b ? b->recv_bytes : 0;
    if (!b) hm__error_null(__func__, "b");
    return b ? b->recv : NULL;
}

uint64_t hm_baseline_bytes(const hm_baseline_t *b)
{
    if (!b) hm__error_null(__func__, "b");
    return b ? b->moved_bytes : 0;
}

static int run_target(void *ctx)
{
    return hm_baseline_run(ctx);
}

static int validate_target(void *ctx, int *ok)
{
    hm_baseline_t *b = ctx;
    uint64_t wrong = hm_baseline_check(b);
    b->wrong += wrong;
    *ok = wrong == 0;
    hm_baseline_fill(b);
    return HM_OK;
}

int hm_baseline_measure(hm_baseline_t *b, hm_procsync_t *ps, const hm_measure_params_t *params,
                        hm_measure_result_t *result, uint64_t *wrong)
{
    if (!b) return hm__error_null(__func__, "b");
    if (!ps) return hm__error_null(__func__, "ps");
    if (!params) return hm__error_null(__func__, "params");
    if (!result) return hm__error_null(__func__, "result");
    b->wrong = 0;
    hm_baseline_fill(b);
    hm_measure_target_t target = {.run = run_target,
                                  .validate = params->validate ? validate_target : NULL,
                                  .ctx = b,
                                  .participates = 1};
    int rc = hm_measure_run(b->comm, ps, &target, params, result);
    uint64_t total = 0;
    if (MPI_Allreduce(&b->wrong, &total, 1, MPI_UINT64_T, MPI_SUM, b->comm) != MPI_SUCCESS &&
        rc == HM_OK)
        rc = hm__error_set(HM_EMPI, "MPI_Allreduce failed");
    if (wrong) *wrong = total;
    return rc;
}

void hm_baseline_free(hm_baseline_t *b)
{
    if (!b) return;
    free(b->sendcounts), free(b->sdispls), free(b->recvcounts), free(b->rdispls);
    free(b->peer_sdispl), free(b->send), free(b->recv);
    free(b);
}
