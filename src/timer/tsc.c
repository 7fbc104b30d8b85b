/* src/timer/tsc.c — the x86-64 time-stamp counter read with rdtscp.
 *
 * Only a constant-rate, non-stop TSC is a clock (Hunold & Carpen-Amarie 2018, §V.C, Hunold &
 * Carpen-Amarie 2016 §3.4): without constant_tsc the rate follows the core frequency, without
 * nonstop_tsc it halts in deep C-states. The frequency is fixed once, from
 * --tsc-ghz or read from the system (CPUID leaf 0x15, the hypervisor timing
 * leaf 0x40000010, or /proc/cpuinfo); it is never re-estimated per run, which
 * would make two runs convert ticks differently. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timer/timer_impl.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>

/* Tests name another file than /proc/cpuinfo (hm_timer_options_t) to check
 * the refusal on machines whose TSC is usable. */
static const char *cpuinfo_path(const hm_timer_options_t *o)
{
    return o && o->cpuinfo_path && *o->cpuinfo_path ? o->cpuinfo_path : "/proc/cpuinfo";
}

/* 1 when the flags are there; otherwise 0, with the refusal as the last
 * error. */
static int cpuinfo_has_flags(const hm_timer_options_t *o)
{
    FILE *f = fopen(cpuinfo_path(o), "r");
    char line[8192];
    int constant = 0, nonstop = 0, rdtscp = 0;
    if (!f) {
        hm__error_set(HM_ENOTSUP, "tsc refused: %s is not readable: %s", cpuinfo_path(o),
                      strerror(errno));
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        rdtscp = strstr(line, " rdtscp") != NULL;
        break;
    }
    fclose(f);
    if (!constant || !nonstop || !rdtscp) {
        hm__error_set(HM_ENOTSUP, "tsc refused: %s lacks%s%s%s", cpuinfo_path(o),
                      constant ? "" : " constant_tsc", nonstop ? "" : " nonstop_tsc",
                      rdtscp ? "" : " rdtscp");
        return 0;
    }
    return 1;
}

/* CPUID 0x15: TSC = crystal * ebx / eax, when the crystal is enumerated. */
static double hz_from_cpuid(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 0x15) return 0;
    __cpuid(0x15, a, b, c, d);
    return (a && b && c) ? (double)c * b / a : 0;
}

/* Hypervisors (VMware, KVM with tsc frequency exposure) report kHz here. */
static double hz_from_hypervisor(void)
{
    unsigned a, b, c, d;
    __cpuid(0x40000000, a, b, c, d);
    if (a < 0x40000010) return 0;
    __cpuid(0x40000010, a, b, c, d);
    return a ? a * 1e3 : 0;
}

/* Without a cpufreq driver the kernel reports its TSC frequency as "cpu MHz". */
static double hz_from_cpuinfo(const hm_timer_options_t *o)
{
    FILE *f = fopen(cpuinfo_path(o), "r");
    char line[512];
    double mhz = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "cpu MHz : %lf", &mhz) == 1) break;
    fclose(f);
    return mhz * 1e6;
}

static int open_tsc(hm_timer_t *t, const hm_timer_options_t *o)
{
    double hz = 0;
    const char *from = "--tsc-ghz";
    if (HM_SMPI)
        return hm__error_set(HM_ENOTSUP, "tsc refused: it counts this machine's cycles, not the "
                                         "simulated time of SMPI (use wtime)");
    if (!cpuinfo_has_flags(o)) return HM_ENOTSUP; /* sentence: set by cpuinfo_has_flags */
    if (o && o->tsc_ghz > 0) hz = o->tsc_ghz * 1e9;
    if (hz <= 0 && (hz = hz_from_cpuid()) > 0) from = "CPUID leaf 0x15";
    if (hz <= 0 && (hz = hz_from_hypervisor()) > 0) from = "hypervisor leaf 0x40000010";
    if (hz <= 0 && (hz = hz_from_cpuinfo(o)) > 0) from = "/proc/cpuinfo cpu MHz";
    if (hz <= 0)
        return hm__error_set(HM_ENOTSUP, "tsc refused: the TSC frequency is not readable here; "
                                         "give it with --tsc-ghz");
    t->seconds_per_tick = 1.0 / hz;
    snprintf(t->detail, sizeof t->detail, "%.6f GHz from %s", hz * 1e-9, from);
    return HM_OK;
}

static double read_tsc(const hm_timer_t *t)
{
    unsigned aux;
    return (double)((int64_t)__rdtscp(&aux) - t->origin) * t->seconds_per_tick;
}

static int64_t origin_tsc(const hm_timer_t *t)
{
    (void)t;
    unsigned aux;
    return (int64_t)__rdtscp(&aux);
}

static double res_tsc(const hm_timer_t *t)
{
    return t->seconds_per_tick;
}

#else /* not x86-64 */

static int open_tsc(hm_timer_t *t, const hm_timer_options_t *o)
{
    (void)t, (void)o;
    return hm__error_set(HM_ENOTSUP, "tsc refused: rdtscp exists only on x86-64");
}

static double read_tsc(const hm_timer_t *t)
{
    (void)t;
    return 0;
}

static int64_t origin_tsc(const hm_timer_t *t)
{
    (void)t;
    return 0;
}

static double res_tsc(const hm_timer_t *t)
{
    (void)t;
    return 0;
}
#endif

const hm__timer_source_t hm__timer_source_tsc = {.name = "tsc",
                                                 .monotonic = 1,
                                                 .open = open_tsc,
                                                 .read = read_tsc,
                                                 .origin_now = origin_tsc,
                                                 .nominal_resolution = res_tsc};
