/* tests/trace/trace_app.c — an unchanged MPI program for the tracer's tests
 * (no harmonia in it): it starts with MPI_Init_thread, splits
 * MPI_COMM_WORLD, and calls MPI_Finalize from another function.
 *
 *   trace_app truth FILE ROUNDS GAP_S   ranks arrive at MPI_Allreduce at
 *       known true times: round k at T0 + k GAP_S + delay(rank, k), on
 *       CLOCK_MONOTONIC, which every rank of one machine shares; rank 0
 *       writes each rank's true entry (round,rank,true_entry_s) to FILE.
 *   trace_app flood N [PAUSE_S]         N calls of MPI_Iprobe per rank (a
 *       tracer's buffer fills and flushes many times), PAUSE_S apart (default
 *       0: a rank killed in the middle leaves ~8 M events a second of its
 *       peers, whose merge took 83 s here, past a loaded test's timeout).
 *   trace_app ring ROUNDS               each rank sends to the next and
 *       receives from any source with MPI_STATUS_IGNORE, through MPI_Probe
 *       and MPI_Recv (even rounds) or MPI_Recv alone (odd rounds). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double true_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A rank's injected delay in round k: 0 to 390 us, different by rank and
 * by round, so that the arrival order changes from round to round. */
static double delay_s(int rank, int k)
{
    return 1e-6 * (double)((rank * 137 + k * 53 + rank * k * 29) % 40) * 10;
}

static int truth(const char *path, int rounds, double gap_s, MPI_Comm split)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double t0 = true_now() + 0.05, x = 1, y = 0;
    MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double *mine = malloc((size_t)rounds * sizeof *mine);
    double *all = malloc((size_t)rounds * (size_t)size * sizeof *all);
    for (int k = 0; k < rounds; k++) {
        double at = t0 + k * gap_s + delay_s(rank, k);
        while (true_now() < at) continue;
        mine[k] = true_now();
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        /* The split communicator's collectives are matched too. */
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, split);
    }
    MPI_Gather(mine, rounds, MPI_DOUBLE, all, rounds, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int rc = 0;
    if (rank == 0) {
        FILE *f = fopen(path, "w");
        if (!f) return perror(path), 1;
        fprintf(f, "round,rank,true_entry_s\n");
        for (int r = 0; r < size; r++)
            for (int k = 0; k < rounds; k++)
                fprintf(f, "%d,%d,%.9f\n", k, r, all[(size_t)r * (size_t)rounds + (size_t)k]);
        rc = fclose(f) != 0;
    }
    free(mine), free(all);
    return rc;
}

static void flood(long n, double pause_s)
{
    int flag;
    struct timespec pause = {(time_t)pause_s, (long)((pause_s - (double)(time_t)pause_s) * 1e9)};
    for (long i = 0; i < n; i++) {
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (pause_s > 0) nanosleep(&pause, NULL);
    }
}

static void ring(int rounds)
{
    int rank, size, in = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int k = 0; k < rounds; k++) {
        MPI_Request req;
        MPI_Isend(&rank, 1, MPI_INT, (rank + 1) % size, k, MPI_COMM_WORLD, &req);
        if (k % 2 == 0) MPI_Probe(MPI_ANY_SOURCE, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}

/* MPI_Finalize outside main, as applications do in their clean-up code. */
static void finish(MPI_Comm *split)
{
    MPI_Comm_free(split);
    MPI_Finalize();
}

int main(int argc, char **argv)
{
    int provided, rank, rc = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm split;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &split);
    if (argc == 5 && !strcmp(argv[1], "truth"))
        rc = truth(argv[2], atoi(argv[3]), atof(argv[4]), split);
    else if ((argc == 3 || argc == 4) && !strcmp(argv[1], "flood"))
        flood(atol(argv[2]), argc == 4 ? atof(argv[3]) : 0.0);
    else if (argc == 3 && !strcmp(argv[1], "ring"))
        ring(atoi(argv[2]));
    else
        rc = 2, fprintf(stderr, "usage: trace_app truth FILE ROUNDS GAP_S | flood N [PAUSE_S] | "
                                "ring ROUNDS\n");
    MPI_Barrier(MPI_COMM_WORLD);
    finish(&split);
    return rc;
}
