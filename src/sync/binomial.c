/* src/sync/binomial.c — HCA3's binomial order of pairs (binomial.h). */
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/idle.h"
#include "sync/binomial.h"
#include "sync/hca_tree.h"
#include "sync/sync_impl.h"

static int floor_log2(int p)
{
    int n = 0;
    while ((2 << n) <= p) n++;
    return n;
}

/* In step 1 the client minus its lowest set bit (the round in which it
 * learns), in step 2 client - max_power. */
int hm__binomial_reference(const hm__binomial_t *b, int client)
{
    return client >= b->max_power ? client - b->max_power : client - (client & -client);
}

/* The pairs in the order the algorithm runs them: step 1's rounds from the
 * largest distance down, each from reference 0 up, then step 2. */
static int make_order(hm__binomial_t *b)
{
    int k = 0;
    b->order = malloc((size_t)b->size * sizeof *b->order);
    b->position = malloc((size_t)b->size * sizeof *b->position);
    if (!b->order || !b->position) return hm__error_nomem(__func__);
    for (int half = b->max_power / 2; half >= 1; half /= 2)
        for (int ref = 0; ref < b->max_power; ref += 2 * half) b->order[k++] = ref + half;
    for (int ref = 0; ref < b->size - b->max_power; ref++) b->order[k++] = ref + b->max_power;
    for (int i = 0; i < k; i++) b->position[b->order[i]] = i;
    return HM_OK;
}

int hm__binomial_init(hm__binomial_t *b, MPI_Comm comm, int turn_tag, int order_tag)
{
    int turns = 0;
    *b = (hm__binomial_t){.comm = comm, .turn_tag = turn_tag, .order_tag = order_tag};
    if (MPI_Comm_rank(comm, &b->rank) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_rank");
    if (MPI_Comm_size(comm, &b->size) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_size");
    b->max_power = 1 << floor_log2(b->size);
    int rc = hm__hca_agree_turns(comm, HM_HCA_TURNS_AUTO, 1, &turns);
    if (rc == HM_OK && turns) rc = make_order(b);
    return hm_agree(comm, rc);
}

void hm__binomial_free(hm__binomial_t *b)
{
    free(b->order);
    free(b->position);
    b->order = b->position = NULL;
}

/* Taking turns: both ranks of the pair of client wait, asleep, until the
 * reference of the previous pair says it is done (unless they are it). */
static int await_turn(const hm__binomial_t *b, int client)
{
    int k = b->order ? b->position[client] : 0;
    if (k == 0) return HM_OK;
    int prev_ref = hm__binomial_reference(b, b->order[k - 1]);
    if (prev_ref == b->rank) return HM_OK;
    return hm__mpi_status(hm__idle_wait_token(b->comm, prev_ref, b->order_tag), __func__,
                          "MPI_Irecv");
}

/* The reference of a finished pair hands the turn to both ranks of the next
 * (zero bytes: sent eagerly, never blocks). */
static int pass_turn(const hm__binomial_t *b, int client)
{
    int k = b->order ? b->position[client] : b->size;
    if (k + 1 >= b->size - 1) return HM_OK;
    int next = b->order[k + 1], members[2] = {hm__binomial_reference(b, next), next}, rc = HM_OK;
    for (int i = 0; i < 2; i++)
        if (members[i] != b->rank &&
            MPI_Send(NULL, 0, MPI_BYTE, members[i], b->order_tag, b->comm) != MPI_SUCCESS)
            rc = hm__error_mpi(__func__, "MPI_Send");
    return rc;
}

static int as_reference(const hm__binomial_t *b, int client, hm__binomial_role_fn fn, void *ctx)
{
    int rc = await_turn(b, client);
    if (rc == HM_OK && MPI_Send(NULL, 0, MPI_BYTE, client, b->turn_tag, b->comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Send");
    if (rc == HM_OK) rc = fn(ctx, client);
    int passed = pass_turn(b, client);
    return rc != HM_OK ? rc : passed;
}

static int as_client(const hm__binomial_t *b, int ref, hm__binomial_role_fn fn, void *ctx)
{
    int rc = await_turn(b, b->rank);
    if (rc == HM_OK && hm__idle_wait_token(b->comm, ref, b->turn_tag) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Irecv");
    return rc == HM_OK ? fn(ctx, ref) : rc;
}

int hm__binomial_run(const hm__binomial_t *b, hm__binomial_role_fn reference_fn,
                     hm__binomial_role_fn client_fn, void *ctx)
{
    const int r = b->rank, p = b->size, max_power = b->max_power;
    int rc = HM_OK;
    /* Step 1 (HCA3 lines 5-15): ranks below max_power, rounds down to 1. */
    for (int i = floor_log2(p); i >= 1 && r < max_power; i--) {
        const int running_power = 1 << i, next_power = 1 << (i - 1);
        int step = HM_OK;
        if (r % running_power == 0)
            step = as_reference(b, r + next_power, reference_fn, ctx);
        else if (r % running_power == next_power)
            step = as_client(b, r - next_power, client_fn, ctx);
        if (rc == HM_OK) rc = step;
    }
    /* Step 2 (lines 16-22): the ranks from max_power on. */
    int step = HM_OK;
    if (r >= max_power)
        step = as_client(b, r - max_power, client_fn, ctx);
    else if (r < p - max_power)
        step = as_reference(b, r + max_power, reference_fn, ctx);
    return rc != HM_OK ? rc : step;
}
