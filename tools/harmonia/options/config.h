/* tools/harmonia/options/config.h — the options shared by all commands, parsed into one
 * struct. Parsing only checks what can be checked without MPI; it never
 * prints: a usage error comes back as a message that the caller prints once. */
#ifndef HM_CLI_CONFIG_H
#define HM_CLI_CONFIG_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <harmonia/analysis.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

/* The time source without --timer: in an SMPI build (docs/scale.md) the
 * simulated MPI_Wtime, which every simulated rank shares. */
#if HM_SMPI
#define HM_CLI_DEFAULT_TIMER "wtime"
#else
#define HM_CLI_DEFAULT_TIMER "monotonic"
#endif

/* What the program's functions return: an HM_* status of the library
 * (harmonia/error.h): HM_OK, HM_EINVAL for the user's input (options,
 * operands, files), HM_EFAILED or the library's own code for what failed
 * at run time. A command's status becomes the exit status in one place,
 * cli_main (dispatch.c, hm_exit_status). */

/* Every option the program knows; a command accepts a subset (a bit mask of
 * these ids). */
typedef enum cli_opt_id {
    HM_OPT_TIMER,
    HM_OPT_TSC_GHZ,
    HM_OPT_CLOCK_SYNC,
    HM_OPT_FITPOINTS,
    HM_OPT_EXCHANGES,
    HM_OPT_OFFSET,
    HM_OPT_SYNC,
    HM_OPT_OPS,
    HM_OPT_SIZES,
    HM_OPT_NREP,
    HM_OPT_WARMUP,
    HM_OPT_OUTPUT,
    HM_OPT_RAW,
    HM_OPT_SEED,
    HM_OPT_SYNTHETIC_CLOCK,
    HM_OPT_RANKS_PER_NODE,
    HM_OPT_RANKS_PER_SOCKET,
    HM_OPT_PER_RANK,
    HM_OPT_FORMAT,
    HM_OPT_HELP,
    HM_OPT_CHECK_AFTER,
    HM_OPT_SAMPLE,
    HM_OPT_DRIFT,
    HM_OPT_RECOMPUTE_INTERCEPT,
    HM_OPT_ROOT,
    HM_OPT_PEER,
    HM_OPT_VALIDATE,
    HM_OPT_CHECK_EVERY,
    HM_OPT_MAX_ATTEMPTS,
    HM_OPT_WINDOW_US,
    HM_OPT_LATE_US,
    HM_OPT_SLICE_S,
    HM_OPT_RESYNC_S,
    HM_OPT_COLD_CACHE,
    HM_OPT_INJECT_DELAY,
    HM_OPT_BACK_TO_BACK,
    HM_OPT_BCAST_FACTOR,
    HM_OPT_FILTER,
    HM_OPT_METRIC,
    HM_OPT_RUNS,
    HM_OPT_DIR,
    HM_OPT_ALTERNATIVE,
    HM_OPT_STATISTIC,
    HM_OPT_ALLOW_PARTIAL,
    HM_OPT_COMM_US,
    HM_OPT_COMP_US,
    HM_OPT_THREADS,
    HM_OPT_PATTERN,
    HM_OPT_DIRECTION,
    HM_OPT_SUBGROUP,
    HM_OPT_BACKEND,
    HM_OPT_PATTERN_FILE,
    HM_OPT_FILE_ELEMENT_BYTES,
    HM_OPT_PATTERN_WINDOW,
    HM_OPT_NIC_BW,
    HM_OPT_GPUS_PER_NIC,
    HM_OPT_NICS,
    HM_OPT_MINBYTES,
    HM_OPT_MAXBYTES,
    HM_OPT_STEPFACTOR,
    HM_OPT_CHECK,
    HM_OPT_MATRIX,
    HM_OPT_MEMORY,
    HM_OPT_GPUS_PER_NODE,
    HM_OPT_SELECT,
    HM_OPT_ALLOW_ONE_RANK,
    HM_OPT_DEVICE_TIME,
    HM_OPT_BATCH,
    HM_OPT_EXCLUDE,
    HM_OPT_INCLUDE,
    HM_OPT_POLLS,
    HM_OPT_DURING_S,
    HM_OPT_TRACE_FILES,
    HM_OPT_COUNT
} cli_opt_id_t;

/* A set of options, one bit each: masks and `given` are 128-bit words (a
 * GCC and Clang type; the 64 of a uint64_t were all taken). */
__extension__ typedef unsigned __int128 cli_opt_mask_t;
#define HM_OPT_BIT(id) ((cli_opt_mask_t)1 << (id))
_Static_assert(HM_OPT_COUNT <= 128, "more options than bits in an option mask");

/* Largest message size: MPI counts are int and harmonia moves bytes with
 * MPI_CHAR, so a size above INT_MAX bytes cannot be expressed. */
#define HM_CLI_MAX_SIZE_BYTES 2147483647ULL
#define HM_CLI_MAX_SIZES      256
#define HM_CLI_MAX_FILES      1024
#define HM_CLI_MAX_TARGETS    32

typedef struct cli_config {
    const char *command;
    int argc;
    char **argv;          /* the whole command line, for result files */
    cli_opt_mask_t given; /* HM_OPT_BIT of every option on the command line */

    char timer[32];                 /* --timer */
    double tsc_ghz;                 /* --tsc-ghz, 0 = read from the system */
    char clock_sync[128];           /* --clock-sync */
    int fitpoints;                  /* --fitpoints */
    int exchanges;                  /* --exchanges */
    hm_offset_kind_t offset;        /* --offset */
    char sync[128];                 /* --sync (skew: a list) */
    char ops[512];                  /* --ops */
    size_t sizes[HM_CLI_MAX_SIZES]; /* --sizes, ascending, no duplicates */
    int nsizes;
    long nrep;         /* --nrep / -i */
    long warmup;       /* --warmup / -x */
    char output[4096]; /* --output */
    char raw[4096];    /* --raw */
    uint64_t seed;     /* --seed */
    int synthetic;     /* --synthetic-clock given */
    hm_synthetic_spec_t synthetic_spec;
    int ranks_per_node; /* 0 = real topology */
    int ranks_per_socket;
    int per_rank;             /* --per-rank */
    char format[16];          /* --format table|osu (plot: svg|png|both) */
    int help;                 /* --help */
    double check_after_s[16]; /* --check-after, ascending */
    int ncheck_after;
    double sample;           /* --sample: fraction of ranks checked, (0, 1] */
    hm_drift_t drift;        /* --drift */
    int recompute_intercept; /* --recompute-intercept on|off */
    int root;                /* --root */
    int peer;                /* --peer */
    int batch;               /* --batch (NCCL: launches a repetition; default 1) */
    int validate;            /* --validate */
    int device_time;         /* --device-time */
    int allow_partial;       /* --allow-partial */
    int allow_one_rank;      /* --allow-one-rank */
    double probe_s;          /* the interference probe's length (HARMONIA_INTERFERENCE_PROBE_S) */
    int check_every;         /* --check-every */
    long max_attempts;       /* --max-attempts, 0 = 10 x nrep + 100 */
    double window_us;        /* --window-us, 0 = adaptive */
    double late_us;          /* --late-us */
    double slice_s;          /* --slice-s, 0 = none */
    double resync_s;         /* --resync-s */
    int cold_cache;          /* --cold-cache */
    int inject_rank;         /* --inject-delay RANK:ATTEMPT:US (testing), -1 = none */
    long inject_attempt;
    double inject_delay_us;
    int back_to_back; /* --back-to-back */
    /* overlap */
    double comm_targets_s[HM_CLI_MAX_TARGETS]; /* --comm-us, ascending, in seconds */
    int ncomm_targets;
    double comp_targets_s[HM_CLI_MAX_TARGETS]; /* --comp-us */
    int ncomp_targets;
    int comp_is_comm;    /* --comp-us comm: each cell's computation aims at its t_comm_ref */
    int threads;         /* --threads, 0 = one per core the rank may use */
    double bcast_factor; /* --bcast-factor (roundtime's B) */
    /* pattern */
    char pattern[32];        /* --pattern: a generator, striping, or file */
    char direction[16];      /* --direction uni|bi|omni|bi-mirror */
    int subgroup;            /* --k, 0 = g */
    char backend[64];        /* --backend NAME, or A+B+C for striping's steps */
    char pattern_file[4096]; /* --file */
    long file_element_bytes; /* --file-element-bytes, 0 = 1: the file's values are bytes */
    long pattern_window;     /* pattern --window, 0 = 1: messages in flight per message */
    double nic_bw_gbps;      /* --nic-bw, 0 = no model */
    int gpus_per_nic;        /* --gpus-per-nic: eq. 1 (packed) */
    int nics;                /* --nics: eq. 2 (round-robin) */
    /* nccl-tests' -b, -e, -f (--minbytes, --maxbytes, --stepfactor): composed
     * into sizes after the parse; 0 = not given. */
    size_t min_bytes, max_bytes;
    long step_factor;
    char matrix[4096]; /* --matrix: the pattern's matrix of bytes (CSV) */
    /* GPUs */
    int memory_device; /* --memory device (1) or host (0, default) */
    int gpus_per_node; /* --gpus-per-node, 0 = every device the node shows */
    /* trace: functions recorded (patterns), polls one event each (1) or a
     * burst (0), the seconds after MPI_Init recorded, the files merged */
    char trace_include[1024], trace_exclude[1024];
    int polls_each;
    double during_from_s, during_to_s;
    unsigned trace_files; /* --files: hm_trace_file_t bits the merge writes */
    /* --select of plot on a trace: the n-th call of a function, or a window
     * in ms from the trace's first event; kind 0 = not given. */
    struct {
        int kind; /* 0 none, 1 call, 2 window */
        int func;
        long call;
        double from_ms, to_ms;
    } select;

    /* stats */
    hm_filter_t filter;                  /* --filter tukey|none */
    hm_metric_t metric;                  /* --metric global|local */
    int takes_files;                     /* set before parsing: the command reads FILE operands */
    const char *files[HM_CLI_MAX_FILES]; /* the operands, in order */
    int nfiles;

    /* campaign, compare, plot */
    long runs;      /* --runs / -n: mpiruns of a campaign, 0 = not given */
    char dir[4096]; /* --dir: campaign directory, or where plot writes */
    /* --alternative two-sided|less|greater, --statistic median|mean */
    hm_alternative_t alternative;
    hm_statistic_t statistic;
    int takes_command;   /* set before parsing: the words after "--" are a command */
    char **command_argv; /* those words, NULL-terminated (campaign) */
    int command_argc;
} cli_config_t;

/* Fill cfg with the defaults of every option. */
void cli_config_defaults(cli_config_t *cfg);

/* Parse argv[first..argc) for a command accepting the options in mask.
 * Returns HM_OK, or HM_EINVAL with the message (without the
 * "harmonia: error: " prefix) as the last error (hm_last_error). Long options are matched by their
 * full name only (no abbreviations); an option given twice, an OSU alias
 * and its long name included, is an error, and so is an item listed twice
 * in a list option. Reentrant: keeps no state between calls.
 * Arguments that are not options go to cfg->files when cfg->takes_files is
 * set, and are a usage error ("unexpected argument") otherwise. */
int cli_parse(int argc, char **argv, int first, cli_opt_mask_t mask, cli_config_t *cfg);

/* Parse a size specification ("8,64,1K", "1:1M", "1:1M:x4", OSU's
 * "MIN:MAX") into ascending sizes in bytes; a size given twice ("8,8",
 * "8,1:16") is an error naming it and both items. At most max_sizes sizes
 * (a larger max_sizes counts as HM_CLI_MAX_SIZES). Returns 0, or -1
 * (HM_EINVAL) with the reason as the last error. */
int cli_parse_sizes(const char *text, size_t *sizes, int max_sizes, int *nsizes);

/* Copy text to out (len bytes, always terminated), each {OPTION} replaced
 * by the names that option accepts joined by "|" ("tukey|none"), each
 * {OPTION,} by the same joined by ", ", read from the library's name
 * tables. Anything else, an unknown {key} included, is copied as is. */
void cli_expand_choices(const char *text, char *out, size_t len);

/* Write the help of the options in mask (one paragraph each) to f. */
/* What an option means to one command, where the shared table's words do
 * not fit it (trace's --output is a directory). */
typedef struct cli_opt_help {
    int id; /* HM_OPT_*; a list ends with id -1 */
    const char *value, *help, *example;
} cli_opt_help_t;

/* The options of mask with their help and an example; own (NULL: none) a
 * command's words for some of them. */
void cli_print_options_help(FILE *f, cli_opt_mask_t mask, const cli_opt_help_t *own);
#endif
