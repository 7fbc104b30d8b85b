/* src/results/manifest.c — DIR/manifest.csv of a campaign: written through
 * the atomic CSV writer, read back with the CSV reader, its columns those of
 * the manifest schema. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>
#include <harmonia/results.h>
#include <harmonia/rng.h>
#include <harmonia/version.h>

#include "common/error_set.h"

enum { NCOLUMNS = HM_COL_MANIFEST_COMMAND + 1 };

static const char *const state_names[] = {[HM_RUN_PENDING] = "pending",
                                          [HM_RUN_RUNNING] = "running",
                                          [HM_RUN_DONE] = "done",
                                          [HM_RUN_FAILED] = "failed",
                                          [HM_RUN_INTERRUPTED] = "interrupted"};

const char *hm_results_run_state_name(hm_run_state_t state)
{
    return (unsigned)state <= HM_RUN_INTERRUPTED ? state_names[state] : NULL;
}

/* 1 with *state the state called name; 0 for a name of none. */
static int state_of(const char *name, hm_run_state_t *state)
{
    for (int i = 0; i <= HM_RUN_INTERRUPTED; i++)
        if (strcmp(name, state_names[i]) == 0) {
            *state = (hm_run_state_t)i;
            return 1;
        }
    return 0;
}

uint64_t hm_results_run_seed(uint64_t base_seed, long run)
{
    hm_rng_t rng;
    hm_rng_seed(&rng, base_seed, (uint64_t)run);
    return hm_rng_next(&rng) >> 32;
}

int hm_results_manifest_resize(hm_results_manifest_t *m, long nruns)
{
    if (!m) return hm__error_null(__func__, "m");
    if (nruns <= m->nruns) return HM_OK;
    hm_results_manifest_run_t *runs = realloc(m->runs, (size_t)nruns * sizeof *runs);
    if (!runs) return hm__error_set(HM_ENOMEM, "manifest: out of memory for %ld runs", nruns);
    for (long i = m->nruns; i < nruns; i++)
        runs[i] = (hm_results_manifest_run_t){.run = i + 1, .exit_status = -1, .duration_s = NAN};
    m->runs = runs;
    m->nruns = nruns;
    return HM_OK;
}

void hm_results_manifest_free(hm_results_manifest_t *m)
{
    if (!m) {
        hm__error_null(__func__, "m");
        return;
    }
    for (long i = 0; i < m->nruns; i++) free(m->runs[i].command);
    free(m->runs);
    free(m->template_command);
    *m = (hm_results_manifest_t){0};
}

static int put_row(hm_csv_t *csv, const hm_results_manifest_run_t *r)
{
    int rc = hm_csv_put_int64(csv, r->run);
    if (rc == HM_OK) rc = hm_csv_put_int64(csv, (int64_t)r->seed);
    if (rc == HM_OK) rc = hm_csv_put_string(csv, hm_results_run_state_name(r->state));
    if (rc == HM_OK) rc = hm_csv_put_int64(csv, r->exit_status);
    if (rc == HM_OK) rc = hm_csv_put_string(csv, r->start_utc);
    if (rc == HM_OK) rc = hm_csv_put_string(csv, r->end_utc);
    if (rc == HM_OK) rc = hm_csv_put_double(csv, r->duration_s);
    if (rc == HM_OK) rc = hm_csv_put_string(csv, r->raw);
    if (rc == HM_OK) rc = hm_csv_put_string(csv, r->log);
    if (rc == HM_OK) rc = hm_csv_put_string(csv, r->command ? r->command : "");
    if (rc == HM_OK) rc = hm_csv_end_row(csv);
    return rc;
}

int hm_results_manifest_write(const hm_results_manifest_t *m, const char *path)
{
    hm_factors_t *f = NULL;
    hm_csv_t *csv = NULL;
    if (!m) return hm__error_null(__func__, "m");
    if (!path) return hm__error_null(__func__, "path");
    int rc = hm_factors_create(&f);
    if (rc == HM_OK) rc = hm_factors_set(f, "harmonia_version", "%s", hm_version());
    if (rc == HM_OK) rc = hm_factors_set(f, "campaign_command", "%s", m->template_command);
    if (rc == HM_OK) rc = hm_factors_set(f, "base_seed", "%llu", (unsigned long long)m->base_seed);
    if (rc == HM_OK) rc = hm_factors_set(f, "runs", "%ld", m->nruns);
    if (rc != HM_OK) {
        hm_factors_free(f);
        return hm__error_set(rc, "%s: %s", path, hm_strerror(rc));
    }
    rc = hm_results_csv_open(path, f, HM_RESULTS_MANIFEST, &csv);
    hm_factors_free(f);
    if (rc != HM_OK) return rc;
    for (long i = 0; rc == HM_OK && i < m->nruns; i++) rc = put_row(csv, &m->runs[i]);
    if (rc != HM_OK) {
        hm__error_set(rc, "%s: %s", path, hm_last_error());
        hm_csv_abort(csv);
        return rc;
    }
    return hm_csv_close(csv);
}

static int bad(const char *path, size_t line, const char *what)
{
    if (line)
        return hm__error_set(HM_EINVAL, "%s:%zu: %s (not a campaign manifest?)", path, line, what);
    return hm__error_set(HM_EINVAL, "%s: %s (not a campaign manifest?)", path, what);
}

static int read_header(hm_csv_reader_t *r, const char *path, hm_results_manifest_t *m, size_t *idx)
{
    const hm_factors_t *f = hm_csv_reader_factors(r);
    const char *command = NULL, *seed = NULL;
    char *end;
    for (int c = 0; c < NCOLUMNS; c++) {
        const char *name = hm_results_column_name(HM_RESULTS_MANIFEST, c);
        if (hm_csv_reader_find(r, name, &idx[c]) != HM_OK) {
            char what[96];
            snprintf(what, sizeof what, "no column %s", name);
            return bad(path, 0, what);
        }
    }
    if (hm_factors_get(f, "campaign_command", &command) != HM_OK ||
        hm_factors_get(f, "base_seed", &seed) != HM_OK)
        return bad(path, 0, "no \"# campaign_command:\" or \"# base_seed:\" line");
    errno = 0;
    m->base_seed = strtoull(seed, &end, 10);
    if (!*seed || *end || errno) return bad(path, 0, "base_seed is not a number");
    m->template_command = strdup(command);
    return m->template_command ? HM_OK : hm__error_set(HM_ENOMEM, "%s: out of memory", path);
}

/* 1 with cell copied to dst; 0 when it does not fit in cap bytes. */
static int copy_cell(char *dst, size_t cap, const char *cell)
{
    if (strlen(cell) >= cap) return 0;
    strcpy(dst, cell);
    return 1;
}

static int bad_row(hm_csv_reader_t *r, const char *path)
{
    return bad(path, hm_csv_reader_line(r), "malformed run row");
}

/* One row: the run number must be the next one, so the rows are 1..n. */
static int read_row(hm_csv_reader_t *r, const char *path, const size_t *idx,
                    hm_results_manifest_t *m)
{
    double run, seed, exit_status, duration;
    hm_run_state_t state;
    if (hm_csv_reader_double(r, idx[HM_COL_MANIFEST_RUN], &run) != HM_OK ||
        run != (double)(m->nruns + 1) ||
        hm_csv_reader_double(r, idx[HM_COL_MANIFEST_SEED], &seed) != HM_OK ||
        hm_csv_reader_double(r, idx[HM_COL_MANIFEST_EXIT_STATUS], &exit_status) != HM_OK ||
        hm_csv_reader_double(r, idx[HM_COL_MANIFEST_DURATION_S], &duration) != HM_OK ||
        !state_of(hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_STATE]), &state))
        return bad_row(r, path);
    if (hm_results_manifest_resize(m, m->nruns + 1) != HM_OK)
        return hm__error_set(HM_ENOMEM, "%s: out of memory", path);
    hm_results_manifest_run_t *x = &m->runs[m->nruns - 1];
    /* The seed cell is read again as an integer: doubles hold 53 bits only. */
    x->seed = strtoull(hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_SEED]), NULL, 10);
    x->state = state;
    x->exit_status = (int)exit_status;
    x->duration_s = duration;
    if (!copy_cell(x->start_utc, sizeof x->start_utc,
                   hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_START_UTC])) ||
        !copy_cell(x->end_utc, sizeof x->end_utc,
                   hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_END_UTC])) ||
        !copy_cell(x->raw, sizeof x->raw, hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_RAW])) ||
        !copy_cell(x->log, sizeof x->log, hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_LOG])))
        return bad_row(r, path);
    x->command = strdup(hm_csv_reader_cell(r, idx[HM_COL_MANIFEST_COMMAND]));
    return x->command ? HM_OK : hm__error_set(HM_ENOMEM, "%s: out of memory", path);
}

static int read_rows(hm_csv_reader_t *r, const char *path, const size_t *idx,
                     hm_results_manifest_t *m)
{
    int more, rc;
    while ((rc = hm_csv_reader_next(r, &more)) == HM_OK && more)
        if ((rc = read_row(r, path, idx, m)) != HM_OK) return rc;
    return rc == HM_OK ? rc : hm__error_set(rc, "%s", hm_csv_reader_error(r));
}

int hm_results_manifest_read(const char *path, hm_results_manifest_t *m, int *found)
{
    hm_csv_reader_t *r = NULL;
    size_t idx[NCOLUMNS];
    if (!path) return hm__error_null(__func__, "path");
    if (!m) return hm__error_null(__func__, "m");
    if (!found) return hm__error_null(__func__, "found");
    *m = (hm_results_manifest_t){0};
    /* Its kind and size checked before the reader reads a line. */
    FILE *probe;
    int rc = hm_input_open(path, "campaign manifest", HM_INPUT_MAX_MANIFEST_BYTES, &probe);
    *found = rc != HM_ENOENT;
    if (rc != HM_OK) return rc == HM_ENOENT ? HM_OK : rc;
    fclose(probe);
    rc = hm_csv_reader_open(path, &r);
    if (rc == HM_OK) rc = read_header(r, path, m, idx);
    if (rc == HM_OK) rc = read_rows(r, path, idx, m);
    hm_csv_reader_close(r);
    if (rc != HM_OK) hm_results_manifest_free(m);
    return rc;
}
