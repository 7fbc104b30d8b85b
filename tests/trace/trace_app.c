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
 *       and MPI_Recv (even rounds) or MPI_Recv alone (odd rounds).
 *   trace_app many ROUNDS               20 receives from any source and 20
 *       sends to the next rank a round, completed by one MPI_Waitall (even
 *       rounds) or MPI_Testsome until done (odd), statuses ignored.
 *   trace_app patterns ROUNDS           on a periodic Cartesian grid of the
 *       ranks, each round: MPI_Sendrecv and MPI_Sendrecv_replace with the
 *       neighbours; MPI_Irecv from any source with any tag, completed by
 *       MPI_Waitall (statuses ignored); persistent requests (MPI_Startall);
 *       MPI_Mprobe and MPI_Mrecv; an MPI_Irecv polled with MPI_Testany; a
 *       neighbourhood alltoall, an allreduce on a MPI_Cart_sub row. Each
 *       step ends with a barrier on the grid, so that a receive from any
 *       source takes its own step's message. 7 messages a rank a round.
 *   trace_app bursts                    on rank 0, bursts of K = 1, 15, 16,
 *       17 and 40 unsuccessful MPI_Test, 1 ms apart, each ended by the test
 *       that completes the request (a message to itself); prints per burst
 *       "burst K LO_S HI_S": the span the burst's event must have on the
 *       local clock if its exit is that of poll J = 1 + 16 floor((K - 1) / 16)
 *       (the last one the tracer timed, docs/trace.md), from the app's own
 *       readings: LO from after poll 1 to before poll J, HI from before
 *       poll 1 to after poll J.
 *   trace_app objects                   a communicator of every kind, each
 *       used by a collective: MPI_Comm_idup, MPI_Comm_create_group (the
 *       even ranks), an intercommunicator between the even and the odd
 *       ranks (MPI_Intercomm_create; its two leaders exchange a message,
 *       then a barrier over both groups) merged again (MPI_Intercomm_merge),
 *       a ring as a distributed graph (MPI_Neighbor_allgather), a window
 *       (MPI_Win_allocate; fences around an MPI_Put to the next rank) and a file written
 *       collectively (MPI_File_write_at_all, in the working directory).
 *   trace_app rma ROUNDS                one-sided communication on a window
 *       of MPI_COMM_WORLD (MPI_Win_allocate), each round: between two
 *       fences an MPI_Put to the next rank and an MPI_Get from the one
 *       before; under an exclusive lock of the next rank an
 *       MPI_Accumulate and an MPI_Compare_and_swap, flushed by
 *       MPI_Win_flush, then an MPI_Fetch_and_op before the unlock; under
 *       MPI_Win_lock_all an MPI_Rget from the rank before completed by
 *       MPI_Wait, and an MPI_Get_accumulate flushed by MPI_Win_flush_all.
 *       Per rank a round: 5 operations to the next rank and 2 from the
 *       one before, 7 in all, each completed once.
 *   trace_app io ROUNDS                 MPI-IO on a file of MPI_COMM_WORLD
 *       (trace_app_io.tmp in the working directory, created, deleted at
 *       the end), each round at the rank's own offsets: MPI_File_write_at,
 *       MPI_File_read_at, MPI_File_write_at_all, MPI_File_iwrite after an
 *       MPI_File_seek (completed by MPI_Wait), MPI_File_sync: 5 operations
 *       of 4 bytes (the sync none) a rank a round, one nonblocking. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
/* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which GCC takes for an
 * array of size 0 in MPI_Waitall; the program passes it on purpose (the
 * tracer must supply statuses of its own). */
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
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

enum { UNTIMED_EVERY = 16 }; /* tools/harmonia-trace/tracer.h: HM_TRACER_UNTIMED_MAX */

static void burst(int k)
{
    double before[41], after[41];
    int in = 0, out = 1, flag = 0;
    struct timespec ms = {0, 1000000};
    MPI_Request r;
    MPI_Irecv(&in, 1, MPI_INT, 0, 100 + k, MPI_COMM_SELF, &r);
    for (int p = 1; p <= k; p++) {
        if (p > 1) nanosleep(&ms, NULL);
        before[p] = true_now();
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        after[p] = true_now();
    }
    MPI_Send(&out, 1, MPI_INT, 0, 100 + k, MPI_COMM_SELF);
    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    int j = 1 + UNTIMED_EVERY * ((k - 1) / UNTIMED_EVERY);
    printf("burst %d %.9f %.9f\n", k, before[j] - after[1], after[j] - before[1]);
}

/* ROUNDS rounds of MANY receives from any source and MANY sends to the
 * next rank, one tag a round, completed together: by MPI_Waitall in even
 * rounds, by MPI_Testsome until all are done in odd ones (more requests
 * than a tracer's call keeps on its stack). */
enum { MANY = 20 };
static void many(int rounds)
{
    int rank, size, in[MANY], out[MANY];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int k = 0; k < rounds; k++) {
        MPI_Request r[2 * MANY];
        for (int i = 0; i < MANY; i++) {
            out[i] = rank;
            MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, k, MPI_COMM_WORLD, &r[i]);
        }
        for (int i = 0; i < MANY; i++)
            MPI_Isend(&out[i], 1, MPI_INT, (rank + 1) % size, k, MPI_COMM_WORLD, &r[MANY + i]);
        if (k % 2 == 0) {
            MPI_Waitall(2 * MANY, r, MPI_STATUSES_IGNORE);
            continue;
        }
        int idx[2 * MANY];
        for (int left = 2 * MANY, got = 0; left > 0; left -= got)
            MPI_Testsome(2 * MANY, r, &got, idx, MPI_STATUSES_IGNORE);
    }
}

static void bursts(void)
{
    static const int sizes[] = {1, 15, 16, 17, 40};
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (size_t i = 0; rank == 0 && i < sizeof sizes / sizeof sizes[0]; i++) burst(sizes[i]);
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

/* One round of patterns on the grid cart (left and right: the
 * neighbours along dimension 0); pers: a persistent send and receive. */
static void patterns_round(MPI_Comm cart, int left, int right, MPI_Request pers[2], int k)
{
    int rank, a = 0, b = 0, in[2], out[4] = {0}, back[4];
    MPI_Comm_rank(cart, &rank);
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 10, &a, 1, MPI_INT, left, 10, cart, MPI_STATUS_IGNORE);
    b = rank;
    MPI_Sendrecv_replace(&b, 1, MPI_INT, left, 11, right, 11, cart, MPI_STATUS_IGNORE);
    MPI_Barrier(cart);
    MPI_Request r[4];
    MPI_Irecv(&in[0], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, cart, &r[0]);
    MPI_Irecv(&in[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, cart, &r[1]);
    MPI_Isend(&rank, 1, MPI_INT, left, 20 + k % 3, cart, &r[2]);
    MPI_Isend(&rank, 1, MPI_INT, right, 30 + k % 5, cart, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    MPI_Barrier(cart);
    MPI_Startall(2, pers);
    MPI_Waitall(2, pers, MPI_STATUSES_IGNORE);
    MPI_Barrier(cart);
    MPI_Message msg;
    MPI_Isend(&rank, 1, MPI_INT, right, 40, cart, &r[0]);
    MPI_Mprobe(MPI_ANY_SOURCE, 40, cart, &msg, MPI_STATUS_IGNORE);
    MPI_Mrecv(&a, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Barrier(cart);
    int index, flag = 0;
    MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 50, cart, &r[0]);
    MPI_Send(&rank, 1, MPI_INT, left, 50, cart);
    while (!flag) MPI_Testany(1, r, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Neighbor_alltoall(out, 1, MPI_INT, back, 1, MPI_INT, cart);
    MPI_Barrier(cart);
}

static void patterns(int rounds)
{
    int size, dims[2] = {0, 0}, periods[2] = {1, 1}, left, right, rank, a = 0, x = 1, y;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_shift(cart, 0, 1, &left, &right);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_sub(cart, (int[]){1, 0}, &row);
    MPI_Request pers[2];
    MPI_Send_init(&rank, 1, MPI_INT, right, 60, cart, &pers[0]);
    MPI_Recv_init(&a, 1, MPI_INT, left, 60, cart, &pers[1]);
    for (int k = 0; k < rounds; k++) {
        patterns_round(cart, left, right, pers, k);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, row);
    }
    MPI_Request_free(&pers[0]);
    MPI_Request_free(&pers[1]);
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
}

static void intercomm(int rank, int size)
{
    MPI_Comm half, inter, merged;
    int x = 1, y, lrank;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &lrank);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 5, &inter);
    if (lrank == 0)
        MPI_Sendrecv(&x, 1, MPI_INT, 0, 6, &y, 1, MPI_INT, 0, 6, inter, MPI_STATUS_IGNORE);
    MPI_Barrier(inter);
    MPI_Intercomm_merge(inter, rank % 2, &merged);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    (void)size;
}

static void windows_and_files(int rank, int size)
{
    int *buf, one = 1;
    MPI_Win win;
    /* Memory MPI allocates: with MPI_Win_create over two ints on this
     * function's stack, MPICH 4.0 (untraced too) put the value into the
     * window's handle beside them, and MPI_Win_free failed; not
     * understood, a standalone copy of the same calls worked. */
    MPI_Win_allocate(2 * sizeof *buf, sizeof *buf, MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&one, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "trace_app_objects.tmp", MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    MPI_File_write_at_all(fh, (MPI_Offset)(rank * sizeof rank), &rank, 1, MPI_INT,
                          MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete("trace_app_objects.tmp", MPI_INFO_NULL);
}

static void objects(void)
{
    int rank, size, x = 1, y, got[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup, evens = MPI_COMM_NULL, ring;
    MPI_Request req;
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, dup);
    MPI_Group world, even;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(world, 1, range, &even);
    if (rank % 2 == 0) {
        MPI_Comm_create_group(MPI_COMM_WORLD, even, 7, &evens);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, evens);
        MPI_Comm_free(&evens);
    }
    MPI_Group_free(&even);
    MPI_Group_free(&world);
    intercomm(rank, size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int weight = 1; /* MPI_UNWEIGHTED is a sentinel GCC takes for an empty array */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &weight, 1, &right, &weight,
                                   MPI_INFO_NULL, 0, &ring);
    MPI_Neighbor_allgather(&x, 1, MPI_INT, got, 1, MPI_INT, ring);
    MPI_Comm_free(&ring);
    windows_and_files(rank, size);
    MPI_Comm_free(&dup);
}

static void rma(int rounds)
{
    int rank, size, *buf, one = 1, got = 0, old = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Win win;
    MPI_Request req;
    MPI_Win_allocate(4 * sizeof *buf, sizeof *buf, MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    for (int k = 0; k < rounds; k++) {
        MPI_Win_fence(0, win);
        MPI_Put(&one, 1, MPI_INT, next, 0, 1, MPI_INT, win);
        MPI_Get(&got, 1, MPI_INT, prev, 1, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win);
        MPI_Accumulate(&one, 1, MPI_INT, next, 2, 1, MPI_INT, MPI_SUM, win);
        MPI_Compare_and_swap(&one, &old, &got, MPI_INT, next, 3, win);
        MPI_Win_flush(next, win);
        MPI_Fetch_and_op(&one, &got, MPI_INT, next, 2, MPI_SUM, win);
        MPI_Win_unlock(next, win);
        MPI_Win_lock_all(0, win);
        MPI_Rget(&got, 1, MPI_INT, prev, 0, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, next, 2, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_flush_all(win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

static void io(int rounds)
{
    int rank, size, x, y = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_File fh;
    MPI_Request req;
    MPI_File_open(MPI_COMM_WORLD, "trace_app_io.tmp", MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    for (int k = 0; k < rounds; k++) {
        /* Three ints a rank a round, each rank's apart from the others'. */
        MPI_Offset at = (MPI_Offset)((k * size + rank) * 3 * (int)sizeof x);
        x = k;
        MPI_File_write_at(fh, at, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_read_at(fh, at, &y, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_write_at_all(fh, at + (MPI_Offset)sizeof x, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_seek(fh, at + 2 * (MPI_Offset)sizeof x, MPI_SEEK_SET);
        MPI_File_iwrite(fh, &x, 1, MPI_INT, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_File_sync(fh);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete("trace_app_io.tmp", MPI_INFO_NULL);
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
    else if (argc == 3 && !strcmp(argv[1], "patterns"))
        patterns(atoi(argv[2]));
    else if (argc == 2 && !strcmp(argv[1], "objects"))
        objects();
    else if (argc == 2 && !strcmp(argv[1], "bursts"))
        bursts();
    else if (argc == 3 && !strcmp(argv[1], "rma"))
        rma(atoi(argv[2]));
    else if (argc == 3 && !strcmp(argv[1], "io"))
        io(atoi(argv[2]));
    else if (argc == 3 && !strcmp(argv[1], "many"))
        many(atoi(argv[2]));
    else
        rc = 2, fprintf(stderr, "usage: trace_app truth FILE ROUNDS GAP_S | flood N [PAUSE_S] | "
                                "ring ROUNDS | patterns ROUNDS | objects | bursts | rma ROUNDS | "
                                "io ROUNDS | many ROUNDS\n");
    MPI_Barrier(MPI_COMM_WORLD);
    finish(&split);
    return rc;
}
