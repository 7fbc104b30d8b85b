/* src/trace/funcs.c — the registry of the functions a tracer records, in
 * MPI's names, from the list in trace.h (HM_TRACE_FUNCS): the ids are their
 * places there and are written in .events files. */
#include <fnmatch.h>
#include <string.h>

#include <harmonia/trace.h>

#include "common/error_set.h"

typedef struct func {
    const char *name;
    hm_trace_class_t class;
} func_t;

#define HM_TRACE_ENTRY_(name, class) {"MPI_" #name, HM_TRACE_CLASS_##class},
static const func_t funcs[] = {HM_TRACE_FUNCS(HM_TRACE_ENTRY_)};
#undef HM_TRACE_ENTRY_

enum { NFUNCS = sizeof funcs / sizeof funcs[0] };

int hm_trace_func_count(void)
{
    return NFUNCS;
}

const char *hm_trace_func_name(int func)
{
    return func >= 0 && func < NFUNCS ? funcs[func].name : NULL;
}

hm_trace_class_t hm_trace_func_class(int func)
{
    return func >= 0 && func < NFUNCS ? funcs[func].class : HM_TRACE_CLASS_TRACER;
}

int hm_trace_func_find(const char *name, int *func)
{
    if (!func) return hm__error_null(__func__, "func");
    for (int i = 0; name && i < NFUNCS; i++)
        if (!strcmp(funcs[i].name, name)) return *func = i, HM_OK;
    return hm__error_set(HM_ENOENT, "\"%s\" is not a traced function", name ? name : "");
}

/* Set selected[f] to value for each function matching a pattern of the
 * comma-separated list; HM_EINVAL for a pattern that matches none. */
static int mark(const char *list, unsigned char *selected, unsigned char value)
{
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        char pattern[128];
        if (n == 0 || n >= sizeof pattern)
            return hm__error_set(HM_EINVAL, "\"%.*s\" is not a function pattern", (int)n, p);
        memcpy(pattern, p, n);
        pattern[n] = '\0';
        int hits = 0;
        for (int f = 0; f < NFUNCS; f++)
            if (fnmatch(pattern, funcs[f].name, 0) == 0) selected[f] = value, hits++;
        if (!hits)
            return hm__error_set(HM_EINVAL,
                                 "\"%s\" matches no traced function (e.g. MPI_Test*, "
                                 "MPI_Allreduce)",
                                 pattern);
        p += n + (p[n] == ',');
    }
    return HM_OK;
}

int hm_trace_func_select(const char *include, const char *exclude, unsigned char *selected)
{
    if (!selected) return hm__error_null(__func__, "selected");
    int all = !include || !*include;
    memset(selected, all, NFUNCS);
    int st = all ? HM_OK : mark(include, selected, 1);
    if (st == HM_OK && exclude) st = mark(exclude, selected, 0);
    /* The tracer's own flushes are recorded whatever the patterns say. */
    selected[HM_TRACE_MPI_T_flush] = 1;
    return st;
}
