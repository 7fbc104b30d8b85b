/* src/sync/agree.h — ranks of a synchronization ending on one status. */
#ifndef HM_SYNC_AGREE_H
#define HM_SYNC_AGREE_H
#include <stddef.h>

#include <mpi.h>

/* Longest sentence the ranks exchange when they agree on an error. */
#define HM_SYNC_WHY_MAX 256

/* Collective over comm: every rank returns the status rc of the lowest rank
 * whose rc is not HM_OK (HM_OK when there is none) and, where why is not
 * NULL, that rank's sentence (its why, at most HM_SYNC_WHY_MAX - 1 chars).
 * Waits sleeping (common/idle.h): ranks that finish early leave the cores to
 * the pairs still measuring. HM_EMPI when the agreement itself fails. */
int hm_sync_agree(MPI_Comm comm, int rc, char *why, size_t why_len);
#endif
