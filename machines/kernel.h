/* kernel.h -- how long a named local kernel takes on a machine.
 *
 * A node program calls node_kernel(node, "matvec", shape, flops) for a
 * library routine (a local matrix-vector multiply, an FFT). A machine binds
 * each name it models to a rate, `kernel.matvec = RATE` in its [machine]
 * group; a name it does not bind costs flops x flop-time. A rate is a
 * struct in kernel_rates (one line each, like topologies). RATE is NAME or
 * NAME:ARGS, and each rate parses its own ARGS: `per-flop:3` is 3 ticks per
 * flop; `table:cm200-dgemv.tbl:0.5` times a call from a table of Mflop/s by
 * shape, at half the tabulated rate (the file format is in kernel.c).
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
    /* Parse ARGS (the text after "NAME:", NULL when there is no colon)
     * into k->arg and k->data. FALSE with *why (g_free) and nothing left
     * allocated in k. */
    gboolean (*parse)(const char *args, MachineKernel *k, char **why);
    /* Ticks for one call; never negative. */
    Tick (*ticks)(const Machine *m, const MachineKernel *k,
                  const uint64_t shape[KERNEL_SHAPE], uint64_t flops);
    /* A rate in seconds needs the machine's tick-seconds to give ticks. */
    gboolean needs_tick_seconds;
    /* What parse left in k->data: a deep copy, and freeing it (NULL when
     * the rate keeps nothing there). */
    void *(*copy_data)(const void *data);
    void (*free_data)(void *data);
};

extern const KernelRate *const kernel_rates[];

/* Parse RATE into k->rate, k->arg and k->data (k->name is not touched).
 * FALSE with *why (g_free) if the rate is unknown or its ARGS are wrong;
 * k then holds nothing to free. */
gboolean kernel_parse(const char *text, MachineKernel *k, char **why);

/* The older form for rates that keep only a number (per-flop): a rate that
 * needs k->data (table) is refused here. */
gboolean kernel_rate_parse(const char *text, const KernelRate **rate,
                           double *arg, char **why);

/* Deep copy / free of what kernel_parse left in k->data. */
void *kernel_data_copy(const MachineKernel *k);
void kernel_data_free(MachineKernel *k);

Tick kernel_ticks(const Machine *m, const char *name,
                  const uint64_t shape[KERNEL_SHAPE], uint64_t flops);

/* The rate, in Mflop/s, that a parsed `table` kernel gives a call of rows
 * x cols (SCALE not applied); for tests and reports. */
double kernel_table_rate(const MachineKernel *k, uint64_t rows, uint64_t cols);

#endif
