/* tests/sync/hier/pmpi_count.h — point-to-point messages per peer, counted
 * by interposing MPI's point-to-point calls (the PMPI profiling interface).
 *
 * Linked into a test executable, pmpi_count.c defines the MPI_ send and
 * receive functions (every blocking, nonblocking and combined form that
 * harmonia could call); each counts its message by the peer's rank in
 * MPI_COMM_WORLD and forwards to PMPI_. Collectives are not counted: Open MPI
 * and MPICH implement them on internal point-to-point layers (Open MPI's PML,
 * MPICH's MPIC_ functions), not on MPI_Send; the tests check this with
 * collectives run while counting. The counters are process-wide state, as
 * interposition needs. */
#ifndef HM_TEST_PMPI_COUNT_H
#define HM_TEST_PMPI_COUNT_H

/* Reset every counter and start counting; stop counting. */
void count_start(void);
void count_stop(void);

/* Messages this process sent to / receives it posted for world rank peer;
 * receives posted with MPI_ANY_SOURCE (not attributable to a peer). */
long count_sent(int peer);
long count_received(int peer);
long count_any_source(void);
#endif
