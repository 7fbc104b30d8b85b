/* src/sync/netgauge.c — the clock synchronization of Netgauge/NBCBench,
 * Hunold & Carpen-Amarie 2016, Alg. 11-12: offsets measured along a binomial tree over the
 * ranks below maxpower = 2^floor(log2 p) in log2(maxpower) rounds
 * (Sync_Clocks_Pow2), summed on the way to the root and scattered, then one
 * more round in which each rank from maxpower on measures against rank
 * r - maxpower (Sync_Clocks_Remaining). Offsets only, whatever
 * params->drift says: Netgauge models no drift (Hunold & Carpen-Amarie 2016, §4.2.2).
 *
 * Offsets compose as sums: with offset = clock - reference clock,
 * offset(c, root) = offset(c, parent) + offset(parent, root) (Alg. 11 lines
 * 21 and 38).
 *
 * Deviations from the pseudo-code, and why:
 *  - Compute_Offset (Alg. 12) stops once the smallest RTT has not improved
 *    for params->exchanges ping-pongs in a row (the paper's n_pingpongs,
 *    100 there), and returns the offset seen at the smallest RTT, as
 *    Netgauge does; the pseudo-code's loop condition and its return of the
 *    last ping-pong's offset read literally would stop at the first slower
 *    ping-pong. A bound of STOP_FACTOR * exchanges ping-pongs keeps a
 *    steadily improving RTT (a machine waking up) from looping for long. The
 *    measuring rank ends the exchange with a stop message, which the
 *    pseudo-code leaves implicit;
 *  - the two ranks of a pair first meet with a zero-byte message each way,
 *    and every rank waits for the scatter asleep (common/idle.h): blocking
 *    MPI calls busy-poll, so a rank that arrives early (its partner still
 *    busy with its own subtree) or that is done would otherwise take a core
 *    from the pairs still measuring when ranks outnumber cores;
 *  - the ping-pong receives poll, and yield the core between polls once a
 *    reply is late (receive), instead of MPI_Recv: the pairs of a round
 *    measure at the same time, and under MPICH, which never yields, four
 *    ranks on two cores measured round trips of 0.2-8 ms and offsets off by
 *    up to 1.7 ms; yielding brings them back to ~1 us;
 *  - Alg. 11's Scatter sends every rank an entry of the root's list; ranks
 *    from maxpower on receive a placeholder 0 and learn their offset in
 *    Sync_Clocks_Remaining, as in the paper. */
#include <math.h>
#include <sched.h>
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/idle.h"
#include "sync/sync_impl.h"

/* Tags, ASCII "NG" and followers. */
enum { TAG_PING = 0x4e47, TAG_STOP, TAG_MEET, TAG_DIFFS, TAG_OFFSET };
enum { STOP_FACTOR = 100 };
/* Polls of a ping-pong receive before each further poll yields the core:
 * ~10-20 us of polling, ten times a round trip on shared memory, so that a
 * ping-pong between ranks on their own cores never yields. */
enum { SPIN_POLLS = 256 };

/* What every step needs: the communicator, the clock timestamps are read
 * from, Alg. 12's N, and where the ping-pongs are counted (may be NULL). */
typedef struct ng {
    MPI_Comm comm;
    hm_clock_t *clock;
    int n;
    hm__sync_stats_t *stats;
} ng_t;

/* Sleeping rendezvous with peer: neither enters the ping-pongs (which
 * busy-poll) before the other is ready. */
static int meet(ng_t *c, int peer)
{
    MPI_Request req;
    if (MPI_Irecv(NULL, 0, MPI_BYTE, peer, TAG_MEET, c->comm, &req) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    if (MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_MEET, c->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Send");
    return hm__mpi_status(hm__idle_wait(&req, MPI_STATUS_IGNORE), __func__, "MPI_Test");
}

/* Receive one ping-pong message. The tree's pairs of a round measure at
 * once, so ranks outnumbering cores cannot be avoided by waiting asleep:
 * instead, once a reply is late (the peer lost its core), the rank yields
 * between polls, so that the peer, or the rank whose peer it is, gets the
 * core (what Open MPI does by itself when oversubscribed, and MPICH does
 * not). The timestamps around the exchange stay where they are. */
static int receive(ng_t *c, double *buf, int peer, int tag, MPI_Status *st)
{
    MPI_Request req;
    int done = 0;
    if (MPI_Irecv(buf, 1, MPI_DOUBLE, peer, tag, c->comm, &req) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    /* SMPI: no core to give away, and a failed MPI_Test costs simulated
     * time (smpi/test) that would lengthen the round trip. */
    if (HM_SMPI) return hm__mpi_status(MPI_Wait(&req, st), __func__, "MPI_Wait");
    for (int polls = 0; !done;) {
        if (MPI_Test(&req, &done, st) != MPI_SUCCESS) return hm__error_mpi(__func__, "MPI_Test");
        if (!done && polls < SPIN_POLLS)
            polls++;
        else if (!done)
            sched_yield();
    }
    return HM_OK;
}

/* Compute_Offset (Alg. 12 lines 5-11) on the rank nearer the root: *offset
 * receives peer - me, the peer's reading minus the midpoint of the
 * ping-pong with the smallest RTT. */
static int measure(ng_t *c, int peer, double *offset)
{
    double rtt_min = INFINITY;
    long i = 0;
    for (long since_min = 0; since_min < c->n && i < (long)STOP_FACTOR * c->n; i++) {
        double remote, s_time = hm_clock_now(c->clock);
        if (MPI_Send(&s_time, 1, MPI_DOUBLE, peer, TAG_PING, c->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
        int rc = receive(c, &remote, peer, TAG_PING, MPI_STATUS_IGNORE);
        if (rc != HM_OK) return rc;
        double e_time = hm_clock_now(c->clock);
        since_min++;
        if (e_time - s_time < rtt_min) {
            rtt_min = e_time - s_time;
            *offset = remote - 0.5 * (s_time + e_time); /* line 11, offset.h's sign */
            since_min = 0;
        }
    }
    hm__sync_tally(c->stats, c->comm, peer, i);
    return hm__mpi_status(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_STOP, c->comm), __func__,
                          "MPI_Send");
}

/* Alg. 12 lines 12-15 on the measured rank: answer each ping with the
 * clock's reading until the stop. */
static int answer(ng_t *c, int peer)
{
    for (long n = 0;; n++) {
        double s_time, t_remote;
        MPI_Status st;
        int rc = receive(c, &s_time, peer, MPI_ANY_TAG, &st);
        if (rc != HM_OK) return rc;
        if (st.MPI_TAG == TAG_STOP) {
            hm__sync_tally(c->stats, c->comm, peer, n);
            return HM_OK;
        }
        t_remote = hm_clock_now(c->clock);
        if (MPI_Send(&t_remote, 1, MPI_DOUBLE, peer, TAG_PING, c->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
    }
}

/* Alg. 11 lines 14-21 with half = 2^(round-1): measure the offset of
 * me + half, receive the offsets of its subtree relative to it and make them
 * relative to me. off[j] is the offset of rank me + j. */
static int gather_subtree(ng_t *c, int me, int half, double *off)
{
    double d = 0;
    int rc = meet(c, me + half);
    if (rc == HM_OK) rc = measure(c, me + half, &d);
    if (rc == HM_OK && MPI_Recv(off + half + 1, half - 1, MPI_DOUBLE, me + half, TAG_DIFFS, c->comm,
                                MPI_STATUS_IGNORE) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Recv");
    off[half] = d;
    for (int j = 1; j < half; j++) off[half + j] += d;
    return rc;
}

/* Alg. 11 lines 22-26: be measured by me - half, then hand over the
 * offsets of the subtree (off[1 .. half-1], relative to me). */
static int hand_subtree(ng_t *c, int me, int half, const double *off)
{
    int rc = meet(c, me - half);
    if (rc == HM_OK) rc = answer(c, me - half);
    if (rc == HM_OK &&
        MPI_Send(off + 1, half - 1, MPI_DOUBLE, me - half, TAG_DIFFS, c->comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Send");
    return rc;
}

/* Sync_Clocks_Pow2, Alg. 11 lines 11-27 (without the scatter). A rank
 * below maxpower gathers while it is a multiple of 2 * half and hands its
 * subtree over in the round where it is not; ranks from maxpower on wait. */
static int sync_pow2(ng_t *c, int me, int maxpower, double *off)
{
    if (me >= maxpower) return HM_OK;
    off[0] = 0;
    for (int half = 1; 2 * half <= maxpower; half *= 2) {
        if (me % (2 * half) != 0) return hand_subtree(c, me, half, off);
        int rc = gather_subtree(c, me, half, off);
        if (rc != HM_OK) return rc;
    }
    return HM_OK;
}

/* Alg. 11 lines 29-30: the root's list to every rank, waiting asleep. */
static int scatter(ng_t *c, const double *off, double *myoffset)
{
    return hm__mpi_status(hm__idle_scatter(off, 1, MPI_DOUBLE, myoffset, 1, MPI_DOUBLE, 0, c->comm),
                          __func__, "MPI_Scatter");
}

/* Sync_Clocks_Remaining, Alg. 11 lines 32-43. */
static int sync_remaining(ng_t *c, int me, int size, int maxpower, double *myoffset)
{
    double d = 0;
    int rc = HM_OK;
    if (me < size - maxpower) {
        int server = me + maxpower;
        rc = meet(c, server);
        if (rc == HM_OK) rc = measure(c, server, &d);
        d += *myoffset; /* line 38 */
        if (rc == HM_OK && MPI_Send(&d, 1, MPI_DOUBLE, server, TAG_OFFSET, c->comm) != MPI_SUCCESS)
            rc = hm__error_mpi(__func__, "MPI_Send");
    } else if (me >= maxpower) {
        int client = me - maxpower;
        rc = meet(c, client);
        if (rc == HM_OK) rc = answer(c, client);
        if (rc == HM_OK && MPI_Recv(myoffset, 1, MPI_DOUBLE, client, TAG_OFFSET, c->comm,
                                    MPI_STATUS_IGNORE) != MPI_SUCCESS)
            rc = hm__error_mpi(__func__, "MPI_Recv");
    }
    return rc;
}

/* Offsets this rank collects: its subtree (me & -me ranks) below maxpower,
 * the whole scatter buffer (size) on the root, none from maxpower on. */
static size_t list_length(int me, int size, int maxpower)
{
    if (me == 0) return (size_t)size;
    return me < maxpower ? (size_t)(me & -me) : 1;
}

static int largest_power_of_two(int size)
{
    int p = 1;
    while (p <= size / 2) p *= 2;
    return p;
}

static int learn_offset(ng_t *c, int me, int size, double *off, double *myoffset)
{
    int maxpower = largest_power_of_two(size);
    int rc = sync_pow2(c, me, maxpower, off);
    /* Everyone takes part in the scatter: an error is carried to the end. */
    int rc2 = scatter(c, off, myoffset);
    if (rc == HM_OK) rc = rc2;
    if (rc == HM_OK) rc = sync_remaining(c, me, size, maxpower, myoffset);
    return rc;
}

int hm__sync_netgauge(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                      hm_clock_t **out, hm__sync_stats_t *stats)
{
    int me, size;
    int bad = hm__sync_enter(comm, base, params, out, __func__, 0, &me, &size);
    if (bad != HM_OK) return bad;
    ng_t c = {comm, base, params->exchanges, stats};
    double myoffset = 0;
    double *off = calloc(list_length(me, size, largest_power_of_two(size)), sizeof *off);
    hm_clock_t *clock = NULL;
    int rc = hm_agree(comm, off ? HM_OK : hm__error_nomem(__func__));
    if (rc == HM_OK) rc = learn_offset(&c, me, size, off, &myoffset);
    if (rc == HM_OK && me != 0)
        rc = hm_clock_model(base, HM_CLOCK_OFFSET, (hm_lm_t){0, myoffset}, &clock);
    if (rc == HM_OK && me == 0) hm_clock_retain(clock = base);
    rc = hm_agree(comm, rc);
    free(off);
    if (rc != HM_OK) {
        hm_clock_free(clock);
        return rc;
    }
    if (stats && me != 0) stats->offset_models++;
    *out = clock;
    return HM_OK;
}
