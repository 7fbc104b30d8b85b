/* include/harmonia/error.h — status codes shared by every layer. */
#ifndef HARMONIA_ERROR_H
#define HARMONIA_ERROR_H
#include <harmonia/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function of the library returns HM_OK or one of these negative codes
 * (libuv style); results come back through out-parameters. */
typedef enum hm_status {
    HM_OK = 0,
    HM_EINVAL = -1,    /* an argument or option value is not acceptable */
    HM_ENOMEM = -2,    /* an allocation failed */
    HM_ENOTSUP = -3,   /* not supported on this platform or build */
    HM_EMPI = -4,      /* an MPI call failed */
    HM_EIO = -5,       /* a file could not be read or written */
    HM_ERANGE = -6,    /* a value is outside the representable range */
    HM_ENOENT = -7,    /* a name is not in its registry, or a file is missing */
    HM_EINTERNAL = -8, /* an invariant of the library was broken */
    HM_EAGAIN = -9,    /* too few valid repetitions before the attempts ran out */
    HM_EFAILED = -10   /* the work ran and did not succeed: a check or a measurement
                        * failed, a program it ran exited non-zero (the sentence
                        * says which) */
} hm_status_t;

/* The error convention of the whole library (docs/errors.md):
 *  - every function returns HM_OK or a negative HM_E* code, results come
 *    back through out-parameters;
 *  - where a failure has more to say than its code (a path, a value, a
 *    limit), the sentence is kept for the caller to ask for: on the handle
 *    where there is one (hm_csv_error, hm_csv_reader_error, ...), otherwise
 *    as the calling thread's last error (hm_last_error);
 *  - a collective function returns the same status on every rank and, when
 *    it fails, leaves the same last error on every rank. */

/* Human-readable text of a status code; never NULL. */
HM_EXPORT const char *hm_strerror(int status);

/* The sentence of the last failure of a library call on the calling thread
 * that had one to give, e.g. 'unknown algorithm "hca4" (known: skampi, ...)';
 * "" when the last failure gave none. A call that succeeds need not clear
 * it: read it right after the status says failure. Thread-local; never NULL;
 * valid until the thread's next library call. */
HM_EXPORT const char *hm_last_error(void);

/* Set the calling thread's last error to the printf-formatted sentence and
 * return status: for code built on the library that states its own
 * failures in the same currency (the harmonia program's option parsers:
 * HM_EINVAL with '"x" is not an integer (accepted: 1 to 8)'). An argument
 * may be hm_last_error() itself, to add to what a call said. */
HM_EXPORT int hm_error_set(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The exit status of a program whose work ended with status: 0 for HM_OK;
 * 2 (usage error) for input the caller gave that is not acceptable:
 * HM_EINVAL, HM_ENOENT and HM_ERANGE; 1 (runtime failure) for everything
 * else (HM_EFAILED among them). The harmonia program chooses its exit
 * status here and nowhere else. */
HM_EXPORT int hm_exit_status(int status);

#ifdef __cplusplus
}
#endif
#endif
