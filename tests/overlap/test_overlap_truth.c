/* tests/overlap/test_overlap_truth.c — the ratios of the overlap run
 * against operations whose overlap is known [Denis et al. 2022, §3.3]:
 * MPI generalized requests (MPI_Grequest_start) whose completion the test
 * controls, at 2 ranks.
 *   (a) a helper thread completes the request COMM_S after the start:
 *       progress in the background, so overhead ~ 0 and r_comm ~ 0;
 *   (b) the request completes only inside the wait, after COMM_S of work
 *       there: no progress, so overhead ~ 1 and r_comm ~ 1;
 *   (c) as (a), but the helper thread spins on the computing thread's core
 *       for COMM_S of processor time before it completes the request: the
 *       computation loses COMM_S of its core, so r_comp_slowdown ~ 1 +
 *       COMM_S / t_comp_ref (1.55 to 1.67 here).
 * The computation is calibrated to COMP_S = 1.5 x COMM_S, so that in (a)
 * the request completes well inside it.
 *
 * Tolerances: the times are tens of milliseconds, and the ratios came out
 * within 0.03 of 0 and 1 on a quiet machine (Open MPI and MPICH). What
 * moves them is the computation's spread between runs: 10 % of a 30 ms
 * computation moves the overhead by 0.15 (t_comp / t_comm x 10 %). So the
 * reference computation is measured right before each case, and the
 * bounds are 0.3 (ratios; 0.25 for r_comp_slowdown near 1; MPICH's
 * background case reached 0.251 in make check): (a) and (b) stay 0.4
 * apart, and (c) must exceed 1.3 where the spinner gives 1.55 to 1.8.
 * Both references are measured again after each case, and a case whose
 * references moved by more than 10 % is attempted again, 3 times at most,
 * as the overlap grid marks such a cell invalid (issue 28): its ratios
 * would compare the case with a machine that was not the one it ran on.
 * When no case could be checked, the test is skipped, not passed.
 * Precision test (retried once).
 *
 * Under MPICH 4.0 (MPI_THREAD_MULTIPLE) the computation's time during these
 * runs is not stable enough for the ratios that divide it: the same order
 * took 18 to 46 ms from one reference to the next, and r_comp_slowdown of
 * case (a) came out 0.68 to 1.85 in 10 runs (the helper threads share the
 * computing core, and MPICH's completion of a generalized request takes
 * its lock from them). There only r_comm, the time spent in MPI, is
 * asserted: 0.003 to 0.26 for (a), 1.000 for (b). */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <harmonia/experiment.h>
#include <harmonia/overlap.h>

#include "testutil.h"

#define COMM_S 0.020
#define COMP_S 0.030
enum { NREP = 15 };

typedef enum { BACKGROUND, IN_WAIT, SPINNER } kind_t;

typedef struct truth_op {
    kind_t kind;
    MPI_Request req;
    pthread_t helper;
    cpu_set_t cpus; /* the computing thread's, for the spinner */
    int has_helper;
} truth_op_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void spin_for(double s)
{
    double end = now_s() + s;
    while (now_s() < end) continue;
}

/* Spin until this thread has had s of processor time: what a progress
 * thread takes from the core it shares, whatever the sharing. */
static void spin_cpu_for(double s)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    double end = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + s, now;
    do {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    } while (now < end);
}

/* Sleep (BACKGROUND) or spin on the computing core (SPINNER), then
 * complete: progress that needs no MPI call from the application. */
static void *helper_main(void *arg)
{
    truth_op_t *op = arg;
    if (op->kind == SPINNER) {
        pthread_setaffinity_np(pthread_self(), sizeof op->cpus, &op->cpus);
        spin_cpu_for(COMM_S);
    } else {
        struct timespec ts = {0, (long)(COMM_S * 1e9)};
        nanosleep(&ts, NULL);
    }
    MPI_Grequest_complete(op->req);
    return NULL;
}

static int truth_start(void *ctx)
{
    truth_op_t *op = ctx;
    if (hm_test_grequest_start(&op->req) != MPI_SUCCESS) return HM_EMPI;
    op->has_helper = op->kind != IN_WAIT;
    if (op->has_helper && pthread_create(&op->helper, NULL, helper_main, op) != 0) return HM_EMPI;
    return HM_OK;
}

/* IN_WAIT: the work that a library without background progress does in
 * MPI_Wait, then the completion. */
static int truth_wait(void *ctx)
{
    truth_op_t *op = ctx;
    if (op->kind == IN_WAIT) {
        spin_for(COMM_S);
        MPI_Grequest_complete(op->req);
    }
    int rc = MPI_Wait(&op->req, MPI_STATUS_IGNORE) == MPI_SUCCESS ? HM_OK : HM_EMPI;
    if (op->has_helper) pthread_join(op->helper, NULL);
    return rc;
}

static hm_experiment_t *open_experiment(void)
{
    hm_experiment_params_t p;
    hm_experiment_t *e = NULL;
    hm_experiment_params_default(&p);
    p.sync.fitpoints = 200;
    /* A start late by 1 us (the default, for microsecond operations) is
     * noise against 20 ms: 1 % of the repetition's run-time is tolerated. */
    p.procsync_params.late_run_factor = 0.01;
    int rc = hm_experiment_open(MPI_COMM_WORLD, &p, &e, NULL);
    HM_CHECK(rc == HM_OK, "experiment open: %s", hm_last_error());
    return e;
}

/* Root: the median t_measured of a run of op (compute NULL: t_comm_ref). */
static int measure(hm_experiment_t *e, truth_op_t *op, hm_compute_t *compute,
                   hm_overlap_result_t *r)
{
    hm_overlap_comm_t nbc = {.start = truth_start, .wait = truth_wait, .ctx = op};
    hm_measure_params_t mp;
    hm_measure_params_default(&mp);
    mp.nrep = NREP;
    mp.warmup = 1;
    return hm_overlap_run(MPI_COMM_WORLD, hm_experiment_procsync(e), &nbc, compute, &mp, r);
}

/* The bounds on the computation's ratios hold under Open MPI; see the top
 * of the file for MPICH. */
static int strict;

/* OSU's and IMB's overlap % of cases (a) and (b). OSU's reads the time
 * in MPI (overall - comp, means over ranks) against t_comm_ref, so its
 * bounds are r_comm's, 0.3, as percent: (a) >= 70, (b) <= 30, under both
 * MPIs. IMB's divides by the longer reference: perfect overlap reads
 * 100 COMM_S / COMP_S = 67 %, and eq. 1's +-0.3 around it gives 47 to
 * 87 (min/max x (1 - overhead)); no overlap reads 0, <= 30 (Open MPI only,
 * as it divides the computation's time, see the top). */
static void check_legacy(kind_t kind, const hm_overlap_summary_t *s)
{
    if (kind == BACKGROUND) {
        HM_CHECK(s->osu_pct >= 70, "background progress: OSU's overlap %.1f %% ~ 100", s->osu_pct);
        if (strict)
            HM_CHECK(s->imb_pct > 47 && s->imb_pct < 87,
                     "background progress: IMB's overlap %.1f %% ~ 100 x %.0f / %.0f ms",
                     s->imb_pct, COMM_S * 1e3, COMP_S * 1e3);
    } else if (kind == IN_WAIT) {
        HM_CHECK(s->osu_pct <= 30, "progress in the wait only: OSU's overlap %.1f %% ~ 0",
                 s->osu_pct);
        if (strict)
            HM_CHECK(s->imb_pct <= 30, "progress in the wait only: IMB's overlap %.1f %% ~ 0",
                     s->imb_pct);
    }
}

/* Root: the ratios of a case against its truth (the top of the file). */
static void check_ratios(kind_t kind, const hm_overlap_summary_t *s, double comp_ref_s)
{
    if (!strict) {
        /* MPICH: only the time spent in MPI, which the computation's
         * noise does not move (see the top of the file). */
        if (kind == BACKGROUND)
            HM_CHECK(s->comm.median < 0.5, "background progress: r_comm %.3f < 0.5",
                     s->comm.median);
        if (kind == IN_WAIT)
            HM_CHECK(s->comm.median > 0.7 && s->comm.median < 1.3,
                     "progress in the wait only: r_comm %.3f ~ 1", s->comm.median);
    } else if (kind == BACKGROUND) {
        HM_CHECK(s->overhead.median > -0.3 && s->overhead.median < 0.3,
                 "background progress: overhead %.3f ~ 0", s->overhead.median);
        HM_CHECK(s->comm.median < 0.3, "background progress: r_comm %.3f ~ 0", s->comm.median);
        HM_CHECK(s->comp_slowdown.median < 1.25, "background progress: r_comp_slowdown %.3f ~ 1",
                 s->comp_slowdown.median);
    } else if (kind == IN_WAIT) {
        HM_CHECK(s->overhead.median > 0.7 && s->overhead.median < 1.3,
                 "progress in the wait only: overhead %.3f ~ 1", s->overhead.median);
        HM_CHECK(s->comm.median > 0.7 && s->comm.median < 1.3,
                 "progress in the wait only: r_comm %.3f ~ 1", s->comm.median);
    } else {
        /* The truth is 1 + COMM_S / t_comp_ref: 1.67 at the nominal 30 ms,
         * 1.16 where other work stretched t_comp_ref to 123 ms. The bound
         * keeps the old 1.3 at 30 ms (0.45 of the excess) and follows the
         * reference elsewhere. */
        double bound = 1 + 0.45 * COMM_S / comp_ref_s;
        HM_CHECK(s->comp_slowdown.median > bound,
                 "a spinning progress thread on the computing core: r_comp_slowdown %.3f > %.3f "
                 "(truth %.3f)",
                 s->comp_slowdown.median, bound, 1 + COMM_S / comp_ref_s);
    }
}

/* The references of one attempt at a case, and whether they held. */
typedef struct attempt {
    hm_overlap_result_t ref, run, ref_after;
    double comp_ref_s, comp_after_s;
    int held; /* root */
} attempt_t;

/* Root: whether the attempt's references describe the operations as they
 * ran (the grid's rule, src/overlap/grid_judge.c, at its 10 %): t_comp_ref
 * and t_comm_ref each measured before and after the case within 10 % of
 * each other, and in (a) and (b), where nothing runs beside the
 * computation (a's helper sleeps), the case's own t_comp within 10 % of
 * t_comp_ref (a run slowed 1.49 times by other work read as an overhead of
 * 0.70 in (a)). Under other developers'
 * builds a reference 30-40 % above the computation it stood for gave (b)
 * an overhead of 0.53 to 0.62 in 3 of 3 runs: the load had changed
 * between the reference and the case, not the overlap. */
static int references_held(kind_t kind, const attempt_t *a, double comp_ref_s)
{
    hm_overlap_summary_t s;
    double comm_s[2], local_s;
    if (hm_overlap_comm_refs(&a->ref, &comm_s[0], &local_s) != HM_OK ||
        hm_overlap_comm_refs(&a->ref_after, &comm_s[1], &local_s) != HM_OK ||
        fabs(comm_s[1] - comm_s[0]) > 0.1 * fmin(comm_s[0], comm_s[1]))
        return 0;
    /* (a)'s premise: the request completes inside the computation (COMP_S
     * = 1.5 COMM_S). Under load the helper's wake-up stretched it to 36 ms
     * while the computation took 22: the wait then waited for the rest,
     * r_comm 0.61, which is right for those times and not case (a). */
    if (kind == BACKGROUND && !(comm_s[0] < 0.9 * comp_ref_s)) return 0;
    if (!strict) return 1; /* MPICH: only r_comm is checked, which the computation does not move */
    if (fabs(a->comp_after_s - a->comp_ref_s) > 0.1 * fmin(a->comp_ref_s, a->comp_after_s))
        return 0;
    if (kind == SPINNER) return 1;
    if (hm_overlap_summarize(&a->run, comp_ref_s, 1.0, 1.0, &s) != HM_OK) return 0;
    return fabs(s.comp_slowdown.median - 1) <= 0.1;
}

/* Collective: one attempt at a case; the reference computation before and
 * after it, the smaller kept: a neighbour slows runs, never speeds one up,
 * and under MPICH a reference of 7 runs once came out 46 ms where the same
 * order then computed in 31 (a ratio of 0.68 that was the reference's, not
 * the case's). */
static double attempt_case(hm_experiment_t *e, hm_compute_t *compute, truth_op_t *op, kind_t kind,
                           const char *name, attempt_t *a)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    a->comp_ref_s = a->comp_after_s = 0;
    HM_CHECK(hm_overlap_comp_ref(MPI_COMM_WORLD, compute, 7, &a->comp_ref_s) == HM_OK, "comp ref");
    int rc = measure(e, op, NULL, &a->ref);
    HM_CHECK(rc == HM_OK, "%s: reference run: status %d %s", name, rc, hm_last_error());
    rc = measure(e, op, compute, &a->run);
    HM_CHECK(rc == HM_OK, "%s: overlap run: %s", name, hm_last_error());
    rc = measure(e, op, NULL, &a->ref_after);
    HM_CHECK(rc == HM_OK, "%s: reference run after: %s", name, hm_last_error());
    HM_CHECK(hm_overlap_comp_ref(MPI_COMM_WORLD, compute, 7, &a->comp_after_s) == HM_OK,
             "comp ref after");
    double comp_ref_s = fmin(a->comp_ref_s, a->comp_after_s);
    a->held = rank == 0 && references_held(kind, a, comp_ref_s);
    MPI_Bcast(&a->held, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return comp_ref_s;
}

enum { ATTEMPTS = 3 };

/* Collective: a case, retried while its references do not hold; 1 when
 * it was checked against the truth. */
static int check_kind(hm_experiment_t *e, hm_compute_t *compute, kind_t kind, const char *name)
{
    truth_op_t op = {.kind = kind};
    hm_overlap_summary_t s;
    attempt_t a;
    int rank, tries = 0;
    double comp_ref_s = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sched_getaffinity(0, sizeof op.cpus, &op.cpus);
    for (;;) {
        comp_ref_s = attempt_case(e, compute, &op, kind, name, &a);
        if (a.held || ++tries == ATTEMPTS) break;
        hm_overlap_result_free(&a.ref);
        hm_overlap_result_free(&a.run);
        hm_overlap_result_free(&a.ref_after);
    }
    if (rank == 0 && !a.held)
        hm_test_note("%s: the references moved in %d of %d attempts (the last: t_comp_ref %.3f "
                     "ms before, %.3f ms after; see references_held): the machine's load "
                     "changed under the case, nothing to check against the truth",
                     name, ATTEMPTS, ATTEMPTS, a.comp_ref_s * 1e3, a.comp_after_s * 1e3);
    if (rank == 0 && a.held) {
        /* Eq. 1 on the global basis, eq. 4 on the local one (ratios.c). */
        double comm_ref_s = NAN, comm_local_s = NAN;
        HM_CHECK(hm_overlap_comm_refs(&a.ref, &comm_ref_s, &comm_local_s) == HM_OK, "%s: ref",
                 name);
        HM_CHECK(hm_overlap_summarize(&a.run, comp_ref_s, comm_ref_s, comm_local_s, &s) == HM_OK,
                 "%s", name);
        printf("%-10s t_comm_ref %.3f ms (local %.3f)  t_comp_ref %.3f ms  t_measured %.3f ms  "
               "overhead %.3f  r_comp_slowdown %.3f  r_comm %.3f  OSU %.1f %%  IMB %.1f %%  "
               "(attempt %d)\n",
               name, comm_ref_s * 1e3, comm_local_s * 1e3, comp_ref_s * 1e3,
               s.measured_s.median * 1e3, s.overhead.median, s.comp_slowdown.median, s.comm.median,
               s.osu_pct, s.imb_pct, tries + 1);
        /* The reference is the request's COMM_S plus a wake-up (sleep) or
         * the share of the core the spinner loses to MPI_Wait's polling
         * and to whatever else runs there: never less than the work. */
        HM_CHECK(comm_ref_s > 0.9 * COMM_S,
                 "%s: t_comm_ref %.3f ms is at least the %.0f ms the "
                 "request takes",
                 name, comm_ref_s * 1e3, COMM_S * 1e3);
        check_legacy(kind, &s);
        check_ratios(kind, &s, comp_ref_s);
    }
    hm_overlap_result_free(&a.ref);
    hm_overlap_result_free(&a.run);
    hm_overlap_result_free(&a.ref_after);
    return a.held;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        /* The helper threads complete requests while the main thread is
         * in MPI: without MPI_THREAD_MULTIPLE the test cannot run. */
        HM_CHECK(0, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
        int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
        MPI_Finalize();
        return rc;
    }
    /* A core per rank, as the paper's runs (a rank per node, its threads on
     * its cores): MPICH's Hydra binds no rank. */
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int cpus = 0, vlen;
    MPI_Get_library_version(version, &vlen);
    strict = strstr(version, "MPICH") == NULL;
    HM_CHECK(hm_overlap_share_node(MPI_COMM_WORLD, &cpus) == HM_OK && cpus >= 1,
             "each rank on its own processor (%d)", cpus);
    hm_experiment_t *e = open_experiment();
    hm_compute_params_t cp = {.threads = 1};
    hm_compute_t *compute = NULL;
    hm_compute_calib_params_t calib;
    hm_compute_calibration_t cal;
    HM_CHECK(hm_compute_create(&cp, &compute) == HM_OK, "compute: %s", hm_last_error());
    hm_compute_calib_params_default(&calib);
    calib.target_s = COMP_S;
    /* Converged or not, the order nearest the target is kept: the ratios
     * use the measured reference, not the target. */
    hm_compute_calibrate(compute, &calib, &cal, NULL);
    /* Every rank computes the same order: the largest calibrated. */
    int n = hm_compute_size(compute);
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    hm_compute_set_size(compute, n);
    int checked = check_kind(e, compute, BACKGROUND, "background");
    checked += check_kind(e, compute, IN_WAIT, "in-wait");
    checked += check_kind(e, compute, SPINNER, "spinner");
    hm_compute_free(compute);
    hm_experiment_close(e);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Nothing compared with the truth is no pass. */
    if (rc == 0 && checked == 0) {
        if (rank == 0)
            printf("skipped: the references moved under every case, %d attempts each\n", ATTEMPTS);
        rc = HM_TEST_SKIPPED;
    }
    MPI_Finalize();
    return rc;
}
