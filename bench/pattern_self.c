/* bench/pattern_self.c — the host backend's `self` pattern against memcpy,
 * in the same run on the same buffers (issue 14: at least 80 % of memcpy's
 * bandwidth, 1 KiB to 256 MiB). One rank: for each size, REPS rounds that
 * each time one memcpy from buffer 0 to buffer 1 and one self plan
 * (hm_plan_start + hm_plan_wait, the copy the backend makes), alternating
 * which goes first, so that both see the same caches and the same machine;
 * the medians of each give GB/s (1e9 bytes) and their ratio. Below 64 KiB a
 * sample times a batch of copies (64 KiB in all): one 1 KiB copy takes 50
 * ns, five ticks of the clock as read here.
 *
 *   mpirun -n 1 build/bench/pattern_self [MAX_BYTES]   (default 256M) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <harmonia/pattern.h>
#include <harmonia/stats.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Rounds: about 0.5 s of copying at 10 GB/s, 5 to 2001, odd for a median. */
static int rounds_for(size_t bytes)
{
    double r = 5e9 / 10.0 / (double)bytes;
    int n = r > 2001 ? 2001 : r < 5 ? 5 : (int)r;
    return n | 1;
}

static int measure(size_t bytes, double *memcpy_gbps, double *self_gbps)
{
    hm_buffer_t *src = NULL, *dst = NULL;
    hm_plan_t *plan = NULL;
    int rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_SHARED, bytes, &src);
    if (rc == HM_OK) rc = hm_buffer_alloc(MPI_COMM_WORLD, HM_MEMORY_SHARED, bytes, &dst);
    if (rc == HM_OK) rc = hm_plan_create(MPI_COMM_WORLD, hm_backend_find("host"), &plan);
    if (rc == HM_OK) rc = hm_plan_add(plan, src, 0, dst, 0, bytes, 0, 0);
    if (rc == HM_OK) rc = hm_plan_commit(plan);
    int n = rounds_for(bytes), batch = bytes < 65536 ? (int)(65536 / bytes) : 1;
    double *tm = malloc((size_t)n * sizeof *tm), *tp = malloc((size_t)n * sizeof *tp);
    if (rc == HM_OK && (!tm || !tp)) rc = HM_ENOMEM;
    if (rc == HM_OK) memset(hm_buffer_data(src), 1, bytes);
    for (int r = 0; rc == HM_OK && r < n; r++)
        for (int k = 0; k < 2; k++) {
            int plan_now = (r + k) % 2;
            double t0 = now_s();
            for (int b = 0; rc == HM_OK && b < batch; b++)
                if (plan_now) {
                    rc = hm_plan_start(plan);
                    if (rc == HM_OK) rc = hm_plan_wait(plan);
                } else {
                    memcpy(hm_buffer_data(dst), hm_buffer_data(src), bytes);
                }
            (plan_now ? tp : tm)[r] = (now_s() - t0) / batch;
        }
    if (rc == HM_OK) {
        hm_stats_sort(tm, (size_t)n);
        hm_stats_sort(tp, (size_t)n);
        *memcpy_gbps = (double)bytes / hm_stats_quantile_sorted(tm, (size_t)n, 0.5) * 1e-9;
        *self_gbps = (double)bytes / hm_stats_quantile_sorted(tp, (size_t)n, 0.5) * 1e-9;
    }
    free(tm), free(tp);
    hm_plan_free(plan);
    hm_buffer_free(dst);
    hm_buffer_free(src);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    size_t max = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)256 << 20;
    int rc = HM_OK;
    printf("size_B\tmemcpy_GBps\tself_GBps\tself/memcpy\n");
    for (size_t bytes = 1024; rc == HM_OK && bytes <= max; bytes *= 4) {
        double m = 0, s = 0;
        rc = measure(bytes, &m, &s);
        if (rc == HM_OK) printf("%zu\t%.2f\t%.2f\t%.3f\n", bytes, m, s, s / m);
        fflush(stdout);
    }
    if (rc != HM_OK) fprintf(stderr, "pattern_self: %s\n", hm_last_error());
    MPI_Finalize();
    return rc == HM_OK ? 0 : 1;
}
