/* src/sync/hca_tree.h — what hca and hca2 share (Hunold & Carpen-Amarie 2016, §4.4, Alg. 2-4;
 * Hunold & Carpen-Amarie 2018, §III-B, Fig. 1a): the inverted binomial tree that learns pairwise
 * models towards rank 0 and merges them there (Sync_Clocks_Pow2,
 * Sync_Clocks_Remaining, Merge_LMs), the MPI_Scatter of the merged models,
 * and the rendezvous and the end both algorithms use.
 *
 * Waiting: a rank whose partner is still busy with another rank, or which
 * waits for the scatter or for its turn with rank 0, waits with MPI_Test +
 * nanosleep (common/idle.h) instead of a blocking call, because MPI
 * libraries busy-poll in blocking calls: with more ranks than cores the
 * waiters would steal the cores of the pairs that measure. The cost is a
 * nap (~50-100 us) once per wait: per tree round and, in hca's O(p) phase,
 * per rank.
 *
 * Beyond the papers: when some node hosts more ranks than it has cores, the
 * pairs of a round take turns instead of measuring at the same time (which
 * makes the tree O(p) in time): pairs sharing cores measure the scheduler
 * rather than the clocks. */
#ifndef HM_SYNC_HCA_TREE_H
#define HM_SYNC_HCA_TREE_H
#include "sync/sync_impl.h"

/* Whether the pairs of a round measure at the same time (the algorithm) or
 * take turns (for nodes with more ranks than cores). */
typedef enum hm_hca_turns {
    HM_HCA_TURNS_AUTO,  /* take turns when some node is oversubscribed */
    HM_HCA_TURNS_NEVER, /* tests: the concurrent rounds whatever the machine */
    HM_HCA_TURNS_ALWAYS
} hm__hca_turns_t;

/* Collective over comm (size >= 1; turns the same on every rank). Learns the
 * pairwise models of the tree with hm__sync_learn_pair and params (with
 * recompute_intercept each pairwise intercept is re-measured right after the
 * fit: the hierarchical intercepts of hca2), merges them on the way to rank 0
 * and scatters the merged models: *lm receives this rank's model against
 * rank 0 ((0, 0) on rank 0; an offset model is one with slope exactly 0).
 * The status is this rank's own (an error agreed before any exchange is the
 * same on every rank): the caller carries on with its protocol and agrees at
 * the end (hm__hca_finish), so that no rank is left waiting. Ping-pongs and
 * models are counted in stats. */
int hm__hca_tree(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                 hm__hca_turns_t turns, hm_lm_t *lm, hm__sync_stats_t *stats);

/* Collective over comm: agree whether the pairs take turns (AUTO: when
 * some node hosts more ranks of comm than it has cores) into
 * *one_at_a_time, and on ok (0 on some rank: HM_ENOMEM everywhere). */
int hm__hca_agree_turns(MPI_Comm comm, hm__hca_turns_t turns, int ok, int *one_at_a_time);

/* Sleeping rendezvous of this rank with peer (both call it): a zero-byte
 * message each way, so that neither enters a blocking ping-pong while the
 * other is still busy elsewhere. */
int hm__hca_meet(MPI_Comm comm, int peer);

/* Collective end of hca and hca2: builds this rank's clock from lm (rank 0:
 * base retained; else HM_CLOCK_OFFSET when lm.slope is exactly 0, i.e. every
 * model merged on this rank's path was an offset model, HM_CLOCK_LINEAR
 * otherwise), agrees on the status (hm_agree; on error every rank's
 * last error is "NAME: SENTENCE on rank R" of the lowest failing rank, with
 * the failed step's sentence, or the status's text where it left none) and
 * sets *out only when every rank succeeded. */
int hm__hca_finish(MPI_Comm comm, hm_clock_t *base, hm_lm_t lm, int status, hm_clock_t **out,
                   const char *name);

/* The first error of a sequence of steps. */
static inline int hm__hca_first_error(int status, int next)
{
    return status != HM_OK ? status : next;
}
#endif
