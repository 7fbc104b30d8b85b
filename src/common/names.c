/* src/common/names.c — registry name lists for help and error texts. */
#include "common/names.h"

#include <stdio.h>

void hm__join_names(const char *(*name_at)(size_t), size_t n, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0) return;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name_at(i));
        if (k >= 0 && (size_t)k < len - used) {
            used += (size_t)k;
            continue;
        }
        /* A name cut short reads as another name ("uni-in" as "uni-i"):
         * the list ends before it, and says that it goes on. */
        buf[used] = '\0';
        if (len - used > 5) snprintf(buf + used, len - used, "%s...", used ? ", " : "");
        break;
    }
}
