/* tools/harmonia/commands/session.c — printing errors once and agreeing on them. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/agree.h>

#include "commands/commands.h"
#include "commands/stats_campaign.h"

#if HM_SMPI
#include <simgrid/actor.h>
#endif

int cli_launcher_rank(void)
{
#if HM_SMPI
    /* smpirun names each simulated rank's actor by its rank, from the
     * start: all ranks share one environment. */
    return atoi(sg_actor_get_name(sg_actor_self()));
#endif
    /* Open MPI, PMIx, MPICH's Hydra and Intel MPI (PMI), Slurm, Cray ALPS, Flux. */
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",   "PMI_RANK",
                                       "SLURM_PROCID",         "ALPS_APP_PE", "FLUX_TASK_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

/* text appended to out (of out_size bytes, always terminated) with every
 * control character and every byte that is not valid UTF-8 written as \xHH:
 * a message may quote a bad file, and its bytes must not reach the terminal
 * (escape sequences) or break the line. */
static void append_escaped(char *out, size_t out_size, const char *text)
{
    size_t used = strlen(out);
    for (const unsigned char *s = (const unsigned char *)text; *s && used + 5 < out_size;) {
        size_t n = hm_output_utf8_length((const char *)s);
        if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
            used += (size_t)snprintf(out + used, out_size - used, "\\x%02x", *s++);
            continue;
        }
        memcpy(out + used, s, n);
        used += n;
        s += n;
    }
    out[used] = '\0';
}

/* The line goes out in one write: under a launcher, whose own messages
 * arrive on the same stream as the ranks exit, a line written in pieces
 * can be split by them. */
void cli_print_error(const char *fmt, ...)
{
    char text[16384], line[4 * sizeof text + 32] = "harmonia: error: ";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    append_escaped(line, sizeof line - 1, text);
    strcat(line, "\n");
    fflush(stderr);
    size_t left = strlen(line);
    for (const char *p = line; left > 0;) {
        ssize_t n = write(STDERR_FILENO, p, left);
        if (n <= 0) break;
        p += n;
        left -= (size_t)n;
    }
}

/* The library's agreement on statuses (hm_agree_with); rank 0
 * prints: its own message when it failed, as it is then the lowest failing
 * rank, otherwise the one the lowest failing rank sent. */
int cli_agree(MPI_Comm comm, int status, const char *message)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int agreed = hm_agree_with(comm, status, message ? message : "");
    const char *said = rank == 0 && status != HM_OK ? message : hm_last_error();
    if (agreed != HM_OK && rank == 0 && said && *said) cli_print_error("%s", said);
    return agreed;
}

/* An output option's path: a file harmonia may replace (hm_afile_check),
 * neither an input operand nor the other output. Checked before any
 * measurement, so that a typo or a slip costs nothing and destroys nothing. */
static int check_output(const cli_config_t *cfg, const char *option, const char *path)
{
    int rc = hm_afile_check(path);
    if (rc != HM_OK) {
        hm_error_set(HM_EINVAL, "--%s: %s", option, hm_last_error());
        return rc;
    }
    char dataset[4200];
    for (int i = 0; i < cfg->nfiles; i++) {
        /* A campaign operand is a directory: its input is the dataset in it. */
        const char *input = cli_stats_dataset_path(cfg->files[i], dataset, sizeof dataset)
                                ? dataset
                                : cfg->files[i];
        if (hm_afile_same(path, input)) {
            hm_error_set(HM_EINVAL, "--%s: \"%s\" is also an input (\"%s\"): it would be replaced",
                         option, path, input);
            return HM_EINVAL;
        }
    }
    return HM_OK;
}

/* An input given twice would count its rows twice (stats reported n = 20
 * for 10 repetitions). compare's operands are two sides, A and B, and a
 * dataset against itself is a (degenerate) comparison. */
static int check_inputs_distinct(const cli_config_t *cfg)
{
    if (cfg->command && strcmp(cfg->command, "compare") == 0) return HM_OK;
    for (int i = 0; i < cfg->nfiles; i++)
        for (int j = 0; j < i; j++)
            if (hm_afile_same(cfg->files[i], cfg->files[j])) {
                hm_error_set(HM_EINVAL,
                             "\"%s\" is given twice (also as \"%s\"): its rows would count twice",
                             cfg->files[i], cfg->files[j]);
                return HM_EINVAL;
            }
    return HM_OK;
}

/* The outputs of a command, named by their options. */
typedef struct named_output {
    const char *option, *path;
} named_output_t;

/* Two outputs naming one file, or an output naming the pattern file read
 * (--file): refused, one would replace the other. */
static int check_outputs_distinct(const cli_config_t *cfg, const named_output_t *o, int n)
{
    for (int i = 0; i < n; i++) {
        if (cfg->pattern_file[0] && hm_afile_same(o[i].path, cfg->pattern_file)) {
            hm_error_set(HM_EINVAL,
                         "--%s: \"%s\" is also an input (--file \"%s\"): it would be replaced",
                         o[i].option, o[i].path, cfg->pattern_file);
            return HM_EINVAL;
        }
        for (int j = 0; j < i; j++)
            if (hm_afile_same(o[i].path, o[j].path)) {
                hm_error_set(HM_EINVAL, "--%s and --%s name one file (\"%s\", \"%s\")", o[j].option,
                             o[i].option, o[j].path, o[i].path);
                return HM_EINVAL;
            }
    }
    return HM_OK;
}

int cli_check_outputs(const cli_config_t *cfg, MPI_Comm comm)
{
    int rank = 0, rc = HM_OK, n = 0;
    named_output_t o[3];
    if (cfg->output[0]) o[n++] = (named_output_t){"output", cfg->output};
    if (cfg->raw[0]) o[n++] = (named_output_t){"raw", cfg->raw};
    if (cfg->matrix[0]) o[n++] = (named_output_t){"matrix", cfg->matrix};
    if (comm != MPI_COMM_NULL) MPI_Comm_rank(comm, &rank);
    if (rank == 0) rc = check_inputs_distinct(cfg);
    for (int i = 0; rank == 0 && rc == HM_OK && i < n; i++)
        rc = check_output(cfg, o[i].option, o[i].path);
    if (rank == 0 && rc == HM_OK) rc = check_outputs_distinct(cfg, o, n);
    if (comm != MPI_COMM_NULL) return cli_agree(comm, rc, hm_last_error());
    if (rc != HM_OK) cli_print_error("%s", hm_last_error());
    return rc;
}

/* Async-signal-safe: unlink, then the default action of sig (the handler
 * was installed with SA_RESETHAND). */
static void on_interrupt(int sig)
{
    hm_afile_remove_temporaries();
    raise(sig);
}

void cli_catch_interrupts(void)
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

int cli_count_items(const char *list)
{
    int n = 1;
    for (const char *c = list; *c; c++) n += *c == ',';
    return n;
}
