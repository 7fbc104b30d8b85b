/* src/overlap/grid.c — the grid of an overlap study [Denis et al. 2022,
 * §4.3, §5.1]: every communication target of every operation and every
 * computation target calibrated once, their references measured, each
 * cell run at the sizes kept, and the references measured again after the
 * last cell. The method divides every cell by t_comp_ref and t_comm_ref as
 * if they were the times of the targets for the whole grid; a reference
 * off its target, or one that moved while the grid ran (a neighbour's
 * process, a frequency change), makes its cells' ratios wrong without a
 * sign in them, so each reference carries its state (grid_judge.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/overlap.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "overlap/overlap_private.h"

/* A t_comp_ref outside the tolerance is calibrated again this many times
 * at most (each a few probes at about the target). */
enum { COMP_REAIMS = 2 };

struct hm_overlap_grid {
    hm_overlap_grid_params_t p; /* arrays below, owned */
    const hm_op_t **ops;
    double *comm_targets_s, *comp_targets_s;
    size_t *sizes;
    hm_overlap_ref_t *comm; /* [op * ncomm + column] */
    hm_overlap_ref_t *comp; /* [comp], or [op * ncomm + column] under comp_is_comm */
    int ncomp_refs;
};

void hm_overlap_grid_params_default(hm_overlap_grid_params_t *p)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return;
    }
    memset(p, 0, sizeof *p);
    p->op_params.root = 0;
    p->op_params.peer = 1;
    p->tolerance = 0.1;
    p->comp_runs = 5;
}

int hm__overlap_grid_check(const hm_overlap_grid_params_t *p, hm_overlap_param_t *which)
{
    *which = HM_OVERLAP_PARAM_OPS;
    if (p->nops < 1 || !p->ops) return hm__error_set(HM_EINVAL, "no operation in the grid");
    for (int o = 0; o < p->nops; o++)
        if (!p->ops[o] || !hm_op_is_nonblocking(p->ops[o]))
            return hm__error_set(HM_EINVAL, "operation %d is not a nonblocking collective", o);
    *which = HM_OVERLAP_PARAM_COMM_TARGETS;
    if (p->ncomm < 1 || (!p->sizes && !p->comm_targets_s))
        return hm__error_set(HM_EINVAL, "no communication target or size in the grid");
    *which = HM_OVERLAP_PARAM_COMP_TARGETS;
    if (!p->comp_is_comm && (p->ncomp < 1 || !p->comp_targets_s))
        return hm__error_set(HM_EINVAL, "no computation target in the grid");
    *which = HM_OVERLAP_PARAM_TOLERANCE;
    if (!(p->tolerance > 0 && p->tolerance < 1))
        return hm__error_set(HM_EINVAL, "tolerance %g: between 0 and 1", p->tolerance);
    *which = HM_OVERLAP_PARAM_COMP_RUNS;
    if (p->comp_runs < 1) return hm__error_set(HM_EINVAL, "comp_runs %d: 1 or more", p->comp_runs);
    *which = HM_OVERLAP_PARAM_NONE;
    return HM_OK;
}

static void *copy(const void *src, size_t n, size_t each)
{
    void *dst = malloc(n ? n * each : 1);
    if (dst && src && n) memcpy(dst, src, n * each);
    return dst;
}

static int grid_alloc(const hm_overlap_grid_params_t *p, hm_overlap_grid_t **out)
{
    hm_overlap_grid_t *g = calloc(1, sizeof *g);
    if (!g) return hm__error_set(HM_ENOMEM, "out of memory");
    *out = g;
    g->p = *p;
    size_t cells = (size_t)p->nops * (size_t)p->ncomm;
    g->ncomp_refs = p->comp_is_comm ? (int)cells : p->ncomp;
    g->ops = copy(p->ops, (size_t)p->nops, sizeof *g->ops);
    g->comm_targets_s = copy(p->comm_targets_s, (size_t)p->ncomm, sizeof(double));
    g->sizes = copy(p->sizes, (size_t)p->ncomm, sizeof(size_t));
    g->comp_targets_s = copy(p->comp_targets_s, (size_t)p->ncomp, sizeof(double));
    g->comm = calloc(cells, sizeof *g->comm);
    g->comp = calloc((size_t)g->ncomp_refs, sizeof *g->comp);
    if (!g->ops || !g->comm_targets_s || !g->sizes || !g->comp_targets_s || !g->comm || !g->comp)
        return hm__error_set(HM_ENOMEM, "out of memory");
    g->p.ops = g->ops;
    g->p.comm_targets_s = p->comm_targets_s ? g->comm_targets_s : NULL;
    g->p.sizes = p->sizes ? g->sizes : NULL;
    g->p.comp_targets_s = g->comp_targets_s;
    return HM_OK;
}

void hm_overlap_grid_free(hm_overlap_grid_t *g)
{
    if (!g) return;
    free(g->ops);
    free(g->comm_targets_s);
    free(g->comp_targets_s);
    free(g->sizes);
    free(g->comm);
    free(g->comp);
    free(g);
}

static hm_overlap_ref_t no_ref(double target_s, hm_overlap_outcome_t outcome)
{
    return (hm_overlap_ref_t){.target_s = target_s,
                              .outcome = outcome,
                              .achieved_s = NAN,
                              .ref_s = NAN,
                              .local_s = NAN,
                              .error = NAN,
                              .end_s = NAN,
                              .moved = NAN};
}

/* Collective: t_comm_ref at a size given (or 0, for an op without one),
 * measured as a calibration probe is. */
static int measure_fixed(MPI_Comm comm, hm_procsync_t *ps, const hm_overlap_grid_t *g,
                         const hm_op_t *op, size_t size, hm_overlap_ref_t *r)
{
    hm_overlap_comm_probe_t q;
    int rc = hm_agree(comm, hm_overlap_measure_comm(comm, ps, op, &g->p.op_params, size, 0, &q));
    if (rc != HM_OK) return rc;
    *r = no_ref(NAN, HM_OVERLAP_FIXED);
    r->size = size;
    r->achieved_s = r->ref_s = q.time_s;
    r->local_s = q.local_s;
    return HM_OK;
}

/* Collective: every communication column of every op. A target that does
 * not converge is kept with its outcome: its cells are reported invalid,
 * never run at a size that misses the target silently (the paper's code
 * fell back to 0 bytes there, §5.1). */
static int calibrate_comm(MPI_Comm comm, hm_procsync_t *ps, hm_overlap_grid_t *g)
{
    hm_overlap_comm_params_t cp;
    hm_overlap_comm_calibration_t c;
    hm_overlap_comm_params_default(&cp);
    cp.tolerance = g->p.tolerance;
    int rc = HM_OK;
    for (int o = 0; o < g->p.nops && rc == HM_OK; o++) {
        const hm_op_t *op = g->ops[o];
        hm_overlap_ref_t *col = &g->comm[o * g->p.ncomm];
        size_t start = 0;
        if (!hm_op_uses_size(op)) {
            rc = measure_fixed(comm, ps, g, op, 0, &col[0]);
            continue;
        }
        for (int i = 0; i < g->p.ncomm && rc == HM_OK; i++) {
            if (g->p.sizes) {
                rc = measure_fixed(comm, ps, g, op, g->sizes[i], &col[i]);
                continue;
            }
            cp.target_s = g->comm_targets_s[i];
            rc = hm_overlap_calibrate_comm(comm, ps, op, &g->p.op_params, &cp, start, &c);
            if (rc == HM_ERANGE || rc == HM_EAGAIN) rc = HM_OK;
            if (rc != HM_OK) break;
            col[i] = no_ref(cp.target_s, c.outcome);
            col[i].size = c.size_bytes;
            col[i].probes = c.probes;
            /* The probe's median is t_comm_ref itself (§5.1: the measured
             * time, not the target). */
            col[i].achieved_s = col[i].ref_s = c.time_s;
            col[i].local_s = c.local_s;
            start = c.size_bytes;
        }
    }
    return rc;
}

/* Collective: the computation calibrated to target_s and its t_comp_ref.
 * The calibration converges on its own measure (each thread's dgemm
 * alone, the slowest thread's median, the largest over ranks); the
 * reference is timed as the overlap run times the computation (fork and
 * join included, the slowest rank per run), 6-9 % above it on a quiet
 * machine and anywhere above it on a busy one. The reference is what the
 * ratios divide by, so it is the one held to the tolerance: when it misses,
 * the calibration aims again at target x achieved / reference, the
 * reference's own ratio to the calibration's measure taken out. That ratio
 * is bounded to 0.75-1.25: a reference slowed 2.4 times by a neighbour for
 * its 5 runs once sent the next aim to 2 ms for a 5 ms target. Of the
 * attempts, the one whose reference is nearest the target is kept. */
static int calibrate_comp_to(MPI_Comm comm, hm_compute_t *compute, const hm_overlap_grid_t *g,
                             double target_s, hm_overlap_ref_t *r)
{
    hm_compute_calibration_t c;
    double aim_s = target_s;
    int probes = 0;
    hm_overlap_ref_t best = no_ref(target_s, HM_OVERLAP_OUT_OF_PROBES);
    for (int attempt = 0; attempt <= COMP_REAIMS; attempt++) {
        int rc = hm__overlap_calibrate_comp_at(comm, compute, aim_s, g->p.tolerance, &c);
        if (rc != HM_OK && rc != HM_ERANGE && rc != HM_EAGAIN) return rc;
        probes += c.probes;
        double ref_s = NAN;
        rc = hm_overlap_comp_ref(comm, compute, g->p.comp_runs, &ref_s);
        if (rc != HM_OK) return rc;
        hm_overlap_ref_t now = no_ref(target_s, c.outcome);
        now.size = (size_t)c.n;
        now.achieved_s = c.time_s;
        now.ref_s = ref_s;
        hm_overlap_ref_judge(&now, g->p.tolerance);
        if (attempt == 0 ||
            (now.state != HM_OVERLAP_REF_UNCALIBRATED &&
             (best.state == HM_OVERLAP_REF_UNCALIBRATED || fabs(now.error) < fabs(best.error))))
            best = now;
        if (now.state != HM_OVERLAP_REF_OFF_TARGET) break;
        aim_s = target_s * fmin(1.25, fmax(0.75, c.time_s / ref_s));
    }
    best.probes = probes;
    *r = best;
    /* The handle computes at the order kept, as the cells and the recheck
     * will set it anyway. */
    return hm_agree(comm, best.size > 0 ? hm_compute_set_size(compute, (int)best.size) : HM_OK);
}

/* Collective: every computation target; under comp_is_comm one per
 * communication column, aimed at its t_comm_ref (a column without a usable
 * t_comm_ref gets no computation: its cells are invalid). */
static int calibrate_comp(MPI_Comm comm, hm_compute_t *compute, hm_overlap_grid_t *g)
{
    int rc = HM_OK;
    if (!g->p.comp_is_comm) {
        for (int j = 0; j < g->p.ncomp && rc == HM_OK; j++)
            rc = calibrate_comp_to(comm, compute, g, g->comp_targets_s[j], &g->comp[j]);
        return rc;
    }
    for (int o = 0; o < g->p.nops && rc == HM_OK; o++)
        for (int i = 0; i < hm_overlap_grid_columns(g, o) && rc == HM_OK; i++) {
            const hm_overlap_ref_t *cm = &g->comm[o * g->p.ncomm + i];
            hm_overlap_ref_t *cp = &g->comp[o * g->p.ncomm + i];
            if (cm->state == HM_OVERLAP_REF_OK)
                rc = calibrate_comp_to(comm, compute, g, cm->ref_s, cp);
            else
                *cp = no_ref(NAN, HM_OVERLAP_BELOW_MIN);
        }
    return rc;
}

int hm_overlap_grid_calibrate(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                              const hm_overlap_grid_params_t *params, hm_overlap_grid_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    const char *null = !ps ? "ps" : !compute ? "compute" : !params ? "params" : NULL;
    if (null) return hm__error_null(__func__, null);
    hm_overlap_param_t which;
    int rc = hm__overlap_grid_check(params, &which);
    if (rc != HM_OK) return rc;
    hm_overlap_grid_t *g = NULL;
    rc = hm_agree(comm, grid_alloc(params, &g));
    if (rc == HM_OK) rc = calibrate_comm(comm, ps, g);
    for (int k = 0; rc == HM_OK && k < g->p.nops * g->p.ncomm; k++)
        hm_overlap_ref_judge(&g->comm[k], g->p.tolerance);
    if (rc == HM_OK) rc = calibrate_comp(comm, compute, g);
    for (int k = 0; rc == HM_OK && k < g->ncomp_refs; k++)
        hm_overlap_ref_judge(&g->comp[k], g->p.tolerance);
    if (rc != HM_OK) {
        hm_overlap_grid_free(g);
        return rc;
    }
    *out = g;
    return HM_OK;
}

int hm_overlap_grid_columns(const hm_overlap_grid_t *g, int op)
{
    if (!g) return hm__error_null(__func__, "g"), 0;
    return hm_op_uses_size(g->ops[op]) ? g->p.ncomm : 1;
}

const hm_overlap_ref_t *hm_overlap_grid_comm(const hm_overlap_grid_t *g, int op, int column)
{
    if (!g) return hm__error_null(__func__, "g"), NULL;
    return &g->comm[op * g->p.ncomm + column];
}

const hm_overlap_ref_t *hm_overlap_grid_comp(const hm_overlap_grid_t *g, int op, int column,
                                             int comp)
{
    if (!g) return hm__error_null(__func__, "g"), NULL;
    return g->p.comp_is_comm ? &g->comp[op * g->p.ncomm + column] : &g->comp[comp];
}

/* A reference a cell can run against: one given or calibrated, and one
 * whose search kept its nearest probe (gap, out of probes), measured at a
 * size the operation has; its cells run there and are reported invalid
 * (grid_judge.c), so that a busy machine that moved the probes still leaves
 * every such cell's repetitions, said to be off their target, rather than
 * none. A target beyond every size (below-min, above-max) has no nearest
 * size that says anything about it: not run. */
static int usable(const hm_overlap_ref_t *r)
{
    int kept = r->outcome == HM_OVERLAP_GAP || r->outcome == HM_OVERLAP_OUT_OF_PROBES;
    return (r->outcome == HM_OVERLAP_CONVERGED || r->outcome == HM_OVERLAP_FIXED || kept) &&
           isfinite(r->ref_s) && r->ref_s > 0;
}

int hm_overlap_grid_run_cell(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                             const hm_overlap_grid_t *g, int op, int column, int comp,
                             const hm_measure_params_t *params, hm_overlap_result_t *result,
                             int *ran)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = !ps        ? "ps"
                       : !compute ? "compute"
                       : !g       ? "g"
                       : !params  ? "params"
                       : !result  ? "result"
                       : !ran     ? "ran"
                                  : NULL;
    if (null) return hm__error_null(__func__, null);
    const hm_overlap_ref_t *cm = hm_overlap_grid_comm(g, op, column),
                           *cp = hm_overlap_grid_comp(g, op, column, comp);
    *ran = 0;
    if (!usable(cm) || !usable(cp)) return HM_OK;
    hm_op_instance_t *inst = NULL;
    hm_overlap_comm_t nbc;
    int rc = hm_op_prepare(g->ops[op], comm, cm->size, &g->p.op_params, &inst);
    if (rc == HM_OK) rc = hm_compute_set_size(compute, (int)cp->size);
    /* No rank may enter the run's collectives alone. */
    rc = hm_agree(comm, rc);
    if (rc == HM_OK) {
        hm_overlap_comm_op(&nbc, inst);
        rc = hm_overlap_run(comm, ps, &nbc, compute, params, result);
        *ran = rc == HM_OK || rc == HM_EAGAIN;
    }
    hm_op_free(inst);
    return rc;
}

/* Collective: one usable reference measured again as it was first. */
static int remeasure_comm(MPI_Comm comm, hm_procsync_t *ps, const hm_overlap_grid_t *g,
                          const hm_op_t *op, hm_overlap_ref_t *r)
{
    hm_overlap_comm_probe_t q;
    int rc = hm_agree(comm, hm_overlap_measure_comm(comm, ps, op, &g->p.op_params, r->size, 0, &q));
    if (rc == HM_OK) r->end_s = q.time_s;
    return rc;
}

static int remeasure_comp(MPI_Comm comm, hm_compute_t *compute, const hm_overlap_grid_t *g,
                          hm_overlap_ref_t *r)
{
    int rc = hm_agree(comm, hm_compute_set_size(compute, (int)r->size));
    double end_s = NAN;
    if (rc == HM_OK) rc = hm_overlap_comp_ref(comm, compute, g->p.comp_runs, &end_s);
    if (rc == HM_OK) r->end_s = end_s;
    return rc;
}

int hm_overlap_grid_recheck(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                            hm_overlap_grid_t *g)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    const char *null = !ps ? "ps" : !compute ? "compute" : !g ? "g" : NULL;
    if (null) return hm__error_null(__func__, null);
    int rc = HM_OK;
    for (int o = 0; o < g->p.nops && rc == HM_OK; o++)
        for (int i = 0; i < hm_overlap_grid_columns(g, o) && rc == HM_OK; i++) {
            hm_overlap_ref_t *r = &g->comm[o * g->p.ncomm + i];
            if (usable(r)) rc = remeasure_comm(comm, ps, g, g->ops[o], r);
            hm_overlap_ref_judge(r, g->p.tolerance);
        }
    for (int k = 0; k < g->ncomp_refs && rc == HM_OK; k++) {
        hm_overlap_ref_t *r = &g->comp[k];
        if (usable(r) && r->size > 0) rc = remeasure_comp(comm, compute, g, r);
        hm_overlap_ref_judge(r, g->p.tolerance);
    }
    return rc;
}
