/* src/sync/hca3.c — HCA3, Hunold & Carpen-Amarie 2018, Alg. 1.
 *
 * The reference time is pushed down a binomial tree: in each round a rank
 * that already holds the global clock serves as the reference of a client,
 * timestamping with that global clock, so the client's model maps its base
 * clock straight to global time (no merging of models as in HCA2). The
 * ranks beyond the largest power of two learn last, against rank
 * r - max_power. Each rank is a client once.
 *
 * Beyond the pseudo-code: before each pair the reference sends its client an
 * empty "your turn" message, which the client awaits sleeping
 * (hm__idle_wait_token). A client whose reference is still busy in an earlier
 * round would otherwise wait inside the offset layer's blocking receive,
 * spinning under MPICH on an oversubscribed machine, and slow down the pairs
 * that measure. One message per pair; the pairs are unchanged.
 *
 * Also beyond it, as in hca and hca2 (hca_tree.h): when some node hosts more
 * ranks than it has cores, the pairs take turns in the order of the
 * algorithm (the rounds from the largest distance down, then step 2), each
 * pair's reference passing the turn on. Concurrent pairs on shared cores
 * measure the scheduler, and under MPICH 4.0 (ch4:ucx) at 4 ranks on 2
 * cores the concurrent pairs of the last round left the run hanging in 1
 * of 3 runs; taking turns, 0 of 60. */
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/idle.h"
#include "sync/hca_tree.h"
#include "sync/sync_impl.h"

/* ASCII "H3", "H4": distinct from the offset layer's tag on the same
 * communicator. */
enum { HCA3_TURN_TAG = 0x4833, HCA3_ORDER_TAG = 0x4834 };

typedef struct hca3 {
    MPI_Comm comm;
    int rank, size, max_power;
    const hm_sync_params_t *params;
    hm__sync_stats_t *stats;
    int *order;    /* when the pairs take turns: order[k] = client of the k-th pair; else NULL */
    int *position; /* position[client] = k */
} hca3_t;

static int floor_log2(int p)
{
    int n = 0;
    while ((2 << n) <= p) n++;
    return n;
}

/* The reference of a client: in step 1 the client minus its lowest set bit
 * (the round in which it learns), in step 2 client - max_power. */
static int reference_of(const hca3_t *h, int client)
{
    return client >= h->max_power ? client - h->max_power : client - (client & -client);
}

/* The pairs in the order the algorithm runs them: step 1's rounds from the
 * largest distance down, each from reference 0 up, then step 2. */
static int make_order(hca3_t *h)
{
    int k = 0;
    h->order = malloc((size_t)h->size * sizeof *h->order);
    h->position = malloc((size_t)h->size * sizeof *h->position);
    if (!h->order || !h->position) return hm__error_nomem(__func__);
    for (int half = h->max_power / 2; half >= 1; half /= 2)
        for (int ref = 0; ref < h->max_power; ref += 2 * half) h->order[k++] = ref + half;
    for (int ref = 0; ref < h->size - h->max_power; ref++) h->order[k++] = ref + h->max_power;
    for (int i = 0; i < k; i++) h->position[h->order[i]] = i;
    return HM_OK;
}

/* Taking turns: both ranks of the pair of client wait, asleep, until the
 * reference of the previous pair says it is done (unless they are it). */
static int await_turn(const hca3_t *h, int client)
{
    int k = h->order ? h->position[client] : 0;
    if (k == 0) return HM_OK;
    int prev_ref = reference_of(h, h->order[k - 1]);
    if (prev_ref == h->rank) return HM_OK;
    return hm__mpi_status(hm__idle_wait_token(h->comm, prev_ref, HCA3_ORDER_TAG), __func__,
                          "MPI_Irecv");
}

/* The reference of a finished pair hands the turn to both ranks of the next
 * (zero bytes: sent eagerly, never blocks). */
static int pass_turn(const hca3_t *h, int client)
{
    int k = h->order ? h->position[client] : h->size;
    if (k + 1 >= h->size - 1) return HM_OK;
    int next = h->order[k + 1], members[2] = {reference_of(h, next), next}, rc = HM_OK;
    for (int i = 0; i < 2; i++)
        if (members[i] != h->rank &&
            MPI_Send(NULL, 0, MPI_BYTE, members[i], HCA3_ORDER_TAG, h->comm) != MPI_SUCCESS)
            rc = hm__error_mpi(__func__, "MPI_Send");
    return rc;
}

/* The reference of a pair (Alg. 1 lines 9-11 and 20-22): it timestamps with
 * the global clock it has learned so far. */
static int as_reference(const hca3_t *h, int client, hm_clock_t *my_clk)
{
    hm__sync_pair_model_t unused;
    int rc = await_turn(h, client);
    if (rc == HM_OK && MPI_Send(NULL, 0, MPI_BYTE, client, HCA3_TURN_TAG, h->comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Send");
    if (rc == HM_OK)
        rc = hm__sync_learn_pair(h->comm, h->rank, client, my_clk, h->params, &unused, h->stats);
    int passed = pass_turn(h, client);
    return rc != HM_OK ? rc : passed;
}

/* The client of a pair (lines 12-15 and 16-19): a rank is a client before it
 * is ever a reference, so it learns with its base clock, and the model over
 * base becomes its global clock. */
static int as_client(const hca3_t *h, int ref, hm_clock_t *base, hm_clock_t **my_clk)
{
    hm__sync_pair_model_t m;
    hm_clock_t *global = NULL;
    int rc = await_turn(h, h->rank);
    if (rc == HM_OK && hm__idle_wait_token(h->comm, ref, HCA3_TURN_TAG) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Irecv");
    if (rc == HM_OK) rc = hm__sync_learn_pair(h->comm, ref, h->rank, base, h->params, &m, h->stats);
    if (rc == HM_OK) rc = hm_clock_model(base, m.kind, m.lm, &global);
    if (rc != HM_OK) return rc;
    hm_clock_free(*my_clk);
    *my_clk = global;
    return HM_OK;
}

/* Lines 5-22 on this rank. A failed pair does not stop a rank: it keeps
 * serving its later clients (with the clock it has), so that nobody waits
 * forever, and the ranks agree on the first failure at the end. */
static int run_pairs(const hca3_t *h, hm_clock_t *base, hm_clock_t **my_clk)
{
    const int r = h->rank, p = h->size, max_power = h->max_power;
    int rc = HM_OK;
    /* Step 1, lines 5-15: ranks below max_power, rounds nrounds down to 1. */
    for (int i = floor_log2(p); i >= 1 && r < max_power; i--) {
        const int running_power = 1 << i, next_power = 1 << (i - 1);
        int step = HM_OK;
        if (r % running_power == 0)
            step = as_reference(h, r + next_power, *my_clk);
        else if (r % running_power == next_power)
            step = as_client(h, r - next_power, base, my_clk);
        if (rc == HM_OK) rc = step;
    }
    /* Step 2, lines 16-22: the ranks from max_power on. */
    int step = HM_OK;
    if (r >= max_power)
        step = as_client(h, r - max_power, base, my_clk);
    else if (r < p - max_power)
        step = as_reference(h, r + max_power, *my_clk);
    return rc != HM_OK ? rc : step;
}

int hm__sync_hca3(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                  hm__sync_stats_t *stats)
{
    hca3_t h = {.comm = comm, .params = params, .stats = stats};
    int turns = 0;
    if (MPI_Comm_rank(comm, &h.rank) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_rank");
    if (MPI_Comm_size(comm, &h.size) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_size");
    h.max_power = 1 << floor_log2(h.size); /* lines 2-3 */
    hm_clock_t *my_clk = base; /* line 4: the base clock itself stands for the dummy model */
    hm_clock_retain(base);
    int rc = hm__hca_agree_turns(comm, HM_HCA_TURNS_AUTO, 1, &turns);
    if (rc == HM_OK && turns) rc = make_order(&h);
    rc = hm_agree(comm, rc);
    if (rc == HM_OK) rc = hm_agree(comm, run_pairs(&h, base, &my_clk));
    free(h.order);
    free(h.position);
    if (rc != HM_OK) {
        hm_clock_free(my_clk);
        return rc;
    }
    *out = my_clk; /* line 23 */
    return HM_OK;
}
