/* machine.h -- the emulated machine's parameters and the presets in
 * machines/ (one INI file each, [machine] group).
 *
 * A scenario's [machine] group may name a preset and override any of its
 * keys inline, or give everything inline. Keys: preset, topology,
 * dimensions, ports, startup, element-time, flop-time.
 */
#ifndef CUBE_MACHINE_H
#define CUBE_MACHINE_H

#include <glib.h>
#include "node.h"
#include "scenario.h"

/* ports = all: a node may use all n outgoing and n incoming channels in
 * one cycle (the CM-200). */
#define MACHINE_PORTS_ALL 0

/* Node addresses are uint32_t and channel indices address * n + d must fit
 * a uint32_t as well; 2^26 nodes x 26 dimensions < 2^32. Memory refuses
 * anything near this long before. */
#define CUBE_MAX_DIMENSIONS 26

/* Startup, element-time and flop-time beyond this are surely typos, and
 * keeping them small keeps every cycle count far from overflow. */
#define MACHINE_MAX_TIME 1000000000LL

typedef struct {
    char *name;             /* preset name, or "custom" */
    char *topology;         /* "cube" */
    int dimensions;         /* n: 2^n nodes */
    int ports;              /* MACHINE_PORTS_ALL or k >= 1 per direction */
    Tick startup;       /* Ts, cycles paid once per message */
    Tick element_time;  /* cycles to move one element over one channel */
    Tick flop_time;     /* cycles per floating-point operation */
} Machine;

/* Read the [machine] group of s (preset first, then inline keys). Every
 * problem found is reported, with its location. */
gboolean machine_from_scenario(const Scenario *s, Machine *m,
                               GError **error);
void machine_clear(Machine *m);

static inline uint32_t machine_nodes(const Machine *m)
{
    return (uint32_t)1 << m->dimensions;
}

/* Ports a node may use in one direction in one cycle. */
static inline int machine_port_limit(const Machine *m)
{
    return m->ports == MACHINE_PORTS_ALL || m->ports > m->dimensions
               ? m->dimensions : m->ports;
}

/* "all" or the number, in a static or caller buffer of 16 bytes. */
const char *machine_ports_text(const Machine *m, char buf[16]);

/* Where presets are looked up: $CUBEMU_MACHINES, then machines/ beside the
 * executable or its parent folder, then the source tree's machines/. */
void machine_set_program_path(const char *argv0);
/* Sorted preset names; free with g_strfreev. */
char **machine_preset_names(void);
/* Load one preset file into a scenario-like view for `cubemu list`. */
Scenario *machine_preset_load(const char *name, GError **error);

#endif
