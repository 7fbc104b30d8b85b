/* tools/harmonia-trace/tracer.h — the tracer's state and the calls the
 * wrappers make. One tracer per process: MPI itself is a process-wide
 * singleton, and PMPI interposition has no handle to carry state, so this
 * is the library's one piece of global mutable state outside a registry. */
#ifndef HM_TRACER_H
#define HM_TRACER_H

#include <stdint.h>

#include <mpi.h>

#include <harmonia/trace.h>

/* Non-zero while events are recorded: after the start synchronization of
 * MPI_Init, before the end one of MPI_Finalize, and not inside the
 * tracer's own MPI calls (the synchronizations use MPI through the same
 * symbols). */
int hm_tracer_on(void);

/* Local time now, on the tracer's timer (0 before MPI_Init and after
 * MPI_Finalize, when there is none). */
double hm_tracer_now(void);

/* peer of a call that has none (MPI_ANY_SOURCE and MPI_PROC_NULL are
 * negative ranks of their own). */
#define HM_TRACER_NO_PEER (-2147483647 - 1)

/* Record one call that ran from t0 to t1 (local). comm may be
 * MPI_COMM_NULL (waits); peer is a rank of comm, MPI_ANY_SOURCE,
 * MPI_PROC_NULL or HM_TRACER_NO_PEER; collective calls take the next
 * number of their communicator. */
void hm_tracer_record(int func, double t0, double t1, MPI_Comm comm, int peer, uint64_t bytes);

/* count elements of type, in bytes (0 for MPI_DATATYPE_NULL). */
uint64_t hm_tracer_bytes(int count, MPI_Datatype type);

/* The sum of counts[0..n) elements of type, in bytes. */
uint64_t hm_tracer_bytes_v(const int *counts, int n, MPI_Datatype type);

/* The size of comm (0 when it cannot be told). */
int hm_tracer_comm_size(MPI_Comm comm);

/* A communicator comm created from parent by a collective call (split,
 * dup, create): given its key, and its members as ranks of
 * MPI_COMM_WORLD, the same on every member. MPI_COMM_NULL is ignored. */
void hm_tracer_comm_created(MPI_Comm parent, MPI_Comm comm);

/* comm is about to be freed. */
void hm_tracer_comm_freed(MPI_Comm comm);

/* The thread level MPI_Init_thread was asked for (before hm_tracer_start). */
void hm_tracer_threads(int required);

/* MPI_Init's and MPI_Finalize's own work, around PMPI's. */
void hm_tracer_start(void);
void hm_tracer_stop(void);

#endif
