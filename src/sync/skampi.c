/* src/sync/skampi.c — SKaMPI's clock synchronization, Hunold & Carpen-Amarie 2016, Alg. 7-8
 * (Compute_And_Set_Clock_Offsets): the root measures the clock offset of
 * every other rank in turn with SKaMPI-Offset (offset layer, Alg. 7), O(p)
 * rounds, and each rank corrects its clock by that offset only. SKaMPI never
 * models drift, so neither does this algorithm, whatever params->drift says:
 * the global clock is exact at the moment of the measurement and drifts
 * apart afterwards (Hunold & Carpen-Amarie 2016, §4.2.2).
 *
 * Deviations from Alg. 8, and why:
 *  - the offset stays on the client that measured it: the broadcast of the
 *    root's list of offsets (lines 13-17) gives every process the offsets to
 *    all others, which SKaMPI needs for its windows; a global clock needs
 *    only the rank's own offset to the root;
 *  - the MPI_Barrier before each round (line 8) becomes a zero-byte "your
 *    turn" message from the root that the client waits for asleep
 *    (common/idle.h). Blocking MPI calls busy-poll, so with more ranks than
 *    cores p - 2 waiting ranks would take the cores of the measuring pair;
 *    the price is one nap (~50-100 us) per rank;
 *  - the offset is always SKaMPI-Offset with params->exchanges ping-pongs
 *    (the algorithm's own), params->offset is for the drift-aware ones. */
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/idle.h"
#include "sync/sync_impl.h"

/* Tag of the turn token: ASCII "SK". */
enum { TAG_TURN = 0x534b };

/* The pairs this rank takes part in: every (0, i) on the root, (0, me)
 * elsewhere (pairs[0]). Allocation is the only local failure; it is agreed
 * on before any ping-pong. */
static int create_pairs(MPI_Comm comm, int me, int size, int exchanges, hm_offset_pair_t **pairs)
{
    for (int i = 1; i < size; i++) {
        if (me != 0 && i != me) continue;
        int rc = hm_offset_pair_create(comm, 0, i, HM_OFFSET_SKAMPI, exchanges,
                                       &pairs[me == 0 ? i - 1 : 0]);
        if (rc != HM_OK) return rc;
    }
    return HM_OK;
}

static void free_pairs(hm_offset_pair_t **pairs, int n, hm__sync_stats_t *stats)
{
    for (int i = 0; pairs && i < n; i++) {
        if (pairs[i]) hm__sync_tally_pair(stats, pairs[i]);
        hm_offset_pair_free(pairs[i]);
    }
    free(pairs);
}

/* Alg. 8 lines 7-12 on the root: SKaMPI_PingPong(root, i) for each i. */
static int serve_all(hm_offset_pair_t **pairs, MPI_Comm comm, int size, hm_clock_t *base)
{
    for (int i = 1; i < size; i++) {
        if (MPI_Send(NULL, 0, MPI_BYTE, i, TAG_TURN, comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
        int rc = hm_offset_measure(pairs[i - 1], base, NULL);
        if (rc != HM_OK) return rc;
    }
    return HM_OK;
}

/* Alg. 8 lines 11-12 on client me: wait for the turn, measure ldiff[root]
 * (client - root, offset.h's sign) and model the clock by it. */
static int measure_own(hm_offset_pair_t *pair, MPI_Comm comm, hm_clock_t *base, hm_clock_t **out)
{
    hm_offset_sample_t s;
    if (hm__idle_wait_token(comm, 0, TAG_TURN) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    int rc = hm_offset_measure(pair, base, &s);
    if (rc != HM_OK) return rc;
    return hm_clock_model(base, HM_CLOCK_OFFSET, (hm_lm_t){0, s.offset_s}, out);
}

int hm__sync_skampi(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                    hm_clock_t **out, hm__sync_stats_t *stats)
{
    int me, size;
    int bad = hm__sync_enter(comm, base, params, out, __func__, 0, &me, &size);
    if (bad != HM_OK) return bad;
    int npairs = me == 0 ? size - 1 : 1;
    hm_clock_t *clock = NULL;
    hm_offset_pair_t **pairs = calloc((size_t)(npairs > 0 ? npairs : 1), sizeof *pairs);
    int rc =
        pairs ? create_pairs(comm, me, size, params->exchanges, pairs) : hm__error_nomem(__func__);
    rc = hm_agree(comm, rc);
    if (rc == HM_OK && me == 0) rc = serve_all(pairs, comm, size, base);
    if (rc == HM_OK && me != 0) rc = measure_own(pairs[0], comm, base, &clock);
    if (rc == HM_OK && me == 0) hm_clock_retain(clock = base);
    rc = hm_agree(comm, rc);
    if (rc == HM_OK && stats && me != 0) stats->offset_models++;
    free_pairs(pairs, npairs, stats);
    if (rc != HM_OK) {
        hm_clock_free(clock);
        return rc;
    }
    *out = clock;
    return HM_OK;
}
