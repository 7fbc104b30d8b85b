/* src/offset/registry.c — the offset algorithms known to --offset. Adding
 * one is a file and a line here. */
#include <string.h>

#include "common/names.h"
#include "common/error_set.h"
#include "offset/offset_impl.h"

typedef struct hm_offset_algorithm {
    const char *name;
    hm_offset_kind_t kind;
    hm_offset_fn measure;
} hm_offset_algorithm_t;

/* Indexed by kind. */
static const hm_offset_algorithm_t algorithms[] = {
    {"skampi", HM_OFFSET_SKAMPI, hm__offset_skampi},
    {"meanrtt", HM_OFFSET_MEANRTT, hm__offset_meanrtt},
};
enum { NALGORITHMS = sizeof algorithms / sizeof algorithms[0] };

const char *hm_offset_name(hm_offset_kind_t kind)
{
    return (unsigned)kind < NALGORITHMS ? algorithms[kind].name : NULL;
}

int hm_offset_find(const char *name, hm_offset_kind_t *kind)
{
    char known[64];
    if (!name) return hm__error_null(__func__, "name");
    for (size_t i = 0; i < NALGORITHMS; i++)
        if (strcmp(algorithms[i].name, name) == 0) {
            if (kind) *kind = algorithms[i].kind; /* NULL: only a check of the name */
            return HM_OK;
        }
    hm_offset_names(known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown offset algorithm \"%s\" (known: %s)", name, known);
}

static const char *name_at(size_t i)
{
    return algorithms[i].name;
}

void hm_offset_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(name_at, NALGORITHMS, buf, len);
}

hm_offset_fn hm__offset_function(hm_offset_kind_t kind)
{
    return (unsigned)kind < NALGORITHMS ? algorithms[kind].measure : NULL;
}
