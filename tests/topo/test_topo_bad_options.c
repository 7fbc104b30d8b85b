/* tests/topo/test_topo_bad_options.c — refused options.
 *
 * Each refusal must come back as the same HM_EINVAL on every rank, also
 * when only one rank was given a bad value, and leave no rank inside a
 * collective: a valid topology built afterwards must work (a hang would be
 * caught by the test's timeout). */
#include <harmonia/topo.h>

#include "testutil.h"

static int p, me;

/* Create with opts on this rank (out_null: pass NULL as out) and check that
 * every rank got HM_EINVAL. */
static void expect_refused(const char *what, hm_topo_options_t opts, int out_null)
{
    hm_topo_t *topo = (hm_topo_t *)&opts; /* anything but NULL: must be reset */
    int rc = hm_topo_create(MPI_COMM_WORLD, &opts, out_null ? NULL : &topo);
    int lo = rc, hi = rc;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    HM_CHECK(rc == HM_EINVAL, "%s: HM_EINVAL on this rank (got %d, %s)", what, rc, hm_strerror(rc));
    HM_CHECK(lo == hi, "%s: same status on every rank (min %d, max %d)", what, lo, hi);
    if (!out_null)
        HM_CHECK(topo == NULL, "%s: *out is NULL after a refusal (%p)", what, (void *)topo);
}

static void expect_accepted(const char *what, hm_topo_options_t opts)
{
    hm_topo_t *topo = NULL;
    int rc = hm_topo_create(MPI_COMM_WORLD, &opts, &topo);
    HM_CHECK(rc == HM_OK && topo, "%s: accepted (%s)", what, hm_strerror(rc));
    if (rc != HM_OK) return;
    int size = 0, sum = 0;
    MPI_Comm_size(hm_topo_socket_comm(topo), &size);
    /* Talking on every level shows that no rank was left behind. */
    MPI_Allreduce(&size, &sum, 1, MPI_INT, MPI_SUM, hm_topo_node_comm(topo));
    HM_CHECK(sum >= size, "%s: node level answers (sum of socket sizes %d)", what, sum);
    hm_topo_free(topo);
}

static void expect_bad_levels(void)
{
    hm_topo_t *topo = NULL;
    MPI_Comm c = MPI_COMM_WORLD;
    int rc = hm_topo_create(MPI_COMM_WORLD, NULL, &topo);
    HM_CHECK(rc == HM_OK, "real topology for the level checks: %s", hm_strerror(rc));
    if (rc != HM_OK) return;
    const int bad[][2] = {{0, 0}, {0, 4}, {-1, 2}, {2, 2}, {3, 3}, {1, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = hm_topo_level_comm(topo, bad[i][0], bad[i][1], &c);
        HM_CHECK(rc == HM_EINVAL, "level %d of %d refused with HM_EINVAL (got %d)", bad[i][0],
                 bad[i][1], rc);
    }
    hm_topo_free(topo);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int last = me == p - 1;

    expect_refused("--ranks-per-node -1", (hm_topo_options_t){-1, 0}, 0);
    expect_refused("--ranks-per-socket -3", (hm_topo_options_t){0, -3}, 0);
    expect_refused("--ranks-per-socket 3 > --ranks-per-node 2", (hm_topo_options_t){2, 3}, 0);
    expect_refused("--ranks-per-node -1 on the last rank only",
                   (hm_topo_options_t){last ? -1 : 2, 0}, 0);
    expect_refused("--ranks-per-node 2 on rank 0, 1 elsewhere",
                   (hm_topo_options_t){me == 0 ? 2 : 1, 0}, 0);
    expect_refused("--ranks-per-socket 1 on the last rank, 2 elsewhere",
                   (hm_topo_options_t){2, last ? 1 : 2}, 0);
    expect_refused("out == NULL on rank 0 only", (hm_topo_options_t){1, 1}, me == 0);

    hm_topo_t *topo = NULL;
    int rc = hm_topo_create(MPI_COMM_NULL, NULL, &topo);
    HM_CHECK(rc == HM_EINVAL && topo == NULL, "MPI_COMM_NULL refused with HM_EINVAL (got %d)", rc);
    expect_bad_levels();

    expect_accepted("--ranks-per-socket 5 with real nodes", (hm_topo_options_t){0, 5});
    expect_accepted("--ranks-per-socket 2 = --ranks-per-node 2", (hm_topo_options_t){2, 2});
    expect_accepted("--ranks-per-node 100 (more than the ranks)", (hm_topo_options_t){100, 0});

    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
