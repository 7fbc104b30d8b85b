/* tests/pattern/test_baseline.c — the MPI collective baselines of the
 * pattern layer, at 2, 3 and 4 ranks:
 *   - the rule (which collective a group pattern has) against cases worked
 *     out from docs/pattern.md by hand;
 *   - MPI_Scatter, MPI_Alltoall and MPI_Alltoallv (unequal counts and
 *     self-messages; a small list where at 3 ranks rank 2 receives nothing
 *     and at 4 ranks rank 3 takes no part) measured with validation: every
 *     received byte equals its sender's hm_pattern_byte at the sender's
 *     offset, so a block from the wrong rank or place would count;
 *   - a corrupted received byte is counted, once;
 *   - the bytes moved between distinct ranks, against hand counts;
 *   - refusals before any allocation, with the same status and sentence on
 *     every rank, also where only some ranks find the fault: a pair above
 *     MPI's int count (one edge, or two that add up), a displacement above
 *     it (3 ranks and more: at 2 every displacement is one pair's count),
 *     a rank outside the communicator. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/experiment.h>
#include <harmonia/pattern.h>

#include "testutil.h"

enum { NREP = 10 };

static void check_rule(void)
{
    const hm_generator_t *rail = hm_generator_find("rail"), *asym = hm_generator_find("asymmetric"),
                         *sym = hm_generator_find("symmetric"), *self = hm_generator_find("self");
    struct {
        const hm_generator_t *gen;
        hm_group_params_t p;
        hm_baseline_kind_t want;
    } cases[] = {
        {asym, {2, 3, 1, HM_DIRECTION_UNI, 8}, HM_BASELINE_SCATTER},
        {asym, {4, 2, 1, HM_DIRECTION_UNI, 8}, HM_BASELINE_SCATTER},
        {rail, {4, 1, 1, HM_DIRECTION_UNI, 8}, HM_BASELINE_SCATTER},
        {sym, {3, 1, 1, HM_DIRECTION_UNI, 8}, HM_BASELINE_SCATTER},
        {asym, {2, 3, 1, HM_DIRECTION_BI, 8}, HM_BASELINE_NONE},
        {asym, {2, 3, 2, HM_DIRECTION_UNI, 8}, HM_BASELINE_NONE},
        {sym, {3, 2, 2, HM_DIRECTION_OMNI, 8}, HM_BASELINE_ALLTOALL},
        {sym, {2, 2, 2, HM_DIRECTION_BI, 8}, HM_BASELINE_ALLTOALL},
        {asym, {3, 2, 2, HM_DIRECTION_OMNI, 8}, HM_BASELINE_ALLTOALL},
        {rail, {4, 1, 1, HM_DIRECTION_OMNI, 8}, HM_BASELINE_ALLTOALL},
        {sym, {3, 2, 2, HM_DIRECTION_BI, 8}, HM_BASELINE_NONE},
        {sym, {3, 2, 1, HM_DIRECTION_OMNI, 8}, HM_BASELINE_NONE},
        {rail, {2, 2, 2, HM_DIRECTION_OMNI, 8}, HM_BASELINE_NONE},
        {self, {2, 1, 1, HM_DIRECTION_UNI, 8}, HM_BASELINE_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hm_baseline_kind_t got = hm_baseline_for_group(cases[i].gen, &cases[i].p);
        HM_CHECK(got == cases[i].want, "%s (%d, %d, %d) %s: \"%s\" (want \"%s\")",
                 hm_generator_name(cases[i].gen), cases[i].p.n, cases[i].p.g, cases[i].p.k,
                 hm_direction_name(cases[i].p.direction), hm_baseline_name(got),
                 hm_baseline_name(cases[i].want));
    }
}

/* Unequal counts: rank r sends 100 + 7 r + 3 d bytes to every d != r + 1
 * (mod P), so each rank has a peer it sends nothing to, and itself. */
static int vedges(int size, hm_edges_t *e, uint64_t *total)
{
    e->edge = calloc((size_t)size * (size_t)size, sizeof *e->edge);
    e->n = 0, e->nranks = size, e->nbufs = 2, *total = 0;
    if (!e->edge) return HM_ENOMEM;
    for (int s = 0; s < size; s++)
        for (int d = 0; d < size; d++) {
            if (size > 1 && d == (s + 1) % size) continue;
            size_t bytes = 100 + 7 * (size_t)s + 3 * (size_t)d;
            e->edge[e->n++] = (hm_edge_t){s, d, 0, 1, 0, 0, bytes};
            *total += bytes;
        }
    return HM_OK;
}

/* The small list: 0 -> 1 100 B, 1 -> 0 7 B, and at 3 ranks and
 * more 2 -> 0 3 B: rank 0 receives 7 + 3 B packed in rank order. */
static int small_edges(int size, hm_edges_t *e, uint64_t *total)
{
    static const hm_edge_t all[] = {
        {0, 1, 0, 1, 0, 0, 100}, {1, 0, 0, 1, 0, 0, 7}, {2, 0, 0, 1, 0, 0, 3}};
    e->n = size > 2 ? 3 : 2, e->nranks = size, e->nbufs = 2;
    e->edge = malloc(e->n * sizeof *e->edge);
    if (!e->edge) return HM_ENOMEM;
    memcpy(e->edge, all, e->n * sizeof *e->edge);
    *total = size > 2 ? 110 : 107;
    return HM_OK;
}

/* Every rank's edges of a block: scatter (0 to all) or alltoall. */
static int block_edges(int size, int all, size_t bytes, hm_edges_t *e)
{
    e->edge = calloc((size_t)size * (size_t)size, sizeof *e->edge);
    e->n = 0, e->nranks = size, e->nbufs = 2;
    if (!e->edge) return HM_ENOMEM;
    for (int s = 0; s < (all ? size : 1); s++)
        for (int d = 0; d < size; d++)
            if (d != s) e->edge[e->n++] = (hm_edge_t){s, d, 0, 1, 0, 0, bytes};
    return HM_OK;
}

static void measure(hm_experiment_t *e, hm_baseline_kind_t kind, const hm_edges_t *edges,
                    uint64_t want_bytes)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hm_baseline_t *b = NULL;
    int rc = hm_baseline_create(MPI_COMM_WORLD, kind, edges, &b);
    HM_CHECK(rc == HM_OK, "%s: create: %s", hm_baseline_name(kind), hm_last_error());
    if (rc != HM_OK) return;
    HM_CHECK(hm_baseline_bytes(b) == want_bytes, "%s: %llu bytes moved (want %llu)",
             hm_baseline_name(kind), (unsigned long long)hm_baseline_bytes(b),
             (unsigned long long)want_bytes);
    hm_measure_params_t mp;
    hm_measure_params_default(&mp);
    mp.nrep = NREP, mp.warmup = 2, mp.validate = 1;
    hm_measure_result_t res;
    uint64_t wrong = 1;
    rc = hm_baseline_measure(b, hm_experiment_procsync(e), &mp, &res, &wrong);
    HM_CHECK(rc == HM_OK && res.nvalid == NREP && wrong == 0 && res.wrong_results == 0,
             "%s: %ld valid of %d, %llu wrong bytes (%s)", hm_baseline_name(kind),
             rc == HM_OK ? res.nvalid : 0, NREP, (unsigned long long)wrong,
             rc == HM_OK ? "" : hm_last_error());
    if (rc == HM_OK) hm_measure_result_free(&res);
    /* One byte corrupted on the last rank that receives, after a run:
     * counted, once. */
    hm_baseline_fill(b);
    rc = hm_baseline_run(b);
    size_t len = 0;
    unsigned char *recv = hm_baseline_recv_buffer(b, &len);
    int receiver = len > 0 ? rank : -1, last = -1;
    MPI_Allreduce(&receiver, &last, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == last) recv[len / 2] ^= 0x5a;
    uint64_t mine = hm_baseline_check(b), all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    HM_CHECK(rc == HM_OK && all == 1, "%s: a corrupted byte counted %llu times (want 1)",
             hm_baseline_name(kind), (unsigned long long)all);
    hm_baseline_free(b);
}

/* Edges refused by every rank alike with want, nothing allocated (the
 * counts would ask for 2 GiB and more). */
static void check_refused(const char *what, hm_edge_t *edge, size_t n, const char *want)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_edges_t e = {edge, n, size, 2};
    hm_baseline_t *b = (hm_baseline_t *)&e;
    int rc = hm_baseline_create(MPI_COMM_WORLD, HM_BASELINE_ALLTOALLV, &e, &b);
    HM_CHECK(rc == HM_EINVAL && b == NULL && strcmp(hm_last_error(), want) == 0,
             "%s refused: %d \"%s\" (want \"%s\")", what, rc, hm_last_error(), want);
}

static void check_refusals(void)
{
    int size;
    char want[160];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* One edge: every rank sees it. */
    hm_edge_t big[] = {{0, 0, 0, 1, 0, 0, (size_t)INT_MAX + 1}};
    check_refused("a 2 GiB pair", big, 1,
                  "MPI_Alltoallv: 2147483648 bytes from rank 0 to rank 0 exceed its int count "
                  "(2147483647)");
    /* Two halves of the pair 0 -> 1 (hand-built: a file refuses duplicates):
     * found by ranks 0 and 1 (and, as a displacement, by the ranks above). */
    hm_edge_t halves[] = {{0, 1, 0, 1, 0, 0, (size_t)1 << 30}, {0, 1, 0, 1, 0, 0, (size_t)1 << 30}};
    check_refused("two halves of 2 GiB", halves, 2,
                  "MPI_Alltoallv: 2147483648 bytes from rank 0 to rank 1 exceed its int count "
                  "(2147483647)");
    /* Rank 0's block for rank 2 starts after INT_MAX bytes: found by ranks 0
     * and 2 only, rank 1 (and 3) learn it from the agreement. */
    hm_edge_t displ[] = {
        {0, 0, 0, 1, 0, 0, (size_t)INT_MAX}, {0, 1, 0, 1, 0, 0, 1}, {0, 2, 0, 1, 0, 0, 1}};
    if (size >= 3)
        check_refused("a displacement beyond INT_MAX", displ, 3,
                      "MPI_Alltoallv: rank 0's data for rank 2 would start at byte 2147483648 "
                      "of its send buffer, beyond its int displacement (2147483647)");
    hm_edge_t outside[] = {{0, 1, 0, 1, 0, 0, 8}, {-1, 0, 0, 1, 0, 0, 8}};
    snprintf(want, sizeof want,
             "MPI_Alltoallv: a message from rank -1 to rank 0 names a rank outside the %d "
             "ranks of the communicator",
             size);
    check_refused("rank -1", outside, 2, want);
    outside[1] = (hm_edge_t){0, size, 0, 1, 0, 0, 8};
    snprintf(want, sizeof want,
             "MPI_Alltoallv: a message from rank 0 to rank %d names a rank outside the %d "
             "ranks of the communicator",
             size, size);
    check_refused("rank P", outside, 2, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rule();
    hm_experiment_params_t p;
    hm_experiment_t *e = NULL;
    hm_test_functional_experiment(&p); /* bytes and counts, not start times */
    p.sync.fitpoints = 200;
    int rc = hm_experiment_open(MPI_COMM_WORLD, &p, &e, NULL);
    HM_CHECK(rc == HM_OK, "experiment open: %s", hm_last_error());
    hm_edges_t edges = {0};
    uint64_t total = 0;
    if (rc == HM_OK && block_edges(size, 0, 1000, &edges) == HM_OK)
        measure(e, HM_BASELINE_SCATTER, &edges, (uint64_t)(size - 1) * 1000);
    hm_edges_free(&edges);
    if (rc == HM_OK && block_edges(size, 1, 777, &edges) == HM_OK)
        measure(e, HM_BASELINE_ALLTOALL, &edges, (uint64_t)size * (size - 1) * 777);
    hm_edges_free(&edges);
    if (rc == HM_OK && vedges(size, &edges, &total) == HM_OK)
        measure(e, HM_BASELINE_ALLTOALLV, &edges, total);
    hm_edges_free(&edges);
    if (rc == HM_OK && small_edges(size, &edges, &total) == HM_OK)
        measure(e, HM_BASELINE_ALLTOALLV, &edges, total);
    hm_edges_free(&edges);
    check_refusals();
    hm_experiment_close(e);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
