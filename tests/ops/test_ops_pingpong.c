/* tests/ops/test_ops_pingpong.c — functional sanity of the pingpong run at
 * 8 B on 2 ranks: a round trip takes some time (> 0) and, on shared memory,
 * far less than 1 ms (typically ~1 us; 1 ms only catches a run that waits
 * on something else). Not a timed test: the fastest of 100 runs is used. */
#include <harmonia/ops.h>

#include "testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hm_op_params_t par = {.root = 0, .peer = 1};
    hm_op_instance_t *inst = NULL;
    int rc = hm_op_prepare(hm_op_find("pingpong"), MPI_COMM_WORLD, 8, &par, &inst);
    HM_CHECK(rc == HM_OK, "prepare pingpong 8 B: status %d (%s)", rc, hm_last_error());
    double best = 1e9;
    int bad = 0;
    for (int i = 0; rc == HM_OK && i < 100; i++) {
        int ok = 0;
        double t0 = MPI_Wtime();
        bad += hm_op_run(inst) != HM_OK;
        double t = MPI_Wtime() - t0;
        best = t < best ? t : best;
        hm_op_validate(inst, &ok);
        bad += !ok;
    }
    HM_CHECK(bad == 0, "100 pingpong runs and validations: %d failures", bad);
    if (rank == 0)
        HM_CHECK(best > 0 && best < 1e-3, "fastest round trip at 8 B: %.3f us (0 < t < 1000 us)",
                 best * 1e6);
    hm_op_free(inst);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
