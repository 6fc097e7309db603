/* variant.h -- several algorithms served by one prepare function.
 *
 * Where one folder defines several algorithms (dblas's matvec, vecmat and
 * rank1, gray's two directions, fft and fft-broadcast), they share one
 * prepare that takes the variant as an argument; each Algorithm still
 * needs a prepare of its own signature, which only passes its variant on.
 */
#ifndef CUBE_VARIANT_H
#define CUBE_VARIANT_H

#include "algorithm.h"

/* Define NAME, an Algorithm.prepare that returns
 * SHARED(machine, params, layout, VARIANT, error). */
#define ALGORITHM_PREPARE_VARIANT(name, shared, variant)                   \
    static void *name(const Machine *machine, const Params *params,        \
                      MemoryLayout *layout, GError **error)                \
    {                                                                      \
        return shared(machine, params, layout, (variant), error);          \
    }

#endif
