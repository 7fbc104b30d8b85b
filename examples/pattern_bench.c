/* examples/pattern_bench.c — a pattern benchmark of your own, in the shape
 * of CommBench's Listing 2 [Hidayetoglu et al. 2024, §4.2]: three plans,
 * one per step, the messages added one by one, then the steps measured as
 * a sequence (each rank starts step i + 1 when its own part of step i is
 * done, no barrier between steps: Fig. 5a).
 *
 * Striping: the ranks are 2 groups of g = P / 2 (think: 2 nodes of g GPUs),
 * and D bytes go from rank 0 (group 0) to rank g (group 1) over every rank:
 * split (rank 0 hands stripe i to rank i, within group 0), translate (rank
 * i sends its stripe to rank g + i, across the groups, all stripes at
 * once), assemble (rank g + i hands its stripe to rank g). Within a group
 * the host backend copies into a peer's shared memory (the paper's IPC);
 * across, MPI (the paper's NCCL). At P = 2 split and assemble are empty.
 *
 * Every repetition is started by a dissemination barrier on the global
 * clock, and validated end to end: rank g's buffer must hold rank 0's.
 * Rank 0 prints the median run-time (max end - min start on the global
 * clock) and the bandwidth. Exit status 0 when every repetition was valid
 * and no byte was wrong; 1 otherwise or when a call fails.
 *
 * Usage: mpirun -n 2 example_pattern_bench   (an even number of ranks) */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <harmonia/experiment.h>
#include <harmonia/pattern.h>
#include <harmonia/stats.h>

enum { D = 1 << 20, NREP = 20 };

static void check(int rc, const char *what)
{
    if (rc == HM_OK) return;
    fprintf(stderr, "%s: %s\n", what, hm_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The two ends of the striped buffer: rank 0 sends its bytes, rank g
 * receives them. The validation the engine runs around each repetition. */
typedef struct ends {
    hm_buffer_t *send, *recv;
    int rank, g;
    unsigned char bytes[D];
} ends_t;

static int fill(void *ctx)
{
    ends_t *e = ctx;
    for (size_t i = 0; i < D; i++) e->bytes[i] = e->rank == 0 ? hm_pattern_byte(0, i) : 0;
    if (e->rank == 0) return hm_buffer_write(e->send, 0, e->bytes, D);
    return e->rank == e->g ? hm_buffer_write(e->recv, 0, e->bytes, D) : HM_OK;
}

static int verify(void *ctx, uint64_t *wrong)
{
    ends_t *e = ctx;
    *wrong = 0;
    if (e->rank != e->g) return HM_OK;
    int rc = hm_buffer_read(e->recv, 0, e->bytes, D);
    for (size_t i = 0; rc == HM_OK && i < D; i++) *wrong += e->bytes[i] != hm_pattern_byte(0, i);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    if (p % 2) check(HM_EINVAL, "striping needs an even number of ranks");
    int g = p / 2;
    size_t s = D / g; /* a stripe; the last one takes the rest */

    /* The global clock and the process synchronization, in one call. */
    hm_experiment_params_t ep;
    hm_experiment_t *x = NULL;
    hm_experiment_params_default(&ep);
    ep.procsync = "dissem";
    check(hm_experiment_open(comm, &ep, &x, NULL), "hm_experiment_open");

    /* Listing 2, lines 2-7: a plan per step, a staging buffer for a stripe. */
    const hm_backend_t *host = hm_backend_find("host"), *mpi = hm_backend_find("mpi");
    hm_buffer_t *send, *recv, *temp;
    hm_plan_t *split, *translate, *assemble;
    check(hm_buffer_alloc(comm, HM_MEMORY_SHARED, rank == 0 ? D : 0, &send), "send buffer");
    check(hm_buffer_alloc(comm, HM_MEMORY_SHARED, rank == g ? D : 0, &recv), "recv buffer");
    check(hm_buffer_alloc(comm, HM_MEMORY_SHARED, D - (g - 1) * s, &temp), "temp buffer");
    check(hm_plan_create(comm, host, &split), "split");
    check(hm_plan_create(comm, mpi, &translate), "translate");
    check(hm_plan_create(comm, host, &assemble), "assemble");

    /* Lines 8-17: the messages (sendbuf, offset, recvbuf, offset, bytes, src, dst). */
    for (int i = 1; i < g; i++) {
        size_t len = i == g - 1 ? D - i * s : s;
        check(hm_plan_add(split, send, i * s, temp, 0, len, 0, i), "split add");
        check(hm_plan_add(translate, temp, 0, temp, 0, len, i, g + i), "translate add");
        check(hm_plan_add(assemble, temp, 0, recv, i * s, len, g + i, g), "assemble add");
    }
    check(hm_plan_add(translate, send, 0, recv, 0, s, 0, g), "translate add");
    hm_plan_t *steps[] = {split, translate, assemble};
    for (int i = 0; i < 3; i++) check(hm_plan_commit(steps[i]), "hm_plan_commit");

    /* Lines 19-21: the sequence measured, 10 warm-up rounds, 20 measured. */
    ends_t *ends = malloc(sizeof *ends);
    if (!ends) check(HM_ENOMEM, "ends");
    *ends = (ends_t){.send = send, .recv = recv, .rank = rank, .g = g};
    hm_plan_validation_t v = {fill, verify, ends};
    hm_measure_params_t mp;
    hm_measure_result_t r;
    uint64_t wrong = 0;
    hm_experiment_measure_params(x, &mp);
    mp.nrep = NREP, mp.warmup = 10, mp.validate = 1;
    check(hm_plan_measure(steps, 3, HM_SEQUENCE_STEPS, hm_experiment_procsync(x), &mp, &v, &r,
                          &wrong),
          "hm_plan_measure");

    int ok = r.nvalid == NREP && wrong == 0;
    if (rank == 0) {
        hm_stats_summary_t t;
        check(hm_stats_summarize_flagged(r.global_s, r.valid, 1, (size_t)r.n, &t), "summary");
        printf("striping %d B, 2 groups of %d: median %.1f us, %.2f GB/s; %ld valid, %llu wrong "
               "bytes: %s\n",
               D, g, t.median * 1e6, D / t.median / 1e9, r.nvalid, (unsigned long long)wrong,
               ok ? "ok" : "FAILED");
    }
    hm_measure_result_free(&r);
    for (int i = 0; i < 3; i++) hm_plan_free(steps[i]);
    hm_buffer_free(temp), hm_buffer_free(recv), hm_buffer_free(send);
    free(ends);
    hm_experiment_close(x);
    MPI_Finalize();
    return ok ? 0 : 1;
}
