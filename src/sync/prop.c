/* src/sync/prop.c — ClockPropSync, Hunold & Carpen-Amarie 2018, Alg. 3: the leader of the level
 * (rank 0 of comm) flattens its clock and broadcasts it; every other rank
 * rebuilds it over its own timer.
 *
 * A copied model is correct only where the ranks read one time source
 * (§IV-C), so the level first checks that every rank's timer reports the same
 * clock domain (hm_timer_domain) and otherwise refuses on every rank. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/idle.h"
#include "sync/sync_impl.h"

static const char NOT_SHARED[] =
    "prop: the ranks of this level do not read one time source (e.g. --timer wtime, whose "
    "origin is per process, or synthetic clocks drawn per rank); use another algorithm for this "
    "level";

/* One reduction gives the largest id and (through ~id) the smallest. It
 * waits sleeping: the other ranks arrive long before the leader, which is
 * still synchronizing with the other nodes. */
static int same_source(MPI_Comm comm, hm_clock_t *base, int *same)
{
    uint64_t id = hm_timer_domain(hm_clock_timer(base));
    uint64_t mine[2] = {id, ~id}, max[2];
    int rc = hm__idle_allreduce(mine, max, 2, MPI_UINT64_T, MPI_MAX, comm);
    if (rc != MPI_SUCCESS) return hm__mpi_status(rc, __func__, "MPI_Allreduce");
    *same = max[0] == ~max[1];
    return HM_OK;
}

/* FLATTEN_CLOCK (line 3) into a new buffer. */
static int flatten(hm_clock_t *clk, void **buf, size_t *len)
{
    int rc = hm_clock_serialize(clk, NULL, 0, len);
    if (rc != HM_OK && rc != HM_ERANGE) return rc;
    *buf = malloc(*len ? *len : 1);
    if (!*buf) return hm__error_nomem(__func__);
    return hm_clock_serialize(clk, *buf, *len, len);
}

/* Lines 2-9: the size, then the bytes. The leader's status travels with the
 * size, and the others agree on their buffers before the bytes are sent, so
 * that a failed allocation anywhere leaves no rank in a broadcast. */
static int broadcast(MPI_Comm comm, int me, hm_clock_t *base, void **buf, size_t *len)
{
    int64_t head[2] = {0, HM_OK}; /* length, leader's status */
    if (me == 0) {
        head[1] = flatten(base, buf, len);
        head[0] = (int64_t)*len;
    }
    if (MPI_Bcast(head, 2, MPI_INT64_T, 0, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Bcast");
    if (head[1] != HM_OK) return (int)head[1];
    int rc = HM_OK;
    if (me != 0) {
        *len = (size_t)head[0];
        *buf = malloc(*len ? *len : 1); /* line 8 */
        rc = *buf ? HM_OK : hm__error_nomem(__func__);
    }
    rc = hm_agree(comm, rc);
    if (rc == HM_OK && MPI_Bcast(*buf, (int)*len, MPI_BYTE, 0, comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Bcast");
    return rc;
}

int hm__sync_prop(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                  hm__sync_stats_t *stats)
{
    (void)params, (void)stats; /* no ping-pongs, no models learned */
    int me, same = 0;
    if (MPI_Comm_rank(comm, &me) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Comm_rank");
    int rc = same_source(comm, base, &same);
    if (rc != HM_OK) return rc;
    if (!same) return hm__error_set(HM_EINVAL, "%s", NOT_SHARED);
    void *buf = NULL;
    size_t len = 0;
    rc = broadcast(comm, me, base, &buf, &len);
    hm_clock_t *clk = NULL;
    if (rc == HM_OK && me == 0) {
        clk = base; /* the leader keeps the clock it sent */
        hm_clock_retain(base);
    } else if (rc == HM_OK) {
        rc = hm_clock_deserialize(buf, len, hm_clock_timer(base), &clk); /* line 10 */
    }
    free(buf);
    rc = hm_agree(comm, rc);
    if (rc != HM_OK) {
        hm_clock_free(clk);
        return rc;
    }
    *out = clk;
    return HM_OK;
}

int hm_sync_propagate(MPI_Comm comm, hm_clock_t *clock, hm_clock_t **out)
{
    if (!clock) return hm__error_null(__func__, "clock");
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm__error_clear(); /* a step below may fail without a sentence */
    int rc = hm__sync_prop(comm, clock, NULL, out, NULL);
    return rc == HM_OK || hm_last_error()[0] ? rc : hm__error_set(rc, "%s", hm_strerror(rc));
}
