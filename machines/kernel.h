/* kernel.h -- how long a named local kernel takes on a machine.
 *
 * A node program calls node_kernel(node, "matvec", shape, flops) for a
 * library routine (a local matrix-vector multiply, an FFT). A machine binds
 * each name it models to a rate, `kernel.matvec = RATE` in its [machine]
 * group; a name it does not bind costs flops x flop-time. A rate is a
 * function in kernel_rates (one line each, like topologies), optionally
 * with one numeric parameter: `per-flop:3` is 3 ticks per flop.
 */
#ifndef CUBE_KERNEL_H
#define CUBE_KERNEL_H

#include <stdint.h>
#include "machine.h"

/* The shape of a kernel call: up to three extents (rows, columns, depth),
 * unused ones 0. */
#define KERNEL_SHAPE 3

struct KernelRate {
    const char *name;
    const char *summary;
    gboolean takes_arg;           /* RATE is NAME:NUMBER */
    /* Ticks for one call; never negative. */
    Tick (*ticks)(const Machine *m, double arg,
                  const uint64_t shape[KERNEL_SHAPE], uint64_t flops);
};

extern const KernelRate *const kernel_rates[];

/* Parse "NAME" or "NAME:NUMBER". FALSE with *why (g_free) if unknown. */
gboolean kernel_rate_parse(const char *text, const KernelRate **rate,
                           double *arg, char **why);
Tick kernel_ticks(const Machine *m, const char *name,
                  const uint64_t shape[KERNEL_SHAPE], uint64_t flops);

#endif
