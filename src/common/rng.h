/* src/common/rng.h — a small seeded generator (xoshiro256** seeded through
 * splitmix64, Blackman & Vigna 2018). Internal: used for synthetic clocks and
 * shuffled experiment order, where results must be reproducible from the
 * recorded seed on every platform. */
#ifndef HM_COMMON_RNG_H
#define HM_COMMON_RNG_H
#include <stdint.h>

typedef struct hm_rng {
    uint64_t s[4];
} hm_rng_t;

/* Seed from (seed, stream): different streams (e.g. ranks) are independent. */
void hm_rng_seed(hm_rng_t *rng, uint64_t seed, uint64_t stream);
uint64_t hm_rng_next(hm_rng_t *rng);
/* Uniform in [0, 1). */
double hm_rng_uniform(hm_rng_t *rng);
/* Uniform in [-bound, bound]. */
double hm_rng_symmetric(hm_rng_t *rng, double bound);
/* Standard normal (Box-Muller). */
double hm_rng_gaussian(hm_rng_t *rng);
#endif
