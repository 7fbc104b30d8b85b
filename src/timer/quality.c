/* src/timer/quality.c — what a time source delivers here: the smallest step
 * it shows, what one read costs, and whether it ever went backwards. */
#include <stdlib.h>
#include <time.h>

#include "timer/timer_impl.h"

/* RESOLUTION_READS: 20000 reads of a 20 ns source show its smallest step
 * many times over in 0.4 ms of a command's start-up. */
enum { BATCH_READS = 1000, DEFAULT_READS = 200000, RESOLUTION_READS = 20000 };

static double raw_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Consecutive reads: the smallest positive difference is the resolution one
 * can actually observe, and any negative one a monotonicity violation. */
static void scan_steps(hm_timer_t *t, long nreads, double *min_step, long *decreases)
{
    double prev = hm_timer_now(t), best = 0;
    long down = 0;
    for (long i = 1; i < nreads; i++) {
        double cur = hm_timer_now(t);
        double d = cur - prev;
        if (d > 0 && (best == 0 || d < best)) best = d;
        if (d < 0) down++;
        prev = cur;
    }
    *min_step = best;
    *decreases = down;
}

/* Cost of one read: batches of reads timed with CLOCK_MONOTONIC_RAW; the
 * median over batches discards batches hit by an interrupt or preemption. */
static int read_overhead(hm_timer_t *t, long nreads, double *overhead_s)
{
    long nbatch = nreads / BATCH_READS;
    if (nbatch < 1) nbatch = 1;
    double *per_read = malloc((size_t)nbatch * sizeof *per_read);
    if (!per_read) return hm__error_nomem(__func__);
    volatile double sink = 0;
    for (long b = 0; b < nbatch; b++) {
        double start = raw_now();
        for (int i = 0; i < BATCH_READS; i++) sink += hm_timer_now(t);
        per_read[b] = (raw_now() - start) / BATCH_READS;
    }
    (void)sink;
    qsort(per_read, (size_t)nbatch, sizeof *per_read, cmp_double);
    *overhead_s =
        nbatch % 2 ? per_read[nbatch / 2] : 0.5 * (per_read[nbatch / 2 - 1] + per_read[nbatch / 2]);
    free(per_read);
    return HM_OK;
}

int hm_timer_measure(hm_timer_t *t, long nreads, hm_timer_quality_t *q)
{
    if (!t) return hm__error_null(__func__, "timer");
    if (!q) return hm__error_null(__func__, "quality");
    if (nreads < 0) return hm__error_set(HM_EINVAL, "%s: nreads %ld is negative", __func__, nreads);
    if (nreads == 0) nreads = DEFAULT_READS;
    if (nreads < 2) nreads = 2;
    q->nominal_resolution_s = hm_timer_nominal_resolution(t);
    q->monotonic_claimed = hm_timer_is_monotonic(t);
    scan_steps(t, nreads, &q->resolution_s, &q->decreases);
    return read_overhead(t, nreads, &q->overhead_s);
}

double hm_timer_measured_resolution(hm_timer_t *t)
{
    double step = 0;
    long decreases = 0;
    if (!t) {
        hm__error_null(__func__, "timer");
        return 0;
    }
    scan_steps(t, RESOLUTION_READS, &step, &decreases);
    return step;
}
