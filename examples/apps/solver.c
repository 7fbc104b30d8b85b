/* examples/apps/solver.c — a small iterative solver dominated by
 * MPI_Allreduce of 8 bytes, like the AMG2013 case of Hunold & Carpen-Amarie
 * 2018 (Fig. 10): conjugate gradients on the 1-D Poisson problem
 * -u'' = 1 on (0, 1), u(0) = u(1) = 0, N interior points split across the
 * ranks. Each iteration exchanges one halo value with each neighbour
 * (MPI_Sendrecv) and reduces two dot products (MPI_Allreduce of one
 * double). A plain MPI program, no harmonia in it: what `harmonia trace`
 * is for (README.md, docs/trace.md).
 *
 *   mpirun -n P solver [POINTS_PER_RANK] [MAX_ITERATIONS]   (default 256, 2000)
 * Prints the iterations, the residual and the error against the exact
 * solution u(x) = x (1 - x) / 2. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct grid {
    int n;        /* points of this rank */
    long first;   /* global index of its first point (1-based) */
    long total;   /* interior points of all ranks */
    double h;     /* spacing */
    int up, down; /* neighbour ranks (MPI_PROC_NULL at the ends) */
} grid_t;

/* y = A x for A = tridiag(-1, 2, -1) / h^2, with the neighbours' halo. */
static void apply(const grid_t *g, const double *x, double *y)
{
    double left = 0, right = 0;
    MPI_Sendrecv(&x[g->n - 1], 1, MPI_DOUBLE, g->up, 0, &left, 1, MPI_DOUBLE, g->down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, g->down, 1, &right, 1, MPI_DOUBLE, g->up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < g->n; i++) {
        double l = i ? x[i - 1] : left, r = i < g->n - 1 ? x[i + 1] : right;
        y[i] = (2 * x[i] - l - r) / (g->h * g->h);
    }
}

static double dot(const grid_t *g, const double *a, const double *b)
{
    double local = 0, global = 0;
    for (int i = 0; i < g->n; i++) local += a[i] * b[i];
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

/* Conjugate gradients from x = 0 for A x = 1 until the residual is 1e-10
 * of the first; the iterations it took. */
static int cg(const grid_t *g, double *x, int max_iterations, double *residual)
{
    double *r = malloc((size_t)g->n * sizeof *r), *p = malloc((size_t)g->n * sizeof *p),
           *q = malloc((size_t)g->n * sizeof *q);
    for (int i = 0; i < g->n; i++) x[i] = 0, r[i] = 1, p[i] = 1;
    double rr = dot(g, r, r), stop = 1e-20 * rr; /* |r| below 1e-10 |r0| */
    int k = 0;
    for (; k < max_iterations && rr > stop; k++) {
        apply(g, p, q);
        double alpha = rr / dot(g, p, q);
        for (int i = 0; i < g->n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
        double rr_new = dot(g, r, r);
        for (int i = 0; i < g->n; i++) p[i] = r[i] + rr_new / rr * p[i];
        rr = rr_new;
    }
    *residual = sqrt(rr);
    free(r), free(p), free(q);
    return k;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 256, iterations = argc > 2 ? atoi(argv[2]) : 2000;
    if (n < 1 || iterations < 1) {
        if (rank == 0) fprintf(stderr, "usage: solver [POINTS_PER_RANK >= 1] [ITERATIONS >= 1]\n");
        MPI_Finalize();
        return 2;
    }
    grid_t g = {n,
                (long)rank * n + 1,
                (long)size * n,
                0,
                rank + 1 < size ? rank + 1 : MPI_PROC_NULL,
                rank > 0 ? rank - 1 : MPI_PROC_NULL};
    g.h = 1.0 / (double)(g.total + 1);
    double *x = malloc((size_t)n * sizeof *x), residual = 0, err = 0, max_err = 0;
    int k = cg(&g, x, iterations, &residual);
    for (int i = 0; i < n; i++) {
        double at = (double)(g.first + i) * g.h, e = fabs(x[i] - at * (1 - at) / 2);
        if (e > err) err = e;
    }
    MPI_Reduce(&err, &max_err, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("solver: %ld points on %d ranks, %d iterations, residual %.3g, max error %.3g\n",
               g.total, size, k, residual, max_err);
    free(x);
    MPI_Finalize();
    return 0;
}
