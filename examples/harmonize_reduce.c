/* examples/harmonize_reduce.c — an MPI_Reduce micro-benchmark synchronized
 * with MPIX_Harmonize, written like Listing 1 of [Schuchart et al. 2023]: each iteration starts
 * with MPIX_Harmonize, so that every process enters MPI_Reduce at the same time; every CHECK_EVERY
 * iterations one MPI_Allreduce (logical and) tells which iterations were synchronized on every
 * process, and the others are discarded. Unlike the listing it reduces all check_idx + 1 flags of a
 * chunk (the listing drops the last one), and it retries until NVALID valid iterations or MAX_ITER
 * iterations.
 *
 * Usage: mpirun -n 4 example_harmonize_reduce [NVALID]
 * Exit status 0 when NVALID valid iterations were measured. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <harmonia/mpix_harmonize.h>

enum { CHECK_EVERY = 16, NVALID = 200, MAX_ITER = 100 * NVALID };

int main(int argc, char **argv)
{
    int rank, size, check_flags[CHECK_EVERY], valid_iterations = 0, i, failed = 0;
    double check_time[CHECK_EVERY], wtime = 0.0, in = 1.0, out = 0.0;
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int nvalid = argc > 1 ? atoi(argv[1]) : NVALID;
    if (nvalid < 1) nvalid = NVALID;
    for (i = 0; i < MAX_ITER && valid_iterations < nvalid && !failed; ++i) {
        int flag, check_idx = i % CHECK_EVERY;
        /* synchronize in space and time */
        if (MPIX_Harmonize(comm, &flag) != MPI_SUCCESS) failed = 1;
        /* take measurement */
        double begin = MPI_Wtime();
        MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
        check_time[check_idx] = MPI_Wtime() - begin;
        check_flags[check_idx] = flag && !failed;
        if (i == MAX_ITER - 1 || check_idx == CHECK_EVERY - 1) {
            /* discard invalid timings: all check_idx + 1 flags of the chunk */
            MPI_Allreduce(MPI_IN_PLACE, check_flags, check_idx + 1, MPI_INT, MPI_LAND, comm);
            for (int k = 0; k <= check_idx; ++k) {
                if (check_flags[k]) { /* valid on every process */
                    wtime += check_time[k];
                    valid_iterations++;
                }
            }
            MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, comm);
        }
    }
    double avg = valid_iterations ? wtime / valid_iterations : 0.0, max_avg = 0.0;
    MPI_Reduce(&avg, &max_avg, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    int ok = !failed && valid_iterations >= nvalid;
    if (rank == 0) {
        printf("MPI_Reduce, 1 double, %d processes: %.3f us (slowest process's mean over "
               "%d valid of %d iterations)\n",
               size, max_avg * 1e6, valid_iterations, i);
        if (!ok)
            fprintf(stderr, "harmonize_reduce: %s\n",
                    failed ? "MPIX_Harmonize failed" : "too few valid iterations");
    }
    MPI_Finalize();
    return ok ? 0 : 1;
}
