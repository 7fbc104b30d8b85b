/* src/timer/domain.c — which clock a timer reads, so that clock propagation
 * can refuse to copy a clock model between processes that do not share one
 * (Hunold & Carpen-Amarie 2018, §IV-C: ClockPropSync is only correct on a common time source). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "timer/timer_impl.h"

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* The running kernel: processes of one machine (containers included) share
 * its clocks. Falls back to the host name where boot_id is not readable. */
static uint64_t machine_id(void)
{
    char id[128] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f || !fgets(id, sizeof id, f)) gethostname(id, sizeof id - 1);
    if (f) fclose(f);
    return fnv1a(0xcbf29ce484222325ULL, id, strlen(id));
}

uint64_t hm_timer_domain(const hm_timer_t *t)
{
    if (!t) {
        hm__error_null(__func__, "timer");
        return 0;
    }
    uint64_t h = machine_id();
    if (t->synthetic) {
        int64_t d = t->domain;
        h = fnv1a(h, "synthetic", 9);
        return fnv1a(h, &d, sizeof d);
    }
    if (t->source->per_process) {
        pid_t pid = getpid();
        return fnv1a(h, &pid, sizeof pid);
    }
    return h;
}
