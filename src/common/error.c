/* src/common/error.c — status code texts. */
#include <harmonia/error.h>

const char *hm_strerror(int status)
{
    switch (status) {
    case HM_OK:
        return "success";
    case HM_EINVAL:
        return "invalid argument";
    case HM_ENOMEM:
        return "out of memory";
    case HM_ENOTSUP:
        return "not supported";
    case HM_EMPI:
        return "MPI error";
    case HM_EIO:
        return "input/output error";
    case HM_ERANGE:
        return "value out of range";
    case HM_ENOENT:
        return "not found";
    case HM_EINTERNAL:
        return "internal error";
    case HM_EAGAIN:
        return "too few valid repetitions";
    default:
        return "unknown error";
    }
}
