/* src/overlap/progress.c — the progress configuration of an overlap run
 * [Denis et al. 2022, §5.1: a progress thread of the MPI library, or a
 * core left to it], read from the MPI library's own control variables
 * through the MPI tool interface: an environment variable the library
 * does not know (Open MPI 4.1 has no opal_async_progress) turns nothing
 * on, and a result must not claim it did. */
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/overlap.h>

#include "common/error_set.h"

/* The library's asynchronous progress switches, first found wins:
 * MPICH's; Open MPI's generic thread (ompi PR #13088, Open MPI 6) and its
 * synonym; Open MPI's TCP BTL thread (btl_tcp_progress_thread, since 2.0),
 * which progresses TCP traffic only. */
static const struct switch_var {
    const char *cvar, *env, *scope;
} SWITCHES[] = {
    {"MPIR_CVAR_ASYNC_PROGRESS", "MPIR_CVAR_ASYNC_PROGRESS", ""},
    {"opal_async_progress", "OMPI_MCA_opal_async_progress", ""},
    {"mpi_async_progress", "OMPI_MCA_mpi_async_progress", ""},
    {"btl_tcp_progress_thread", "OMPI_MCA_btl_tcp_progress_thread", ", TCP traffic only"},
};
enum { NSWITCHES = sizeof SWITCHES / sizeof SWITCHES[0] };

#if HM_SMPI
/* SimGrid's SMPI has no MPI tool interface and no progress thread: every
 * simulated rank progresses its communication in its own MPI calls. */
static int read_cvar(const char *name, int *found, long *value)
{
    (void)name, (void)value;
    *found = 0;
    return HM_OK;
}
#define MPI_T_init_thread(required, provided) (*(provided) = (required), MPI_SUCCESS)
#define MPI_T_finalize()                      ((void)0)
#else
/* *found = 1 and *value when the library has the integer variable name. */
static int read_cvar(const char *name, int *found, long *value)
{
    int index, count;
    *found = 0;
    if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS) return HM_OK;
    char cname[256], desc[8];
    int nlen = sizeof cname, dlen = sizeof desc, verbosity, bind, scope;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    MPI_T_cvar_handle handle;
    if (MPI_T_cvar_get_info(index, cname, &nlen, &verbosity, &type, &enumtype, desc, &dlen, &bind,
                            &scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT)
        return HM_OK;
    if (MPI_T_cvar_handle_alloc(index, NULL, &handle, &count) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "MPI_T: no handle for %s", name);
    union {
        int i;
        unsigned u;
        long l;
        _Bool b;
        char bytes[32];
    } buf = {0};
    int got = count == 1 && MPI_T_cvar_read(handle, &buf) == MPI_SUCCESS;
    MPI_T_cvar_handle_free(&handle);
    if (!got) return hm__error_set(HM_EMPI, "MPI_T: cannot read %s", name);
    if (type == MPI_INT)
        *value = buf.i;
    else if (type == MPI_C_BOOL)
        *value = buf.b;
    else if (type == MPI_UNSIGNED)
        *value = (long)buf.u;
    else if (type == MPI_LONG || type == MPI_UNSIGNED_LONG)
        *value = buf.l;
    else
        return HM_OK; /* not a switch */
    *found = 1;
    return HM_OK;
}
#endif

/* The first switch asked for in the environment whose variable the
 * library lacks, for the text. */
static const struct switch_var *asked_but_absent(const int *present)
{
    for (int i = 0; i < NSWITCHES; i++) {
        const char *v = getenv(SWITCHES[i].env);
        if (!present[i] && v && v[0] && !(v[0] == '0' && v[1] == '\0')) return &SWITCHES[i];
    }
    return NULL;
}

int hm_overlap_progress(int free_cores, hm_overlap_progress_kind_t *kind, char *text, size_t len)
{
    int provided, present[NSWITCHES] = {0};
    if (!kind) return hm__error_null(__func__, "kind");
    if (!text) return hm__error_null(__func__, "text");
    if (len == 0)
        return hm__error_set(HM_EINVAL, "%s: len 0 leaves no room for the text", __func__);
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "MPI_T_init_thread failed");
    int rc = HM_OK, on = -1;
    long value = 0;
    for (int i = 0; i < NSWITCHES && rc == HM_OK && on < 0; i++) {
        rc = read_cvar(SWITCHES[i].cvar, &present[i], &value);
        if (present[i] && value != 0) on = i;
    }
    MPI_T_finalize();
    if (rc != HM_OK) return rc;
    const struct switch_var *absent = asked_but_absent(present);
    char note[160] = "";
    if (absent)
        snprintf(note, sizeof note, "; %s is set but this MPI library has no %s", absent->env,
                 absent->cvar);
    if (on >= 0) {
        *kind = HM_OVERLAP_PROGRESS_ASYNC;
        snprintf(text, len, "async (%s=%ld%s%s)", SWITCHES[on].cvar, value, SWITCHES[on].scope,
                 note);
    } else if (free_cores > 0) {
        *kind = HM_OVERLAP_PROGRESS_DEDICATED;
        snprintf(text, len, "dedicated core (%d core%s left free%s)", free_cores,
                 free_cores == 1 ? "" : "s", note);
    } else {
        *kind = HM_OVERLAP_PROGRESS_BASIC;
        snprintf(text, len, "basic%s%s%s", note[0] ? " (" : "", note[0] ? note + 2 : "",
                 note[0] ? ")" : "");
    }
    return HM_OK;
}
