/* src/sync/hca_tree.c — the inverted binomial tree of hca and hca2 (Hunold & Carpen-Amarie 2016
 * Alg. 2 lines 18-21 and Alg. 3; Hunold & Carpen-Amarie 2018, Fig. 1a). */
#include "sync/hca_tree.h"

#include <stdio.h>
#include <stdlib.h>

#include <harmonia/topo.h>
#include <harmonia/agree.h>

#include "common/idle.h"

/* Tags on the private communicator: ASCII "hc", "hd", "he"; distinct from those
 * of the offset pairs ("OF") and of hm__sync_learn_pair ("LP"). */
enum { TAG_MEET = 0x6863, TAG_MODELS = 0x6864, TAG_TURN = 0x6865 };

/* Models travel as pairs of doubles (t_pair_double of the paper). */
_Static_assert(sizeof(hm_lm_t) == 2 * sizeof(double), "hm_lm_t is two packed doubles");

typedef struct tree {
    MPI_Comm comm;
    int rank, size, maxpower; /* maxpower = 2^floor(log2 size) (Alg. 2 line 13) */
    hm_clock_t *base;
    const hm_sync_params_t *params;
    hm__sync_stats_t *stats;
    int one_at_a_time; /* the pairs take turns: some node has more ranks than cores */
    /* models[k]: clock of rank + k in the time of this rank, k < span (the
     * l_model array of the paper, kept relative to this rank so that each rank
     * holds only its subtree; on rank 0 it ends as every rank's model). */
    hm_lm_t *models;
} tree_t;

int hm__hca_meet(MPI_Comm comm, int peer)
{
    MPI_Request recv, send;
    if (MPI_Irecv(NULL, 0, MPI_BYTE, peer, TAG_MEET, comm, &recv) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    if (MPI_Isend(NULL, 0, MPI_BYTE, peer, TAG_MEET, comm, &send) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Isend");
    int rc = hm__mpi_status(hm__idle_wait(&recv, MPI_STATUS_IGNORE), __func__, "MPI_Test");
    return hm__hca_first_error(
        rc, hm__mpi_status(hm__idle_wait(&send, MPI_STATUS_IGNORE), __func__, "MPI_Test"));
}

/* A pair of the tree; ref < 0: none. */
typedef struct pair {
    int ref, client;
} pair_t;

static const pair_t no_pair = {-1, -1};

/* The order in which the pairs take turns when they must: the rounds of
 * Sync_Clocks_Pow2 (half = client - ref = 1, 2, ..., maxpower / 2), each from
 * reference 0 up, then the pairs of Sync_Clocks_Remaining (client - ref =
 * maxpower). It respects the tree: a pair comes after the pairs whose models
 * its ranks need. */
static pair_t next_pair(const tree_t *t, pair_t p)
{
    int half = p.client - p.ref, mp = t->maxpower;
    if (half == mp) return p.ref + 1 < t->size - mp ? (pair_t){p.ref + 1, p.ref + 1 + mp} : no_pair;
    if (p.ref + 2 * half < mp) return (pair_t){p.ref + 2 * half, p.ref + 3 * half};
    if (4 * half <= mp) return (pair_t){0, 2 * half};
    return t->size > mp ? (pair_t){0, mp} : no_pair;
}

static pair_t previous_pair(const tree_t *t, pair_t p)
{
    int half = p.client - p.ref, mp = t->maxpower;
    if (half == mp && p.ref > 0) return (pair_t){p.ref - 1, p.ref - 1 + mp};
    if (half == mp) return (pair_t){0, mp / 2}; /* the last round of Pow2 has one pair */
    if (p.ref >= 2 * half) return (pair_t){p.ref - 2 * half, p.ref - half};
    if (half > 1) return (pair_t){mp - half, mp - half / 2}; /* last pair of the round before */
    return no_pair;
}

/* Taking turns: both ranks of a pair wait (asleep) for the reference of the
 * previous pair to say it is done, and the reference of each pair tells the
 * next one. A rank that is itself the previous reference needs no word. */
static int await_turn(const tree_t *t, pair_t p)
{
    MPI_Request req;
    pair_t prev = previous_pair(t, p);
    if (!t->one_at_a_time || prev.ref < 0 || prev.ref == t->rank) return HM_OK;
    if (MPI_Irecv(NULL, 0, MPI_BYTE, prev.ref, TAG_TURN, t->comm, &req) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    return hm__mpi_status(hm__idle_wait(&req, MPI_STATUS_IGNORE), __func__, "MPI_Test");
}

static int pass_turn(const tree_t *t, pair_t p)
{
    pair_t next = next_pair(t, p);
    int rc = HM_OK, members[2] = {next.ref, next.client};
    if (!t->one_at_a_time || t->rank != p.ref) return HM_OK;
    for (int i = 0; i < 2; i++) /* zero bytes: sent eagerly, never blocks */
        if (members[i] >= 0 && members[i] != t->rank)
            rc = hm__hca_first_error(
                rc, hm__mpi_status(MPI_Send(NULL, 0, MPI_BYTE, members[i], TAG_TURN, t->comm),
                                   __func__, "MPI_Send"));
    return rc;
}

/* Learn_Model_HCA (Alg. 4) for the pair (ref, client), after a rendezvous so
 * that neither spins while the other finishes an earlier round, and, when
 * the pairs take turns, after the previous pair. On the client *lm receives
 * the model; an offset model gets slope exactly 0, so that merging treats it
 * as the linear model it is. On failure the protocol goes on with a zero
 * model: the caller agrees on the error at the end. */
static int learn(tree_t *t, int ref, int client, hm_lm_t *lm)
{
    hm__sync_pair_model_t m = {.lm = {0, 0}, .kind = HM_CLOCK_OFFSET};
    pair_t p = {ref, client};
    int rc = await_turn(t, p);
    rc = hm__hca_first_error(rc, hm__hca_meet(t->comm, t->rank == ref ? client : ref));
    if (rc == HM_OK)
        rc = hm__sync_learn_pair(t->comm, ref, client, t->base, t->params, &m, t->stats);
    rc = hm__hca_first_error(rc, pass_turn(t, p));
    if (rc != HM_OK) m.lm = (hm_lm_t){0, 0};
    if (m.kind == HM_CLOCK_OFFSET) m.lm.slope = 0.0;
    if (lm) *lm = m.lm;
    return rc;
}

static int send_models(tree_t *t, int to, const hm_lm_t *models, int count)
{
    return hm__mpi_status(MPI_Send(models, 2 * count, MPI_DOUBLE, to, TAG_MODELS, t->comm),
                          __func__, "MPI_Send");
}

static int recv_models(tree_t *t, int from, hm_lm_t *models, int count)
{
    MPI_Request req;
    if (MPI_Irecv(models, 2 * count, MPI_DOUBLE, from, TAG_MODELS, t->comm, &req) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    return hm__mpi_status(hm__idle_wait(&req, MPI_STATUS_IGNORE), __func__, "MPI_Test");
}

/* Reference side of one round (Alg. 3 lines 11-21): learn with the client,
 * receive the client's half models (its own against us, then those of its
 * subtree against it) and merge the latter so they map to our time. */
static int pow2_reference(tree_t *t, int half)
{
    int client = t->rank + half;
    hm_lm_t *sub = t->models + half;
    int rc = learn(t, t->rank, client, NULL);
    rc = hm__hca_first_error(rc, recv_models(t, client, sub, half));
    for (int i = 1; i < half; i++) sub[i] = hm_lm_merge(sub[0], sub[i]); /* line 21 */
    return rc;
}

/* Client side (lines 23-31): learn against the reference, then send the
 * whole subtree's models up; this rank's part of the tree ends here. */
static int pow2_client(tree_t *t, int half)
{
    int ref = t->rank - half;
    int rc = learn(t, ref, t->rank, &t->models[0]);
    return hm__hca_first_error(rc, send_models(t, ref, t->models, half));
}

/* Sync_Clocks_Pow2 (Alg. 3 lines 4-32) with half = 2^(round - 1). An error
 * does not stop the rounds: the partners of later rounds wait for us. */
static int pow2(tree_t *t)
{
    int rc = HM_OK;
    if (t->rank >= t->maxpower) return HM_OK; /* line 8 */
    for (int half = 1; 2 * half <= t->maxpower; half *= 2) {
        if (t->rank % (2 * half) == 0)
            rc = hm__hca_first_error(rc, pow2_reference(t, half));
        else /* rank % (2 half) == half: the first round where it is not a reference */
            return hm__hca_first_error(rc, pow2_client(t, half));
    }
    return rc;
}

/* Rank 0's part of lines 55-60: gather the models of the ranks >= maxpower
 * (each against rank - maxpower) and merge them with the models of their
 * references. Point-to-point receives instead of the paper's sub-communicator
 * and MPI_Gather: creating a communicator is itself a collective over comm. */
static int gather_remaining(tree_t *t)
{
    int extra = t->size - t->maxpower, rc = HM_OK;
    for (int j = 0; j < extra; j++) {
        int q = t->maxpower + j;
        rc = hm__hca_first_error(rc, recv_models(t, q, &t->models[q], 1));
        t->models[q] = hm_lm_merge(t->models[j], t->models[q]); /* line 60 */
    }
    return rc;
}

/* Sync_Clocks_Remaining (Alg. 3 lines 34-63). */
static int remaining(tree_t *t)
{
    int extra = t->size - t->maxpower, rc = HM_OK;
    if (extra == 0) return HM_OK; /* line 37 */
    if (t->rank < extra) {        /* lines 38-44 */
        rc = learn(t, t->rank, t->rank + t->maxpower, NULL);
    } else if (t->rank >= t->maxpower) { /* lines 45-52, 61-63 */
        rc = learn(t, t->rank - t->maxpower, t->rank, &t->models[0]);
        rc = hm__hca_first_error(rc, send_models(t, 0, t->models, 1));
    }
    if (t->rank == 0) rc = hm__hca_first_error(rc, gather_remaining(t));
    return rc;
}

/* MPI_Scatter of the final models from rank 0 (Alg. 2 line 21). */
static int scatter(tree_t *t, hm_lm_t *lm)
{
    return hm__mpi_status(hm__idle_scatter(t->models, 2, MPI_DOUBLE, lm, 2, MPI_DOUBLE, 0, t->comm),
                          __func__, "MPI_Scatter");
}

/* Models this rank holds: all of them on rank 0, its subtree (the lowest set
 * bit of its rank) below maxpower, only its own above. */
static int span(const tree_t *t)
{
    if (t->rank == 0) return t->size;
    return t->rank < t->maxpower ? (t->rank & -t->rank) : 1;
}

/* Whether some node hosts more ranks of comm than it has cores. Then
 * concurrent pairs would share cores: a ping-pong completes only when both
 * of its ranks happen to be running, its offsets get the scheduler's noise
 * (measured: slope errors of 1e-6 to 1e-5 with 4 ranks on 2 cores, against
 * 1e-7 for a pair alone), so the pairs take turns instead. */
static int node_oversubscribed(MPI_Comm comm)
{
    int ranks, processors;
    hm_topo_node_ranks(comm, &ranks, &processors);
    return processors > 0 && ranks > processors;
}

/* Before the first exchange, the ranks agree on the allocations (an error
 * wins) and on whether the pairs take turns (any oversubscribed node). */
int hm__hca_agree_turns(MPI_Comm comm, hm__hca_turns_t turns, int ok, int *one_at_a_time)
{
    int turn =
        turns == HM_HCA_TURNS_AUTO ? node_oversubscribed(comm) : turns == HM_HCA_TURNS_ALWAYS;
    int mine[2] = {ok ? 0 : 1, turn}, all[2] = {1, 0};
    int mpi_rc = hm__idle_allreduce(mine, all, 2, MPI_INT, MPI_MAX, comm);
    if (mpi_rc != MPI_SUCCESS) return hm__mpi_status(mpi_rc, __func__, "MPI_Allreduce");
    *one_at_a_time = all[1];
    if (!all[0]) return HM_OK;
    return hm__error_set(HM_ENOMEM, "%s: out of memory%s", __func__, ok ? " on another rank" : "");
}

int hm__hca_tree(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                 hm__hca_turns_t turns, hm_lm_t *lm, hm__sync_stats_t *stats)
{
    tree_t t = {.comm = comm, .base = base, .params = params, .stats = stats, .maxpower = 1};
    MPI_Comm_rank(comm, &t.rank);
    MPI_Comm_size(comm, &t.size);
    while (2 * t.maxpower <= t.size) t.maxpower *= 2;
    *lm = (hm_lm_t){0, 0};
    t.models = calloc((size_t)span(&t), sizeof *t.models); /* zero: models[0] = (0, 0), line 7 */
    int rc = hm__hca_agree_turns(comm, turns, t.models != NULL, &t.one_at_a_time);
    if (rc == HM_OK) {
        rc = pow2(&t);
        rc = hm__hca_first_error(rc, remaining(&t));
        rc = hm__hca_first_error(rc, scatter(&t, lm));
    }
    free(t.models);
    return rc;
}

int hm__hca_finish(MPI_Comm comm, hm_clock_t *base, hm_lm_t lm, int status, hm_clock_t **out,
                   const char *name)
{
    hm_clock_t *clock = NULL;
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (status == HM_OK && rank == 0) {
        hm_clock_retain(base);
        clock = base;
    } else if (status == HM_OK) {
        hm_clock_kind_t kind = lm.slope == 0.0 ? HM_CLOCK_OFFSET : HM_CLOCK_LINEAR;
        status = hm_clock_model(base, kind, lm, &clock);
    }
    if (status != HM_OK) /* the step's own sentence, where it gave one */
        hm__error_set(status, "%s: %s on rank %d", name,
                      hm_last_error()[0] ? hm_last_error() : hm_strerror(status), rank);
    status = hm_agree(comm, status);
    if (status == HM_OK)
        *out = clock;
    else
        hm_clock_free(clock);
    return status;
}
