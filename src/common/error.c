/* src/common/error.c — status code texts. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include <harmonia/error.h>

#include "common/error_set.h"

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
    case HM_EFAILED:
        return "failed";
    default:
        return "unknown error";
    }
}

static _Thread_local char last_error[HM_ERROR_MAX];

const char *hm_last_error(void)
{
    return last_error;
}

int hm_error_set(int status, const char *fmt, ...)
{
    if (!fmt) return hm__error_null(__func__, "fmt");
    /* Formatted aside first: an argument may be hm_last_error() itself
     * ("%s (operation %s)", hm_last_error(), ...), and vsnprintf into the
     * buffer it reads from emptied the sentence. */
    char sentence[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, ap);
    va_end(ap);
    memcpy(last_error, sentence, sizeof last_error);
    return status;
}

void hm__error_clear(void)
{
    last_error[0] = '\0';
}

int hm__error_null(const char *fn, const char *arg)
{
    return hm__error_set(HM_EINVAL, "%s: %s is NULL", fn, arg);
}

int hm__error_nomem(const char *fn)
{
    return hm__error_set(HM_ENOMEM, "%s: out of memory", fn);
}

int hm__error_mpi(const char *fn, const char *call)
{
    return hm__error_set(HM_EMPI, "%s: %s failed", fn, call);
}

int hm__mpi_status(int mpi_rc, const char *fn, const char *call)
{
    if (mpi_rc == MPI_SUCCESS) return HM_OK;
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(mpi_rc, text, &len) != MPI_SUCCESS) text[0] = '\0';
    return hm__error_set(HM_EMPI, "%s: %s failed: %s", fn, call,
                         text[0] ? text : "an MPI error code");
}

int hm_exit_status(int status)
{
    switch (status) {
    case HM_OK:
        return 0;
    case HM_EINVAL:
    case HM_ENOENT:
    case HM_ERANGE:
        return 2;
    default:
        return 1;
    }
}
