/* tools/harmonia/options/option_parse_pattern.c — the options of `harmonia
 * pattern`, each checked against the pattern layer's registries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>

#include "options/options_table.h"

int hm_opt_parse_pattern(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    char known[256];
    hm_generator_names(known, sizeof known);
    if (!hm_generator_find(v) && strcmp(v, "striping") != 0 && strcmp(v, "file") != 0)
        return hm_opt_fail(why, len, "unknown pattern \"%.40s\" (known: %s, striping, file)", v,
                           known);
    snprintf(c->pattern, sizeof c->pattern, "%s", v);
    return 0;
}

int hm_opt_parse_direction(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    hm_direction_t d;
    if (hm_direction_find(v, &d) != HM_OK)
        return hm_opt_fail(why, len, "unknown direction \"%.40s\" (known: uni, bi, omni)", v);
    snprintf(c->direction, sizeof c->direction, "%s", v);
    return 0;
}

int hm_opt_parse_subgroup(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    long k;
    if (hm_opt_integer(v, 1, 1 << 20, &k, why, len)) return -1;
    c->subgroup = (int)k;
    return 0;
}

/* NAME, or NAME+NAME+NAME (striping's split, translate, assemble). */
int hm_opt_parse_backend(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    char buf[sizeof c->backend], known[128];
    if (strlen(v) >= sizeof buf) return hm_opt_fail(why, len, "\"%.40s...\" is too long", v);
    hm_backend_names(known, sizeof known);
    strcpy(buf, v);
    int n = 0;
    for (char *item = buf, *next; item; item = next, n++) {
        next = strchr(item, '+');
        if (next) *next++ = '\0';
        if (!hm_backend_find(item))
            return hm_opt_fail(why, len, "unknown backend \"%.40s\" in \"%.64s\" (known: %s)", item,
                               v, known);
    }
    if (n != 1 && n != 3)
        return hm_opt_fail(why, len,
                           "\"%.64s\": one backend, or three joined by + (striping's steps)", v);
    snprintf(c->backend, sizeof c->backend, "%s", v);
    return 0;
}

int hm_opt_parse_pattern_file(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    if (!*v) return hm_opt_fail(why, len, "empty (a file of the pattern's messages)");
    if (strlen(v) >= sizeof c->pattern_file)
        return hm_opt_fail(why, len, "a path of %zu characters is too long", strlen(v));
    snprintf(c->pattern_file, sizeof c->pattern_file, "%s", v);
    return 0;
}

int hm_opt_parse_nic_bw(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0) || x > 1e6)
        return hm_opt_fail(why, len,
                           "\"%.40s\" is not a bandwidth in GB/s (accepted: above 0 "
                           "to 1e6)",
                           v);
    c->nic_bw_gbps = x;
    return 0;
}

int hm_opt_parse_gpus_per_nic(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    long x;
    if (hm_opt_integer(v, 1, 4096, &x, why, len)) return -1;
    c->gpus_per_nic = (int)x;
    return 0;
}

int hm_opt_parse_nics(hm_cli_config_t *c, const char *v, char *why, size_t len)
{
    long x;
    if (hm_opt_integer(v, 1, 4096, &x, why, len)) return -1;
    c->nics = (int)x;
    return 0;
}
