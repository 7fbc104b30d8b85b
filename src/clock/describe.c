/* src/clock/describe.c — one line naming a chain, for reports and result
 * files. */
#include <stdio.h>

#include "clock/clock_impl.h"
#include "common/error_set.h"

void hm_clock_describe(const hm_clock_t *clock, char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (len == 0) return;
    buf[0] = '\0';
    if (!clock) hm__error_null(__func__, "clock");
    size_t used = 0;
    for (const hm_clock_t *c = clock; c && used < len; c = c->base) {
        int n;
        size_t room = len - used;
        if (c->kind == HM_CLOCK_LINEAR)
            n = snprintf(buf + used, room, "linear(s=%.6g,i=%.6g) <- ", c->lm.slope,
                         c->lm.intercept);
        else if (c->kind == HM_CLOCK_OFFSET)
            n = snprintf(buf + used, room, "offset(i=%.6g) <- ", c->lm.intercept);
        else
            n = snprintf(buf + used, room, "%s", hm_timer_name(c->timer));
        if (n < 0) return;
        used += (size_t)n;
    }
}
