/* src/sync/binomial.h — the order in which HCA3 pushes the reference time
 * down a binomial tree (Hunold & Carpen-Amarie 2018, Alg. 1), shared by
 * hca3 and the refiner (refine.c): in each round a rank that already holds
 * the global clock serves as the reference of a client; the ranks beyond
 * the largest power of two learn last, against rank r - max_power. Each
 * rank is a client once, before it is ever a reference.
 *
 * Beyond the pseudo-code: before each pair the reference sends its client
 * an empty "your turn" message, which the client awaits sleeping
 * (hm__idle_wait_token): a client whose reference is still busy in an
 * earlier round would otherwise wait inside a blocking receive, spinning
 * under MPICH on an oversubscribed machine, and slow down the pairs that
 * measure. When some node hosts more ranks than it has cores, the pairs
 * take turns in the order of the algorithm (the rounds from the largest
 * distance down, then step 2), each pair's reference passing the turn on:
 * concurrent pairs on shared cores measure the scheduler, and under MPICH
 * 4.0 (ch4:ucx) at 4 ranks on 2 cores the concurrent pairs of the last
 * round left the run hanging in 1 of 3 runs; taking turns, 0 of 60. */
#ifndef HM_SYNC_BINOMIAL_H
#define HM_SYNC_BINOMIAL_H
#include <mpi.h>

typedef struct hm__binomial {
    MPI_Comm comm;
    int rank, size, max_power;
    int turn_tag, order_tag; /* the "your turn" and the turn-passing messages */
    int *order;    /* when the pairs take turns: order[k] = client of the k-th pair; else NULL */
    int *position; /* position[client] = k */
} hm__binomial_t;

/* One rank's part of a pair: the reference's with its client, the client's
 * with its reference. */
typedef int (*hm__binomial_role_fn)(void *ctx, int peer);

/* Collective over comm: the tree, and whether the pairs take turns (when
 * some node is oversubscribed; agreed). Tags distinct from the callers' on
 * comm. Every rank returns the same status. */
int hm__binomial_init(hm__binomial_t *b, MPI_Comm comm, int turn_tag, int order_tag);
void hm__binomial_free(hm__binomial_t *b);

/* The reference of a client. */
int hm__binomial_reference(const hm__binomial_t *b, int client);

/* This rank's pairs in the algorithm's order: as_client with its reference
 * once (not on rank 0), as_reference with each of its clients. A failed
 * pair does not stop a rank: it keeps serving its later clients, so that
 * nobody waits forever; the first failure is returned (the caller agrees). */
int hm__binomial_run(const hm__binomial_t *b, hm__binomial_role_fn as_reference,
                     hm__binomial_role_fn as_client, void *ctx);
#endif
