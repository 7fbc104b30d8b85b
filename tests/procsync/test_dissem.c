/* tests/procsync/test_dissem.c — harmonia's dissemination barrier keeps
 * every rank inside until the last one has entered.
 *
 * All ranks read one CLOCK_MONOTONIC (origin agreed), so entry and exit
 * times are comparable exactly. In each of 20 rounds the ranks enter after
 * known delays (a different rank last each time, 0-12 ms apart); every
 * rank's exit must come after the last entry: the barrier's messages order
 * them, so no tolerance is needed, and a barrier that let a rank through
 * early would fail by milliseconds. Exits must also follow the last entry
 * within 250 ms: a functional bound against a barrier that waits for a
 * timeout rather than for the messages, not a precision one. With more
 * ranks than cores a round waits for scheduler slices: under MPICH's busy
 * polling, 3 and 4 ranks on 2 cores beside a compiler took 79 and 117 ms. */
#include <time.h>

#include <harmonia/procsync.h>
#include <harmonia/timer.h>

#include "testutil.h"

enum { ROUNDS = 20 };

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int rank, size;
    hm_timer_t *t = NULL;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    hm_timer_create("monotonic", NULL, &t);
    hm_timer_agree_origin(t, comm);
    double late_max = 0, first_gap = 1e9;
    int early = 0;
    for (int round = 0; round < ROUNDS; round++) {
        double times[2], all[2 * 64];
        int last = round % size; /* this rank enters last in this round */
        MPI_Barrier(comm);
        sleep_s(rank == last ? 0.012 : 0.001 * ((rank * 7 + round) % 5));
        times[0] = hm_timer_now(t);
        int rc = hm_procsync_dissem_barrier(comm);
        times[1] = hm_timer_now(t);
        if (rc != HM_OK) HM_CHECK(0, "round %d: the barrier returned %d", round, rc);
        MPI_Gather(times, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, comm);
        if (rank != 0 || size > 64) continue;
        double last_in = all[0];
        for (int r = 1; r < size; r++)
            if (all[2 * r] > last_in) last_in = all[2 * r];
        for (int r = 0; r < size; r++) {
            double gap = all[2 * r + 1] - last_in;
            early += gap < 0;
            if (gap < first_gap) first_gap = gap;
            if (gap > late_max) late_max = gap;
        }
    }
    if (rank == 0) {
        HM_CHECK(early == 0,
                 "%d ranks x %d rounds: no rank left before the last entered "
                 "(%d early exits; the first exit came %.3f us after the last entry)",
                 size, ROUNDS, early, first_gap * 1e6);
        HM_CHECK(late_max <= 0.25,
                 "every rank left within 250 ms of the last entry (latest %.1f us)",
                 late_max * 1e6);
    }
    hm_timer_free(t);
    MPI_Comm_free(&comm);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
