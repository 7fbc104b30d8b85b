/* tests/procsync/psloop.c */
#include "psloop.h"

#include <time.h>

int ps_truth_open(ps_truth_t *t, MPI_Comm comm)
{
    int rc = hm_timer_create("monotonic", NULL, &t->timer);
    if (rc == HM_OK) rc = hm_timer_agree_origin(t->timer, comm);
    if (rc == HM_OK) rc = hm_clock_identity(t->timer, &t->global);
    return rc;
}

void ps_truth_close(ps_truth_t *t)
{
    hm_clock_free(t->global);
    hm_timer_free(t->timer);
}

void ps_sleep(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

void ps_spin(hm_clock_t *clock, double s)
{
    double end = hm_clock_now(clock) + s;
    while (hm_clock_now(clock) < end) {
    }
}

/* One repetition: the timed region is the two timestamps around op. */
static int one_rep(hm_procsync_t *ps, long rep, const ps_work_t *work, ps_rep_t *r)
{
    int flag;
    int rc = hm_procsync_start(ps, &flag, &r->deadline_s);
    if (rc != HM_OK) return rc;
    r->flag_start = flag;
    if (work && work->before) work->before(work->ctx, rep);
    hm_clock_t *clock = hm_procsync_clock(ps);
    r->start_s = hm_clock_now(clock);
    if (work && work->op) work->op(work->ctx, rep);
    r->end_s = hm_clock_now(clock);
    hm_procsync_stop(ps, r->start_s, r->end_s, &flag);
    r->flag_stop = flag;
    r->in_time = hm_procsync_in_time(ps);
    return HM_OK;
}

/* Agree the chunk's flags (Schuchart et al. 2023, Listing 1) and whether anyone ran out
 * of time; returns the number valid, or -1 on an MPI error. */
static int agree_chunk(MPI_Comm comm, ps_rep_t *reps, int n, int *out_of_time)
{
    int buf[65], nvalid = 0;
    for (int i = 0; i < n; i++) buf[i] = reps[i].flag_stop;
    buf[n] = 0;
    for (int i = 0; i < n; i++) buf[n] |= !reps[i].in_time;
    for (int i = 0; i < n; i++) buf[i] = !buf[i]; /* MAX of "invalid" */
    if (MPI_Allreduce(MPI_IN_PLACE, buf, n + 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) return -1;
    for (int i = 0; i < n; i++) nvalid += (reps[i].valid = !buf[i]);
    *out_of_time = buf[n];
    return nvalid;
}

long ps_loop(hm_procsync_t *ps, MPI_Comm comm, long first, long nrep, const ps_work_t *work,
             ps_rep_t *reps)
{
    long done = 0;
    int chunk = hm_procsync_chunk(ps), out_of_time = 0;
    if (chunk > 64) chunk = 64;
    while (done < nrep && !out_of_time) {
        int n = nrep - done < chunk ? (int)(nrep - done) : chunk;
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) {
            int rc = one_rep(ps, first + done + i, work, &reps[done + i]);
            if (rc != HM_OK) return rc;
        }
        double busy = MPI_Wtime() - t0;
        int nvalid = agree_chunk(comm, &reps[done], n, &out_of_time);
        if (nvalid < 0) return HM_EMPI;
        hm_procsync_chunk_done(ps, n, nvalid, busy);
        done += n;
    }
    return done;
}
