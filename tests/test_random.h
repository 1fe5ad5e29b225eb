/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/test_random.h: what the randomised tests share: a bit comparison of doubles and a
 * reproducible xorshift64* sequence (Marsaglia 2003; Vigna's multiplier), so that a failure
 * can be replayed. A test file defines TEST_RANDOM_SEED (nonzero) before including it.
 */
#ifndef CLINK_TEST_RANDOM_H
#define CLINK_TEST_RANDOM_H

#include <stdint.h>
#include <string.h>

#ifndef TEST_RANDOM_SEED
#error "define TEST_RANDOM_SEED before including test_random.h"
#endif

/* the same bits (-0 and 0 differ, a NaN equals itself) */
static inline int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static uint64_t rng_state = TEST_RANDOM_SEED;

/* uniform in [lo, hi), 53 random bits */
static inline double uniform(double lo, double hi)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t x = rng_state * 0x2545f4914f6cdd1dULL;
    return lo + (hi - lo) * (double) (x >> 11) / 9007199254740992.0;
}

/* uniform in 0 .. n - 1 */
static inline int pick(int n)
{
    int k = (int) uniform(0.0, (double) n);
    return k < n ? k : n - 1;
}

#endif
