/* tests/offset/truth.h — synthetic clocks with known truth for the offset
 * and learning tests: every rank reads CLOCK_MONOTONIC through its own drawn
 * offset and drift, and knows every rank's draw (an MPI_Allgather), so a
 * client can compute what the reference's clock read at any true time. */
#ifndef HM_TEST_OFFSET_TRUTH_H
#define HM_TEST_OFFSET_TRUTH_H
#include <harmonia/clock.h>

typedef struct truth {
    hm_timer_t *timer; /* this rank's synthetic timer, origin agreed */
    hm_clock_t *clock; /* identity over it */
    int rank, size;
    double *offset_s, *drift; /* every rank's draw */
} truth_t;

/* Collective over comm: synthetic "monotonic" with offset within
 * +-offset_s, drift within +-drift, Gaussian jitter of jitter_s per read,
 * seed 7, domain = rank. */
int truth_init(truth_t *t, MPI_Comm comm, double offset_s, double drift, double jitter_s);
void truth_free(truth_t *t);

/* What rank's synthetic timer reads at true time true_s (without jitter). */
double truth_reading(const truth_t *t, int rank, double true_s);

/* The exact relative drift of client against ref, as the slope of the
 * offset (client - ref) against the client's time: 1 - (1+d_r)/(1+d_c). */
double truth_slope(const truth_t *t, int ref, int client);
#endif
