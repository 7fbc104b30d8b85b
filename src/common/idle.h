/* src/common/idle.h — waiting without spinning. A rank waiting for its turn
 * (a ping-pong partner busy with another rank) must leave the core to the
 * ranks that measure: with more ranks than cores, and with MPI libraries that
 * busy-poll (Debian's MPICH 4.0.2), a spinning waiter delays the measured
 * pair by whole scheduler slices. */
#ifndef HM_COMMON_IDLE_H
#define HM_COMMON_IDLE_H
#include <mpi.h>

/* Complete req, sleeping between tests (status may be MPI_STATUS_IGNORE).
 * Returns the MPI error code of MPI_Test. */
int hm__idle_wait(MPI_Request *req, MPI_Status *status);

/* MPI_Allreduce and MPI_Barrier that sleep while they wait (the
 * nonblocking collective completed by hm__idle_wait). Under SMPI the
 * blocking ones: a simulated rank holds no core, and SMPI's nonblocking
 * collectives cost the simulation O(p^2) per call (minutes at 1024 ranks).
 * Return the MPI error code. */
int hm__idle_allreduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm);
int hm__idle_barrier(MPI_Comm comm);
int hm__idle_scatter(const void *send, int send_count, MPI_Datatype send_type, void *recv,
                     int recv_count, MPI_Datatype recv_type, int root, MPI_Comm comm);

/* Sleep s seconds (>= 0), resuming after signals. */
void hm__idle_sleep(double s);

/* Receive a zero-byte "your turn" token from rank src of comm, sleeping. */
int hm__idle_wait_token(MPI_Comm comm, int src, int tag);
#endif
