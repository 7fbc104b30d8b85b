/* tools/harmonia/commands/commands.h — the command registry and what commands share. */
#ifndef HM_CLI_COMMANDS_H
#define HM_CLI_COMMANDS_H
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include <harmonia/clock.h>
#include <harmonia/sync.h>
#include <harmonia/topo.h>
#include <harmonia/timer.h>

#include "options/config.h"

typedef struct cli_command {
    const char *name;
    const char *summary;    /* one line for the command list */
    int uses_mpi;           /* runs under mpirun; MPI is initialized before parsing */
    cli_opt_mask_t options; /* HM_OPT_BIT mask of accepted options */
    const char *synopsis;   /* usage line */
    const char *details;    /* paragraph(s) of help */
    const char *example;
    /* An HM_* status (options/config.h), or a positive exit status of a
     * program the command ran and passes on (trace: its traced command's) */
    int (*run)(cli_config_t *cfg, MPI_Comm comm);
    int takes_files;   /* FILE operands after the options (cfg->files) */
    int takes_command; /* a command after "--" (cfg->command_argv) */
    /* Options whose meaning here differs from the shared table's (NULL:
     * none; ends with id -1) */
    const cli_opt_help_t *option_help;
} cli_command_t;

/* Registry (registry.c). */
const cli_command_t *cli_find_command(const char *name);
size_t cli_command_count(void);
const cli_command_t *cli_command_at(size_t i);

/* Commands. */
int cli_cmd_timers(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_clock(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_bench(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_skew(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_overlap(cli_config_t *cfg, MPI_Comm comm);
/* `harmonia overlap impact` (overlap_impact.c), with the kernel c. */
struct hm_compute;
int cli_overlap_impact(cli_config_t *cfg, MPI_Comm comm, struct hm_compute *c);
int cli_cmd_pattern(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_version(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_stats(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_campaign(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_compare(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_plot(cli_config_t *cfg, MPI_Comm comm);
int cli_cmd_trace(cli_config_t *cfg, MPI_Comm comm);

/* Help texts (help.c). */
void cli_print_overview(FILE *f);
void cli_print_command_help(FILE *f, const cli_command_t *cmd);

/* Rank of this process as the launcher numbered it (environment of Open MPI,
 * MPICH/Hydra, PMIx, Slurm), usable before MPI_Init; 0 when not launched. */
int cli_launcher_rank(void);

/* Print "harmonia: error: MESSAGE" on stderr. */
void cli_print_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collective: every rank passes its status and, when it is not HM_OK, a
 * message. All ranks return the status of the lowest failing rank
 * (hm_agree_with) and rank 0 prints that rank's message, so an error is
 * printed once and no rank is left waiting in a later collective. */
int cli_agree(MPI_Comm comm, int status, const char *message);

/* Collective over comm (MPI_COMM_NULL: a command without MPI): usage error,
 * printed once, when --output or --raw cannot be written as a result
 * (hm_afile_check: not a regular file, a directory missing or not
 * writable), names an input operand, or both name one file. Checked on
 * rank 0, where files are written, before any work. */
int cli_check_outputs(const cli_config_t *cfg, MPI_Comm comm);

/* Local, the same verdict on every rank: a usage error when an option was
 * given that nothing in this run reads (--root without a rooted operation,
 * --window-us without --sync window, --ranks-per-node with a flat
 * --clock-sync on real clocks, ...), or --ranks-per-node exceeds
 * comm_size. methods: the --sync list in effect (NULL: a command without
 * process synchronization). */
/* HM_EINVAL, "--NAME: why", for the first option given that is not in
 * reads (--help always may be): a mode of a command that reads fewer of
 * its options than the command (trace merge, overlap impact) refuses the
 * others rather than ignore them. Local: every rank parses the same argv. */
int cli_refuse_unread(const cli_config_t *cfg, cli_opt_mask_t reads, const char *why);

int cli_check_applies(const cli_config_t *cfg, const char *methods, int comm_size);

/* 1 when the run reads the option id (HM_OPT_ROOT, HM_OPT_PEER, or any
 * other): its command takes it and, for --root and --peer, an operation of
 * the run has a root or a peer (bench's --ops as given or by default,
 * another command's when given). A factor of an option the run does not
 * read (skew's warmup, a root under allreduce alone) describes nothing. */
int cli_run_reads(const cli_config_t *cfg, cli_opt_id_t id);

/* A progress line on a terminal (progress.c): init with show = 1 on the
 * one process that prints (rank 0); nothing is shown when neither stderr
 * nor stdout is a terminal. A stage names what runs ("clock hca3: pair
 * fit") and its units ("fit points"); cli_progress_report is an
 * hm_progress_fn whose arg is the cli_progress_t, and shows the line
 * once a stage has run 1 s; clear erases it before other output. */
typedef struct cli_progress {
    FILE *out;
    char what[160], units[32];
    char note[96]; /* after the figures, e.g. "312 of 1400 attempts discarded" ("": none) */
    double start_s, last_s;
    int shown;
} cli_progress_t;

/* Collective: measure what other work takes from the ranks of comm
 * (hm_interference_measure, topo.h, for cfg->probe_s) into text, the factor "interference";
 * rank 0 says on stderr, in one line, when the machine is busy, with
 * consequence (what that means for the results). The status, the same
 * on every rank (text says "not measured" when the probe failed). */
int cli_machine(const cli_config_t *cfg, MPI_Comm comm, const char *consequence, char *text,
                size_t len);

/* The caution for ranks that outnumber the processors on a machine that
 * other work keeps busy ("" otherwise), to end the stderr line with: beside
 * CPU-bound processes such ranks wait whole scheduler slices for each other
 * (Open MPI yields the processor while it waits when oversubscribed, and
 * the kernel passes a task that always yields over: ~1% of a core per rank
 * beside two busy loops). The README's 4-rank clock run took 280 s there
 * instead of 2.7 s. */
const char *cli_crowded_caution(const hm_interference_t *it);

/* The probe's length: HM_INTERFERENCE_PROBE_S, or what the environment
 * variable HARMONIA_INTERFERENCE_PROBE_S says (seconds, 0 to 10; 0: no
 * probe, the machine counts as quiet: how the tests pin the quiet
 * behaviour on a loaded machine). HM_EINVAL with why for a bad value.
 * Read once, with the options, into cfg->probe_s. */
int cli_probe_s(double *probe_s);

void cli_progress_init(cli_progress_t *p, int show);
void cli_progress_stage(cli_progress_t *p, const char *what, const char *units);
void cli_progress_report(void *arg, double done, double total);
void cli_progress_clear(cli_progress_t *p);
/* Set the note shown at the end of the line from now on. */
void cli_progress_note(cli_progress_t *p, const char *note);

/* The items of a comma-separated option value (--sync, --clock-sync):
 * the commas plus one. */
int cli_count_items(const char *list);

/* SIGINT, SIGTERM and SIGHUP remove the temporary files of the result files
 * being written (hm_afile_remove_temporaries) and then end the process as
 * the signal would have; what a checkpoint published stays. A command that
 * handles the signals itself (campaign) installs its own afterwards. */
void cli_catch_interrupts(void);

/* The timer options of cfg for this rank: TSC frequency, synthetic clock and
 * seed, and the clock domain given (cli_clock_domain). */
hm_timer_options_t cli_timer_options(const cli_config_t *cfg, int rank, int domain);

/* Collective over comm: this rank's synthetic clock domain, the ranks of a
 * node (virtual under --ranks-per-node, a simulated host under SMPI)
 * sharing one (hm_topo_clock_domain); the rank itself without
 * --synthetic-clock (nothing reads it) or if that fails. */
int cli_clock_domain(const cli_config_t *cfg, MPI_Comm comm);

/* Collective: create this rank's timer for source name with the synthetic
 * clock and seed of cfg (a virtual node shares one synthetic clock), agree on
 * failure (usage error naming --timer, printed once) and on the origin.
 * Returns a status; on success *timer is the caller's. */
int cli_open_timer(const cli_config_t *cfg, MPI_Comm comm, const char *name, hm_timer_t **timer);

/* Collective: cli_open_timer for --timer and an identity clock over it. */
int cli_open_clock(const cli_config_t *cfg, MPI_Comm comm, hm_timer_t **timer, hm_clock_t **base);

/* Clock synchronization parameters from the options. */
void cli_sync_params(const cli_config_t *cfg, hm_sync_params_t *params);
#endif
