/* include/harmonia/procsync.h — process synchronization before each
 * measurement.
 *
 * This header starts with harmonia's own barrier; the methods selected by
 * --sync (barrier, dissem, window, roundtime, harmonize) and hm_harmonize
 * join it as they land. */
#ifndef HARMONIA_PROCSYNC_H
#define HARMONIA_PROCSYNC_H

#include <mpi.h>

#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The dissemination barrier (Hensgen, Finkel and Manber 1988) over
 * point-to-point messages: in round k = 0 .. ceil(log2 p) - 1, rank r sends
 * a zero-byte message to (r + 2^k) mod p and receives one from
 * (r - 2^k) mod p. After the last round every rank has heard, directly or
 * through others, from every rank, so none leaves before all have entered.
 * Its exit pattern is harmonia's own, the same under every MPI library, so
 * results synchronized with it compare across libraries whatever their
 * MPI_Barrier does. Collective over comm, any size (1 returns at once).
 * Uses its own tag; comm should be private to harmonia (a duplicate) so that
 * no user message can match. Returns HM_OK or HM_EMPI. */
int hm_procsync_dissem_barrier(MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
