/* bench/pattern_commit_mpi.c — hm_plan_commit against the MPI calls it is
 * made of, at P ranks, in the same rounds (bench/pattern_commit_mpi.sh).
 * On a 2-core machine the wall time of a commit at 4 and 8 ranks is the
 * scheduler's (bench/pattern_commit.sh): whether the commit does more than
 * O(P) work a rank shows instead in commit / its collectives alone, which
 * share the scheduler's delays, and in the cost of messages at fixed P.
 *
 * Each round runs, in a rotated order, each after an MPI_Barrier and timed
 * on every rank (the slowest rank's time counts):
 *   mpi-only  the collectives of a commit and nothing else: four agreements
 *             (MPI_Iallreduce of an int, waited for as hm_agree waits: a
 *             20 us poll, then 50 us naps), MPI_Alltoall of 3 uint64 per
 *             peer, MPI_Allreduce of a uint64, MPI_Comm_dup (src/pattern/plan.c);
 *   omni      hm_plan_commit of symmetric omni, n = P groups of 1 rank, 8 B
 *             (hm_generator_edges; every rank adds the whole pattern):
 *             P - 1 messages sent and received a rank;
 *   ring      hm_plan_commit of rank r to rank r + 1 (mod P), 1 message;
 *   ring-xM   the same with M messages a rank (default 1024) to r + 1.
 * Prints, per kind, the median and minimum over ROUNDS, the median over P,
 * and the median over mpi-only's.
 *
 *   mpirun -n P pattern_commit_mpi [ROUNDS [M]]   (default 51, 1024) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <harmonia/pattern.h>
#include <harmonia/stats.h>

enum { KINDS = 4 };
static const char *const kind_name[KINDS] = {"mpi-only", "omni", "ring", "ring-xM"};

/* As src/common/agree.c and src/common/idle.c: MIN of an int, polled 20 us,
 * then 50 us naps. */
static void agree(MPI_Comm comm)
{
    int mine = 0, all = 0, done = 0;
    MPI_Request req;
    MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm, &req);
    double until = MPI_Wtime() + 20e-6;
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done && MPI_Wtime() < until)
        continue;
    struct timespec nap = {0, 50000};
    while (!done && MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&nap, NULL);
}

/* The MPI calls of one hm_plan_commit; *dup is freed by the caller, untimed. */
static void collectives(int size, uint64_t *sent, uint64_t *got, MPI_Comm *dup)
{
    agree(MPI_COMM_WORLD);
    MPI_Alltoall(sent, 3, MPI_UINT64_T, got, 3, MPI_UINT64_T, MPI_COMM_WORLD);
    agree(MPI_COMM_WORLD);
    uint64_t mine = (uint64_t)size, total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    agree(MPI_COMM_WORLD);
    MPI_Comm_dup(MPI_COMM_WORLD, dup);
    agree(MPI_COMM_WORLD);
}

/* A fresh plan of kind (1..3), committed and timed (this rank's seconds). */
static int commit_kind(int kind, int rank, int size, int many, const hm_edges_t *omni,
                       hm_buffer_t **bufs, double *s)
{
    hm_plan_t *plan = NULL;
    int rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find("mpi"), &plan);
    if (rc == HM_OK && kind == 1) rc = hm_edges_add(omni, plan, bufs, 2);
    int n = kind == 2 ? 1 : many, to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int i = 0; rc == HM_OK && kind != 1 && i < n; i++) { /* this rank's messages only */
        rc = hm_plan_add(plan, bufs[0], (size_t)i * 8, bufs[1], (size_t)i * 8, 8, rank, to);
        if (rc == HM_OK)
            rc = hm_plan_add(plan, bufs[0], (size_t)i * 8, bufs[1], (size_t)i * 8, 8, from, rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rc == HM_OK) rc = hm_plan_commit(plan);
    *s = MPI_Wtime() - t0;
    hm_plan_free(plan);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, rc = HM_OK;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 51, many = argc > 2 ? atoi(argv[2]) : 1024;
    if (rounds < 1) rounds = 51;
    if (many < 1) many = 1024;
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "pattern_commit_mpi: needs 2 ranks or more\n");
        MPI_Finalize();
        return 2;
    }
    hm_group_params_t gp = {size, 1, 1, HM_DIRECTION_OMNI, 8};
    hm_edges_t omni = {0};
    rc = hm_generator_edges(hm_generator_find("symmetric"), &gp, &omni);
    size_t extent[2] = {0, 0};
    if (rc == HM_OK) hm_edges_extent(&omni, rank, extent);
    hm_buffer_t *bufs[2] = {NULL, NULL};
    for (int b = 0; rc == HM_OK && b < 2; b++) {
        size_t bytes = extent[b] > (size_t)many * 8 ? extent[b] : (size_t)many * 8;
        rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_HOST, bytes, &bufs[b]);
    }
    uint64_t *sent = calloc((size_t)size * 3, sizeof *sent),
             *got = malloc((size_t)size * 3 * sizeof *got);
    double *t = malloc((size_t)KINDS * (size_t)rounds * sizeof *t);
    if (rc == HM_OK && (!sent || !got || !t)) rc = HM_ENOMEM;
    for (int r = 0; rc == HM_OK && r < rounds; r++)
        for (int j = 0; rc == HM_OK && j < KINDS; j++) {
            int kind = (r + j) % KINDS;
            double mine = 0;
            if (kind == 0) {
                MPI_Comm dup;
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                collectives(size, sent, got, &dup);
                mine = MPI_Wtime() - t0;
                MPI_Comm_free(&dup);
            } else {
                rc = commit_kind(kind, rank, size, many, &omni, bufs, &mine);
            }
            MPI_Allreduce(&mine, &t[kind * rounds + r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        }
    double base = 0;
    for (int kind = 0; rc == HM_OK && kind < KINDS; kind++) {
        double *x = &t[kind * rounds];
        hm_stats_sort(x, (size_t)rounds);
        double med = hm_stats_quantile_sorted(x, (size_t)rounds, 0.5) * 1e6;
        if (kind == 0) base = med;
        int msgs = kind == 0 ? 0 : kind == 1 ? size - 1 : kind == 2 ? 1 : many;
        if (rank == 0)
            printf("%d\t%s\t%d\t%.2f\t%.2f\t%.3f\t%.3f\n", size, kind_name[kind], msgs, med,
                   x[0] * 1e6, med / size, med / base);
    }
    if (rc != HM_OK && rank == 0) fprintf(stderr, "pattern_commit_mpi: %s\n", hm_last_error());
    free(t), free(got), free(sent);
    hm_buffer_free(bufs[1]);
    hm_buffer_free(bufs[0]);
    hm_edges_free(&omni);
    MPI_Finalize();
    return rc == HM_OK ? 0 : 1;
}
