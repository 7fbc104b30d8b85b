/* bench/trace_call.c — the cost of one MPI call, for bench/trace_overhead.sh
 * to compare untraced and traced (libharmonia-trace.so preloaded): 5
 * rounds of N calls of MPI_Iprobe on a tag no one sends (a call that does
 * almost nothing of its own), each timed with CLOCK_MONOTONIC around the
 * loop; prints the median ns per call. A plain MPI program, like the
 * applications a tracer is preloaded into.
 *
 *   mpirun -n 1 build/bench/trace_call [N]   (default 1000000) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    double ns[5];
    int flag;
    for (int round = 0; round < 5; round++) {
        double t0 = now_s();
        for (long i = 0; i < n; i++)
            MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        ns[round] = (now_s() - t0) / (double)n * 1e9;
    }
    qsort(ns, 5, sizeof *ns, by_value);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("%.1f\n", ns[2]);
    MPI_Finalize();
    return 0;
}
