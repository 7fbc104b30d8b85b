/* src/offset/offset_impl.h — the state of a measuring pair and the
 * algorithms behind hm_offset_measure. */
#ifndef HM_OFFSET_IMPL_H
#define HM_OFFSET_IMPL_H
#include <harmonia/offset.h>

enum {
    /* The pair's own tag: ASCII "OF". Distinct from the tags the sync
     * algorithms use on the same private communicator. */
    HM_OFFSET_TAG = 0x4f46
};

struct hm_offset_pair {
    MPI_Comm comm;
    int ref, client, me;
    hm_offset_kind_t kind;
    int exchanges;
    int warmed;      /* warm-up done */
    int have_rtt;    /* meanrtt: rtt_s measured (Alg. 8 line 3) */
    double rtt_s;    /* meanrtt: mean RTT after outlier removal */
    long pingpongs;  /* every ping-pong this process took part in */
    double *scratch; /* meanrtt: 2 * exchanges doubles (local times, offsets) */
    size_t *order;   /* meanrtt: exchanges indices (sort permutation) */
};

typedef int (*hm_offset_fn)(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out);

/* The algorithms: called by both ranks of the pair, warm-up done; out is
 * written on the client only. */
int hm__offset_skampi(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out);
int hm__offset_meanrtt(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out);

/* Registry lookup: the function measuring kind; NULL for an unknown kind. */
hm_offset_fn hm__offset_function(hm_offset_kind_t kind);

#endif
