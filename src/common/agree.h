/* src/common/agree.h — ranks of a collective call ending on one status. */
#ifndef HM_COMMON_AGREE_H
#define HM_COMMON_AGREE_H
#include <stddef.h>

#include <mpi.h>

/* Collective over comm: every rank returns the status rc of the lowest rank
 * whose rc is not HM_OK (HM_OK when there is none) and takes that rank's
 * last error as its own (hm_last_error; "" when that rank had none to
 * give, so a failure that sets no sentence clears it first). Nothing is
 * set when every rank succeeded. Waits sleeping (common/idle.h): ranks that
 * finish early leave the cores to the pairs still measuring. HM_EMPI when
 * the agreement itself fails. */
int hm_agree(MPI_Comm comm, int rc);
#endif
