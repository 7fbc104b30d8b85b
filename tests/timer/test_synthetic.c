/* tests/timer/test_synthetic.c — the synthetic clock seen through plain
 * ping-pongs, as a clock synchronization algorithm would see it.
 *
 * Every rank draws offset in +-1 s and drift in +-100 ppm (seed 7). Rank 0
 * measures, against each rank, the clock difference at the ping-pong with the
 * smallest round trip; it must equal the injected difference
 * (off_p - off_0) + (drift_p - drift_0) * T within 5 us, where T is the true
 * time. Two seconds later the observed difference must have moved by
 * (drift_p - drift_0) * 2 s within 5 us. 5 us: the error of a midpoint
 * estimate is at most half the round trip's asymmetry, and the smallest of 200
 * round trips is a few microseconds even with 4 ranks on 2 cores. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <harmonia/timer.h>

#include "testutil.h"

enum { EXCHANGES = 200 };

typedef struct observation {
    double offset_s; /* client minus root, at the best ping-pong */
    double truth_s;  /* true time of that ping-pong (root's midpoint) */
    double rtt_s;
} observation_t;

static observation_t observe(hm_timer_t *t, MPI_Comm comm, int peer)
{
    int rank;
    observation_t best = {0, 0, 1e9};
    MPI_Comm_rank(comm, &rank);
    for (int i = 0; i < EXCHANGES; i++) {
        double t0, t1 = 0, t2, u0, u2;
        if (rank == 0) {
            t0 = hm_timer_now_truth(t, &u0);
            MPI_Send(&t0, 1, MPI_DOUBLE, peer, 1, comm);
            MPI_Recv(&t1, 1, MPI_DOUBLE, peer, 1, comm, MPI_STATUS_IGNORE);
            t2 = hm_timer_now_truth(t, &u2);
            if (u2 - u0 < best.rtt_s)
                best = (observation_t){t1 - 0.5 * (t0 + t2), 0.5 * (u0 + u2), u2 - u0};
        } else if (rank == peer) {
            MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 1, comm, MPI_STATUS_IGNORE);
            t1 = hm_timer_now(t);
            MPI_Send(&t1, 1, MPI_DOUBLE, 0, 1, comm);
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_timer_options_t o = {.synthetic = 1,
                            .seed = 7,
                            .domain = rank,
                            .rank = rank,
                            .spec = {.offset_s = 1.0, .drift = 1e-4, .jitter_s = 0}};
    hm_timer_t *t = NULL;
    hm_timer_create("monotonic", &o, &t);
    hm_timer_agree_origin(t, MPI_COMM_WORLD);
    double draw[2], *draws = malloc(2 * sizeof(double) * (size_t)size);
    hm_timer_synthetic_draw(t, &draw[0], &draw[1]);
    MPI_Gather(draw, 2, MPI_DOUBLE, draws, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);

    observation_t first[64], later[64];
    for (int p = 1; p < size && p < 64; p++) {
        if (rank == 0 || rank == p) first[p] = observe(t, MPI_COMM_WORLD, p);
        hm_test_idle_barrier(MPI_COMM_WORLD);
    }
    sleep(2);
    for (int p = 1; p < size && p < 64; p++) {
        if (rank == 0 || rank == p) later[p] = observe(t, MPI_COMM_WORLD, p);
        hm_test_idle_barrier(MPI_COMM_WORLD);
    }

    for (int p = 1; rank == 0 && p < size && p < 64; p++) {
        double doff = draws[2 * p] - draws[0], ddrift = draws[2 * p + 1] - draws[1];
        double want = doff + ddrift * first[p].truth_s;
        HM_CHECK(fabs(first[p].offset_s - want) <= 5e-6,
                 "rank %d: observed offset %.9f s, injected %.9f s (error %.3f us, rtt %.2f us)", p,
                 first[p].offset_s, want, (first[p].offset_s - want) * 1e6, first[p].rtt_s * 1e6);
        double moved = later[p].offset_s - first[p].offset_s;
        double want_moved = ddrift * (later[p].truth_s - first[p].truth_s);
        HM_CHECK(fabs(moved - want_moved) <= 5e-6,
                 "rank %d: after %.2f s the offset moved %.3f us, drift predicts %.3f us "
                 "(error %.3f us)",
                 p, later[p].truth_s - first[p].truth_s, moved * 1e6, want_moved * 1e6,
                 (moved - want_moved) * 1e6);
    }
    free(draws);
    hm_timer_free(t);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
