/* src/sync/hca2.c — HCA2 (Hunold & Carpen-Amarie 2016, §4.4 with hierarchical_intercepts; paper
 * Hunold & Carpen-Amarie 2018, §III-B, Fig. 1a): each pairwise model of the inverted binomial tree
 * gets its intercept right after it is learned (with
 * params->recompute_intercept hm__sync_learn_pair re-measures the offset and
 * sets the intercept, Compute_And_Set_Intercept of Alg. 3 lines 14-15,
 * 27-28, 42-43, 50-51; without it the fitted intercept stays), the models,
 * slope and intercept, are merged towards rank 0 and scattered from there:
 * O(log p) rounds, no O(p) phase. The price is that a rank's intercept sums
 * the offset errors of every pair on its path to rank 0. */
#include "sync/hca_tree.h"

int hm__sync_hca2(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                  hm__sync_stats_t *stats)
{
    hm__sync_stats_t unused = {0};
    if (!base || !params || !out)
        return hm__error_null(__func__, !base ? "base" : !params ? "params" : "out");
    if (!stats) stats = &unused;
    hm_lm_t lm = {0, 0};
    /* Alg. 2 lines 18-21 (Sync_Clocks_Pow2, Sync_Clocks_Remaining, MPI_Scatter) */
    int rc = hm__hca_tree(comm, base, params, HM_HCA_TURNS_AUTO, &lm, stats);
    return hm__hca_finish(comm, base, lm, rc, out, "hca2");
}
