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

/* Room for one sentence, terminating zero included: paths are part of many
 * sentences, so PATH_MAX plus the words around it. */
enum { HM_ERROR_MAX = 4608 };
#endif
