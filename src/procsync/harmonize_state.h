/* src/procsync/harmonize_state.h — what hm_harmonize keeps per communicator
 * (cached on it as an MPI attribute) and the collective steps that build and
 * refresh it. harmonize.c runs the per-call algorithm over it. */
#ifndef HM_PROCSYNC_HARMONIZE_STATE_H
#define HM_PROCSYNC_HARMONIZE_STATE_H
#include <mpi.h>

#include <harmonia/procsync.h>

/* Calls whose "used" times the root remembers for shrinking the slack. */
enum { HZ_HISTORY = 256 };

typedef struct hm__hz_state {
    MPI_Comm comm;                 /* private duplicate of the user's comm */
    int rank, size;                /* in comm; rank 0 is the root of Alg. 1 */
    hm_timer_t *timer;             /* time source of every synchronization */
    int owns_timer;                /* created from options->timer (else the global's) */
    hm_clock_t *base;              /* identity over timer: base of every re-synchronization */
    hm_clock_t *global;            /* the current global clock (one reference; NULL before
                                    * the first synchronization unless configured) */
    char *clock_sync;              /* spec of full synchronizations, a copy */
    hm_sync_refiner_t *refiner;    /* a refining clock_sync's: re-synchronizations refine
                                    * (NULL otherwise) */
    int owns_refiner;              /* made by the first synchronization (else the caller's) */
    int refresh;                   /* re-synchronizations refresh the offsets */
    hm_offset_kind_t refresh_kind; /* with this offset algorithm */
    hm_offset_pair_t **pairs;      /* refresh pairs by client rank, kept warm (NULL until
                                    * the first refresh) */
    struct hm_topo *topo;          /* levels of a clock_sync whose innermost level is prop */
    MPI_Comm shared;               /* that level's group (owned by topo), else MPI_COMM_NULL */
    int measures_self;             /* this rank measures at a refresh (a group's leader) */
    int *measures;                 /* root: the same for every rank */
    double full_resync_s;
    double last_full_s; /* global time of the last full synchronization */
    hm_sync_params_t sync;
    double resync_s, spin_s, late_s;
    int yield;                    /* ranks outnumber the processors: the spin yields */
    int prepared;                 /* first call done: MPI_Bcast measured, clocks synchronized */
    double bcast_latency_s;       /* measured */
    double floor_s;               /* the slack never goes below this */
    double slack_s;               /* the root's, broadcast with every deadline */
    double deadline_s;            /* of the last call, global clock */
    double last_sync_s;           /* global time of the last synchronization */
    int last_failed;              /* this rank missed a deadline since the last sync */
    double used_s;                /* previous call: root's decision -> this rank's check */
    double delay_s;               /* pending injected delay (testing) */
    long run;                     /* root: consecutive calls without a failure */
    double history_s[HZ_HISTORY]; /* root: "used" of the last calls (ring) */
    double sorted_s[HZ_HISTORY];  /* root: the same values, ascending */
    long history_n;               /* values written into history_s */
    double refresh_cost_s;        /* root: running mean duration of a refresh (what a
                                   * miss costs); 0 before the first */
    double refresh_best_rtt_s;    /* client: smallest round trip of its refreshes (0
                                   * before the first) */
    long refresh_repeats;         /* refresh measurements repeated (preempted) */
    long calls, missed, late_exits, clock_errors, resyncs, full_syncs;
    long slack_grows, slack_shrinks, slack_capped;
    double resync_time_s; /* spent in re-synchronizations (resync in harmonize.c) */
} hm__hz_state_t;

/* Root: add a used time to the history (the ring and its sorted copy; the
 * oldest value leaves a full ring). O(HZ_HISTORY) memory moves, ~0.1 us:
 * the root runs it between the reduce and the broadcast of every call,
 * where a sort of the history every 16 calls had cost 10-20 us. */
void hm__hz_history_add(hm__hz_state_t *st, double used_s);

/* The slack a history of used times asks for (n values in sorted_s,
 * ascending, n >= 1): among the candidates margin x a used time, the one with
 * the least expected cost per call, candidate + (share of used_s above it) x
 * refresh_cost_s; the lowest such candidate on a tie. With refresh_cost_s
 * <= 0 (no refresh timed yet), margin x the second largest used time (the
 * largest when n is 1). Pure. */
double hm__hz_slack_target(const double *sorted_s, int n, double margin, double refresh_cost_s);

/* Local: the state cached on comm, or NULL (*st) when there is none.
 * HM_EMPI when the attribute cannot be read. */
int hm__hz_state_find(MPI_Comm comm, hm__hz_state_t **st);

/* Collective over comm: build a state from opts (a local failure rc, e.g. a
 * bad option, is agreed first) and cache it on comm, replacing (and freeing)
 * any earlier one. Every rank returns the same status. */
int hm__hz_state_create(MPI_Comm comm, const hm_harmonize_options_t *opts, int rc,
                        hm__hz_state_t **out);

/* Collective, at the first call: measure MPI_Bcast (the slack's floor and
 * start) and synchronize the clocks unless a global clock was configured. */
int hm__hz_state_prepare(hm__hz_state_t *st);

/* Refreshes under a hierarchical clock_sync (harmonize_shared.c). open:
 * collective, finds the innermost level's groups when it is prop (else every
 * rank measures); measures: local, whether rank r measures at a refresh (the
 * root knows every rank; a client only itself); propagate: collective, each
 * group's leader passes *clock on (replaced on the members); close: frees. */
int hm__hz_shared_open(hm__hz_state_t *st);
int hm__hz_shared_measures(const hm__hz_state_t *st, int r);
int hm__hz_shared_propagate(hm__hz_state_t *st, hm_clock_t **clock);
void hm__hz_shared_close(hm__hz_state_t *st);

/* Collective: synchronize the clocks anew and replace st->global (Alg. 1,
 * line 24); last_sync_s and last_failed are reset. */
int hm__hz_state_sync(hm__hz_state_t *st);
#endif
