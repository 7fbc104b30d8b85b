/* tools/harmonia/options/options_table.h — the option table (option_defs.c). */
#ifndef HM_CLI_OPTIONS_TABLE_H
#define HM_CLI_OPTIONS_TABLE_H
#include "options/config.h"

/* Largest --max-attempts; --inject-delay's attempts (counted from 0) stay
 * below it. */
#define HM_CLI_MAX_ATTEMPTS 1000000000L

typedef int (*cli_opt_parse_fn)(cli_config_t *cfg, const char *value);

typedef struct cli_opt_def {
    cli_opt_id_t id;
    const char *name;    /* long name, the spelling of the design */
    int short_name;      /* OSU alias (-m, -i, -x) or -h; 0 if none */
    const char *value;   /* name of the value in help ("N", "FILE"), NULL for a flag */
    const char *help;    /* one sentence */
    const char *example; /* accepted forms, quoted in errors */
    cli_opt_parse_fn parse;
    int nccl_short; /* nccl-tests' letter (-n, -w) where it differs; 0 if none */
} cli_opt_def_t;

/* The printf-formatted reason as the last error (hm_error_set); returns
 * HM_EINVAL (-1, a parser's failure), so that parsers end with "return
 * cli_opt_fail(...)". Parsers return 0, or -1 with the reason there. */
int cli_opt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A decimal integer in [lo, hi] into *out: an optional "-" and digits only,
 * never clamped or wrapped. Or -1 with "\"V\" is not an integer" / "\"V\" is
 * out of range", each followed by "(accepted: lo to hi)", as the last error. */
int cli_opt_integer(const char *v, long lo, long hi, long *out);

/* Parsers of the overlap options (option_parse_overlap.c). */
int cli_opt_parse_comm_us(cli_config_t *c, const char *v);
int cli_opt_parse_comp_us(cli_config_t *c, const char *v);
int cli_opt_parse_threads(cli_config_t *c, const char *v);

/* Parsers of the pattern options (option_parse_pattern.c). */
int cli_opt_parse_pattern(cli_config_t *c, const char *v);
int cli_opt_parse_direction(cli_config_t *c, const char *v);
int cli_opt_parse_subgroup(cli_config_t *c, const char *v);
int cli_opt_parse_backend(cli_config_t *c, const char *v);
int cli_opt_parse_pattern_file(cli_config_t *c, const char *v);
int cli_opt_parse_file_element_bytes(cli_config_t *c, const char *v);
int cli_opt_parse_pattern_window(cli_config_t *c, const char *v);
int cli_opt_parse_nic_bw(cli_config_t *c, const char *v);
int cli_opt_parse_memory(cli_config_t *c, const char *v);
int cli_opt_parse_gpus_per_node(cli_config_t *c, const char *v);
int cli_opt_parse_select(cli_config_t *c, const char *v);
int cli_opt_parse_exclude(cli_config_t *c, const char *v);
int cli_opt_parse_include(cli_config_t *c, const char *v);
int cli_opt_parse_polls(cli_config_t *c, const char *v);
int cli_opt_parse_trace_files(cli_config_t *c, const char *v);
int cli_opt_parse_during(cli_config_t *c, const char *v);
int cli_opt_parse_gpus_per_nic(cli_config_t *c, const char *v);
int cli_opt_parse_nics(cli_config_t *c, const char *v);
int cli_opt_parse_minbytes(cli_config_t *c, const char *v);
int cli_opt_parse_maxbytes(cli_config_t *c, const char *v);
int cli_opt_parse_stepfactor(cli_config_t *c, const char *v);
int cli_opt_parse_check(cli_config_t *c, const char *v);
int cli_opt_parse_matrix(cli_config_t *c, const char *v);

/* nccl-tests' -b, -e, -f into cfg's sizes: MIN:MAX:xF (MAX defaults to MIN,
 * MIN to MAX, F to 2), refused beside --sizes. Returns 0, or -1 with the
 * reason as the last error. */
int cli_opt_compose_nccl_sizes(cli_config_t *c);

/* Parsers of the measurement options (option_parse_bench.c). */
int cli_opt_parse_root(cli_config_t *c, const char *v);
int cli_opt_parse_peer(cli_config_t *c, const char *v);
int cli_opt_parse_validate(cli_config_t *c, const char *v);
int cli_opt_parse_batch(cli_config_t *c, const char *v);
int cli_opt_parse_device_time(cli_config_t *c, const char *v);
int cli_opt_parse_allow_partial(cli_config_t *c, const char *v);
int cli_opt_parse_allow_one_rank(cli_config_t *c, const char *v);
int cli_opt_parse_check_every(cli_config_t *c, const char *v);
int cli_opt_parse_max_attempts(cli_config_t *c, const char *v);
int cli_opt_parse_window_us(cli_config_t *c, const char *v);
int cli_opt_parse_late_us(cli_config_t *c, const char *v);
int cli_opt_parse_slice_s(cli_config_t *c, const char *v);
int cli_opt_parse_resync_s(cli_config_t *c, const char *v);
int cli_opt_parse_cold_cache(cli_config_t *c, const char *v);
int cli_opt_parse_inject_delay(cli_config_t *c, const char *v);
int cli_opt_parse_back_to_back(cli_config_t *c, const char *v);
int cli_opt_parse_bcast_factor(cli_config_t *c, const char *v);
int cli_opt_parse_filter(cli_config_t *c, const char *v);
int cli_opt_parse_metric(cli_config_t *c, const char *v);
int cli_opt_parse_runs(cli_config_t *c, const char *v);
int cli_opt_parse_dir(cli_config_t *c, const char *v);
int cli_opt_parse_alternative(cli_config_t *c, const char *v);
int cli_opt_parse_statistic(cli_config_t *c, const char *v);

/* Indexed by cli_opt_id_t. */
extern const cli_opt_def_t cli_options[HM_OPT_COUNT];
#endif
