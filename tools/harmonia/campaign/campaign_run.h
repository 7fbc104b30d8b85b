/* tools/harmonia/campaign/campaign_run.h — one run of a campaign as a child process: its
 * output to a log file, interrupts forwarded to it, and the progress line. */
#ifndef HM_CLI_CAMPAIGN_RUN_H
#define HM_CLI_CAMPAIGN_RUN_H
#include <stdio.h>

/* Catch SIGINT, SIGTERM and SIGHUP so that the campaign can record the run
 * in progress before it stops; cli_campaign_stop_signal() tells which came
 * (0: none). Call once before the first run. */
void cli_campaign_catch_signals(void);
int cli_campaign_stop_signal(void);

/* Back to the default actions, once no run is left to record. */
void cli_campaign_default_signals(void);

/* What the progress line shows while a run is going. */
typedef struct cli_campaign_progress {
    FILE *out;         /* stderr */
    int terminal;      /* out is a terminal: one line redrawn each second */
    long run, nruns;   /* this run of all */
    long left;         /* runs still to do after this one */
    double mean_run_s; /* mean duration of the runs completed so far; NaN if none */
} cli_campaign_progress_t;

/* Run argv (argv[0] looked up in PATH) with stdin from /dev/null and stdout
 * and stderr to log_path (truncated). Waits for it, redrawing the progress
 * line on a terminal. A caught stop signal is passed on to the child, which
 * gets SIGKILL if it is still there 10 s later. *exit_status is the status
 * as a shell reports it (128 + signal when the child was killed; 127 when it
 * could not be started, the reason then in the log). Returns 0, or -1 with
 * the reason in why when no child could be created. */
int cli_campaign_run_child(char *const *argv, const char *log_path,
                           const cli_campaign_progress_t *progress, int *exit_status,
                           double *duration_s);

/* "1:02:03" or "2:03" for a duration in seconds. */
void cli_campaign_format_duration(double s, char *buf, size_t len);
#endif
