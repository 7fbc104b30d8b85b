/* src/common/memory.c — page-aligned buffers (memory.h). */
#include "common/memory.h"

#include <stdlib.h>

void *hm__page_alloc(size_t bytes)
{
    void *p = NULL;
    return posix_memalign(&p, HM_PAGE_BYTES, bytes ? bytes : 1) == 0 ? p : NULL;
}
