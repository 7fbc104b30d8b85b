/* src/common/comm_check.h — the check every public function that takes a
 * communicator makes first: MPI must be usable and the communicator real,
 * or MPI's default error handler would abort the process (issue 31). */
#ifndef HM_COMMON_COMM_CHECK_H
#define HM_COMMON_COMM_CHECK_H
#include <mpi.h>

/* HM_OK, or the status with its sentence naming fn (the caller's __func__):
 * HM_EMPI before MPI_Init and after MPI_Finalize, HM_EINVAL for
 * MPI_COMM_NULL. Local: a collective whose ranks disagree on comm still
 * waits for the ranks that passed a real one. */
int hm__comm_check(MPI_Comm comm, const char *fn);
#endif
