/* src/trace/funcs.c — the registry of the functions a tracer records, in
 * MPI's names, from the list in trace.h (HM_TRACE_FUNCS): the ids are their
 * places there and are written in .events files. */
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
