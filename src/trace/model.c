/* src/trace/model.c — a rank's clock models as affine maps, extrapolation
 * and interpolation [Denis et al. 2022, §4.2], and the .model file. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/trace.h>

#include "common/error_set.h"
#include "trace/trace_impl.h"

/* A chain of offset and linear models over a timer is affine; its rate is
 * read over 1000 s, where rounding of the two readings is 1e-16 of them. */
hm_trace_model_t hm_trace_model_of(const hm_clock_t *clock, double anchor_s)
{
    enum { SPAN_S = 1000 };
    if (!clock) {
        hm__error_null(__func__, "clock");
        return (hm_trace_model_t){NAN, NAN, NAN};
    }
    double g0 = hm_clock_from_local(clock, anchor_s);
    double g1 = hm_clock_from_local(clock, anchor_s + SPAN_S);
    return (hm_trace_model_t){anchor_s, g0, (g1 - g0) / SPAN_S};
}

double hm_trace_model_apply(hm_trace_model_t m, double local_s)
{
    return hm__trace_model_at(m, local_s);
}

double hm_trace_interpolate(hm_trace_model_t start, hm_trace_model_t end, double local_s)
{
    return hm__trace_between(start, end, local_s, hm__trace_model_at(start, local_s));
}

static void put_model(FILE *f, const char *key, hm_trace_model_t m)
{
    fprintf(f, "%s: %.17g %.17g %.17g\n", key, m.anchor_s, m.global_at_anchor_s, m.rate);
}

int hm_trace_model_write(const char *dir, const hm_trace_rank_info_t *info, size_t ncomms,
                         const uint64_t *keys, const int *sizes, const int *world_ranks)
{
    char path[4096];
    if (!dir) return hm__error_null(__func__, "dir");
    if (!info) return hm__error_null(__func__, "info");
    /* The communicators' arrays are read only when there are some. */
    if (ncomms && !keys) return hm__error_null(__func__, "keys");
    if (ncomms && !sizes) return hm__error_null(__func__, "sizes");
    if (ncomms && !world_ranks) return hm__error_null(__func__, "world_ranks");
    snprintf(path, sizeof path, "%s/rank-%05d.model", dir, info->rank);
    hm_afile_t *af = NULL;
    int st = hm_afile_open(path, &af);
    if (st != HM_OK) return st;
    FILE *f = hm_afile_stream(af);
    fprintf(f, "# harmonia trace model\nrank: %d\nsize: %d\nclock_sync: %s\ntimer: %s\n",
            info->rank, info->size, info->clock_sync, info->timer);
    put_model(f, "start", info->start);
    if (info->has_end) put_model(f, "end", info->end);
    fprintf(f, "check_start_s: %.17g\ncheck_end_s: %.17g\n", info->check_start_s,
            info->check_end_s);
    fprintf(f, "check_init_s: %.17g\npair_error_s: %.17g\nlatency_min_s: %.17g\n",
            info->check_init_s, info->pair_error_s, info->latency_min_s);
    fprintf(f, "clock_cost_s: %.17g\n", info->clock_cost_s);
    fprintf(f, "offsets: %d %d %d\n", info->offsets_init, info->offsets_end, info->offsets_asked);
    fprintf(f, "events: %" PRIu64 "\nflushes: %" PRIu64 "\n", info->events, info->flushes);
    fprintf(f, "realtime: %.17g %.17g\nhost: %s\n", info->realtime_local_s, info->realtime_s,
            info->host);
    for (size_t c = 0, at = 0; c < ncomms; at += (size_t)sizes[c], c++) {
        fprintf(f, "comm: %" PRIu64 " %d", keys[c], sizes[c]);
        for (int i = 0; i < sizes[c]; i++) fprintf(f, " %d", world_ranks[at + (size_t)i]);
        fputc('\n', f);
    }
    return hm_afile_commit(af);
}

/* ---- Reading ---- */

static int parse_model(const char *v, hm_trace_model_t *m)
{
    return sscanf(v, "%lf %lf %lf", &m->anchor_s, &m->global_at_anchor_s, &m->rate) == 3 &&
                   isfinite(m->anchor_s) && isfinite(m->global_at_anchor_s) && isfinite(m->rate)
               ? 0
               : -1;
}

static int add_comm(hm__trace_model_file_t *mf, const char *v)
{
    uint64_t key;
    int size, used;
    if (sscanf(v, "%" SCNu64 " %d%n", &key, &size, &used) != 2 || size < 1) return -1;
    int *ranks = malloc((size_t)size * sizeof *ranks);
    if (!ranks) return -1;
    hm__trace_comm_t *c = realloc(mf->comms, (mf->ncomms + 1) * sizeof *c);
    if (!c) return free(ranks), -1;
    mf->comms = c;
    v += used;
    for (int i = 0; i < size; i++) {
        if (sscanf(v, "%d%n", &ranks[i], &used) != 1) return free(ranks), -1;
        v += used;
    }
    mf->comms[mf->ncomms++] = (hm__trace_comm_t){key, size, ranks};
    return 0;
}

static int parse_line(hm__trace_model_file_t *mf, const char *key, const char *v)
{
    hm_trace_rank_info_t *in = &mf->info;
    if (!strcmp(key, "rank")) return sscanf(v, "%d", &in->rank) == 1 ? 0 : -1;
    if (!strcmp(key, "size")) return sscanf(v, "%d", &in->size) == 1 ? 0 : -1;
    if (!strcmp(key, "clock_sync"))
        return snprintf(in->clock_sync, sizeof in->clock_sync, "%s", v), 0;
    if (!strcmp(key, "timer")) return snprintf(in->timer, sizeof in->timer, "%s", v), 0;
    if (!strcmp(key, "start")) return parse_model(v, &in->start);
    if (!strcmp(key, "end")) return in->has_end = 1, parse_model(v, &in->end);
    if (!strcmp(key, "check_start_s")) return sscanf(v, "%lf", &in->check_start_s) == 1 ? 0 : -1;
    if (!strcmp(key, "check_end_s")) return sscanf(v, "%lf", &in->check_end_s) == 1 ? 0 : -1;
    if (!strcmp(key, "check_init_s")) return sscanf(v, "%lf", &in->check_init_s) == 1 ? 0 : -1;
    if (!strcmp(key, "pair_error_s")) return sscanf(v, "%lf", &in->pair_error_s) == 1 ? 0 : -1;
    if (!strcmp(key, "clock_cost_s")) return sscanf(v, "%lf", &in->clock_cost_s) == 1 ? 0 : -1;
    if (!strcmp(key, "offsets"))
        return sscanf(v, "%d %d %d", &in->offsets_init, &in->offsets_end, &in->offsets_asked) == 3
                   ? 0
                   : -1;
    if (!strcmp(key, "latency_min_s")) return sscanf(v, "%lf", &in->latency_min_s) == 1 ? 0 : -1;
    if (!strcmp(key, "events")) return sscanf(v, "%" SCNu64, &in->events) == 1 ? 0 : -1;
    if (!strcmp(key, "flushes")) return sscanf(v, "%" SCNu64, &in->flushes) == 1 ? 0 : -1;
    if (!strcmp(key, "comm")) return add_comm(mf, v);
    if (!strcmp(key, "realtime"))
        return sscanf(v, "%lf %lf", &in->realtime_local_s, &in->realtime_s) == 2 ? 0 : -1;
    if (!strcmp(key, "host")) return snprintf(in->host, sizeof in->host, "%s", v), 0;
    return 0; /* a key of a later version */
}

int hm__trace_model_read(const char *path, hm__trace_model_file_t *mf)
{
    memset(mf, 0, sizeof *mf);
    /* Not in files of older versions: not measured. */
    mf->info.check_init_s = mf->info.pair_error_s = mf->info.latency_min_s = NAN;
    mf->info.clock_cost_s = NAN;
    mf->info.realtime_local_s = mf->info.realtime_s = NAN;
    FILE *f;
    int rc = hm_input_open(path, "trace model file", HM_INPUT_MAX_MODEL_BYTES, &f);
    if (rc != HM_OK) return rc;
    hm_input_skip_bom(f);
    char line[1 << 16];
    int lineno = 0, st = HM_OK;
    while (st == HM_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0; /* CRLF too */
        char *colon = strstr(line, ": ");
        if (line[0] == '#' || !line[0]) continue;
        if (!colon || (*colon = 0, parse_line(mf, line, colon + 2) != 0))
            st = hm__error_set(HM_EINVAL, "%s:%d: not a trace model line", path, lineno);
    }
    fclose(f);
    if (st != HM_OK) hm__trace_model_file_free(mf);
    return st;
}

void hm__trace_model_file_free(hm__trace_model_file_t *mf)
{
    for (size_t i = 0; i < mf->ncomms; i++) free(mf->comms[i].world_ranks);
    free(mf->comms);
    mf->comms = NULL, mf->ncomms = 0;
}
