/* src/timer/posix.c — clock_gettime (MONOTONIC, MONOTONIC_RAW, REALTIME) and
 * gettimeofday. Readings are (seconds - origin) + fraction, computed in
 * integers first so a double keeps nanoseconds even for REALTIME. */
#include <sys/time.h>
#include <time.h>

#include "timer/timer_impl.h"

static int open_always(hm_timer_t *t, const hm_timer_options_t *o)
{
    (void)t, (void)o;
    return HM_OK;
}

static inline double read_clock(const hm_timer_t *t, clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return hm_timer_posix_reading(&ts, t->origin);
}

static int64_t origin_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec;
}

static double res_clock(clockid_t id)
{
    struct timespec ts;
    if (clock_getres(id, &ts) != 0) return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define CLOCK_SOURCE(var, label, id, mono)                                                         \
    static double read_##var(const hm_timer_t *t)                                                  \
    {                                                                                              \
        return read_clock(t, id);                                                                  \
    }                                                                                              \
    static int64_t origin_##var(const hm_timer_t *t)                                               \
    {                                                                                              \
        (void)t;                                                                                   \
        return origin_clock(id);                                                                   \
    }                                                                                              \
    static double res_##var(const hm_timer_t *t)                                                   \
    {                                                                                              \
        (void)t;                                                                                   \
        return res_clock(id);                                                                      \
    }                                                                                              \
    const hm__timer_source_t hm__timer_source_##var = {.name = label,                              \
                                                       .monotonic = mono,                          \
                                                       .open = open_always,                        \
                                                       .read = read_##var,                         \
                                                       .origin_now = origin_##var,                 \
                                                       .nominal_resolution = res_##var}

CLOCK_SOURCE(monotonic, "monotonic", CLOCK_MONOTONIC, 1);
CLOCK_SOURCE(monotonic_raw, "monotonic_raw", CLOCK_MONOTONIC_RAW, 1);
CLOCK_SOURCE(realtime, "realtime", CLOCK_REALTIME, 0);

static double read_gtod(const hm_timer_t *t)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)((int64_t)tv.tv_sec - t->origin) + (double)tv.tv_usec * 1e-6;
}

static int64_t origin_gtod(const hm_timer_t *t)
{
    (void)t;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec;
}

static double res_gtod(const hm_timer_t *t)
{
    (void)t;
    return 1e-6;
}

/* gettimeofday follows CLOCK_REALTIME: it can jump, so it is not monotonic. */
const hm__timer_source_t hm__timer_source_gettimeofday = {.name = "gettimeofday",
                                                          .monotonic = 0,
                                                          .open = open_always,
                                                          .read = read_gtod,
                                                          .origin_now = origin_gtod,
                                                          .nominal_resolution = res_gtod};

int hm_timer_posix_clock(const hm_timer_t *t, int *clock_id, int64_t *origin_s)
{
    if (!t) return hm__error_null(__func__, "timer");
    if (!clock_id) return hm__error_null(__func__, "clock_id");
    if (!origin_s) return hm__error_null(__func__, "origin_s");
    static const struct {
        const hm__timer_source_t *source;
        clockid_t id;
    } clocks[] = {{&hm__timer_source_monotonic, CLOCK_MONOTONIC},
                  {&hm__timer_source_monotonic_raw, CLOCK_MONOTONIC_RAW},
                  {&hm__timer_source_realtime, CLOCK_REALTIME}};
    for (size_t i = 0; !t->synthetic && i < sizeof clocks / sizeof *clocks; i++)
        if (t->source == clocks[i].source) {
            *clock_id = (int)clocks[i].id, *origin_s = t->origin;
            return HM_OK;
        }
    return hm__error_set(HM_ENOENT, "the %s timer%s is not a POSIX clock read as it is",
                         t->source->name, t->synthetic ? " (synthetic)" : "");
}
