/* tools/harmonia/commands/dispatch.c — `harmonia COMMAND [options]`: find the command,
 * initialize MPI when it needs it, parse, run, agree on the status; the
 * exit status is chosen here (cli_main) and nowhere else. */
#include <string.h>
#include <time.h>

#include <harmonia/version.h>

#include "commands/cli.h"
#include "commands/commands.h"

/* Before MPI_Init only the launcher's numbering tells who should print. */
static int first_process(void)
{
    return cli_launcher_rank() == 0;
}

static void unknown_command(const char *name)
{
    char known[512];
    size_t used = 0;
    for (size_t i = 0; i < cli_command_count() && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 cli_command_at(i)->name);
    if (first_process()) cli_print_error("unknown command \"%s\" (known: %s, help)", name, known);
}

/* What a build for SimGrid's SMPI cannot run (docs/scale.md), and why;
 * NULL for what it can. */
static const char *simulation_refuses(const char *command)
{
    static const struct {
        const char *command, *why;
    } refused[] = {
        {"overlap", "its compute threads and dgemm run outside the simulation, which times "
                    "only the simulated ranks' MPI calls"},
        {"pattern", "its host backend shares memory between processes, and SMPI's simulated "
                    "ranks are threads of one process"},
        {"trace", "it preloads libharmonia-trace.so into a launcher's processes; smpirun runs "
                  "one process"},
        {"campaign", "it starts separate mpiruns of a real MPI; run smpirun once per "
                     "configuration instead (scale/run)"},
    };
    for (size_t i = 0; HM_SMPI && i < sizeof refused / sizeof refused[0]; i++)
        if (!strcmp(command, refused[i].command)) return refused[i].why;
    return NULL;
}

/* `harmonia help [COMMAND]`, `--help`, `-h`. */
static int run_help(int argc, char **argv)
{
    if (argc < 3) {
        if (first_process()) cli_print_overview(stdout);
        return HM_OK;
    }
    /* help is a command too (the list of known commands names it): its own
     * help is the overview. */
    int itself = !strcmp(argv[2], "help");
    const cli_command_t *c = itself ? NULL : cli_find_command(argv[2]);
    if (!c && !itself) {
        unknown_command(argv[2]);
        return HM_EINVAL;
    }
    if (argc > 3) {
        if (first_process())
            cli_print_error("unexpected argument \"%s\" after 'help %s'", argv[3], argv[2]);
        return HM_EINVAL;
    }
    if (first_process() && itself) cli_print_overview(stdout);
    if (first_process() && !itself) cli_print_command_help(stdout, c);
    return HM_OK;
}

static int parse_or_help(const cli_command_t *c, int argc, char **argv, cli_config_t *cfg,
                         int print)
{
    cli_config_defaults(cfg);
    cfg->command = c->name;
    cfg->takes_files = c->takes_files;
    cfg->takes_command = c->takes_command;
    cfg->argc = argc;
    cfg->argv = argv;
    int rc = cli_parse(argc, argv, 2, c->options, cfg);
    if (rc != HM_OK) {
        if (print) cli_print_error("%s (see 'harmonia help %s')", hm_last_error(), c->name);
        return rc;
    }
    if (c->uses_mpi && (rc = cli_probe_s(&cfg->probe_s)) != HM_OK) {
        if (print) cli_print_error("%s", hm_last_error());
        return rc;
    }
    if (cfg->help && print) cli_print_command_help(stdout, c);
    return HM_OK;
}

/* One rank has no clock to synchronize and no rank to wait for: a command
 * whose point is ranks started together on one clock (registry.c,
 * SYNCHRONIZES) would print a table "on 1 ranks" that reads like a
 * synchronized measurement, and skew would count its lone rank late. It is
 * refused, once, unless --allow-one-rank says that is what is wanted; then
 * one line says so. Every rank sees the same size: no agreement is needed. */
static int one_rank(const cli_command_t *c, const cli_config_t *cfg, MPI_Comm comm)
{
    int size;
    if (!(c->options & HM_OPT_BIT(HM_OPT_ALLOW_ONE_RANK))) return HM_OK;
    MPI_Comm_size(comm, &size);
    if (size > 1) return HM_OK;
    if (cfg->allow_one_rank) {
        fprintf(stderr,
                "harmonia: %s on 1 rank (--allow-one-rank): nothing is synchronized, the times "
                "are those of one rank alone\n",
                c->name);
        fflush(stderr);
        return HM_OK;
    }
    cli_print_error("%s: 1 rank, at least 2 needed: nothing would be synchronized (no clock "
                    "to synchronize, no rank to wait for); run it under mpirun -n 2 or more, "
                    "or give --allow-one-rank to measure one rank alone",
                    c->name);
    return HM_EINVAL;
}

/* Options are parsed before MPI_Init: every rank parses the same argv and
 * reaches the same verdict, so a usage error or --help needs neither
 * communication nor the seconds MPI_Init may take; the launcher's numbering
 * picks the one process that prints. */
static int run_mpi_command(const cli_command_t *c, int argc, char **argv)
{
    int provided;
    cli_config_t cfg;
    int rc = parse_or_help(c, argc, argv, &cfg, first_process());
    /* The others leave a moment after the process that prints: a launcher
     * that sees one exit with status 2 kills the rest, and under load it
     * killed the printing one before its line (test_cli_usage_errors, 3
     * ranks on 2 cores). */
    if (hm_exit_status(rc) == 2 && !first_process()) {
        struct timespec a_moment = {0, 250000000};
        nanosleep(&a_moment, NULL);
    }
    if (rc != HM_OK || cfg.help) return rc;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    cli_catch_interrupts();
    rc = one_rank(c, &cfg, MPI_COMM_WORLD);
    if (rc == HM_OK) rc = c->run(&cfg, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}

static int run_local_command(const cli_command_t *c, int argc, char **argv)
{
    cli_config_t cfg;
    cli_catch_interrupts();
    int rc = parse_or_help(c, argc, argv, &cfg, first_process());
    if (rc == HM_OK && !cfg.help) rc = c->run(&cfg, MPI_COMM_NULL);
    return rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        if (first_process()) {
            cli_print_error("no command given");
            cli_print_overview(stderr);
        }
        return HM_EINVAL;
    }
    const char *name = argv[1];
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h"))
        return run_help(argc, argv);
    if (!strcmp(name, "--version") && argc > 2) {
        if (first_process()) cli_print_error("unexpected argument \"%s\" after --version", argv[2]);
        return HM_EINVAL;
    }
    if (!strcmp(name, "--version")) {
        if (first_process()) printf("harmonia %s\n", hm_version());
        return HM_OK;
    }
    const cli_command_t *c = cli_find_command(name);
    if (!c) {
        unknown_command(name);
        return HM_EINVAL;
    }
    const char *refused = simulation_refuses(name);
    if (refused) {
        if (first_process())
            cli_print_error("%s is not available in an SMPI build: %s (docs/scale.md)", name,
                            refused);
        return HM_EINVAL;
    }
    return c->uses_mpi ? run_mpi_command(c, argc, argv) : run_local_command(c, argc, argv);
}

int cli_main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    return rc > 0 ? rc : hm_exit_status(rc);
}
