/* include/harmonia/rng.h — a small seeded generator (xoshiro256** seeded
 * through splitmix64, Blackman & Vigna 2018), the same on every platform, so
 * that what is drawn from a recorded seed (synthetic clocks, the order of
 * experiments, the seeds of a campaign's runs) can be drawn again. Local. */
#ifndef HARMONIA_RNG_H
#define HARMONIA_RNG_H
#include <harmonia/export.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The generator's state; a plain value, copied freely. */
typedef struct hm_rng {
    uint64_t s[4];
} hm_rng_t;

/* Seed from (seed, stream): different streams (e.g. ranks) are independent. */
HM_EXPORT void hm_rng_seed(hm_rng_t *rng, uint64_t seed, uint64_t stream);

/* The next 64 random bits. */
HM_EXPORT uint64_t hm_rng_next(hm_rng_t *rng);

/* Uniform in [0, 1). */
HM_EXPORT double hm_rng_uniform(hm_rng_t *rng);

/* Uniform in [-bound, bound]. */
HM_EXPORT double hm_rng_symmetric(hm_rng_t *rng, double bound);

/* Standard normal (Box-Muller). */
HM_EXPORT double hm_rng_gaussian(hm_rng_t *rng);

#ifdef __cplusplus
}
#endif
#endif
