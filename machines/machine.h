/* machine.h -- the emulated machine: a topology (topology.h), its ports,
 * the price of a message in each class, local work, and the length of a
 * tick. Presets are INI files in machines/ (one [machine] group each).
 *
 * Keys of [machine] (a scenario may name a preset and override any key):
 *   preset, name, description
 *   topology = cube | mesh | complete | ccc (topology.c's table)
 *     cube:     dimensions = n
 *     mesh:     shape = S_{k-1}x...xS_0, wrap = no | yes
 *     complete: processors = P
 *     ccc:      dimensions = n
 *   ports = all | one | k          at most k channels out and k in busy
 *   startup, element-time          both message classes; then
 *   neighbour.startup, neighbour.element-time, router.startup,
 *   router.element-time            one class (topologies with that class)
 *   memory-path, neighbour.memory-path, router.memory-path = no | yes
 *                                  does each element of a message of the
 *                                  class also occupy its source's and its
 *                                  destination's memory path (one a node,
 *                                  shared by what it sends and receives)?
 *   startup-holds-port = yes | no  does a startup occupy a sending port?
 *   flop-time                      ticks per flop of node_compute
 *   tick-seconds                   length of a tick: reports show seconds
 *   kernel.NAME = RATE             ticks of node_kernel(NAME) (kernel.h);
 *                                  a rate in seconds needs tick-seconds
 *   model = engine | loggp         how time is counted: the engine's
 *                                  channels and ports, or the LogGP model
 *                                  as LogGOPSim implements it (complete
 *                                  graph only; a tick is a nanosecond)
 *   faults = ITEM, ...            dead links and nodes, links down for a
 *                                  while (faults.h, docs/faults.md)
 *   fault-policy = detour | refuse a message whose own path crosses a
 *                                  fault goes around it, or fails the run
 *   loggp.L, loggp.o, loggp.g, loggp.G, loggp.O, loggp.S
 *                                  LogGP's latency, overhead, gap, gap
 *                                  per byte, overhead per byte (ns) and
 *                                  rendezvous threshold (bytes)
 * Time inside the engine is always an exact integer number of ticks.
 */
#ifndef CUBE_MACHINE_H
#define CUBE_MACHINE_H

#include <glib.h>
#include "faults.h"
#include "topology.h"
#include "types.h"

/* ports = all: a node may use all its links at once, in and out. */
#define MACHINE_PORTS_ALL 0

/* Startup, element-time and flop-time beyond this are surely typos, and
 * keeping them small keeps every tick count far from overflow. */
#define MACHINE_MAX_TIME 1000000000LL

/* At most this many named kernels per machine (a machine models a handful
 * of library routines, not a library). */
#define MACHINE_MAX_KERNELS 16

typedef struct {
    Tick startup;                 /* Ts: ticks paid once per message */
    Tick element_time;            /* ticks per element per channel */
    gboolean memory_path;         /* its elements also occupy the source's
                                   * and the destination's memory path */
} MachinePrice;

/* model = ...: who counts time. The engine (channels, ports, startups
 * and element-times), or the LogGP model as LogGOPSim implements it,
 * which only a schedule replay can be timed by (docs/machine-model.md,
 * "The LogGP model"). */
typedef enum {
    MACHINE_MODEL_ENGINE = 0,
    MACHINE_MODEL_LOGGP = 1
} MachineModel;

/* LogGOPSim's defaults, its -L -o -g -G -O -S. */
#define MACHINE_LOGGP_DEFAULT_L 2500
#define MACHINE_LOGGP_DEFAULT_O_LOWER 1500
#define MACHINE_LOGGP_DEFAULT_G_LOWER 1000
#define MACHINE_LOGGP_DEFAULT_G_UPPER 6
#define MACHINE_LOGGP_DEFAULT_O_UPPER 0
#define MACHINE_LOGGP_DEFAULT_S 65535
/* LogGOPSim reads L, o, g, G, O and S as C ints. */
#define MACHINE_LOGGP_MAX INT32_MAX
/* A LogGP tick: LogGOPSim counts nanoseconds. */
#define MACHINE_LOGGP_TICK_SECONDS 1e-9

/* The LogGP model's parameters: times in nanoseconds (ticks), S in
 * bytes. */
typedef struct {
    uint64_t L;                   /* latency: holds nothing */
    uint64_t o;                   /* overhead: holds the CPU, both ends */
    uint64_t g;                   /* gap between injections, receptions */
    uint64_t G;                   /* gap per byte after the first */
    uint64_t O;                   /* overhead per byte after the first */
    uint64_t S;                   /* eager up to S bytes, rendezvous above */
} MachineLoggp;

typedef struct KernelRate KernelRate;

typedef struct {
    char *name;                   /* as node programs name it: "matvec" */
    const KernelRate *rate;       /* kernel.h */
    double arg;                   /* the rate's number: per-flop's T, table's
                                     SCALE */
    void *data;                   /* what the rate parsed beyond a number (a
                                     table), owned: rate->copy_data/free_data */
} MachineKernel;

typedef struct {
    char *name;                   /* preset name, or "custom" */
    Topology topology;
    int ports;                    /* MACHINE_PORTS_ALL or k >= 1 */
    gboolean startup_holds_port;
    MachinePrice price[CLASS_COUNT];
    Tick flop_time;               /* ticks per flop */
    double tick_seconds;          /* 0: ticks only */
    int nkernels;
    MachineKernel kernel[MACHINE_MAX_KERNELS];
    MachineModel model;
    MachineLoggp loggp;           /* model = loggp only */
    Faults *faults;               /* NULL: none; shared (faults_ref) */
    FaultPolicy fault_policy;
} Machine;

/* One [machine] key as written: its value, and where it was written
 * ("file:line", "--set machine.KEY=VALUE"). */
typedef struct {
    const char *key, *value, *where;
} MachineKey;

/* The [machine] keys of one source, a scenario or a preset file: each key
 * once, in the order given, and where the group stands (for a key that is
 * missing). The strings are the caller's. Reading the files is run/'s
 * (run/prepare.h, prepare_machine): machines/ reads no INI text. */
typedef struct {
    const MachineKey *keys;
    size_t n;
    const char *group_where;
} MachineKeys;

/* Build a machine from a scenario's [machine] keys s over its preset's
 * (preset NULL: none is named, or the one named could not be read, and
 * then preset_problem says why, as the first problem). Every problem
 * found is reported, with its location, before anything large is
 * allocated: FALSE with *problems (g_free), one line each. */
gboolean machine_from_keys(const MachineKeys *s, const MachineKeys *preset,
                           const char *preset_problem, Machine *m,
                           char **problems);

/* What a topology's parse (TopologyOps.parse) reads its [machine] keys
 * through: the scenario's value over its preset's, with where it was
 * written; problems go with the rest of the machine's. */
const char *machine_input_value(const MachineInput *in, const char *key,
                                const char **where);
/* key's value as an integer in min..max: FALSE, reported, if it is not
 * one; FALSE, not reported, if the key is absent. */
gboolean machine_input_int(const MachineInput *in, const char *key,
                           long long min, long long max, long long *out);
/* The index of key's value in choices (NULL-terminated): FALSE, reported,
 * if it is none of them; TRUE with *out unchanged if the key is absent. */
gboolean machine_input_choice(const MachineInput *in, const char *key,
                              const char *const *choices, int *out);
void machine_input_problem(const MachineInput *in, const char *format, ...)
    G_GNUC_PRINTF(2, 3);
/* Where the [machine] group is, for a key that is missing. */
const char *machine_input_group_where(const MachineInput *in);

void machine_clear(Machine *m);
/* A deep copy (names and kernels' data are duplicated). */
void machine_copy(Machine *dst, const Machine *src);

static inline uint32_t machine_nodes(const Machine *m)
{
    return m->topology.nodes;
}

static inline const char *machine_topology_name(const Machine *m)
{
    return m->topology.ops->name;
}

/* Links a node has at most: all of them, but on the complete graph the
 * link to itself (the topology's node_links). */
static inline int machine_node_links(const Machine *m)
{
    return m->topology.ops->node_links(&m->topology);
}

/* Channels of one direction a node may use at once; its links when
 * unlimited. */
static inline int machine_port_limit(const Machine *m)
{
    return m->ports == MACHINE_PORTS_ALL || m->ports > machine_node_links(m)
               ? machine_node_links(m) : m->ports;
}

/* Is the port limit below what the node's links allow (so ports must be
 * modelled as a resource of their own)? */
gboolean machine_ports_limited(const Machine *m);

/* Does any class's price use the nodes' memory paths? */
gboolean machine_memory_paths(const Machine *m);

static inline const MachinePrice *machine_price(const Machine *m,
                                                MessageClass c)
{
    return &m->price[c];
}

/* Do both classes cost the same? */
gboolean machine_uniform_price(const Machine *m);

/* The kernel a node program names, or NULL (then flops x flop-time). */
const MachineKernel *machine_kernel(const Machine *m, const char *name);

/* "all" or the number, in a caller buffer of 16 bytes. */
const char *machine_ports_text(const Machine *m, char buf[16]);
/* "detour" or "refuse", as fault-policy = names it. */
const char *machine_fault_policy_name(FaultPolicy policy);

/* Where presets are looked up: $CUBEMU_MACHINES, then machines/ beside the
 * executable or its parent folder, then the source tree's machines/. */
void machine_set_program_path(const char *argv0);
/* The path of a data file kept with the presets (a kernel's table): name
 * is a bare file name, looked up in the same folders as presets, first
 * found wins. NULL with *why (g_free) if it is not a bare name or is in no
 * folder. */
char *machine_data_file(const char *name, char **why);
/* Sorted preset names; free with g_strfreev. */
char **machine_preset_names(void);
/* The path of preset `name`'s file (g_free), looked up as above; NULL
 * with *why (g_free) if it is not a preset name or is in no folder. */
char *machine_preset_path(const char *name, char **why);

#endif
