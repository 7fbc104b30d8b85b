/* tools/harmonia/options/options_table.h — the option table (option_defs.c). */
#ifndef HM_CLI_OPTIONS_TABLE_H
#define HM_CLI_OPTIONS_TABLE_H
#include "options/config.h"

/* Largest --max-attempts; --inject-delay's attempts (counted from 0) stay
 * below it. */
#define HM_CLI_MAX_ATTEMPTS 1000000000L

typedef int (*hm_opt_parse_fn)(hm_cli_config_t *cfg, const char *value, char *why, size_t len);

typedef struct hm_opt_def {
    hm_opt_id_t id;
    const char *name;    /* long name, the spelling of the design */
    int short_name;      /* OSU alias (-m, -i, -x) or -h; 0 if none */
    const char *value;   /* name of the value in help ("N", "FILE"), NULL for a flag */
    const char *help;    /* one sentence */
    const char *example; /* accepted forms, quoted in errors */
    hm_opt_parse_fn parse;
    int nccl_short; /* nccl-tests' letter (-n, -w) where it differs; 0 if none */
} hm_opt_def_t;

/* Write the printf-formatted reason into why; returns -1 (a parser's
 * failure), so that parsers end with "return hm_opt_fail(...)". */
int hm_opt_fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A decimal integer in [lo, hi] into *out: an optional "-" and digits only,
 * never clamped or wrapped. Or -1 with "\"V\" is not an integer" / "\"V\" is
 * out of range", each followed by "(accepted: lo to hi)", in why. */
int hm_opt_integer(const char *v, long lo, long hi, long *out, char *why, size_t len);

/* Parsers of the overlap options (option_parse_overlap.c). */
int hm_opt_parse_comm_us(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_comp_us(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_threads(hm_cli_config_t *c, const char *v, char *why, size_t len);

/* Parsers of the pattern options (option_parse_pattern.c). */
int hm_opt_parse_pattern(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_direction(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_subgroup(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_backend(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_pattern_file(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_nic_bw(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_memory(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_gpus_per_node(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_select(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_gpus_per_nic(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_nics(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_minbytes(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_maxbytes(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_stepfactor(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_check(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_matrix(hm_cli_config_t *c, const char *v, char *why, size_t len);

/* nccl-tests' -b, -e, -f into cfg's sizes: MIN:MAX:xF (MAX defaults to MIN,
 * MIN to MAX, F to 2), refused beside --sizes. Returns 0, or -1 with the
 * reason in why. */
int hm_opt_compose_nccl_sizes(hm_cli_config_t *c, char *why, size_t len);

/* Parsers of the measurement options (option_parse_bench.c). */
int hm_opt_parse_root(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_peer(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_validate(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_allow_partial(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_allow_one_rank(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_check_every(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_max_attempts(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_window_us(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_late_us(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_slice_s(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_resync_s(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_cold_cache(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_inject_delay(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_back_to_back(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_bcast_factor(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_filter(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_metric(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_runs(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_dir(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_alternative(hm_cli_config_t *c, const char *v, char *why, size_t len);
int hm_opt_parse_statistic(hm_cli_config_t *c, const char *v, char *why, size_t len);

/* Indexed by hm_opt_id_t. */
extern const hm_opt_def_t hm_cli_options[HM_OPT_COUNT];
#endif
