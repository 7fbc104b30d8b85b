/* tools/harmonia/campaign/campaign_manifest.h — the record of a campaign (DIR/manifest.csv):
 * one row per run with its seed, state, times and exit status, rewritten
 * atomically after every change so that an interruption at any moment leaves
 * a manifest that tells which runs completed. */
#ifndef HM_CLI_CAMPAIGN_MANIFEST_H
#define HM_CLI_CAMPAIGN_MANIFEST_H
#include <stddef.h>
#include <stdint.h>

#define HM_MANIFEST_FILE "manifest.csv"

/* A run's state: pending (never started), running (started; a manifest read
 * back with this state was left by a campaign that was killed), done (exit 0
 * and its raw file written), failed (non-zero exit or no raw file),
 * interrupted (stopped by a signal to the campaign). */
typedef enum hm_run_state {
    HM_RUN_PENDING,
    HM_RUN_RUNNING,
    HM_RUN_DONE,
    HM_RUN_FAILED,
    HM_RUN_INTERRUPTED
} hm_run_state_t;

typedef struct hm_manifest_run {
    long run; /* 1-based */
    uint64_t seed;
    hm_run_state_t state;
    int exit_status;    /* as a shell reports it: 128 + signal when killed; -1 unknown */
    char start_utc[32]; /* ISO 8601, "" before the start */
    char end_utc[32];
    double duration_s; /* NaN before the end */
    char raw[4096];    /* the run's raw CSV */
    char log[4096];    /* its stdout and stderr */
    char *command;     /* the command as run, shell-quoted (owned) */
} hm_manifest_run_t;

typedef struct hm_manifest {
    char *template_command; /* the command after "--", shell-quoted (owned) */
    uint64_t base_seed;
    long nruns;
    hm_manifest_run_t *runs; /* runs[i].run == i + 1 */
} hm_manifest_t;

const char *hm_run_state_name(hm_run_state_t state);

/* Read path into m. *found = 0 (and HM_OK) when the file does not exist.
 * HM_EINVAL with "path[:line]: reason" in why when it is not a manifest;
 * HM_ENOMEM. */
int hm_manifest_read(const char *path, hm_manifest_t *m, int *found, char *why, size_t why_len);

/* Write m atomically to path. HM_EIO with the reason in why. */
int hm_manifest_write(const hm_manifest_t *m, const char *path, char *why, size_t why_len);

/* Grow m to nruns rows, new ones pending. HM_ENOMEM. */
int hm_manifest_resize(hm_manifest_t *m, long nruns);

void hm_manifest_free(hm_manifest_t *m);
#endif
