/* bench/pattern_commit.c — what hm_plan_commit costs against the rank count
 * (issue 14: linear in P, not quadratic). Two patterns at P ranks: a ring
 * (one message per rank, whatever P) and every rank to every other (P - 1
 * per rank), each added whole by every rank, as a generator's user does.
 * Each commit starts after a barrier and is timed on every rank; the
 * slowest rank's time counts, the median over ROUNDS commits is printed with
 * its quotient by P.
 *
 *   mpirun -n P build/bench/pattern_commit [ROUNDS]   (default 31) */
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/pattern.h>
#include <harmonia/stats.h>

/* One commit of a fresh plan, timed (this rank). */
static int commit_once(int size, int all, hm_buffer_t *src, hm_buffer_t *dst, double *s)
{
    hm_plan_t *plan = NULL;
    int rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find("mpi"), &plan);
    for (int a = 0; rc == HM_OK && a < size; a++)
        for (int b = 0; rc == HM_OK && b < size; b++)
            if (all ? a != b : b == (a + 1) % size)
                rc = hm_plan_add(plan, src, (size_t)b * 8, dst, (size_t)a * 8, 8, a, b);
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
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 31, rc = HM_OK;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rounds < 1) rounds = 31;
    hm_buffer_t *src = NULL, *dst = NULL;
    rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_HOST, (size_t)size * 8, &src);
    if (rc == HM_OK) rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_HOST, (size_t)size * 8, &dst);
    double *t = malloc((size_t)rounds * sizeof *t);
    for (int all = 0; rc == HM_OK && t && all < 2; all++) {
        for (int r = 0; rc == HM_OK && r < rounds; r++) {
            double mine;
            rc = commit_once(size, all, src, dst, &mine);
            MPI_Allreduce(&mine, &t[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        }
        hm_stats_sort(t, (size_t)rounds);
        double med = hm_stats_quantile_sorted(t, (size_t)rounds, 0.5);
        if (rank == 0 && rc == HM_OK)
            printf("%d\t%s\t%d\t%.2f\t%.3f\n", size, all ? "all-to-all" : "ring",
                   all ? size - 1 : 1, med * 1e6, med * 1e6 / size);
    }
    if (rc != HM_OK && rank == 0) fprintf(stderr, "pattern_commit: %s\n", hm_last_error());
    free(t);
    hm_buffer_free(dst);
    hm_buffer_free(src);
    MPI_Finalize();
    return rc == HM_OK ? 0 : 1;
}
