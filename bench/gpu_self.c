/* bench/gpu_self.c — the cuda backend's self copy against cudaMemcpyAsync
 * device to device, in the same run on the same buffers (issue 15: at
 * least 90 % of cudaMemcpy's bandwidth, 1 MiB to 1 GiB). One rank, one
 * GPU: for each size, rounds that each time one cudaMemcpyAsync on a
 * stream of its own followed by cudaStreamSynchronize, one self plan
 * (hm_plan_start + hm_plan_wait: the plan's stream, synchronized) with its
 * CUDA events, and the same plan without them (hm_plan_set_device_timing
 * off), in rotated order; the medians give GB/s (1e9 bytes moved, counted
 * once) and the ratios to the copy. The last column counts bytes read and written
 * (2 x size / time): the device memory bandwidth the copy shows.
 *
 *   mpirun -n 1 build/bench/gpu_self [MAX_BYTES]   (default 1G) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include <harmonia/gpu.h>
#include <harmonia/pattern.h>
#include <harmonia/stats.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* About 0.5 s of copying at 1 TB/s, 11 to 1001 rounds, odd for a median. */
static int rounds_for(size_t bytes)
{
    double r = 0.5 * 1e12 / (double)bytes;
    int n = r > 1001 ? 1001 : r < 11 ? 11 : (int)r;
    return n | 1;
}

typedef struct pair {
    hm_buffer_t *src, *dst;
    hm_plan_t *plan;
    cudaStream_t stream;
} pair_t;

static int set_up(size_t bytes, pair_t *p)
{
    int rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_DEVICE, bytes, &p->src);
    if (rc == HM_OK) rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_DEVICE, bytes, &p->dst);
    if (rc == HM_OK) rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find("cuda"), &p->plan);
    if (rc == HM_OK) rc = hm_plan_add(p->plan, p->src, 0, p->dst, 0, bytes, 0, 0);
    if (rc == HM_OK) rc = hm_plan_commit(p->plan);
    if (rc == HM_OK && cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking) != cudaSuccess)
        rc = HM_ENOTSUP;
    return rc;
}

enum { COPY, SELF, SELF_UNTIMED, NVARIANTS };

static int one(pair_t *p, size_t bytes, int variant, double *s)
{
    int rc = HM_OK;
    if (variant != COPY) rc = hm_plan_set_device_timing(p->plan, variant == SELF);
    double t0 = now_s();
    if (variant != COPY) {
        if (rc == HM_OK) rc = hm_plan_start(p->plan);
        if (rc == HM_OK) rc = hm_plan_wait(p->plan);
    } else if (cudaMemcpyAsync(hm_buffer_data(p->dst), hm_buffer_data(p->src), bytes,
                               cudaMemcpyDeviceToDevice, p->stream) != cudaSuccess ||
               cudaStreamSynchronize(p->stream) != cudaSuccess) {
        rc = HM_ENOTSUP;
    }
    *s = now_s() - t0;
    return rc;
}

/* GB/s of each variant: the medians of n rounds, the variants' order
 * rotated from round to round. */
static int measure(size_t bytes, double *gbps)
{
    pair_t p = {0};
    int rc = set_up(bytes, &p);
    int n = rounds_for(bytes);
    double *t = malloc((size_t)(n * NVARIANTS) * sizeof *t);
    if (rc == HM_OK && !t) rc = HM_ENOMEM;
    for (int r = 0; rc == HM_OK && r < n; r++)
        for (int k = 0; rc == HM_OK && k < NVARIANTS; k++) {
            int v = (r + k) % NVARIANTS;
            rc = one(&p, bytes, v, &t[v * n + r]);
        }
    for (int v = 0; rc == HM_OK && v < NVARIANTS; v++) {
        hm_stats_sort(t + v * n, (size_t)n);
        gbps[v] = (double)bytes / hm_stats_quantile_sorted(t + v * n, (size_t)n, 0.5) * 1e-9;
    }
    free(t);
    if (p.stream) cudaStreamDestroy(p.stream);
    hm_plan_free(p.plan);
    hm_buffer_free(p.dst);
    hm_buffer_free(p.src);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    size_t max = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)1 << 30;
    int device, rc = hm_gpu_select(MPI_COMM_WORLD, 0, &device);
    if (rc == HM_OK)
        printf("size_B\tcudaMemcpy_GBps\tself_GBps\tself/cudaMemcpy\tuntimed_GBps\t"
               "untimed/cudaMemcpy\tread+write_GBps\n");
    for (size_t bytes = (size_t)1 << 20; rc == HM_OK && bytes <= max; bytes *= 4) {
        double g[NVARIANTS] = {0};
        rc = measure(bytes, g);
        if (rc == HM_OK)
            printf("%zu\t%.1f\t%.1f\t%.3f\t%.1f\t%.3f\t%.1f\n", bytes, g[COPY], g[SELF],
                   g[SELF] / g[COPY], g[SELF_UNTIMED], g[SELF_UNTIMED] / g[COPY], 2 * g[COPY]);
        fflush(stdout);
    }
    if (rc != HM_OK) fprintf(stderr, "gpu_self: %s\n", hm_last_error());
    MPI_Finalize();
    return rc == HM_OK ? 0 : 1;
}
