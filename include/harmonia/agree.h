/* include/harmonia/agree.h — ranks of a collective call ending on one status. */
#ifndef HARMONIA_AGREE_H
#define HARMONIA_AGREE_H
#include <mpi.h>

#include <harmonia/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm: every rank returns the status rc of the lowest rank
 * whose rc is not HM_OK (HM_OK when there is none) and takes that rank's
 * last error as its own (hm_last_error; when that rank had none to give,
 * "TEXT on rank R" with hm_strerror's text, or "status S on rank R" for a
 * positive status, so a failure that sets no sentence clears it first and
 * no rank is left with an empty one). Nothing is
 * set when every rank succeeded. Waits sleeping: ranks that finish early
 * leave the cores to the ranks still working. HM_EMPI when the agreement
 * itself fails. rc is any int with 0 for success, so a program agrees on
 * its exit statuses the same way. Call it before any communication that
 * depends on the outcome: no rank is left waiting in a collective. */
HM_EXPORT int hm_agree(MPI_Comm comm, int rc);

/* hm_agree, with sentence (NULL: the last error) as what the lowest failing
 * rank tells the others: for a caller whose sentence is its own, such as
 * a program's message about an option. */
HM_EXPORT int hm_agree_with(MPI_Comm comm, int rc, const char *sentence);

#ifdef __cplusplus
}
#endif
#endif
