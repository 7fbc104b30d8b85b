/* tests/sync/hier/test_prop.c — clock propagation copies a clock only
 * between ranks that read one time source, and refuses otherwise.
 *
 * Run with 2 and 4 ranks. Synthetic clocks (offset +-1 s, drift +-100 ppm):
 *  - "prop" when all ranks share one clock domain: succeeds, and every rank
 *    reads exactly rank 0's clock (true error <= 1 ns: the copy is exact, the
 *    bound only absorbs double rounding);
 *  - "prop" with one domain per rank: HM_EINVAL on every rank with the same
 *    sentence, the one of src/sync/prop.c;
 *  - 4 ranks, "hca3+prop" with 2 ranks per node but one domain per rank:
 *    the node level refuses, and every rank (node leaders included, though
 *    their hca3 level succeeded) returns HM_EINVAL with that sentence. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "truth.h"

static const char SENTENCE[] =
    "prop: the ranks of this level do not read one time source (e.g. --timer wtime, whose "
    "origin is per process, or synthetic clocks drawn per rank); use another algorithm for this "
    "level";

static int rank, size;

/* Every rank got rc and a sentence equal to rank 0's. */
static int same_everywhere(int rc, const char *why)
{
    char first[256];
    int rcs[2] = {rc, -rc}, max[2];
    snprintf(first, sizeof first, "%s", why);
    MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Allreduce(rcs, max, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int same = strcmp(first, why) == 0 && max[0] == -max[1], all;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

static void refused(const char *spec, int rpn)
{
    hm_truth_t t;
    hm_sync_params_t p;
    hm_clock_t *global = NULL;
    char why[256] = "";
    hm_truth_params_default(&p, 50, 5);
    p.ranks_per_node = rpn;
    int rc =
        hm_truth_open(&t, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED, rank);
    if (rc == HM_OK) rc = hm_sync_run(MPI_COMM_WORLD, spec, &p, t.base, &global, NULL);
    snprintf(why, sizeof why, "%s", hm_last_error());
    HM_CHECK(rc == HM_EINVAL && global == NULL,
             "%s, %d ranks per node, one clock per rank: refused with HM_EINVAL (status %d)", spec,
             rpn, rc);
    HM_CHECK(strcmp(why, SENTENCE) == 0, "%s: the refusal says why (\"%s\")", spec, why);
    HM_CHECK(same_everywhere(rc, why), "%s: every rank returns the same status and sentence", spec);
    hm_truth_close(&t);
}

static void shared(void)
{
    hm_truth_t t;
    hm_sync_params_t p;
    hm_clock_t *global = NULL;
    hm_truth_params_default(&p, 0, 0);
    int rc =
        hm_truth_open(&t, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED, 0);
    if (rc == HM_OK) rc = hm_sync_run(MPI_COMM_WORLD, "prop", &p, t.base, &global, NULL);
    HM_CHECK(rc == HM_OK, "prop over %d ranks of one clock domain succeeds (status %d: %s)", size,
             rc, hm_last_error());
    if (rc == HM_OK) {
        double err = hm_truth_max_error(&t, global, NULL);
        HM_CHECK(err <= 1e-9, "prop over one clock: max true error %.3g s <= 1 ns", err);
    }
    hm_clock_free(global);
    hm_truth_close(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    shared();
    refused("prop", 0);
    if (size >= 4) refused("hca3+prop", 2);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
