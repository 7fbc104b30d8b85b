/* include/harmonia/timer.h — local time sources, chosen at run time.
 *
 * A timer reads one local time source (MPI_Wtime, clock_gettime, gettimeofday
 * or the x86-64 TSC) and returns seconds since the timer's origin as a
 * double. Readings are taken relative to an integer origin so that a double
 * keeps sub-nanosecond precision even for CLOCK_REALTIME; ranks that agree on
 * one origin (hm_timer_agree_origin) read directly comparable values when the
 * source itself is shared (monotonic, realtime, tsc on one machine).
 *
 * The synthetic source is the test bed: on top of a real source it adds a
 * per-rank offset, a drift (relative rate error) and Gaussian jitter drawn
 * from a seed, and it exposes the true (underlying) time beside the
 * synthetic one so that tests can measure errors against the truth. */
#ifndef HARMONIA_TIMER_H
#define HARMONIA_TIMER_H
#include <harmonia/export.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <mpi.h>

#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_timer hm_timer_t;

/* Parameters of a synthetic clock. Each clock domain (a rank, or a node whose
 * ranks share one clock) draws its offset uniformly in [-offset_s, offset_s]
 * and its drift in [-drift, drift] from (seed, domain); jitter_s is the
 * standard deviation of Gaussian noise added to every read. Reading at true
 * time t (seconds since the origin) gives
 *   t * (1 + drift_domain) + offset_domain + N(0, jitter_s). */
typedef struct hm_synthetic_spec {
    double offset_s;
    double drift;
    double jitter_s;
} hm_synthetic_spec_t;

typedef struct hm_timer_options {
    double tsc_ghz;           /* tsc only: fixed frequency; 0 = read from the system */
    int synthetic;            /* non-zero: wrap the source in a synthetic clock */
    hm_synthetic_spec_t spec; /* used when synthetic is set */
    uint64_t seed;            /* synthetic draws */
    int domain;               /* synthetic: the clock domain whose draw this process takes
                               * (its rank, or its node index when the ranks of a node
                               * share one clock, as on virtual nodes, topo.h) */
    int rank;                 /* synthetic: stream of this process's jitter */
    const char *cpuinfo_path; /* tsc: the file with the CPU flags and frequency;
                               * NULL = /proc/cpuinfo (tests give a made-up one) */
} hm_timer_options_t;

/* What hm_timer_measure observed of a source. */
typedef struct hm_timer_quality {
    double resolution_s;         /* smallest positive step seen between reads */
    double nominal_resolution_s; /* what the source claims (clock_getres, MPI_Wtick, 1/f) */
    double overhead_s;           /* median cost of one read */
    long decreases;              /* reads that went backwards */
    int monotonic_claimed;       /* the source promises never to go backwards */
} hm_timer_quality_t;

/* Number of registered time sources and the name of the i-th
 * ("wtime", "monotonic", "monotonic_raw", "realtime", "gettimeofday", "tsc"). */
HM_EXPORT size_t hm_timer_count(void);
HM_EXPORT const char *hm_timer_name_at(size_t i);

/* Comma-separated list of the registered names into buf, for help and error
 * texts ("wtime, monotonic, ..."). */
HM_EXPORT void hm_timer_names(char *buf, size_t len);

/* Create a timer over the source called name (opts may be NULL for defaults).
 * Returns HM_ENOENT for an unknown name, with the last error naming it and
 * the known sources; HM_ENOTSUP when the source cannot be used here (tsc
 * without constant_tsc/nonstop_tsc, or not x86-64), with the last error
 * saying why it was refused; HM_EINVAL for bad options (the wtime source
 * before MPI is initialized), with the last error saying which; HM_ENOMEM. */
HM_EXPORT int hm_timer_create(const char *name, const hm_timer_options_t *opts, hm_timer_t **out);

/* Release a timer (NULL is accepted). */
HM_EXPORT void hm_timer_free(hm_timer_t *timer);

/* Seconds since the timer's origin (synthetic time for a synthetic timer). */
HM_EXPORT double hm_timer_now(hm_timer_t *timer);

/* Like hm_timer_now, and *truth_s receives the true time of the same read:
 * the underlying real source for a synthetic timer, the reading itself
 * otherwise. */
HM_EXPORT double hm_timer_now_truth(hm_timer_t *timer, double *truth_s);

/* Collective over comm: every rank adopts rank 0's origin, so sources that
 * are shared between the processes read comparable values. */
HM_EXPORT int hm_timer_agree_origin(hm_timer_t *timer, MPI_Comm comm);

/* A reading of a clock_gettime source as hm_timer_now computes it: whole
 * seconds less the origin in integers first, so that a double keeps
 * nanoseconds even for CLOCK_REALTIME. */
static inline double hm_timer_posix_reading(const struct timespec *ts, int64_t origin_s)
{
    return (double)((int64_t)ts->tv_sec - origin_s) + (double)ts->tv_nsec * 1e-9;
}

/* Whether timer reads a POSIX clock as it is (monotonic, monotonic_raw,
 * realtime; not synthetic): then *clock_id and *origin_s (now, after any
 * hm_timer_agree_origin) let a caller that reads it at every call read it
 * itself, clock_gettime(*clock_id) through hm_timer_posix_reading, the
 * same values as hm_timer_now without its calls (the tracer, at every
 * wrapped MPI call). HM_ENOENT otherwise (nothing written). */
HM_EXPORT int hm_timer_posix_clock(const hm_timer_t *timer, int *clock_id, int64_t *origin_s);

/* Identifier of the clock this timer reads: equal on two processes exactly
 * when they read the same clock. The machine (kernel boot id) for the
 * clock_gettime sources, gettimeofday and tsc; the process for wtime (Open
 * MPI's MPI_Wtime has a per-process origin); the domain's draw for a
 * synthetic timer. Clock propagation (sync "prop") compares it. */
HM_EXPORT uint64_t hm_timer_domain(const hm_timer_t *timer);

/* Name of the source ("monotonic", ...). */
HM_EXPORT const char *hm_timer_name(const hm_timer_t *timer);

/* One line for result files: source, frequency and where it came from,
 * synthetic parameters, e.g. "tsc 2.300000 GHz (from /proc/cpuinfo)". */
HM_EXPORT void hm_timer_describe(const hm_timer_t *timer, char *buf, size_t len);

/* Non-zero when the source promises never to go backwards (a synthetic timer
 * with jitter does not). */
HM_EXPORT int hm_timer_is_monotonic(const hm_timer_t *timer);

/* Resolution the source claims, in seconds. */
HM_EXPORT double hm_timer_nominal_resolution(const hm_timer_t *timer);

/* For a synthetic timer: this rank's drawn offset and drift (HM_EINVAL if the
 * timer is not synthetic; offset_s and drift may be NULL). The expected
 * offset of the synthetic clock against the truth at true time t is
 * offset_s + drift * t. */
HM_EXPORT int hm_timer_synthetic_draw(const hm_timer_t *timer, double *offset_s, double *drift);

/* Parse "offset=O,drift=D,jitter=J" (any subset, any order; missing keys are
 * 0). Returns HM_EINVAL on a malformed spec, with the last error naming the
 * key or value and what is accepted (e.g. 'drift=1 is outside [0, 0.01]'). */
HM_EXPORT int hm_timer_parse_synthetic(const char *text, hm_synthetic_spec_t *spec);

/* The smallest positive step between consecutive reads of timer, in
 * seconds, from a few thousand reads (under a millisecond): the resolution
 * the time stamps really have, where the nominal one is what the source
 * claims (CLOCK_MONOTONIC claims 1 ns and steps by tens). 0 when no step was
 * seen. Local, not collective. */
HM_EXPORT double hm_timer_measured_resolution(hm_timer_t *timer);

/* Measure resolution, read overhead and monotonicity with nreads reads
 * (0 = a default of about 200000). Local, not collective. */
HM_EXPORT int hm_timer_measure(hm_timer_t *timer, long nreads, hm_timer_quality_t *quality);

#ifdef __cplusplus
}
#endif
#endif
