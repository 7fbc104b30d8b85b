/* tests/lint/test_misuse.c — the driver of the generated misuse test
 * (gen_misuse.py: every public function, each pointer and communicator
 * argument invalid in turn) and the valid arguments it is given.
 *
 * Three phases: the functions that take a communicator before MPI_Init
 * (each must return a failure with a sentence, not abort); every case with
 * MPI initialized (no crash; a failure has a sentence); the communicator
 * functions again after MPI_Finalize. Before each call the case is printed,
 * so that a crash names it. The cases a fixture is missing for are listed
 * with the count: what is not covered is said. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "misuse_fixtures.h"

static const char *current_function, *current_what;
static int failures, phase_mpi, world_size = 1;
static size_t skipped; /* cases whose handles need more ranks than run */

char fx_chars[4096];
void *fx_scratch;
MPI_Comm fx_comm_slot;
static void *slot;
static char scratch_dir[64] = "/tmp/hm_misuse_XXXXXX";

void hm_misuse_begin(const char *function, const char *what)
{
    current_function = function, current_what = what;
    fprintf(stderr, "case: %s(%s)\n", function, what);
    if (getenv("HM_MISUSE_FORK")) printf("case: %s(%s)\n", function, what);
    memset(fx_scratch, 0, 1 << 20);
    memset(fx_chars, 0, sizeof fx_chars);
    slot = NULL;
    fx_comm_slot = MPI_COMM_NULL;
    hm_error_set(HM_OK, "%s", "");
}

void hm_misuse_end_status(int rc, int expect)
{
    const char *why = hm_last_error();
    int bad = (rc < 0 && !why[0]) || (expect == HM_MISUSE_FAIL && rc >= 0);
    if (bad) {
        failures++;
        printf("FAIL: %s(%s): status %d (%s), sentence \"%s\"\n", current_function, current_what,
               rc, rc < 0 ? hm_strerror(rc) : "no failure", why);
    }
}

/* A value for a string parameter, by its name: a name each registry knows,
 * a path in the test's own directory, else a word. */
const char *fx_string(const char *name)
{
    static const struct {
        const char *param, *value;
    } known[] = {{"spec", "skampi"}, {"method", "barrier"}, {"name", "monotonic"},
                 {"op", "barrier"},  {"path", "f.csv"},     {"dir", "."},
                 {"directory", "."}, {"target", "out.csv"}, {"text", "x"},
                 {"key", "k"},       {"value", "v"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(name, known[i].param)) return known[i].value;
    return "x";
}

void *fx_slot(void)
{
    return &slot;
}

hm_timer_t *fx_hm_timer_t(void)
{
    hm_timer_t *t = NULL;
    hm_timer_create("monotonic", NULL, &t);
    return t;
}

hm_clock_t *fx_hm_clock_t(void)
{
    hm_clock_t *c = NULL;
    hm_clock_identity(fx_hm_timer_t(), &c);
    return c;
}

hm_factors_t *fx_hm_factors_t(void)
{
    hm_factors_t *f = NULL;
    hm_factors_create(&f);
    return f;
}

hm_table_t *fx_hm_table_t(void)
{
    hm_table_t *t = NULL;
    hm_table_create(&t);
    return t;
}

const hm_op_t *fx_hm_op_t(void)
{
    return hm_op_find("barrier");
}

const hm_backend_t *fx_hm_backend_t(void)
{
    return hm_backend_find("mpi");
}

const hm_generator_t *fx_hm_generator_t(void)
{
    return hm_generator_find("rail");
}

hm_topo_t *fx_hm_topo_t(void)
{
    hm_topo_t *t = NULL;
    if (phase_mpi) hm_topo_create(MPI_COMM_WORLD, NULL, &t);
    return t;
}

hm_procsync_t *fx_hm_procsync_t(void)
{
    hm_procsync_t *ps = NULL;
    hm_procsync_params_t p;
    hm_procsync_params_default(&p);
    if (phase_mpi) hm_procsync_create("barrier", MPI_COMM_WORLD, fx_hm_clock_t(), &p, &ps);
    return ps;
}

hm_compute_t *fx_hm_compute_t(void)
{
    hm_compute_t *c = NULL;
    hm_compute_params_t p;
    hm_compute_params_default(&p);
    hm_compute_create(&p, &c);
    return c;
}

hm_csv_t *fx_hm_csv_t(void)
{
    static const char *const columns[] = {"a", "b"};
    hm_csv_t *csv = NULL;
    hm_csv_open("w.csv", NULL, columns, 2, &csv);
    return csv;
}

hm_csv_reader_t *fx_hm_csv_reader_t(void)
{
    hm_csv_reader_t *r = NULL;
    FILE *f = fopen("r.csv", "w");
    if (f) fputs("a,b\n1,2\n", f), fclose(f);
    hm_csv_reader_open("r.csv", &r);
    return r;
}

hm_afile_t *fx_hm_afile_t(void)
{
    hm_afile_t *af = NULL;
    hm_afile_open("a.txt", &af);
    return af;
}

hm_results_row_t *fx_hm_results_row_t(void)
{
    hm_results_row_t *r = NULL;
    hm_results_row_create((hm_results_kind_t)0, &r);
    return r;
}

/* Raw files as bench --raw and overlap --raw write them (tests/results,
 * tests/analysis hold the full formats), one valid repetition each. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

hm_results_bench_raw_t *fx_hm_results_bench_raw_t(void)
{
    hm_results_bench_raw_t *raw = NULL;
    write_text("braw.csv", "# processes: 2\n# sync: harmonize\n"
                           "op,size_bytes,attempt,valid,global_s,local_s\nbcast,8,0,1,2e-6,1e-6\n");
    hm_results_bench_raw_open("braw.csv", HM_METRIC_GLOBAL, &raw);
    return raw;
}

hm_results_overlap_raw_t *fx_hm_results_overlap_raw_t(void)
{
    hm_results_overlap_raw_t *raw = NULL;
    write_text("oraw.csv", "# processes: 2\n# sync: harmonize\n# progress: basic\n"
                           "op,comm_target_s,size_bytes,comp_target_s,attempt,valid,measured_s,"
                           "comp_s,mpi_s,overhead,comp_slowdown,comm_ratio\n"
                           "iallreduce,0.001,1000,0.004,0,1,5e-3,4e-3,1e-3,0.2,1,0.5\n");
    hm_results_overlap_raw_open("oraw.csv", HM_METRIC_OVERHEAD, &raw);
    return raw;
}

/* Two runs of one group (the reproducibility of a campaign). */
hm_analysis_repro_t *fx_hm_analysis_repro_t(void)
{
    hm_results_permpirun_t ds = {0};
    hm_results_permpirun_row_t row = {.run = 1,
                                      .op = "bcast",
                                      .size_bytes = 8,
                                      .processes = 2,
                                      .sync = "harmonize",
                                      .n = 10,
                                      .kept = 10,
                                      .median_s = 2e-6,
                                      .mean_s = 2e-6,
                                      .nrep = 10};
    row.comm_target_s = row.comp_target_s = NAN;
    hm_analysis_repro_t *repro = NULL;
    hm_results_permpirun_append(&ds, &row);
    row.run = 2, row.median_s = row.mean_s = 3e-6;
    hm_results_permpirun_append(&ds, &row);
    hm_analysis_repro_create(&ds, HM_STATISTIC_MEDIAN, &repro);
    hm_results_permpirun_free(&ds);
    return repro;
}

/* One case; with HM_MISUSE_FORK=1 (a survey of every crash at once, not
 * the test: MPI does not promise a forked child anything) in a child whose
 * signal is reported. */
hm_op_instance_t *fx_hm_op_instance_t(void)
{
    hm_op_instance_t *inst = NULL;
    const hm_op_params_t p = {.root = 0, .peer = 1, .batch = 1};
    if (phase_mpi) hm_op_prepare(hm_op_find("barrier"), MPI_COMM_WORLD, 4, &p, &inst);
    return inst;
}

hm_plan_t *fx_hm_plan_t(void)
{
    hm_plan_t *plan = NULL;
    if (phase_mpi) hm_plan_create(MPI_COMM_WORLD, hm_backend_find("mpi"), &plan);
    return plan;
}

hm_buffer_t *fx_hm_buffer_t(void)
{
    hm_buffer_t *buf = NULL;
    if (phase_mpi) hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_HOST, 64, &buf);
    return buf;
}

/* An experiment on the defaults: writes no file, synchronizes one rank. */
hm_experiment_t *fx_hm_experiment_t(void)
{
    hm_experiment_t *e = NULL;
    hm_experiment_params_t p;
    hm_experiment_stage_t stage;
    hm_experiment_params_default(&p);
    if (phase_mpi) hm_experiment_open(MPI_COMM_WORLD, &p, &e, &stage);
    return e;
}

/* A barrier at 4 bytes, the one operation one rank can run. */
hm_bench_run_t *fx_hm_bench_run_t(void)
{
    static const size_t sizes[] = {4};
    hm_bench_run_t *run = NULL;
    hm_bench_failed_t failed;
    const hm_bench_run_params_t p = {
        .ops = "barrier", .sizes = sizes, .nsizes = 1, .op = {.root = 0, .peer = 1, .batch = 1}};
    if (phase_mpi) hm_bench_run_create(MPI_COMM_WORLD, &p, &run, &failed);
    return run;
}

/* Two ranks over MPI_COMM_WORLD (NULL on one): an offset pair 0-1, a rail
 * pattern of two groups of one rank, 8 B, and its alltoallv baseline. */
hm_offset_pair_t *fx_hm_offset_pair_t(void)
{
    hm_offset_pair_t *pair = NULL;
    if (phase_mpi && world_size >= 2)
        hm_offset_pair_create(MPI_COMM_WORLD, 0, 1, HM_OFFSET_SKAMPI, 10, &pair);
    return pair;
}

hm_pattern_run_t *fx_hm_pattern_run_t(void)
{
    static const size_t sizes[] = {8};
    hm_pattern_run_params_t p;
    hm_pattern_failure_t failed;
    hm_pattern_run_t *run = NULL;
    hm_pattern_run_params_default(&p);
    p.ranks_per_group = 1, p.sizes = sizes, p.nsizes = 1;
    if (phase_mpi && world_size >= 2) hm_pattern_run_create(MPI_COMM_WORLD, &p, &run, &failed);
    return run;
}

hm_baseline_t *fx_hm_baseline_t(void)
{
    hm_edges_t edges = {0};
    hm_baseline_t *b = NULL;
    const hm_group_params_t g = {.n = 2, .g = 1, .k = 1, .direction = HM_DIRECTION_UNI, .bytes = 8};
    if (phase_mpi && world_size >= 2 &&
        hm_generator_edges(hm_generator_find("rail"), &g, &edges) == HM_OK)
        hm_baseline_create(MPI_COMM_WORLD, HM_BASELINE_ALLTOALLV, &edges, &b);
    hm_edges_free(&edges);
    return b;
}

/* A grid of iallreduce at 8 B (the size given: no communication is
 * calibrated) and one 100 us computation, whose calibration takes a few
 * milliseconds; made once, since the cases only pass it beside a NULL. */
hm_overlap_grid_t *fx_hm_overlap_grid_t(void)
{
    static hm_overlap_grid_t *grid;
    static const size_t sizes[] = {8};
    static const double comp_s[] = {1e-4};
    const hm_op_t *ops[] = {hm_op_find("iallreduce")};
    hm_overlap_grid_params_t gp;
    hm_overlap_grid_params_default(&gp);
    gp.nops = 1, gp.ops = ops, gp.ncomm = 1, gp.sizes = sizes;
    gp.ncomp = 1, gp.comp_targets_s = comp_s, gp.tolerance = 0.5, gp.comp_runs = 1;
    if (phase_mpi && !grid)
        hm_overlap_grid_calibrate(MPI_COMM_WORLD, fx_hm_procsync_t(), fx_hm_compute_t(), &gp,
                                  &grid);
    return phase_mpi ? grid : NULL;
}

static void run_case(size_t i)
{
    if (hm_misuse_cases[i].ranks > (phase_mpi ? world_size : 1)) {
        skipped++;
        return;
    }
    if (!getenv("HM_MISUSE_FORK") || world_size > 1) {
        hm_misuse_cases[i].run();
        return;
    }
    int before = failures;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        hm_misuse_cases[i].run();
        fflush(stdout);
        _exit(failures > before ? 1 : 0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0)) {
        failures++;
        if (WIFSIGNALED(st)) printf("CRASH: case %zu, signal %d\n", i, WTERMSIG(st));
    }
}

/* Every fixture makes a real handle: a case whose "valid" handle came back
 * NULL would test two invalid arguments at once, silently. */
static void check_fixtures(void)
{
    const struct {
        const char *name;
        const void *handle;
    } made[] = {{"timer", fx_hm_timer_t()},
                {"clock", fx_hm_clock_t()},
                {"factors", fx_hm_factors_t()},
                {"table", fx_hm_table_t()},
                {"op", fx_hm_op_t()},
                {"backend", fx_hm_backend_t()},
                {"generator", fx_hm_generator_t()},
                {"topo", fx_hm_topo_t()},
                {"procsync", fx_hm_procsync_t()},
                {"compute", fx_hm_compute_t()},
                {"csv", fx_hm_csv_t()},
                {"csv_reader", fx_hm_csv_reader_t()},
                {"afile", fx_hm_afile_t()},
                {"results_row", fx_hm_results_row_t()},
                {"op_instance", fx_hm_op_instance_t()},
                {"plan", fx_hm_plan_t()},
                {"buffer", fx_hm_buffer_t()},
                {"experiment", fx_hm_experiment_t()},
                {"bench_run", fx_hm_bench_run_t()},
                {"results_bench_raw", fx_hm_results_bench_raw_t()},
                {"results_overlap_raw", fx_hm_results_overlap_raw_t()},
                {"analysis_repro", fx_hm_analysis_repro_t()},
                {"offset_pair", fx_hm_offset_pair_t()},
                {"pattern_run", fx_hm_pattern_run_t()},
                {"baseline", fx_hm_baseline_t()},
                {"overlap_grid", fx_hm_overlap_grid_t()}};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        if (!made[i].handle && (world_size >= 2 || !strstr(HM_MISUSE_TWO_RANKS, made[i].name))) {
            failures++;
            printf("FAIL: the fixture %s could not be made (%s)\n", made[i].name, hm_last_error());
        }
}

/* The cases outside MPI's lifetime, or the others. */
static void run_phase(int lifetime)
{
    for (size_t i = 0; i < hm_misuse_ncases; i++)
        if (hm_misuse_cases[i].lifetime == lifetime) run_case(i);
}

int main(int argc, char **argv)
{
    if (!(fx_scratch = aligned_alloc(4096, 1 << 20)) || !mkdtemp(scratch_dir) ||
        chdir(scratch_dir) != 0) {
        perror("test_misuse: scratch");
        return 1;
    }
    if (getenv("HM_MISUSE_FORK")) setvbuf(stdout, NULL, _IONBF, 0); /* a crash keeps its case */
    size_t uncovered = 0, lifetime = 0;
    for (; hm_misuse_uncovered[uncovered]; uncovered++)
        printf("not covered: %s\n", hm_misuse_uncovered[uncovered]);
    for (size_t i = 0; i < hm_misuse_ncases; i++) lifetime += hm_misuse_cases[i].lifetime;
    run_phase(1); /* before MPI_Init */
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    phase_mpi = 1;
    check_fixtures();
    run_phase(0);
    phase_mpi = 0;
    MPI_Finalize();
    run_phase(1); /* after MPI_Finalize */
    printf("%zu cases (%zu outside MPI's lifetime, run twice), %zu not covered, %zu skipped "
           "(their handles need 2 ranks, %d ran), %d failed\n",
           hm_misuse_ncases, lifetime, uncovered, skipped, world_size, failures);
    char cmd[100]; /* the fixtures' files (f.csv, r.csv, braw.csv, ...) */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", scratch_dir);
    return failures ? 1 : 0;
}
