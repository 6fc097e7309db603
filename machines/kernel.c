/* kernel.c -- the rates a machine may bind to a named kernel (kernel.h).
 * To add one: write its ticks function and add a line to kernel_rates.
 */
#include "kernel.h"

#include <math.h>
#include <string.h>

/* per-flop:T -- T ticks per flop, whatever the shape. */
static Tick per_flop_ticks(const Machine *m, double arg,
                           const uint64_t shape[KERNEL_SHAPE], uint64_t flops)
{
    (void)m;
    (void)shape;
    return (Tick)ceil(arg * (double)flops);
}

static const KernelRate kernel_per_flop = {
    .name = "per-flop",
    .summary = "per-flop:T, T ticks per flop",
    .takes_arg = TRUE,
    .ticks = per_flop_ticks,
};

const KernelRate *const kernel_rates[] = {
    &kernel_per_flop,
    NULL
};

gboolean kernel_rate_parse(const char *text, const KernelRate **rate,
                           double *arg, char **why)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    GString *valid = g_string_new(NULL);
    for (const KernelRate *const *r = kernel_rates; *r; r++) {
        g_string_append_printf(valid, "%s%s", valid->len ? ", " : "",
                               (*r)->summary);
        if (strlen((*r)->name) != len || strncmp((*r)->name, text, len))
            continue;
        g_string_free(valid, TRUE);
        *rate = *r;
        *arg = 0;
        if ((*r)->takes_arg != (colon != NULL)) {
            *why = g_strdup_printf("rate '%s' %s", (*r)->name, (*r)->takes_arg
                                   ? "needs a number (NAME:NUMBER)"
                                   : "takes no number");
            return FALSE;
        }
        if (colon) {
            char *end;
            *arg = g_ascii_strtod(colon + 1, &end);
            if (end == colon + 1 || *end || !isfinite(*arg) || *arg < 0) {
                *why = g_strdup_printf("'%s' is not a non-negative number",
                                       colon + 1);
                return FALSE;
            }
        }
        return TRUE;
    }
    *why = g_strdup_printf("unknown kernel rate '%s' (valid: %s)", text,
                           valid->str);
    g_string_free(valid, TRUE);
    return FALSE;
}

Tick kernel_ticks(const Machine *m, const char *name,
                  const uint64_t shape[KERNEL_SHAPE], uint64_t flops)
{
    const MachineKernel *k = machine_kernel(m, name);
    if (!k)
        return (Tick)flops * m->flop_time;
    return k->rate->ticks(m, k->arg, shape, flops);
}
