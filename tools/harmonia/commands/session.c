/* tools/harmonia/commands/session.c — printing errors once and agreeing on them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/commands.h"

int hm_cli_launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

void hm_cli_print_error(const char *fmt, ...)
{
    va_list ap;
    fputs("harmonia: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

int hm_cli_agree(MPI_Comm comm, int status, const char *message)
{
    int rank, size, worst, first_failing;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = status != 0 ? rank : size;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, comm);
    MPI_Allreduce(&mine, &first_failing, 1, MPI_INT, MPI_MIN, comm);
    if (worst != 0 && rank == first_failing && message && *message)
        hm_cli_print_error("%s", message);
    return worst;
}

/* A result file is written beside its final name (atomic rename), so the
 * directory must exist and be writable: checked before any measurement so
 * that a typo costs nothing. */
static int check_path(const char *option, const char *path, char *msg, size_t len)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(msg, len, "--%s: \"%s\": directory \"%s\" does not exist", option, path, dir);
        return HM_EXIT_USAGE;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(msg, len, "--%s: \"%s\": directory \"%s\" is not writable", option, path, dir);
        return HM_EXIT_USAGE;
    }
    return HM_EXIT_OK;
}

int hm_cli_check_outputs(const hm_cli_config_t *cfg, MPI_Comm comm)
{
    char msg[8400] = "";
    int rank, rc = HM_EXIT_OK;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && cfg->output[0]) rc = check_path("output", cfg->output, msg, sizeof msg);
    if (rank == 0 && rc == HM_EXIT_OK && cfg->raw[0])
        rc = check_path("raw", cfg->raw, msg, sizeof msg);
    return hm_cli_agree(comm, rc, msg);
}
