/* tests/procsync/test_methods.c — every method of --sync runs the
 * measurement loop at any number of ranks (1-4: 3 and 4 oversubscribed).
 *
 * For each method: create, begin, 50 repetitions of an empty operation in
 * chunks of 8 with the flags agreed, free. Checked: every call returns
 * HM_OK; the flags are 0 or 1; a method without a deadline gives NaN and
 * never invalidates; a method with one gives finite deadlines, the same on
 * every rank (bit for bit: the root's value is broadcast), never decreasing
 * within a chunk; across the run strictly increasing for the methods whose
 * every start is a fresh "now + something" (roundtime, harmonize) and for a
 * fixed window. Unknown names and bad parameters are refused by create on
 * every rank. These are functional checks: no timing tolerance, so they hold
 * on an oversubscribed machine.
 *
 * harmonize re-synchronizes with "prop" (copy the root's clock): all ranks
 * read one CLOCK_MONOTONIC here, so that is exact and cheap. */
#include <math.h>
#include <string.h>

#include "psloop.h"
#include "testutil.h"

enum { NREP = 50, CHUNK = 8 };

static int strictly_increasing(const char *name, const hm_procsync_params_t *p)
{
    return strcmp(name, "roundtime") == 0 || strcmp(name, "harmonize") == 0 ||
           (strcmp(name, "window") == 0 && p->window_s > 0);
}

/* Deadlines: finite, agreed, ordered. */
static void check_deadlines(MPI_Comm comm, const char *name, const hm_procsync_params_t *p,
                            const ps_rep_t *reps)
{
    double mine[NREP], lo[NREP], hi[NREP];
    int finite = 1, ordered = 1, strict = 1, agreed = 1;
    for (int i = 0; i < NREP; i++) {
        mine[i] = reps[i].deadline_s;
        finite &= isfinite(mine[i]);
        if (i > 0 && i % CHUNK != 0) ordered &= mine[i] >= mine[i - 1];
        if (i > 0) strict &= mine[i] > mine[i - 1];
    }
    MPI_Allreduce(mine, lo, NREP, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(mine, hi, NREP, MPI_DOUBLE, MPI_MAX, comm);
    for (int i = 0; i < NREP; i++) agreed &= lo[i] == hi[i];
    HM_CHECK(finite, "%s: every deadline is finite", name);
    HM_CHECK(agreed, "%s: every deadline is the same on every rank", name);
    HM_CHECK(ordered, "%s: deadlines never decrease within a chunk", name);
    if (strictly_increasing(name, p))
        HM_CHECK(strict, "%s: deadlines strictly increase (first %.6f s, last %.6f s)", name,
                 mine[0], mine[NREP - 1]);
}

static void check_run(MPI_Comm comm, hm_procsync_t *ps, const hm_procsync_params_t *p,
                      const ps_rep_t *reps)
{
    const char *name = hm_procsync_name(ps);
    int sane = 1, nan_all = 1, nvalid = 0, invalid_local = 0;
    for (int i = 0; i < NREP; i++) {
        sane &= (reps[i].flag_start == 0 || reps[i].flag_start == 1) &&
                (reps[i].flag_stop == 0 || reps[i].flag_stop == 1) && reps[i].in_time == 1;
        nan_all &= isnan(reps[i].deadline_s);
        nvalid += reps[i].valid;
        invalid_local += !reps[i].flag_stop;
    }
    HM_CHECK(sane, "%s: flags are 0 or 1, in_time stays 1 without a slice", name);
    if (!hm_procsync_has_deadline(ps)) {
        HM_CHECK(nan_all, "%s: no deadline (NaN)", name);
        HM_CHECK(invalid_local == 0, "%s: every repetition valid (%d invalid)", name,
                 invalid_local);
    } else {
        check_deadlines(comm, name, p, reps);
    }
    char what[160];
    hm_procsync_describe(ps, what, sizeof what);
    HM_CHECK(what[0] != '\0', "%s: describe says \"%s\" (%d of %d valid)", name, what, nvalid,
             NREP);
}

static void run_method(MPI_Comm comm, const char *name, const hm_procsync_params_t *p,
                       hm_clock_t *global)
{
    hm_procsync_t *ps = NULL;
    ps_rep_t reps[NREP];
    int rc = hm_procsync_create(name, comm, global, p, &ps);
    HM_CHECK(rc == HM_OK, "%s: create returns HM_OK (%d %s)", name, rc, hm_last_error());
    if (rc != HM_OK) return;
    HM_CHECK(strcmp(hm_procsync_name(ps), name) == 0, "%s: the handle is named %s", name,
             hm_procsync_name(ps));
    rc = hm_procsync_begin(ps);
    HM_CHECK(rc == HM_OK, "%s: begin returns HM_OK (%d)", name, rc);
    long done = ps_loop(ps, comm, 0, NREP, NULL, reps);
    HM_CHECK(done == NREP, "%s: %d repetitions run (%ld)", name, NREP, done);
    if (done == NREP) check_run(comm, ps, p, reps);
    hm_procsync_free(ps);
}

/* create refuses what check refuses, on every rank, before any message. */
static void create_errors(MPI_Comm comm, hm_clock_t *global)
{
    hm_procsync_params_t p;
    hm_procsync_t *ps = (hm_procsync_t *)&p;
    const char *why = hm_last_error();
    hm_procsync_params_default(&p);
    int rc = hm_procsync_create("fence", comm, global, &p, &ps);
    HM_CHECK(rc == HM_ENOENT && ps == NULL, "create(\"fence\"): %d \"%s\"", rc, why);
    p.bcast_factor = 0.5;
    rc = hm_procsync_create("roundtime", comm, global, &p, &ps);
    HM_CHECK(rc == HM_EINVAL && ps == NULL, "create(roundtime, B 0.5): %d \"%s\"", rc, why);
    hm_procsync_params_default(&p);
    rc = hm_procsync_create("window", comm, NULL, &p, &ps);
    HM_CHECK(rc == HM_EINVAL && ps == NULL, "create(window, no clock): %d \"%s\"", rc, why);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    ps_truth_t truth;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int rc = ps_truth_open(&truth, comm);
    HM_CHECK(rc == HM_OK, "the shared monotonic clock opens (%d)", rc);
    hm_procsync_params_t p;
    hm_procsync_params_default(&p);
    p.check_every = CHUNK;
    p.harmonize.clock_sync = "prop";
    if (rc == HM_OK) create_errors(comm, truth.global);
    for (size_t i = 0; rc == HM_OK && i < hm_procsync_count(); i++)
        run_method(comm, hm_procsync_name_at(i), &p, truth.global);
    p.window_s = 200e-6;
    if (rc == HM_OK) run_method(comm, "window", &p, truth.global);
    ps_truth_close(&truth);
    MPI_Comm_free(&comm);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
