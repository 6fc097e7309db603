/* bits.h -- small functions of 64-bit words that several modules need:
 * powers of two and their logarithms, and splitmix64.
 *
 * Inline, as they stand in loops over nodes and elements; each is exact for
 * every argument (no undefined shifts: a zero argument is answered, not
 * passed to __builtin_ctzll).
 */
#ifndef CUBE_BITS_H
#define CUBE_BITS_H

#include <glib.h>
#include <stdint.h>

/* Whether v is 1, 2, 4, ... (0 is not). */
static inline gboolean bits_is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* floor(log2 v) for v >= 1; 0 for v = 0. */
static inline unsigned bits_log2_floor(uint64_t v)
{
    return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
}

/* log2 v when v is a power of two, else -1. */
static inline int bits_log2_exact(uint64_t v)
{
    return bits_is_pow2(v) ? __builtin_ctzll(v) : -1;
}

/* splitmix64's increment: the Weyl sequence's step (2^64 / golden ratio),
 * odd; also Fibonacci hashing's multiplier (emu/channel_table.h). */
#define BITS_SPLITMIX64_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64 (Steele, Lea and Flood 2014) as a hash: the finaliser of
 * x + gamma. Inputs that differ in one bit give unrelated outputs, so
 * algorithms derive reproducible data from (seed, index) with it. */
static inline uint64_t bits_splitmix64(uint64_t x)
{
    uint64_t z = x + BITS_SPLITMIX64_GAMMA;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* splitmix64 as a generator: the next value of the stream whose state is
 * *state, which advances by gamma; every seed gives a full-period stream. */
static inline uint64_t bits_splitmix64_next(uint64_t *state)
{
    uint64_t z = bits_splitmix64(*state);
    *state += BITS_SPLITMIX64_GAMMA;
    return z;
}

#endif
