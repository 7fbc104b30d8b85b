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
    HM_EAGAIN = -9     /* too few valid repetitions before the attempts ran out */
} hm_status_t;

/* Human-readable text of a status code; never NULL. */
HM_EXPORT const char *hm_strerror(int status);

#ifdef __cplusplus
}
#endif
#endif
