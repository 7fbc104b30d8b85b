/* tests/results/test_run_seed.c — a campaign's run seeds
 * (hm_results_run_seed): the same base seed gives the same seeds (a
 * campaign resumed or re-run from its manifest reproduces them), runs of
 * one campaign get distinct seeds, each fits 32 bits, and another base
 * seed gives other seeds. A seed that ignored the run would give 9,999
 * equal pairs over 10,000 runs. */
#include <stdint.h>
#include <stdlib.h>

#include <harmonia/results.h>

#include "testutil.h"

enum { RUNS = 10000 };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static uint64_t seeds[RUNS];
    int wide = 0, same_again = 1, moved = 0;
    for (long r = 1; r <= RUNS; r++) {
        seeds[r - 1] = hm_results_run_seed(42, r);
        wide += seeds[r - 1] >> 32 != 0;
        same_again &= hm_results_run_seed(42, r) == seeds[r - 1];
        moved += hm_results_run_seed(43, r) != seeds[r - 1];
    }
    HM_CHECK(same_again, "the same base seed and run give the same seed");
    HM_CHECK(wide == 0, "every seed fits 32 bits (%d do not)", wide);
    HM_CHECK(moved == RUNS, "base seed 43 gives other seeds than 42 (%d of %d differ)", moved,
             RUNS);
    qsort(seeds, RUNS, sizeof *seeds, cmp_u64);
    int equal = 0;
    for (int i = 1; i < RUNS; i++) equal += seeds[i] == seeds[i - 1];
    /* The tolerance: 10,000 draws of 32 bits collide with probability
     * ~1.2 %, so at most one pair is allowed. */
    HM_CHECK(equal <= 1, "runs 1-%d of one campaign: %d equal pairs of seeds", RUNS, equal);
    return hm_test_finish();
}
