/* src/overlap/study.c — a whole overlap study in one call [Denis et al.
 * 2022, §4.3, §5.1]: the grid calibrated, its cells run in an order
 * shuffled with a seed, and the references measured again after the last
 * cell. The order and the recheck belong to the method, not to a program:
 * a grid run in table order would put a drift of the machine along one of
 * its axes, and a grid without the recheck would hide it. */
#include <stdlib.h>

#include <harmonia/agree.h>
#include <harmonia/overlap.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "overlap/overlap_private.h"

void hm_overlap_study_params_default(hm_overlap_study_params_t *p)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return;
    }
    hm_overlap_grid_params_default(&p->grid);
    hm_measure_params_default(&p->cell);
    p->cell.nrep = 20;
    p->cell.warmup = 1;
    p->seed = 1;
}

static int columns(const hm_overlap_grid_params_t *p, int op)
{
    return hm_op_uses_size(p->ops[op]) ? p->ncomm : 1;
}

static int comps(const hm_overlap_grid_params_t *p)
{
    return p->comp_is_comm ? 1 : p->ncomp;
}

size_t hm_overlap_grid_ncells(const hm_overlap_grid_params_t *p)
{
    if (!p) return hm__error_null(__func__, "params"), 0;
    size_t n = 0;
    for (int o = 0; p->ops && o < p->nops; o++) n += (size_t)columns(p, o) * (size_t)comps(p);
    return n;
}

/* The cells in table order, and the order they run in. */
static int list_cells(const hm_overlap_study_params_t *sp, hm_overlap_cell_t **cells,
                      size_t **order, size_t *n)
{
    const hm_overlap_grid_params_t *p = &sp->grid;
    *n = hm_overlap_grid_ncells(p);
    *cells = malloc((*n ? *n : 1) * sizeof **cells);
    *order = malloc((*n ? *n : 1) * sizeof **order);
    if (!*cells || !*order) return hm__error_set(HM_ENOMEM, "overlap: out of memory");
    size_t k = 0;
    for (int o = 0; o < p->nops; o++)
        for (int i = 0; i < columns(p, o); i++)
            for (int j = 0; j < comps(p); j++, k++)
                (*cells)[k] =
                    (hm_overlap_cell_t){.index = k, .ncells = *n, .op = o, .column = i, .comp = j};
    hm_measure_shuffle(*order, *n, sp->seed);
    return HM_OK;
}

/* Collective: one cell, its result handed to the hook. */
static int run_cell(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                    const hm_overlap_study_params_t *sp, const hm_overlap_study_hooks_t *hooks,
                    const hm_overlap_grid_t *g, hm_overlap_cell_t *c)
{
    hm_overlap_result_t r;
    int ran = 0;
    int rc = hm_overlap_grid_run_cell(comm, ps, compute, g, c->op, c->column, c->comp, &sp->cell,
                                      &r, &ran);
    if (rc == HM_EAGAIN) rc = HM_OK; /* too few valid repetitions: the row says so */
    rc = hm_agree(comm, rc);
    c->result = ran && rc == HM_OK ? &r : NULL;
    if (rc == HM_OK && hooks && hooks->cell) hooks->cell(hooks->arg, c);
    if (ran) hm_overlap_result_free(&r);
    c->result = NULL;
    return rc;
}

static int run_cells(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                     const hm_overlap_study_params_t *sp, const hm_overlap_study_hooks_t *hooks,
                     const hm_overlap_grid_t *g, hm_overlap_failure_t *failed)
{
    hm_overlap_cell_t *cells = NULL;
    size_t *order = NULL, n = 0;
    int rc = hm_agree(comm, list_cells(sp, &cells, &order, &n));
    for (size_t k = 0; rc == HM_OK && k < n; k++) {
        hm_overlap_cell_t *c = &cells[order[k]];
        c->order = k;
        rc = run_cell(comm, ps, compute, sp, hooks, g, c);
        if (rc != HM_OK) failed->op = c->op;
    }
    free(cells);
    free(order);
    return rc;
}

static int check(const hm_overlap_study_params_t *sp, hm_overlap_failure_t *failed)
{
    int rc = hm__overlap_grid_check(&sp->grid, &failed->param);
    if (rc == HM_OK && sp->cell.nrep < 1) {
        failed->param = HM_OVERLAP_PARAM_NREP;
        rc = hm__error_set(HM_EINVAL, "nrep %ld: 1 or more", sp->cell.nrep);
    }
    return rc;
}

/* The arguments of hm_overlap_study, the parameters first: they need no
 * MPI, so that a refusal names its field wherever it is made. */
static int check_args(MPI_Comm comm, const hm_procsync_t *ps, const hm_compute_t *compute,
                      const hm_overlap_study_params_t *params, hm_overlap_grid_t **grid,
                      hm_overlap_failure_t *f)
{
    static const char fn[] = "hm_overlap_study";
    if (!params) return hm__error_null(fn, "params");
    if (!grid) return hm__error_null(fn, "grid");
    *grid = NULL;
    int rc = check(params, f);
    if (rc == HM_OK) rc = hm__comm_check(comm, fn);
    if (rc == HM_OK && !ps) rc = hm__error_null(fn, "ps");
    if (rc == HM_OK && !compute) rc = hm__error_null(fn, "compute");
    return rc;
}

int hm_overlap_study(MPI_Comm comm, hm_procsync_t *ps, hm_compute_t *compute,
                     const hm_overlap_study_params_t *params, const hm_overlap_study_hooks_t *hooks,
                     hm_overlap_grid_t **grid, hm_overlap_failure_t *failed)
{
    hm_overlap_failure_t f = {HM_OVERLAP_STAGE_PARAMS, HM_OVERLAP_PARAM_NONE, -1};
    int rc = check_args(comm, ps, compute, params, grid, &f);
    if (rc == HM_OK) {
        f.stage = HM_OVERLAP_STAGE_CALIBRATE;
        rc = hm_overlap_grid_calibrate(comm, ps, compute, &params->grid, grid);
    }
    if (rc == HM_OK && hooks && hooks->calibrated) hooks->calibrated(hooks->arg, *grid);
    if (rc == HM_OK) {
        f.stage = HM_OVERLAP_STAGE_CELL;
        rc = run_cells(comm, ps, compute, params, hooks, *grid, &f);
    }
    if (rc == HM_OK) {
        f.stage = HM_OVERLAP_STAGE_RECHECK;
        rc = hm_agree(comm, hm_overlap_grid_recheck(comm, ps, compute, *grid));
    }
    if (rc == HM_OK) f.stage = HM_OVERLAP_STAGE_OK;
    if (failed) *failed = f;
    return rc;
}
