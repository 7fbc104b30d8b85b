/* include/harmonia/mpix_harmonize.h — MPIX_Harmonize for code written
 * against the proof of concept of Schuchart et al. 2023
 * (https://github.com/devreal/mpix-harmonize):
 *
 *     int MPIX_Harmonize(MPI_Comm comm, int *flag);
 *
 * synchronizes the processes of comm in space and time; *flag = 1 when this
 * process met the agreed deadline, 0 when it arrived late (a local
 * property). Here it is hm_harmonize (procsync.h) and returns MPI_SUCCESS,
 * or MPI_ERR_OTHER when hm_harmonize fails. It is defined only when the MPI
 * library harmonia was built with does not declare MPIX_Harmonize itself
 * (HM_MPI_HAS_MPIX_HARMONIZE, decided at configure time); then the MPI
 * library's own is used. */
#ifndef HARMONIA_MPIX_HARMONIZE_H
#define HARMONIA_MPIX_HARMONIZE_H
#include <harmonia/export.h>
#include <mpi.h>
#include <harmonia/mpix_config.h>
#include <harmonia/harmonize.h>

#if !HM_MPI_HAS_MPIX_HARMONIZE
static inline int MPIX_Harmonize(MPI_Comm comm, int *flag)
{
    return hm_harmonize(comm, flag) == HM_OK ? MPI_SUCCESS : MPI_ERR_OTHER;
}
#endif
#endif
