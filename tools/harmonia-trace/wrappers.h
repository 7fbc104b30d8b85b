/* tools/harmonia-trace/wrappers.h — what the wrapper files share: the
 * timing around a PMPI_ call and the recording of a collective. */
#ifndef HM_TRACER_WRAPPERS_H
#define HM_TRACER_WRAPPERS_H

#include <mpi.h>

#include "tracer.h"

/* The body of a wrapper: two reads of the timer around CALL (t0_, t1_;
 * its status rc_), then RECORD, which may read all three. Untraced, CALL
 * alone. */
#define TIMED(CALL, RECORD)                                                                        \
    do {                                                                                           \
        double t0_ = hm_tracer_now();                                                              \
        if (!hm_tracer_on()) return CALL;                                                          \
        int rc_ = CALL;                                                                            \
        double t1_ = hm_tracer_now();                                                              \
        RECORD;                                                                                    \
        return rc_;                                                                                \
    } while (0)

/* TIMED for a probe FUNC on COMM, SOURCE and TAG, which FOUND says found
 * something after CALL: one that would join the burst of such probes before it
 * reads no timer unless it finds a message, and then its entry is its exit
 * (hm_tracer_poll_joins). */
#define POLLED(FUNC, COMM, SOURCE, TAG, CALL, FOUND, RECORD)                                       \
    do {                                                                                           \
        int joins_ = hm_tracer_poll_joins(FUNC, HM_TRACER_HANDLE(COMM), SOURCE, TAG);              \
        double t0_ = joins_ ? 0 : hm_tracer_now();                                                 \
        if (!joins_ && !hm_tracer_on()) return CALL; /* joins_ implies on */                       \
        int rc_ = CALL;                                                                            \
        if (joins_ && !(FOUND)) {                                                                  \
            hm_tracer_poll_joined();                                                               \
            return rc_;                                                                            \
        }                                                                                          \
        double t1_ = hm_tracer_now();                                                              \
        if (joins_) t0_ = t1_;                                                                     \
        RECORD;                                                                                    \
        return rc_;                                                                                \
    } while (0)

/* The wrappers are all libharmonia-trace.so exports (C_VISIBILITY_PRESET
 * hidden for the rest). */
#define HM_WRAP __attribute__((visibility("default")))

#define NONE           HM_TRACER_NO_PEER
#define B(count, type) hm_tracer_bytes(count, type)

/* A collective call over comm, numbered there (root: a rank of comm or
 * NONE; bytes as bench counts them). */
static inline void coll(int func, double t0, double t1, MPI_Comm comm, int root, uint64_t bytes)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), root, bytes);
    hm_tracer_record(&c, t0, t1, 1);
}

/* A nonblocking collective that made *req (numbered at the call). */
static inline void coll_request(int func, double t0, double t1, int rc, MPI_Comm comm, int root,
                                uint64_t bytes, const MPI_Request *req)
{
    hm_tracer_call_t c = hm_tracer_call(func, HM_TRACER_COMM, HM_TRACER_HANDLE(comm), root, bytes);
    hm_tracer_request_made(&c, t0, t1, rc, req, 0);
}
#endif
