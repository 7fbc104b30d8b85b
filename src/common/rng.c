/* src/common/rng.c — xoshiro256** with splitmix64 seeding. */
#include <harmonia/rng.h>

#include <math.h>

#include "common/error_set.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void hm_rng_seed(hm_rng_t *rng, uint64_t seed, uint64_t stream)
{
    if (!rng) {
        hm__error_null(__func__, "rng");
        return;
    }
    uint64_t x = seed ^ (0xd1b54a32d192ed03ULL * (stream + 1));
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&x);
}

uint64_t hm_rng_next(hm_rng_t *rng)
{
    if (!rng) {
        hm__error_null(__func__, "rng");
        return 0;
    }
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double hm_rng_uniform(hm_rng_t *rng)
{
    if (!rng) {
        hm__error_null(__func__, "rng");
        return NAN;
    }
    /* 53 random bits: every double in [0, 1) on the 2^-53 grid. */
    return (double)(hm_rng_next(rng) >> 11) * 0x1.0p-53;
}

double hm_rng_symmetric(hm_rng_t *rng, double bound)
{
    if (!rng) {
        hm__error_null(__func__, "rng");
        return NAN;
    }
    return (2.0 * hm_rng_uniform(rng) - 1.0) * bound;
}

double hm_rng_gaussian(hm_rng_t *rng)
{
    if (!rng) {
        hm__error_null(__func__, "rng");
        return NAN;
    }
    double u1 = 1.0 - hm_rng_uniform(rng); /* (0, 1]: log is finite */
    double u2 = hm_rng_uniform(rng);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
