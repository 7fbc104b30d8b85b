/* src/procsync/procsync_impl.h — the contract between hm_procsync_* and the
 * methods of --sync. A method is one file and one line in registry.c. */
#ifndef HM_PROCSYNC_IMPL_H
#define HM_PROCSYNC_IMPL_H
#include <stddef.h>

#include <harmonia/procsync.h>

/* The methods that wait for a deadline sleep until this close to it, then
 * spin (hm_procsync_wait_until): 100 us is several scheduler wake-up
 * latencies (median 23 us here with a 1 us timer slack, but with a tail: at
 * 50 us the fixed-window test saw a median lateness of 3.5 us in some runs,
 * against 0.15 us otherwise), so the spin starts in time, and short enough
 * that a rank sharing its core with others (oversubscribed: the spin also
 * yields) leaves it to them. The thread's timer slack comes on top (see
 * ps->spin_s). */
#define HM_PROCSYNC_SPIN_S 100e-6

/* The least late-start tolerance the cap leaves (late_cap_fraction): a
 * spin loop ends within a clock read of the deadline, which the default
 * late_s of 1 us already allows. */
#define HM_PROCSYNC_LATE_FLOOR_S 1e-6

/* The MPI_Bcast latency that sizes a start offset is the median of this many
 * measurements (hm_procsync_bcast_latency). */
enum { HM_PROCSYNC_LATENCY_REPS = 20 };

/* One method. Every function gets the handle; the method keeps its own data
 * in ps->state. Entries marked optional may be NULL (the default is given). */
typedef struct hm__procsync_method {
    const char *name;
    int has_deadline; /* agrees a start deadline: the late-start check applies */
    unsigned reads;   /* the hm_procsync_param_t bits it reads */
    /* Collective over ps->comm: allocate ps->state, measure what the method
     * needs. May return different statuses on different ranks: the caller
     * agrees, and takes the last error of a failing rank (hm__error_set) as
     * the sentence of every rank. Optional (no state). */
    int (*create)(hm_procsync_t *ps);
    /* Release ps->state (also after a failed create). Optional. */
    void (*release)(hm_procsync_t *ps);
    /* Collective: start an experiment. Optional (nothing to do). */
    int (*begin)(hm_procsync_t *ps);
    /* Collective: synchronize before one repetition (see hm_procsync_start). */
    int (*start)(hm_procsync_t *ps, int *flag, double *deadline_s);
    /* Local: checks beyond the generic late start (window: the overrun).
     * Optional. */
    void (*stop)(hm_procsync_t *ps, double start_s, double end_s, int *flag);
    /* The clock of the timestamps. Optional (ps->global). */
    hm_clock_t *(*clock)(const hm_procsync_t *ps);
    /* Repetitions between agreements. Optional (params.check_every). */
    int (*chunk)(const hm_procsync_t *ps);
    /* Local: 0 when the time slice is over. Optional (always 1). */
    int (*in_time)(const hm_procsync_t *ps);
    /* Local: the flags of a chunk were agreed. Optional (nothing to do). */
    void (*chunk_done)(hm_procsync_t *ps, int n, int nvalid, double busy_s);
    /* Testing: delay this rank inside its next start, where a preemption
     * makes the synchronization fail. Optional (the default sleeps before
     * the method's start: a late arrival). */
    int (*inject)(hm_procsync_t *ps, double delay_s);
    /* The window it holds now, seconds. Optional (NaN: none). */
    double (*window)(const hm_procsync_t *ps);
    /* What the method did, one line. Optional (empty). */
    void (*describe)(const hm_procsync_t *ps, char *buf, size_t len);
} hm__procsync_method_t;

struct hm_procsync {
    const hm__procsync_method_t *method;
    MPI_Comm comm;               /* private duplicate of the caller's comm */
    int rank, size;              /* in comm; rank 0 is the root */
    hm_clock_t *global;          /* retained at create, released at free */
    hm_procsync_params_t params; /* a copy */
    double deadline_s;           /* of the last start (NaN without deadline) */
    double spin_s;               /* HM_PROCSYNC_SPIN_S + this thread's timer slack */
    double inject_delay_s;       /* pending injected delay (testing), default inject */
    int yield;                   /* ranks outnumber the processors: spins yield */
    long late_capped;            /* starts only the cap on the tolerance made late */
    double run_floor_s;          /* the least run-time the cap relates a start to */
    void *state;                 /* the method's */
};

/* Set this thread's timer slack to 1 us and return how long before a
 * deadline the waits of the methods spin: HM_PROCSYNC_SPIN_S plus the slack
 * that remains (procsync.c). */
double hm__procsync_spin_setup(void);

/* Collective: 1 when some node has more ranks of comm than online
 * processors; *ranks and *processors (either may be NULL) are those of the
 * node with the most ranks beyond its processors. hm_procsync_oversubscribed
 * is this answer (wait.c). */
int hm__procsync_node_load(MPI_Comm comm, int *ranks, int *processors);

/* 1 when a rank that reaches its start at now_s may still take part: the
 * start is ahead, or passed by no more than the late-start tolerance's base
 * (params.late_s). Alg. 8 (Start_Sync line 28) and Alg. 5 (lines 12-15)
 * mark a rank that learns its start after it passed invalid at once, and
 * Alg. 1 (line 30) fails hm_harmonize; with a late-start tolerance, the
 * repetition is judged by its start timestamp instead (hm_procsync_stop),
 * as every rank's is: a rank that comes late by less than the tolerance
 * starts at once, and its timestamped start decides. Where ranks take turns
 * on the cores, such ranks come a scheduler switch or a slice late at many
 * deadlines, which the tolerance was measured (hm_procsync_fit) or given
 * (--late-us) to accept. procsync.c. */
int hm__procsync_reached_in_time(const hm_procsync_t *ps, double now_s, double start_s);

/* Registry (registry.c): the method called name, NULL when unknown. */
const hm__procsync_method_t *hm__procsync_find(const char *name);

/* The methods (one file each). */
extern const hm__procsync_method_t hm__procsync_barrier_method;
extern const hm__procsync_method_t hm__procsync_dissem_method;
extern const hm__procsync_method_t hm__procsync_window_method;
extern const hm__procsync_method_t hm__procsync_roundtime_method;
extern const hm__procsync_method_t hm__procsync_harmonize_method;
#endif
