/* bench/trace_call.c — the cost of MPI calls, for bench/trace_overhead.sh
 * to compare untraced and traced (libharmonia-trace.so preloaded): 5
 * rounds of N iterations of a loop, each round timed with CLOCK_MONOTONIC;
 * prints the median ns per iteration. A plain MPI program, like the
 * applications a tracer is preloaded into. Loops (one rank):
 *   iprobe    MPI_Iprobe on a tag no one sends: a call that does almost
 *             nothing of its own, and a poll that finds nothing
 *   request   MPI_Irecv, MPI_Send to itself, MPI_Wait: a request made,
 *             completed and tied to its wait
 *   polling   MPI_Irecv, 100 MPI_Test that complete nothing, MPI_Send to
 *             itself, MPI_Test until it completes: a polling loop (per
 *             iteration: 100 polls)
 *   testany   the same with MPI_Testany on that one request, as hpcc's
 *             RandomAccess polls (a call on an array of requests)
 *
 *   mpirun -n 1 build/bench/trace_call [N [LOOP]]   (1000000 iprobe) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void iprobe(void)
{
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static void request(void)
{
    int in = 0, out = 1;
    MPI_Request r;
    MPI_Irecv(&in, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
    MPI_Send(&out, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void polling(void)
{
    int in = 0, out = 1, flag = 0;
    MPI_Request r;
    MPI_Irecv(&in, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 100; i++) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
}

static void testany(void)
{
    int in = 0, out = 1, flag = 0, index;
    MPI_Request r;
    MPI_Irecv(&in, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 100; i++) MPI_Testany(1, &r, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    while (!flag) MPI_Testany(1, &r, &index, &flag, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    const char *loop = argc > 2 ? argv[2] : "iprobe";
    void (*body)(void) = !strcmp(loop, "request")   ? request
                         : !strcmp(loop, "polling") ? polling
                         : !strcmp(loop, "testany") ? testany
                                                    : iprobe;
    double ns[5];
    for (int round = 0; round < 5; round++) {
        double t0 = now_s();
        for (long i = 0; i < n; i++) body();
        ns[round] = (now_s() - t0) / (double)n * 1e9;
    }
    qsort(ns, 5, sizeof *ns, by_value);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("%.1f\n", ns[2]);
    MPI_Finalize();
    return 0;
}
