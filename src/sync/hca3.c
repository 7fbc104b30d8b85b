/* src/sync/hca3.c — HCA3, Hunold & Carpen-Amarie 2018, Alg. 1.
 *
 * The reference time is pushed down a binomial tree (binomial.h: the order,
 * the "your turn" messages and the turns on oversubscribed nodes, beyond
 * the pseudo-code): in each round a rank that already holds the global
 * clock serves as the reference of a client, timestamping with that global
 * clock, so the client's model maps its base clock straight to global time
 * (no merging of models as in HCA2). */
#include <harmonia/agree.h>

#include "sync/binomial.h"
#include "sync/sync_impl.h"

/* ASCII "H3", "H4": distinct from the offset layer's tag on the same
 * communicator. */
enum { HCA3_TURN_TAG = 0x4833, HCA3_ORDER_TAG = 0x4834 };

typedef struct hca3 {
    MPI_Comm comm;
    int rank;
    const hm_sync_params_t *params;
    hm__sync_stats_t *stats;
    hm_clock_t *base;
    hm_clock_t *my_clk; /* line 4: the base clock itself stands for the dummy model */
} hca3_t;

/* The reference of a pair (Alg. 1 lines 9-11 and 20-22): it timestamps with
 * the global clock it has learned so far. */
static int as_reference(void *ctx, int client)
{
    hca3_t *h = ctx;
    hm__sync_pair_model_t unused;
    return hm__sync_learn_pair(h->comm, h->rank, client, h->my_clk, h->params, &unused, h->stats);
}

/* The client of a pair (lines 12-15 and 16-19): a rank is a client before it
 * is ever a reference, so it learns with its base clock, and the model over
 * base becomes its global clock. */
static int as_client(void *ctx, int ref)
{
    hca3_t *h = ctx;
    hm__sync_pair_model_t m;
    hm_clock_t *global = NULL;
    int rc = hm__sync_learn_pair(h->comm, ref, h->rank, h->base, h->params, &m, h->stats);
    if (rc == HM_OK) rc = hm_clock_model(h->base, m.kind, m.lm, &global);
    if (rc != HM_OK) return rc;
    hm_clock_free(h->my_clk);
    h->my_clk = global;
    return HM_OK;
}

int hm__sync_hca3(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                  hm__sync_stats_t *stats)
{
    hca3_t h = {.comm = comm, .params = params, .stats = stats, .base = base, .my_clk = base};
    hm__binomial_t tree;
    hm_clock_retain(base);
    int rc = hm__binomial_init(&tree, comm, HCA3_TURN_TAG, HCA3_ORDER_TAG);
    h.rank = tree.rank;
    /* Lines 5-22 on this rank; the ranks agree on the first failure. */
    if (rc == HM_OK) rc = hm_agree(comm, hm__binomial_run(&tree, as_reference, as_client, &h));
    hm__binomial_free(&tree);
    if (rc != HM_OK) {
        hm_clock_free(h.my_clk);
        return rc;
    }
    *out = h.my_clk; /* line 23 */
    return HM_OK;
}
