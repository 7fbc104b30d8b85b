/* include/harmonia/offset.h — the clock offset between a reference process
 * and a client process, measured over any clock with ping-pongs.
 *
 * Two algorithms (Hunold & Carpen-Amarie 2018, appendix A):
 *  - skampi  (Alg. 7, SKaMPI-Offset): over N ping-pongs the client keeps the
 *            tightest bounds of the offset and returns their midpoint;
 *  - meanrtt (Alg. 8, Mean-RTT-Offset of Jones and Koenig): the RTT of the
 *            pair is measured once (mean after outlier removal, Hunold & Carpen-Amarie 2016
 *            Alg. 17), then N one-way samples local - remote - rtt/2 give the
 *            median offset.
 *
 * Sign convention, used by every layer above: the offset is
 *     client clock - reference clock
 * at the client's timestamp, so a clock model fitted to (timestamp, offset)
 * pairs gives reference time = t - (slope * t + intercept) (clock.h). */
#ifndef HARMONIA_OFFSET_H
#define HARMONIA_OFFSET_H
#include <harmonia/export.h>

#include <stddef.h>

#include <mpi.h>

#include <harmonia/clock.h>
#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hm_offset_kind { HM_OFFSET_SKAMPI = 0, HM_OFFSET_MEANRTT = 1 } hm_offset_kind_t;

/* Name of a kind ("skampi", "meanrtt"); lookup by name (HM_ENOENT if
 * unknown; kind may be NULL, a check of name); the list "skampi, meanrtt"
 * for help and error texts. */
HM_EXPORT const char *hm_offset_name(hm_offset_kind_t kind);
HM_EXPORT int hm_offset_find(const char *name, hm_offset_kind_t *kind);
HM_EXPORT void hm_offset_names(char *buf, size_t len);

/* The cost of a pair in ping-pongs, beyond its `exchanges` per
 * measurement (what hm_offset_pair_pingpongs counts). */
enum {
    /* Untimed ping-pongs (per send mode) before the first measurement of a
     * pair: they set up the connection and bring both processes' code and
     * buffers into cache, so that the first timed exchanges are not slow
     * (the Warmup_Rounds of Hunold & Carpen-Amarie 2016, Alg. 17, applied to both algorithms).
     * Measured under MPICH 4.0: with 10, the first Mean-RTT measurement of a
     * process was 1.5 us off; from 30 on it is as good as the later ones. */
    HM_OFFSET_WARMUP = 50,
    /* Ping-pongs of the RTT estimate of Mean-RTT-Offset (n_pingpongs of
     * Hunold & Carpen-Amarie 2016, Alg. 17; the paper leaves it open). 100 gives a mean RTT
     * whose noise (sigma / 10) is far below the RTT's own spread. */
    HM_OFFSET_RTT_PINGPONGS = 100
};

/* One measurement, valid on the client. */
typedef struct hm_offset_sample {
    double timestamp_s; /* client clock when the offset holds */
    double offset_s;    /* client clock - reference clock */
    double rtt_s;       /* smallest round trip seen (skampi) or the pair's mean RTT (meanrtt) */
} hm_offset_sample_t;

/* The state of one (reference, client) pair: the algorithm, its number of
 * ping-pongs, and what it keeps between measurements (Mean-RTT's RTT). */
typedef struct hm_offset_pair hm_offset_pair_t;

/* Prepare measurements between ranks ref and client of comm (local call; no
 * communication). exchanges >= 1. The pair uses its own message tag, so it
 * never matches messages of the caller; comm should still be private to the
 * synchronization (hm_sync_run duplicates it). */
HM_EXPORT int hm_offset_pair_create(MPI_Comm comm, int ref, int client, hm_offset_kind_t kind,
                                    int exchanges, hm_offset_pair_t **out);
HM_EXPORT void hm_offset_pair_free(hm_offset_pair_t *pair);

/* Measure the offset now. Called by both ranks of the pair (a process that is
 * neither gets HM_EINVAL), each timestamping with its own clock: the
 * reference with its clock of reference time, the client with the clock
 * whose offset is wanted. On the client *out receives the sample; on the
 * reference out may be NULL and is left untouched. */
HM_EXPORT int hm_offset_measure(hm_offset_pair_t *pair, hm_clock_t *clock, hm_offset_sample_t *out);

/* Ping-pongs this process has taken part in through pair, warm-up included
 * (what a synchronization reports as its cost). Local. */
HM_EXPORT long hm_offset_pair_pingpongs(const hm_offset_pair_t *pair);

/* The pair's communicator and this process's partner in it (the client on
 * the reference, the reference on the client). Local. HM_EINVAL for NULL. */
HM_EXPORT int hm_offset_pair_peer(const hm_offset_pair_t *pair, MPI_Comm *comm, int *peer);

#ifdef __cplusplus
}
#endif
#endif
