/* src/common/error_set.h — how the library sets the calling thread's last
 * error (harmonia/error.h): every layer reports a failure's sentence with
 * hm__error_set and returns its status. */
#ifndef HM_COMMON_ERROR_SET_H
#define HM_COMMON_ERROR_SET_H
#include <stddef.h>

#include <harmonia/error.h>

/* Keep the printf-formatted sentence as the thread's last error and return
 * status, so that a failure reads `return hm__error_set(HM_EINVAL, ...)`:
 * the public hm_error_set, under the name the layers use. */
#define hm__error_set hm_error_set

/* Forget the last error (before a call whose failure may carry none). */
void hm__error_clear(void);

/* A NULL pointer or handle argument of a public function (the library's
 * contract, docs/errors.md): HM_EINVAL with the sentence "FN: ARG is NULL",
 * e.g. `if (!out) return hm__error_null(__func__, "out");`. A function
 * that returns a value instead of a status calls it for the sentence and
 * returns its neutral value. */
int hm__error_null(const char *fn, const char *arg);

/* Out of memory in fn (its __func__): HM_ENOMEM with the sentence
 * "FN: out of memory", e.g. `if (!p) return hm__error_nomem(__func__);`. */
int hm__error_nomem(const char *fn);

/* An MPI call failed in fn: HM_EMPI with the sentence "FN: CALL failed"
 * (call: the MPI function, e.g. "MPI_Allreduce"). */
int hm__error_mpi(const char *fn, const char *call);

/* HM_OK when mpi_rc is MPI_SUCCESS; else HM_EMPI with the sentence
 * "FN: CALL failed: " and MPI's own text of the code, e.g.
 * `return hm__mpi_status(MPI_Bcast(...), __func__, "MPI_Bcast");`. (Under
 * MPI's default handler, MPI_ERRORS_ARE_FATAL, a failing call aborts before
 * it returns; a communicator with MPI_ERRORS_RETURN gets here.) */
int hm__mpi_status(int mpi_rc, const char *fn, const char *call);

/* Room for one sentence, terminating zero included: paths are part of many
 * sentences, so PATH_MAX plus the words around it. */
enum { HM_ERROR_MAX = 4608 };
#endif
