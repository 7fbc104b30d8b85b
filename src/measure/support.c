/* src/measure/support.c — small pieces of the measurement engine: parameter
 * defaults, targets over ops, cache flushing, experiment order. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/agree.h>
#include <harmonia/measure.h>

#include <harmonia/rng.h>
#include "common/error_set.h"
#include "measure/measure_impl.h"

void hm_measure_params_default(hm_measure_params_t *params)
{
    if (!params) {
        hm__error_null(__func__, "params");
        return;
    }
    memset(params, 0, sizeof *params);
    params->nrep = 1000;
    params->warmup = 10;
}

const char *hm_measure_end_name(hm_measure_end_t end)
{
    static const char *const names[] = {"nrep", "slice", "attempts", "budget"};
    return (unsigned)end < sizeof names / sizeof names[0] ? names[end] : "";
}

static int run_op(void *ctx)
{
    return hm_op_run(ctx);
}

static int validate_op(void *ctx, int *ok)
{
    return hm_op_validate(ctx, ok);
}

void hm_measure_target_op(hm_measure_target_t *target, const hm_op_t *op, hm_op_instance_t *inst,
                          int rank, int peer)
{
    const char *null = !target ? "target" : !op ? "op" : !inst ? "inst" : NULL;
    if (null) {
        hm__error_null(__func__, null);
        return;
    }
    int pp = hm_op_is_pingpong(op);
    *target = (hm_measure_target_t){0};
    target->run = run_op;
    target->validate = validate_op;
    target->ctx = inst;
    target->participates = !pp || rank == 0 || rank == peer;
    target->halve = pp;
}

void hm_measure_result_free(hm_measure_result_t *result)
{
    if (!result) return;
    free(result->global_s);
    free(result->local_s);
    free(result->start_spread_s);
    free(result->start_s);
    free(result->late_tolerance_s);
    free(result->device_s);
    free(result->call_s);
    free(result->valid);
    result->global_s = result->local_s = result->start_spread_s = result->start_s = NULL;
    result->late_tolerance_s = NULL;
    result->device_s = result->call_s = NULL;
    result->valid = NULL;
}

int hm__measure_agree(MPI_Comm comm, int rc, int status, const char *fn)
{
    if (hm_agree(comm, rc) == HM_OK) return HM_OK;
    if (rc != HM_OK) return status; /* the lowest failing rank's sentence, as hm_agree left it */
    return hm__error_set(status, "%s: on another rank: %s", fn, hm_last_error());
}

/* 32 MiB when the system does not say: larger than the last-level cache of
 * most single sockets, so the flush still evicts. */
enum { FALLBACK_LLC_BYTES = 32 << 20 };

size_t hm_measure_llc_bytes(void)
{
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l3 > 0) return (size_t)l3;
    if (l2 > 0) return (size_t)l2;
    return FALLBACK_LLC_BYTES;
}

void hm__measure_flush_cache(unsigned char *buf, size_t len, long round)
{
    memset(buf, (int)(round & 0xff), len);
    /* One read through volatile keeps the stores from being optimized away. */
    volatile unsigned char sink = buf[(size_t)round % len];
    (void)sink;
}

void hm_measure_shuffle(size_t *order, size_t n, uint64_t seed)
{
    /* An empty order may come from malloc(0). */
    if (!order && n > 0) {
        hm__error_null(__func__, "order");
        return;
    }
    hm_rng_t rng;
    hm_rng_seed(&rng, seed, 0x6f72646572); /* stream "order" */
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
        size_t j = (size_t)(hm_rng_next(&rng) % i), t = order[i - 1];
        order[i - 1] = order[j], order[j] = t;
    }
}
