/* tests/procsync/harmonize/skew.c — see skew.h. */
#include "skew.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank quantile of sorted v[0..n-1]. */
static double quantile(const double *v, int n, double q)
{
    int i = (int)ceil(q * n) - 1;
    return v[i < 0 ? 0 : i];
}

static void summarize_root(const double *exit_s, const int *flag, const double *other_exit,
                           const int *other_flag, int n, double *skews, skew_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (flag[i] && other_flag[i]) skews[k++] = fabs(exit_s[i] - other_exit[i]);
    qsort(skews, (size_t)k, sizeof *skews, cmp_double);
    *out = (skew_t){.n = n, .valid = k};
    if (k == 0) return;
    out->median_s = quantile(skews, k, 0.5);
    out->p90_s = quantile(skews, k, 0.9);
    out->p99_s = quantile(skews, k, 0.99);
    out->max_s = skews[k - 1];
}

int skew_summarize(MPI_Comm comm, const double *exit_s, const int *flag, int n, skew_t *out)
{
    int rank, ok, all_ok;
    MPI_Comm_rank(comm, &rank);
    size_t m = (size_t)(n > 0 ? n : 1);
    double *other_exit = malloc(m * sizeof *other_exit), *skews = malloc(m * sizeof *skews);
    int *other_flag = malloc(m * sizeof *other_flag);
    ok = other_exit && skews && other_flag;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm);
    if (all_ok && rank == 1) {
        MPI_Send(exit_s, n, MPI_DOUBLE, 0, 0, comm);
        MPI_Send(flag, n, MPI_INT, 0, 1, comm);
    } else if (all_ok && rank == 0) {
        MPI_Recv(other_exit, n, MPI_DOUBLE, 1, 0, comm, MPI_STATUS_IGNORE);
        MPI_Recv(other_flag, n, MPI_INT, 1, 1, comm, MPI_STATUS_IGNORE);
        summarize_root(exit_s, flag, other_exit, other_flag, n, skews, out);
    }
    if (all_ok) MPI_Bcast(out, (int)sizeof *out, MPI_BYTE, 0, comm);
    free(other_exit);
    free(skews);
    free(other_flag);
    return all_ok ? 0 : -1;
}
