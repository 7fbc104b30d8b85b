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
 * (hm_idle_wait_token). A client whose reference is still busy in an earlier
 * round would otherwise wait inside the offset layer's blocking receive,
 * spinning under MPICH on an oversubscribed machine, and slow down the pairs
 * that measure. One message per pair; the pairs are unchanged. */
#include "common/idle.h"
#include "sync/agree.h"
#include "sync/sync_impl.h"

/* ASCII "H3": distinct from the offset layer's tag on the same communicator. */
enum { HCA3_TURN_TAG = 0x4833 };

/* The reference of a pair (Alg. 1 lines 9-11 and 20-22): it timestamps with
 * the global clock it has learned so far. */
static int as_reference(MPI_Comm comm, int me, int client, hm_clock_t *my_clk,
                        const hm_sync_params_t *params, hm_sync_stats_t *stats)
{
    hm_sync_pair_model_t unused;
    if (MPI_Send(NULL, 0, MPI_BYTE, client, HCA3_TURN_TAG, comm) != MPI_SUCCESS) return HM_EMPI;
    return hm_sync_learn_pair(comm, me, client, my_clk, params, &unused, stats);
}

/* The client of a pair (lines 12-15 and 16-19): a rank is a client before it
 * is ever a reference, so it learns with its base clock, and the model over
 * base becomes its global clock. */
static int as_client(MPI_Comm comm, int ref, int me, hm_clock_t *base, hm_clock_t **my_clk,
                     const hm_sync_params_t *params, hm_sync_stats_t *stats)
{
    hm_sync_pair_model_t m;
    hm_clock_t *global = NULL;
    int rc = hm_idle_wait_token(comm, ref, HCA3_TURN_TAG) == MPI_SUCCESS ? HM_OK : HM_EMPI;
    if (rc == HM_OK) rc = hm_sync_learn_pair(comm, ref, me, base, params, &m, stats);
    if (rc == HM_OK) rc = hm_clock_model(base, m.kind, m.lm, &global);
    if (rc != HM_OK) return rc;
    hm_clock_free(*my_clk);
    *my_clk = global;
    return HM_OK;
}

static int floor_log2(int p)
{
    int n = 0;
    while ((2 << n) <= p) n++;
    return n;
}

/* A failed pair does not stop a rank: it keeps serving its later clients
 * (with the clock it has), so that nobody waits forever, and the ranks agree
 * on the first failure at the end. */
int hm_sync_hca3(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                 hm_sync_stats_t *stats)
{
    int r, p, rc = HM_OK;
    if (MPI_Comm_rank(comm, &r) != MPI_SUCCESS || MPI_Comm_size(comm, &p) != MPI_SUCCESS)
        return HM_EMPI;
    const int nrounds = floor_log2(p), max_power = 1 << nrounds; /* lines 2-3 */
    hm_clock_t *my_clk = base; /* line 4: the base clock itself stands for the dummy model */
    hm_clock_retain(base);

    /* Step 1, lines 5-15: ranks below max_power, rounds nrounds down to 1. */
    for (int i = nrounds; i >= 1 && r < max_power; i--) {
        const int running_power = 1 << i, next_power = 1 << (i - 1);
        int step = HM_OK;
        if (r % running_power == 0)
            step = as_reference(comm, r, r + next_power, my_clk, params, stats);
        else if (r % running_power == next_power)
            step = as_client(comm, r - next_power, r, base, &my_clk, params, stats);
        if (rc == HM_OK) rc = step;
    }
    /* Step 2, lines 16-22: the ranks from max_power on. */
    int step = HM_OK;
    if (r >= max_power)
        step = as_client(comm, r - max_power, r, base, &my_clk, params, stats);
    else if (r < p - max_power)
        step = as_reference(comm, r, r + max_power, my_clk, params, stats);
    if (rc == HM_OK) rc = step;

    rc = hm_sync_agree(comm, rc);
    if (rc != HM_OK) {
        hm_clock_free(my_clk);
        return rc;
    }
    *out = my_clk; /* line 23 */
    return HM_OK;
}
