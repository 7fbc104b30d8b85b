/* src/output/collect.c — hm_factors_collect: every rank reports its host
 * and binding to the root, the root writes the factors, and they travel back
 * to every rank so that any rank could write the result file.
 *
 * Every step that can fail on some ranks only is followed by an agreement
 * (hm_agree: the lowest failing rank's status and sentence) before the next
 * collective, so that no rank is left waiting in a collective that the
 * others skipped. */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>
#include <harmonia/gpu.h>
#include <harmonia/output.h>
#include <harmonia/version.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "hm_build_info.h"
#include "output/output_impl.h"

enum { ROOT = 0, FACT_LEN = 1024 };

/* This rank's report: "host\0binding\0". */
static int local_record(char **rec, int *len)
{
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "", binding[FACT_LEN];
    int hlen = 0;
    int st =
        hm__mpi_status(MPI_Get_processor_name(host, &hlen), __func__, "MPI_Get_processor_name");
    if (st != HM_OK) return st;
    host[hlen < 0 ? 0 : hlen] = '\0';
    hm__output_binding(binding, sizeof binding);
    *rec = hm__output_format("%s%c%s", host, '\0', binding);
    if (!*rec) return hm__error_nomem(__func__);
    *len = (int)(strlen(host) + strlen(binding) + 2);
    return HM_OK;
}

/* The reports of all ranks, concatenated on the root (NULL elsewhere). */
static int gather_records(MPI_Comm comm, char **all)
{
    int rank, size, len = 0, *lens = NULL, *displs = NULL;
    long long total = 0;
    char *rec = NULL;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    *all = NULL;
    int st = local_record(&rec, &len);
    if (st == HM_OK && rank == ROOT) {
        lens = malloc((size_t)size * sizeof *lens);
        displs = malloc((size_t)size * sizeof *displs);
        if (!lens || !displs) st = hm__error_nomem(__func__);
    }
    if ((st = hm_agree(comm, st)) != HM_OK) goto out;
    st = hm__mpi_status(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, ROOT, comm), __func__,
                        "MPI_Gather");
    for (int r = 0; st == HM_OK && rank == ROOT && r < size; r++) {
        displs[r] = (int)total;
        total += lens[r];
        if (total > INT_MAX)
            st = hm__error_set(HM_ERANGE, "%s: the reports of %d ranks exceed %d bytes", __func__,
                               size, INT_MAX);
    }
    if (st == HM_OK && rank == ROOT && !(*all = malloc((size_t)total + 1)))
        st = hm__error_nomem(__func__);
    if ((st = hm_agree(comm, st)) != HM_OK) goto out;
    st = hm__mpi_status(MPI_Gatherv(rec, len, MPI_CHAR, *all, lens, displs, MPI_CHAR, ROOT, comm),
                        __func__, "MPI_Gatherv");
out:
    free(rec);
    free(lens);
    free(displs);
    if (st != HM_OK) free(*all), *all = NULL;
    return st;
}

typedef struct reports {
    const char **hosts, **bindings;
} reports_t;

/* Root: point hosts[r] and bindings[r] into the concatenated reports. */
static int split_reports(const char *all, int size, reports_t *rep)
{
    rep->hosts = malloc((size_t)size * sizeof *rep->hosts);
    rep->bindings = malloc((size_t)size * sizeof *rep->bindings);
    if (!rep->hosts || !rep->bindings) return hm__error_nomem(__func__);
    for (int r = 0; r < size; r++) {
        rep->hosts[r] = all;
        all += strlen(all) + 1;
        rep->bindings[r] = all;
        all += strlen(all) + 1;
    }
    return HM_OK;
}

static int set_run_factors(hm_factors_t *f, const hm_factors_context_t *ctx)
{
    char text[FACT_LEN];
    int major = 0, minor = 0;
    int st = hm_factors_set(f, "harmonia_version", "%s", hm_version());
    if (st == HM_OK && ctx && ctx->argv && ctx->argc > 0) {
        char *line = hm_output_shell_join(ctx->argc, ctx->argv);
        st = line ? hm_factors_set(f, "command_line", "%s", line) : hm__error_nomem(__func__);
        free(line);
    }
    hm__output_utc_date(text, sizeof text);
    if (st == HM_OK) st = hm_factors_set(f, "date", "%s", text);
    hm__output_mpi_library(text, sizeof text);
    if (st == HM_OK) st = hm_factors_set(f, "mpi_library", "%s", text);
    if (st == HM_OK)
        st = hm__mpi_status(MPI_Get_version(&major, &minor), __func__, "MPI_Get_version");
    if (st == HM_OK) st = hm_factors_set(f, "mpi_version", "%d.%d", major, minor);
    return st;
}

static int set_timer_factors(hm_factors_t *f, const hm_factors_context_t *ctx)
{
    int st = HM_OK;
    if (ctx && ctx->timer) st = hm_factors_set(f, "timer", "%s", ctx->timer);
    if (st == HM_OK && ctx && ctx->timer_resolution_s > 0)
        st = hm_factors_set(f, "timer_resolution_s", "%.6g", ctx->timer_resolution_s);
    if (st == HM_OK && ctx && ctx->timer_nominal_resolution_s > 0)
        st = hm_factors_set(f, "timer_nominal_resolution_s", "%.6g",
                            ctx->timer_nominal_resolution_s);
    return st;
}

static int set_build_factors(hm_factors_t *f, const hm_factors_context_t *ctx)
{
    char governor[FACT_LEN];
    hm__output_cpu_governor(governor, sizeof governor);
    int st = hm_factors_set(f, "cpu_governor", "%s", governor);
    if (st == HM_OK)
        st = hm_factors_set(f, "interference", "%s",
                            ctx && ctx->interference ? ctx->interference : "not measured");
    if (st == HM_OK) st = hm_factors_set(f, "compiler", "%s", HM_BUILD_COMPILER);
    if (st == HM_OK)
        st = hm_factors_set(f, "cflags", "%s", HM_BUILD_CFLAGS[0] ? HM_BUILD_CFLAGS : "none");
    if (st == HM_OK)
        st = hm_factors_set(f, "build_type", "%s", HM_BUILD_TYPE[0] ? HM_BUILD_TYPE : "none");
    if (st == HM_OK && ctx && ctx->seed_set) st = hm_factors_set(f, "seed", "%" PRIu64, ctx->seed);
    if (st == HM_OK && hm_gpu_built()) {
        char gpu[FACT_LEN];
        hm_gpu_versions_text(gpu, sizeof gpu);
        st = hm_factors_set(f, "gpu_software", "%s", gpu);
    }
    return st;
}

/* Root: all factors, in the order of the design's list. */
static int root_factors(hm_factors_t *f, const hm_factors_context_t *ctx, const char *all, int size)
{
    reports_t rep = {NULL, NULL};
    int st = split_reports(all, size, &rep);
    if (st == HM_OK) st = set_run_factors(f, ctx);
    if (st == HM_OK) st = hm_factors_set(f, "processes", "%d", size);
    if (st == HM_OK) st = hm__output_summarize_hosts(f, rep.hosts, (size_t)size);
    if (st == HM_OK) st = set_timer_factors(f, ctx);
    if (st == HM_OK) st = hm__output_summarize_pinning(f, rep.bindings, (size_t)size);
    if (st == HM_OK) st = set_build_factors(f, ctx);
    free(rep.hosts);
    free(rep.bindings);
    return st;
}

/* "key\0value\0key\0value\0..." of the whole list. */
static int serialize(const hm_factors_t *f, char **buf, long long *len)
{
    const char *key, *value;
    long long total = 0;
    for (size_t i = 0; i < hm_factors_count(f) && hm_factors_at(f, i, &key, &value) == HM_OK; i++)
        total += (long long)(strlen(key) + strlen(value) + 2);
    if (total > INT_MAX)
        return hm__error_set(HM_ERANGE, "%s: the factors take %lld bytes, above %d", __func__,
                             total, INT_MAX);
    char *p = *buf = malloc((size_t)total + 1);
    if (!p) return hm__error_nomem(__func__);
    for (size_t i = 0; i < hm_factors_count(f) && hm_factors_at(f, i, &key, &value) == HM_OK; i++) {
        p = stpcpy(p, key) + 1;
        p = stpcpy(p, value) + 1;
    }
    *len = total;
    return HM_OK;
}

static int deserialize(hm_factors_t *f, const char *buf, long long len)
{
    const char *end = buf + len;
    int st = HM_OK;
    while (st == HM_OK && buf < end) {
        const char *value = buf + strlen(buf) + 1;
        st = hm_factors_set(f, buf, "%s", value);
        buf = value + strlen(value) + 1;
    }
    return st;
}

/* Root: build and serialize the factors. Elsewhere: nothing. */
static int root_payload(MPI_Comm comm, const hm_factors_context_t *ctx, const char *all, char **buf,
                        long long *len)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank != ROOT) return HM_OK;
    hm_factors_t *collected;
    int st = hm_factors_create(&collected);
    if (st == HM_OK) st = root_factors(collected, ctx, all, size);
    if (st == HM_OK) st = serialize(collected, buf, len);
    hm_factors_free(collected);
    return st;
}

/* Send the root's payload to every rank and set it into f. */
static int broadcast_payload(MPI_Comm comm, hm_factors_t *f, char *buf, long long len, int st)
{
    int rank;
    long long head[2] = {st, len};
    MPI_Comm_rank(comm, &rank);
    st = hm__mpi_status(MPI_Bcast(head, 2, MPI_LONG_LONG, ROOT, comm), __func__, "MPI_Bcast");
    if ((st = hm_agree(comm, st)) != HM_OK) return st;
    if (head[0] != HM_OK) return (int)head[0];
    char *mine = rank == ROOT ? buf : malloc((size_t)head[1] + 1);
    if ((st = hm_agree(comm, mine ? HM_OK : hm__error_nomem(__func__))) != HM_OK) goto out;
    st = hm__mpi_status(MPI_Bcast(mine, (int)head[1], MPI_CHAR, ROOT, comm), __func__, "MPI_Bcast");
    if (st == HM_OK) st = deserialize(f, mine, head[1]);
    st = hm_agree(comm, st);
out:
    if (mine != buf) free(mine);
    return st;
}

/* The time stamps of a run are as fine as the coarsest rank's source: the
 * factor is the largest of the measured resolutions, not rank 0's (nor what
 * the source claims: CLOCK_MONOTONIC claims 1 ns and steps by ~20 ns). */
static int coarsest_resolution(MPI_Comm comm, const hm_factors_context_t *ctx,
                               hm_factors_context_t *out)
{
    double mine = ctx ? ctx->timer_resolution_s : 0, coarsest = 0;
    if (ctx) *out = *ctx;
    int st = hm__mpi_status(MPI_Allreduce(&mine, &coarsest, 1, MPI_DOUBLE, MPI_MAX, comm), __func__,
                            "MPI_Allreduce");
    if (st == HM_OK) out->timer_resolution_s = coarsest;
    return st;
}

int hm_factors_collect(hm_factors_t *factors, MPI_Comm comm, const hm_factors_context_t *ctx)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    char *all = NULL, *buf = NULL;
    long long len = 0;
    hm_factors_context_t merged = {0};
    /* Every rank learns the sentence of the one whose list is missing. */
    int st = hm_agree(comm, factors ? HM_OK : hm__error_null(__func__, "factors"));
    if (st == HM_OK) st = hm_agree(comm, coarsest_resolution(comm, ctx, &merged));
    if (st == HM_OK) st = hm_agree(comm, gather_records(comm, &all));
    if (st == HM_OK) {
        st = root_payload(comm, ctx ? &merged : NULL, all, &buf, &len);
        st = broadcast_payload(comm, factors, buf, len, st);
    }
    free(all);
    free(buf);
    return st;
}
