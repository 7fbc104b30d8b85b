/* src/sync/hca.c — HCA (Hunold & Carpen-Amarie 2016, §4.4, Alg. 2-4 without
 * hierarchical_intercepts): slopes learned pairwise along an inverted
 * binomial tree and merged towards rank 0 (hca_tree.c), models scattered from
 * rank 0, then every intercept measured directly against rank 0
 * (Compute_And_Set_All_Intercepts): O(log p) rounds of learning plus O(p)
 * offset measurements. The intercept of a rank thus carries the error of one
 * offset measurement only, not the sum along its tree path (hca2). */
#include "sync/hca_tree.h"

/* Compute_And_Set_Intercept(lm, client, root) (Alg. 4 lines 24-31): one
 * SKaMPI offset measurement between rank 0 and client, both on their base
 * clocks; the client keeps its merged slope and sets the intercept so that
 * the model passes through the measured offset (offset = client - reference
 * at the client's time t_c, so offset = slope t_c + intercept). SKaMPI
 * whatever --offset says, as in the paper, which chose it for these
 * intercepts because it gave the smallest initial offsets (§4.4). The
 * timestamp of line 28 is the sample's, where the offset layer says the
 * offset holds (for SKaMPI-Offset: the client's clock after the exchanges,
 * as in the paper). */
static int set_intercept(MPI_Comm comm, int client, hm_clock_t *base,
                         const hm_sync_params_t *params, hm_lm_t *lm, hm__sync_stats_t *stats)
{
    int rank;
    hm_sync_params_t skampi = *params;
    hm_offset_sample_t sample = {0, 0, 0};
    MPI_Comm_rank(comm, &rank);
    skampi.offset = HM_OFFSET_SKAMPI;
    /* The client sleeps until rank 0 is done with the ranks before it. */
    int rc = hm__hca_meet(comm, rank == 0 ? client : 0);
    if (rc == HM_OK) rc = hm__sync_measure_offset(comm, 0, client, base, &skampi, &sample, stats);
    if (rc == HM_OK && rank == client)
        lm->intercept = sample.offset_s - lm->slope * sample.timestamp_s; /* line 29 */
    return rc;
}

/* Compute_And_Set_All_Intercepts (Alg. 3 lines 65-71): rank 0 measures
 * against every other rank in turn. */
static int set_all_intercepts(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                              hm_lm_t *lm, hm__sync_stats_t *stats)
{
    int rank, size, rc = HM_OK;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank != 0) return set_intercept(comm, rank, base, params, lm, stats);
    for (int i = 1; i < size; i++)
        rc = hm__hca_first_error(rc, set_intercept(comm, i, base, params, lm, stats));
    return rc;
}

int hm__sync_hca(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                 hm__sync_stats_t *stats)
{
    hm__sync_stats_t unused = {0};
    if (!base || !params || !out)
        return hm__error_null(__func__, !base ? "base" : !params ? "params" : "out");
    if (!stats) stats = &unused;
    hm_lm_t lm = {0, 0};
    /* The tree's intercepts are replaced below: re-measuring them pairwise
     * would only cost ping-pongs (the merged slope does not depend on them). */
    hm_sync_params_t pair = *params;
    pair.recompute_intercept = 0;
    /* Alg. 2 lines 18-21 (Sync_Clocks_Pow2, Sync_Clocks_Remaining, MPI_Scatter) */
    int rc = hm__hca_tree(comm, base, &pair, HM_HCA_TURNS_AUTO, &lm, stats);
    /* lines 22-24 */
    rc = hm__hca_first_error(rc, set_all_intercepts(comm, base, params, &lm, stats));
    return hm__hca_finish(comm, base, lm, rc, out, "hca");
}
