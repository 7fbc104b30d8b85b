/* tools/harmonia/options/option_parse_pattern.c — the options of `harmonia
 * pattern`, each checked against the pattern layer's registries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/trace.h>

#include <harmonia/pattern.h>

#include "options/options_table.h"

int cli_opt_parse_pattern(cli_config_t *c, const char *v)
{
    char known[256];
    hm_generator_names(known, sizeof known);
    if (!hm_generator_find(v) && strcmp(v, "striping") != 0 && strcmp(v, "file") != 0)
        return cli_opt_fail("unknown pattern \"%.40s\" (known: %s, striping, file)", v, known);
    snprintf(c->pattern, sizeof c->pattern, "%s", v);
    return 0;
}

int cli_opt_parse_direction(cli_config_t *c, const char *v)
{
    hm_direction_t d;
    if (hm_direction_find(v, &d) != HM_OK)
        return cli_opt_fail("unknown direction \"%.40s\" (known: uni, bi, omni, bi-mirror, uni-in)",
                            v);
    /* Kept as written and parsed again: a name cut short would be read as
     * no direction (bi-mirror once was, into 8 bytes). */
    if (strlen(v) >= sizeof c->direction)
        return cli_opt_fail("\"%.40s\" is longer than the %zu characters kept", v,
                            sizeof c->direction - 1);
    snprintf(c->direction, sizeof c->direction, "%s", v);
    return 0;
}

int cli_opt_parse_subgroup(cli_config_t *c, const char *v)
{
    long k;
    if (cli_opt_integer(v, 1, 1 << 20, &k)) return -1;
    c->subgroup = (int)k;
    return 0;
}

/* NAME, or NAME+NAME+NAME (striping's split, translate, assemble). */
int cli_opt_parse_backend(cli_config_t *c, const char *v)
{
    char buf[sizeof c->backend], known[128];
    if (strlen(v) >= sizeof buf) return cli_opt_fail("\"%.40s...\" is too long", v);
    hm_backend_names(known, sizeof known);
    strcpy(buf, v);
    int n = 0;
    for (char *item = buf, *next; item; item = next, n++) {
        next = strchr(item, '+');
        if (next) *next++ = '\0';
        if (!hm_backend_find(item))
            return cli_opt_fail("unknown backend \"%.40s\" in \"%.64s\" (known: %s)", item, v,
                                known);
    }
    if (n != 1 && n != 3)
        return cli_opt_fail("\"%.64s\": one backend, or three joined by + (striping's steps)", v);
    snprintf(c->backend, sizeof c->backend, "%s", v);
    return 0;
}

/* A path into dst (size bytes): not empty, not cut. */
static int copy_path(char *dst, size_t size, const char *v, const char *what)
{
    if (!*v) return cli_opt_fail("empty (%s)", what);
    if (strlen(v) >= size) return cli_opt_fail("a path of %zu characters is too long", strlen(v));
    snprintf(dst, size, "%s", v);
    return 0;
}

int cli_opt_parse_pattern_file(cli_config_t *c, const char *v)
{
    return copy_path(c->pattern_file, sizeof c->pattern_file, v,
                     "a file of the pattern's messages");
}

int cli_opt_parse_file_element_bytes(cli_config_t *c, const char *v)
{
    /* 1 MiB: far above any element type, and a count times it keeps well
     * within 2^63 bytes for any count a file would hold. */
    return cli_opt_integer(v, 1, 1 << 20, &c->file_element_bytes) ? -1 : 0;
}

int cli_opt_parse_pattern_window(cli_config_t *c, const char *v)
{
    /* 4096: 64 times osu_bw's default, and a plan of 4096 x P messages
     * stays small. */
    return cli_opt_integer(v, 1, 4096, &c->pattern_window) ? -1 : 0;
}

int cli_opt_parse_nic_bw(cli_config_t *c, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0) || x > 1e6)
        return cli_opt_fail("\"%.40s\" is not a bandwidth in GB/s (accepted: above 0 "
                            "to 1e6)",
                            v);
    c->nic_bw_gbps = x;
    return 0;
}

int cli_opt_parse_gpus_per_nic(cli_config_t *c, const char *v)
{
    long x;
    if (cli_opt_integer(v, 1, 4096, &x)) return -1;
    c->gpus_per_nic = (int)x;
    return 0;
}

int cli_opt_parse_nics(cli_config_t *c, const char *v)
{
    long x;
    if (cli_opt_integer(v, 1, 4096, &x)) return -1;
    c->nics = (int)x;
    return 0;
}

/* One size as --sizes spells it (8, 64K, 1M), not a list or a range. */
static int one_size(const char *v, size_t *out)
{
    size_t sizes[2];
    int n = 0;
    if (strpbrk(v, ",:"))
        return cli_opt_fail("\"%.40s\" is not one size (a list or a range is --sizes)", v);
    if (cli_parse_sizes(v, sizes, 2, &n) != 0) return -1;
    if (sizes[0] == 0) return cli_opt_fail("0 bytes: the sizes start at 1");
    *out = sizes[0];
    return 0;
}

int cli_opt_parse_minbytes(cli_config_t *c, const char *v)
{
    return one_size(v, &c->min_bytes);
}

int cli_opt_parse_maxbytes(cli_config_t *c, const char *v)
{
    return one_size(v, &c->max_bytes);
}

int cli_opt_parse_stepfactor(cli_config_t *c, const char *v)
{
    return cli_opt_integer(v, 2, 1 << 30, &c->step_factor);
}

int cli_opt_parse_check(cli_config_t *c, const char *v)
{
    long on;
    if (cli_opt_integer(v, 0, 1, &on)) return -1;
    c->validate = (int)on;
    return 0;
}

int cli_opt_parse_matrix(cli_config_t *c, const char *v)
{
    return copy_path(c->matrix, sizeof c->matrix, v, "a file name");
}

/* nccl-tests sweeps -b MIN to -e MAX multiplying by -f; its additive -i
 * STEP is not taken (-i is OSU's --nrep here), so F defaults to 2. */
int cli_opt_compose_nccl_sizes(cli_config_t *c)
{
    const cli_opt_mask_t parts =
        HM_OPT_BIT(HM_OPT_MINBYTES) | HM_OPT_BIT(HM_OPT_MAXBYTES) | HM_OPT_BIT(HM_OPT_STEPFACTOR);
    if (!(c->given & parts)) return 0;
    if (c->given & HM_OPT_BIT(HM_OPT_SIZES))
        return cli_opt_fail("--sizes and -b/-e/-f (--minbytes, --maxbytes, --stepfactor): give the "
                            "sizes one way");
    if (!(c->given & (parts & ~HM_OPT_BIT(HM_OPT_STEPFACTOR))))
        return cli_opt_fail("--stepfactor (-f) %ld: give -b MIN and/or -e MAX with it",
                            c->step_factor);
    size_t lo = c->min_bytes ? c->min_bytes : c->max_bytes;
    size_t hi = c->max_bytes ? c->max_bytes : c->min_bytes;
    if (lo > hi) return cli_opt_fail("--minbytes (-b) %zu is above --maxbytes (-e) %zu", lo, hi);
    char spec[96];
    snprintf(spec, sizeof spec, "%zu:%zu:x%ld", lo, hi, c->step_factor ? c->step_factor : 2);
    if (cli_parse_sizes(spec, c->sizes, HM_CLI_MAX_SIZES, &c->nsizes))
        return cli_opt_fail("-b %zu -e %zu -f %ld: %s", lo, hi, c->step_factor ? c->step_factor : 2,
                            hm_last_error());
    return 0;
}

int cli_opt_parse_memory(cli_config_t *c, const char *v)
{
    if (strcmp(v, "host") != 0 && strcmp(v, "device") != 0)
        return cli_opt_fail("\"%.40s\" is not a memory (known: host, device)", v);
    c->memory_device = strcmp(v, "device") == 0;
    return 0;
}

int cli_opt_parse_device_time(cli_config_t *c, const char *v)
{
    (void)v;
    c->device_time = 1;
    return 0;
}

int cli_opt_parse_gpus_per_node(cli_config_t *c, const char *v)
{
    long x;
    if (cli_opt_integer(v, 1, 4096, &x)) return -1;
    c->gpus_per_node = (int)x;
    return 0;
}

/* FUNC:N (a traced function, a call from 1) or MS:MS (a window, from < to). */
int cli_opt_parse_select(cli_config_t *c, const char *v)
{
    char name[64];
    long n;
    double a, b;
    int used = 0;
    if (sscanf(v, "%63[A-Za-z_]:%ld%n", name, &n, &used) == 2 && !v[used]) {
        if (hm_trace_func_find(name, &c->select.func) != HM_OK)
            return hm_error_set(HM_EINVAL, "%s (e.g. MPI_Allreduce)", hm_last_error()), -1;
        if (n < 1) return hm_error_set(HM_EINVAL, "\"%s\": calls are counted from 1", v), -1;
        c->select.kind = 1, c->select.call = n;
        return 0;
    }
    if (sscanf(v, "%lf:%lf%n", &a, &b, &used) == 2 && !v[used] && a >= 0 && b > a) {
        c->select.kind = 2, c->select.from_ms = a, c->select.to_ms = b;
        return 0;
    }
    hm_error_set(HM_EINVAL,
                 "\"%s\" is not FUNC:N or FROM_MS:TO_MS with FROM < TO (e.g. MPI_Allreduce:100, "
                 "2.5:3)",
                 v);
    return -1;
}

/* --exclude, --include: checked against the traced functions now (a
 * pattern that matches none is a typo), kept as given for the tracer. */
static int parse_funcs(char *dst, size_t cap, const char *v, int include)
{
    unsigned char selected[HM_TRACE_NFUNCS];
    if (!*v) return cli_opt_fail("empty value (expected function patterns, e.g. MPI_Test*)");
    if (strlen(v) >= cap) return cli_opt_fail("value longer than %zu characters", cap - 1);
    if (hm_trace_func_select(include ? v : NULL, include ? NULL : v, selected) != HM_OK) return -1;
    strcpy(dst, v);
    return 0;
}

int cli_opt_parse_exclude(cli_config_t *c, const char *v)
{
    return parse_funcs(c->trace_exclude, sizeof c->trace_exclude, v, 0);
}

int cli_opt_parse_include(cli_config_t *c, const char *v)
{
    return parse_funcs(c->trace_include, sizeof c->trace_include, v, 1);
}

int cli_opt_parse_polls(cli_config_t *c, const char *v)
{
    if (strcmp(v, "burst") && strcmp(v, "each"))
        return cli_opt_fail("\"%s\" is not burst or each", v);
    c->polls_each = !strcmp(v, "each");
    return 0;
}

/* A build without OTF2 cannot write otf2/: asked for by name, that is an
 * error rather than a file silently missing. */
int cli_opt_parse_trace_files(cli_config_t *c, const char *v)
{
    unsigned files;
    if (hm_trace_files_parse(v, &files) != HM_OK) return -1;
    if ((files & HM_TRACE_FILE_OTF2) && !hm_trace_otf2_built() && strstr(v, "otf2"))
        return cli_opt_fail("otf2: this build writes no OTF2 (no OTF2 library was found when "
                            "it was configured)");
    c->trace_files = files;
    return 0;
}

int cli_opt_parse_during(cli_config_t *c, const char *v)
{
    double a, b;
    int used = 0;
    if (sscanf(v, "%lf:%lf%n", &a, &b, &used) == 2 && !v[used] && a >= 0 && b > a && isfinite(b)) {
        c->during_from_s = a, c->during_to_s = b;
        return 0;
    }
    return cli_opt_fail("\"%s\" is not FROM:TO seconds with 0 <= FROM < TO (e.g. 10:12)", v);
}
