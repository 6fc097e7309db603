/* graycode.h -- the binary-reflected Gray code (Johnsson & Ho, Definition 1
 * and Lemma 1), shared by every algorithm that places data by Gray code
 * and by the cube's rings (machines/cube.c).
 */
#ifndef CUBE_GRAYCODE_H
#define CUBE_GRAYCODE_H

#include <stdint.h>

/* G(i): g_m = b_m xor b_(m+1) (Lemma 1). */
static inline uint64_t gray_encode(uint64_t i)
{
    return i ^ (i >> 1);
}

/* G^-1(g): b_m = g_(n-1) xor ... xor g_m (Lemma 1). */
static inline uint64_t gray_decode(uint64_t g)
{
    for (unsigned shift = 1; shift < 64; shift <<= 1)
        g ^= g >> shift;
    return g;
}

#endif
