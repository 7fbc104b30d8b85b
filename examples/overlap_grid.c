/* examples/overlap_grid.c — an overlap study of your own [Denis et al.
 * 2022]: MPI_Iallreduce overlapped with a dgemm on a grid of two
 * communication targets x two computation targets, in one library call
 * (hm_overlap_study), as `harmonia overlap` runs it.
 *
 * The library calibrates the grid (the message size at which the
 * iallreduce takes each communication target, the matrix order at which
 * the computation takes each computation target), runs the four cells in a
 * shuffled order, and measures the references again after the last, so
 * that each cell's verdict says whether its references held. Rank 0 prints
 * per cell the median ratios: eq. 1's overhead (0: perfect overlap, 1:
 * none), eq. 3's computation slowdown and eq. 4's communication ratio.
 *
 * A cell whose reference missed its target or moved (a busy machine, a
 * frequency change) prints INVALID with the reason: that is a result, not
 * a failure. Exit status 1 only when a library call fails.
 *
 * Usage: mpirun -n 2 example_overlap_grid */
#include <math.h>
#include <stdio.h>

#include <mpi.h>

#include <harmonia/experiment.h>
#include <harmonia/overlap.h>

enum { NCOMM = 2, NCOMP = 2 };
static const double comm_targets_s[NCOMM] = {1e-3, 2e-3};
static const double comp_targets_s[NCOMP] = {1e-3, 2e-3};

typedef struct study {
    int rank;
    const hm_overlap_grid_t *grid;
    hm_overlap_summary_t summary[NCOMM * NCOMP]; /* rank 0, by cell index */
    int summarized[NCOMM * NCOMP];
} study_t;

static void check(int rc, const char *what)
{
    if (rc == HM_OK) return;
    fprintf(stderr, "overlap_grid: %s: %s\n", what, hm_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void calibrated(void *arg, const hm_overlap_grid_t *grid)
{
    ((study_t *)arg)->grid = grid;
}

/* Rank 0: the ratios of a cell against its references (its verdict comes
 * after the recheck). */
static void cell(void *arg, const hm_overlap_cell_t *c)
{
    study_t *s = arg;
    if (s->rank != 0 || !c->result) return;
    const hm_overlap_ref_t *cm = hm_overlap_grid_comm(s->grid, c->op, c->column);
    const hm_overlap_ref_t *cp = hm_overlap_grid_comp(s->grid, c->op, c->column, c->comp);
    s->summarized[c->index] = hm_overlap_summarize(c->result, cp->ref_s, cm->ref_s, cm->local_s,
                                                   &s->summary[c->index]) == HM_OK;
}

/* A cell's verdict, in words: an invalid cell is reported, not an error. */
static const char *verdict_words(const hm_overlap_verdict_t *v, char *buf, size_t len)
{
    if (v->valid) return "valid";
    snprintf(buf, len, "INVALID: the %s reference %s",
             v->comp_side ? "computation" : "communication",
             v->state == HM_OVERLAP_REF_UNCALIBRATED ? "was not calibrated"
             : v->state == HM_OVERLAP_REF_OFF_TARGET ? "is off its target"
                                                     : "moved during the grid");
    return buf;
}

static void print_cells(const study_t *s, const hm_overlap_grid_t *g)
{
    char why[80];
    printf("iallreduce overlapped with dgemm, median ratios per cell\n"
           "comm_us comp_us  overhead comp_slowdown comm_ratio  verdict\n");
    for (int i = 0; i < NCOMM; i++)
        for (int j = 0; j < NCOMP; j++) {
            const hm_overlap_ref_t *cm = hm_overlap_grid_comm(g, 0, i);
            hm_overlap_verdict_t v;
            hm_overlap_verdict(cm, hm_overlap_grid_comp(g, 0, i, j), &v);
            const hm_overlap_summary_t *x = &s->summary[i * NCOMP + j];
            int ok = s->summarized[i * NCOMP + j];
            printf("%7.0f %7.0f  %8.3f %13.3f %10.3f  %s\n", comm_targets_s[i] * 1e6,
                   comp_targets_s[j] * 1e6, ok ? x->overhead.median : NAN,
                   ok ? x->comp_slowdown.median : NAN, ok ? x->comm.median : NAN,
                   verdict_words(&v, why, sizeof why));
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    study_t s = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    /* The global clock and the process synchronization, fitted to how busy
     * the machine is. */
    hm_experiment_params_t ep;
    hm_experiment_t *e;
    hm_experiment_params_default(&ep);
    check(hm_experiment_open(MPI_COMM_WORLD, &ep, &e, NULL), "hm_experiment_open");
    /* Ranks that may run on the same cores get disjoint ones first. */
    hm_compute_t *compute;
    check(hm_overlap_share_node(MPI_COMM_WORLD, NULL), "hm_overlap_share_node");
    check(hm_compute_create(NULL, &compute), "hm_compute_create");
    const hm_op_t *op = hm_op_find("iallreduce");
    hm_overlap_study_params_t sp;
    hm_overlap_study_params_default(&sp);
    hm_experiment_measure_params(e, &sp.cell); /* a busy machine gets a longer budget */
    sp.cell.nrep = 20;
    sp.cell.warmup = 1;
    sp.grid.nops = 1;
    sp.grid.ops = &op;
    sp.grid.ncomm = NCOMM;
    sp.grid.comm_targets_s = comm_targets_s;
    sp.grid.ncomp = NCOMP;
    sp.grid.comp_targets_s = comp_targets_s;
    hm_overlap_study_hooks_t hooks = {calibrated, cell, &s};
    hm_overlap_grid_t *grid = NULL;
    check(hm_overlap_study(MPI_COMM_WORLD, hm_experiment_procsync(e), compute, &sp, &hooks, &grid,
                           NULL),
          "hm_overlap_study");
    if (s.rank == 0) print_cells(&s, grid);
    hm_overlap_grid_free(grid);
    hm_compute_free(compute);
    check(hm_experiment_close(e), "hm_experiment_close");
    MPI_Finalize();
    return 0;
}
