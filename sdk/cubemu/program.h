/* cubemu/program.h -- write a node program that cubemu loads and runs.
 *
 * A node program is a shared object that exports one descriptor,
 *
 *     CUBEMU_PROGRAM(.name = "bitonic", .methods = ..., .step = ...);
 *
 * and calls the functions below. It links against no cubemu library (the C
 * library is its own business): cubemu and cubemu-mpi resolve its cubemu_*
 * calls when they load it (dlopen), so the same .so runs on the emulator
 * and on MPI, one rank a node. Build it with
 *
 *     cc -std=c11 -shared -fPIC $(pkg-config --cflags cubemu-program) \
 *        bitonic.c -o bitonic.so
 *
 * and name it in a scenario: [algorithm] program = ./bitonic.so.
 *
 * The contract, in short (the manual's "Writing a node program" says it
 * whole, with examples):
 *   prepare   runs once per run (on MPI once per rank) before any node:
 *             it reads the machine and the parameters, refuses what it
 *             cannot run (cubemu_fail), says how much memory a node needs
 *             (cubemu_layout) and returns the configuration every node
 *             shares, read-only from then on;
 *   init      fills one node's memory before the run (it starts zeroed:
 *             memory_elements elements, the result's [0, K) and any
 *             working space after it);
 *   step      the node program: called once per step for each node, it
 *             posts operations (sends, receives, exchanges, local work);
 *             when all of a step's operations have completed it is called
 *             for the next step, until it returns CUBEMU_DONE;
 *   expect    the reference: what one node must hold in memory[0, K) at
 *             the end, computed without running the node program; every
 *             run compares every node against it;
 *   report    the bounds the run is held to and the details it reports;
 *   release   frees the configuration.
 * init, expect and report see one node, or none, at a time and only the
 * configuration, so each MPI rank sets up and checks its own memory. On
 * MPI, prepare runs on every rank: what it computes for the reference
 * (a sum over all nodes) is computed P times.
 *
 * A node sees only its own address, memory, step number and private
 * state; it names other nodes only as destinations and sources. cubemu
 * does not protect itself from the program: a program that crashes
 * crashes the run, and one that loops forever is stopped only by
 * `cubemu run --tick-limit / --wall-limit` or `cubemu-mpi --wait-limit`.
 *
 * Self-contained C11: this header includes only standard headers and
 * names nothing of cubemu's sources. Every name is cubemu_ or CUBEMU_.
 */
#ifndef CUBEMU_PROGRAM_H
#define CUBEMU_PROGRAM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface. A program records the version it was
 * compiled against in its descriptor (CUBEMU_PROGRAM does), and cubemu
 * refuses a program of any other version: any change to a type, a
 * function or a meaning below gives a new number. Within a version the
 * interface grows only by new functions and by fields at the end of the
 * descriptor: its size (cubemu_program.size) tells cubemu which fields a
 * program has, so a program built before a field was added still loads
 * and reads as if it had left the field 0; a program built against a
 * newer header (a larger descriptor) is refused. */
#define CUBEMU_PROGRAM_ABI 1

/* The name of the descriptor's symbol, as cubemu looks it up. */
#define CUBEMU_PROGRAM_SYMBOL "cubemu_program_descriptor"

#if defined(__GNUC__)
#define CUBEMU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CUBEMU_EXPORT __attribute__((visibility("default")))
#else
#define CUBEMU_PRINTF(f, a)
#define CUBEMU_EXPORT
#endif

/* One 64-bit word of an element's payload; a time in ticks (the papers'
 * cycles). */
typedef uint64_t cubemu_word;
typedef int64_t cubemu_tick;

/* Opaque handles: one node during a step call; the machine; the resolved
 * [algorithm] parameters (during prepare); the run's report (during
 * report). */
typedef struct cubemu_node cubemu_node;
typedef struct cubemu_machine cubemu_machine;
typedef struct cubemu_params cubemu_params;
typedef struct cubemu_report cubemu_report;

/* What step returns: call again for the next step, or the node is done
 * (any value other than CUBEMU_CONTINUE is taken as CUBEMU_DONE). */
enum { CUBEMU_CONTINUE = 0, CUBEMU_DONE = 1 };

/* No node: a link the node does not have. */
#define CUBEMU_NONE UINT32_MAX

/* ---- the descriptor ---------------------------------------------------- */

/* A parameter's type. INT: an integer in [min, max] (with fallback "auto"
 * it also accepts the word auto, read as CUBEMU_AUTO); CHOICE: one of
 * `choices`, read as its index; TEXT: taken as written (with fallback ""
 * optional: cubemu_param_text gives NULL when absent). */
enum { CUBEMU_PARAM_INT = 0, CUBEMU_PARAM_CHOICE = 1, CUBEMU_PARAM_TEXT = 2 };
#define CUBEMU_AUTO (-1LL)

/* One key of [algorithm]. cubemu checks the scenario's value against it
 * before prepare runs, with the file and line of a bad value, and a
 * "did you mean" for a key the program does not declare. */
typedef struct {
    const char *key;              /* as written in [algorithm] */
    int type;                     /* CUBEMU_PARAM_* */
    const char *fallback;         /* default, as text; NULL: required */
    long long min, max;           /* CUBEMU_PARAM_INT */
    const char *const *choices;   /* CUBEMU_PARAM_CHOICE, NULL-terminated */
    const char *help;             /* one line, for errors and listings */
} cubemu_param;

/* One method ([algorithm] method = NAME); the first is the default. */
typedef struct {
    const char *name;
    const char *summary;
} cubemu_method;

/* The structures a program relies on besides the default route
 * (cubemu_program.needs): it runs on a machine that has any of them.
 *   DIMENSIONS  link d joins the addresses that differ in bit d (a cube);
 *   AXES        a k-d mesh or torus: link 2i steps up axis i, 2i+1 down;
 *   DIRECT      link j at every node is the channel to node j (complete);
 *   RINGS       cubemu_ring_* work (a family of rings covers the machine).
 * 0: every topology (the program uses only cubemu_send_to and the links
 * it finds with cubemu_neighbour). */
enum {
    CUBEMU_NEEDS_DIMENSIONS = 1u << 0,
    CUBEMU_NEEDS_AXES = 1u << 1,
    CUBEMU_NEEDS_DIRECT = 1u << 2,
    CUBEMU_NEEDS_RINGS = 1u << 3
};

/* What a program declares it can do besides the usual
 * (cubemu_program.flags):
 *   RUNS_WITH_DEAD_NODES  it runs on a machine whose faults name dead
 *                         nodes ([machine] faults = node:U, random-nodes:K:S):
 *                         it asks cubemu_node_alive (in a step) or
 *                         cubemu_machine_node_alive which nodes are alive
 *                         and never sends to or receives from a dead one.
 *                         A dead node runs no step; its memory stays as
 *                         init left it and is checked against expect like
 *                         any node's. cubemu refuses a program without the
 *                         flag on such a machine.
 *   RUNS_IN_THREADS       its step may run for several nodes at once, on
 *                         several threads (cubemu run --threads): it writes
 *                         nothing but its own node's memory and local
 *                         state (no static or global variable, nothing
 *                         reached through params or the machine). Without
 *                         the flag the program runs in one thread; the
 *                         results are the same either way. */
enum { CUBEMU_RUNS_WITH_DEAD_NODES = 1u << 0, CUBEMU_RUNS_IN_THREADS = 1u << 1 };

/* What one element is: one 64-bit integer, one IEEE double, or a complex
 * number of two doubles (real, imaginary). A channel moves one element
 * per element-time whatever its width. */
enum { CUBEMU_WORD = 0, CUBEMU_DOUBLE = 1, CUBEMU_COMPLEX = 2 };

/* How much memory a node needs, and how its result is checked; prepare
 * fills it (it starts zeroed).
 * memory_elements    elements of memory per node (K at least);
 * elements_per_node  K: memory[0, K) is the result, compared with expect;
 * local_size         bytes of private state per node (cubemu_local),
 *                    zeroed before the first step;
 * element            CUBEMU_WORD, CUBEMU_DOUBLE or CUBEMU_COMPLEX;
 * computed           0: the program moves its data (a permutation: the
 *                    multiset of [computed_elements, K) over all nodes is
 *                    the same after the run as after init, and cubemu
 *                    checks that; memory past K is working space, never
 *                    checked); 1: the results are computed (a sum) or
 *                    copied (a broadcast: an element may end on more
 *                    nodes, or fewer, than init put it on), and only
 *                    expect holds;
 * tolerance          computed complex results match when within tolerance
 *                    x the run's largest |reference|; 0: exactly;
 * computed_elements  a run that both computes and moves: the first
 *                    computed_elements of [0, K) are computed (compared
 *                    by value), the rest moved (conservation covers
 *                    them). */
typedef struct {
    size_t memory_elements;
    size_t elements_per_node;
    size_t local_size;
    int element;
    int computed;
    double tolerance;
    size_t computed_elements;
} cubemu_layout;

typedef struct cubemu_program {
    /* CUBEMU_PROGRAM_ABI and sizeof (cubemu_program), filled by
     * CUBEMU_PROGRAM: cubemu reads them before anything else. */
    uint32_t abi;
    uint32_t size;
    const char *name;             /* the report's "algorithm" */
    const char *summary;          /* one line */
    const char *source;           /* where it comes from: paper, section */
    unsigned needs;               /* CUBEMU_NEEDS_* bits, or 0 */
    const cubemu_method *methods; /* {NULL}-terminated, at least one */
    const cubemu_param *params;   /* {NULL}-terminated ("method" is
                                   * implicit); NULL: none */
    /* The phases cubemu_phase enters, NULL-terminated (at most 8), or
     * NULL: the program has none. */
    const char *const *phases;
    /* Required: prepare, init, step, expect. Optional: release (NULL:
     * nothing to free), report (NULL: no bounds or details). */
    void *(*prepare)(const cubemu_machine *machine, cubemu_params *params,
                     cubemu_layout *layout);
    void (*release)(void *config);
    void (*init)(const void *config, uint32_t address, cubemu_word *memory);
    int (*step)(cubemu_node *node, const void *config);
    void (*expect)(const void *config, uint32_t address,
                   cubemu_word *expected);
    void (*report)(const void *config, const cubemu_machine *machine,
                   cubemu_report *report);
    /* Added within version 1 (a descriptor of the earlier size has it
     * 0): CUBEMU_RUNS_WITH_DEAD_NODES, or 0. */
    unsigned flags;
} cubemu_program;

/* The descriptor's first two fields, as this header has them:
 * { CUBEMU_PROGRAM_VERSION, .name = ..., ... }. */
#define CUBEMU_PROGRAM_VERSION \
    .abi = CUBEMU_PROGRAM_ABI, .size = (uint32_t)sizeof(cubemu_program)

/* Define the descriptor cubemu loads, from its fields after the version:
 *     CUBEMU_PROGRAM(.name = "bitonic", .methods = methods, ...);
 * One per shared object. */
#define CUBEMU_PROGRAM(...)                                                 \
    extern CUBEMU_EXPORT const cubemu_program cubemu_program_descriptor;   \
    const cubemu_program cubemu_program_descriptor = {                     \
        CUBEMU_PROGRAM_VERSION, __VA_ARGS__ }

/* ---- during prepare: the parameters ------------------------------------ */

/* A declared parameter's value (asking for an undeclared key aborts the
 * run with a message naming it). */
long long cubemu_param_int(const cubemu_params *params, const char *key);
int cubemu_param_choice(const cubemu_params *params, const char *key);
const char *cubemu_param_text(const cubemu_params *params, const char *key);
/* 1 when the scenario gave the key, 0 when the default applies. */
int cubemu_param_given(const cubemu_params *params, const char *key);
/* The method's index in the descriptor's methods. */
int cubemu_method_index(const cubemu_params *params);
/* Refuse the run: "FILE:LINE: KEY: message" (where the key was given, or
 * its group's header); with key NULL, "FILE:LINE: message" at the
 * program key (a problem of no one parameter: the machine, memory). The
 * run exits with status 2. Returns NULL, for `return cubemu_fail(...)`
 * from prepare; prepare returning NULL without it is refused as "prepare
 * failed". Only the first call counts. */
void *cubemu_fail(cubemu_params *params, const char *key,
                  const char *format, ...) CUBEMU_PRINTF(3, 4);

/* ---- during prepare and report: the machine ---------------------------- */
/* The machine handle is valid from prepare until release, so a program
 * may keep it in its configuration and use it in step, init and expect. */

uint32_t cubemu_machine_nodes(const cubemu_machine *m);
/* "cube", "mesh", "complete", "ccc". */
const char *cubemu_machine_topology(const cubemu_machine *m);
/* Link indices are 0..links-1 (cube: dimension d; mesh: 2i up axis i,
 * 2i+1 down; complete: link j to node j). */
int cubemu_machine_links(const cubemu_machine *m);
/* Cube and ccc: the dimension n; mesh: the axes k; complete: 0. */
int cubemu_machine_axes(const cubemu_machine *m);
/* Mesh: the side of axis i (cube: 2); 0 for an axis it does not have. */
uint32_t cubemu_machine_side(const cubemu_machine *m, int axis);
/* 1 for a torus. */
int cubemu_machine_wrap(const cubemu_machine *m);
uint32_t cubemu_machine_diameter(const cubemu_machine *m);
/* 1 when node `node` is alive, 0 when the machine's faults name it dead
 * (or it is no node): what cubemu_node_alive says during a step, for
 * prepare, init and expect (a dead node's memory stays as init left it,
 * so expect gives it that). */
int cubemu_machine_node_alive(const cubemu_machine *m, uint32_t node);
/* Node `node`'s neighbour across `link`, or CUBEMU_NONE. */
uint32_t cubemu_machine_neighbour(const cubemu_machine *m, uint32_t node,
                                  int link);
/* The default route from `from` to `to` (what cubemu_send_to takes):
 * writes at most cubemu_machine_diameter(m) links, returns how many. */
int cubemu_machine_route(const cubemu_machine *m, uint32_t from, uint32_t to,
                         int *links);
/* Message prices (the machine model): class 0 is a neighbour message (one
 * link, cubemu_send or cubemu_exchange), class 1 a router message
 * (cubemu_send_to, or a path of several links). */
enum { CUBEMU_NEIGHBOUR = 0, CUBEMU_ROUTER = 1 };
cubemu_tick cubemu_machine_startup(const cubemu_machine *m, int message_class);
cubemu_tick cubemu_machine_element_time(const cubemu_machine *m,
                                        int message_class);
/* Ports a node drives at once: 0 for all of them, else k >= 1. */
int cubemu_machine_ports(const cubemu_machine *m);
cubemu_tick cubemu_machine_flop_time(const cubemu_machine *m);
/* Seconds per tick, or 0 when the machine has none. */
double cubemu_machine_tick_seconds(const cubemu_machine *m);

/* Rings (CUBEMU_NEEDS_RINGS): one family of rings covers the machine,
 * every node in exactly one ring of `length` nodes (a mesh's lines along
 * an axis, a cube's binary-reflected Gray code over some dimensions, the
 * complete graph in address order, the ccc's cycles). `longest` is the
 * most links a step between ring neighbours takes along the default
 * route (1: every step is one link). The rest is the topology's own. */
typedef struct {
    uint32_t length;
    uint32_t longest;
    int32_t own[6];
} cubemu_ring;
/* The parameter that picks a family ("axis", "dimensions"), or NULL when
 * the topology has one family. */
const char *cubemu_ring_key(const cubemu_machine *m);
/* The family that `value` (that parameter's text; NULL: the default)
 * names: 1, or 0 with why not in why[0, why_size). */
int cubemu_ring_get(const cubemu_machine *m, const char *value,
                    cubemu_ring *ring, char *why, size_t why_size);
/* Where `node` stands in its ring, 0..length-1. */
uint32_t cubemu_ring_position(const cubemu_machine *m, const cubemu_ring *r,
                              uint32_t node);
/* The node at `position` of the ring that holds `node`. */
uint32_t cubemu_ring_node(const cubemu_machine *m, const cubemu_ring *r,
                          uint32_t node, uint32_t position);
/* The link from `node` to its ring neighbour `next` when that is one
 * link, else -1. */
int cubemu_ring_link(const cubemu_machine *m, const cubemu_ring *r,
                     uint32_t node, uint32_t next);

/* ---- during step: the node --------------------------------------------- */

uint32_t cubemu_address(const cubemu_node *node);
uint32_t cubemu_nodes(const cubemu_node *node);
int cubemu_links(const cubemu_node *node);
uint32_t cubemu_neighbour(const cubemu_node *node, int link);
unsigned cubemu_step(const cubemu_node *node);     /* 0 on the first call */
/* 1 when node `address` (< cubemu_nodes) is alive, 0 when the machine's
 * faults name it dead (or it is no node): a dead node runs no program and
 * is sent nothing and received from never (a run that tries fails
 * naming it); routes and paths go around it as around a dead link. Every
 * node is alive on a machine without dead nodes, and under cubemu-mpi,
 * which refuses faults. */
int cubemu_node_alive(const cubemu_node *node, uint32_t address);
/* The node's memory: memory_elements elements of element_words words.
 * Valid for the current step call only (between calls the emulator may
 * move it), so fetch it in every call. */
cubemu_word *cubemu_memory(cubemu_node *node);
size_t cubemu_memory_elements(const cubemu_node *node);
size_t cubemu_element_words(const cubemu_node *node);
/* Private state: layout.local_size bytes, zeroed before the first step,
 * kept from call to call. */
void *cubemu_local(cubemu_node *node);

/* Send memory[offset, offset+count) along a path of links, hop i crossing
 * link path[i] of the node it has reached: one link, a neighbour message;
 * more, a router message. The elements are copied when posted. */
void cubemu_send(cubemu_node *node, const int *path, int hops, size_t offset,
                 size_t count, int tag);
/* Send memory[offset, offset+count) to node `dest` along the default
 * route (a router message; to the node itself, a local copy). */
void cubemu_send_to(cubemu_node *node, uint32_t dest, size_t offset,
                    size_t count, int tag);
/* Receive `count` elements sent by `source` with `tag` into
 * memory[offset, offset+count), written when the receive completes (never
 * during this step call). Messages from one source with one tag match
 * receives in posting order. */
void cubemu_recv(cubemu_node *node, uint32_t source, int tag, size_t offset,
                 size_t count);
/* Send memory[offset, offset+count) across `link` and receive the
 * neighbour's block of the same size into the same offsets (it posts the
 * same exchange back). Do not write those elements again in this call. */
void cubemu_exchange(cubemu_node *node, int link, size_t offset, size_t count,
                     int tag);
/* Local work: `flops` operations at the machine's flop time; `ticks` of
 * work; a named kernel of up to three extents (shape, unused 0) timed by
 * the machine's rate table for that name, else flops x flop time. Each
 * moves the node's clock on: what it posts afterwards starts later. */
void cubemu_compute(cubemu_node *node, uint64_t flops);
void cubemu_busy(cubemu_node *node, cubemu_tick ticks);
void cubemu_kernel(cubemu_node *node, const char *kernel,
                   const uint64_t shape[3], uint64_t flops);
/* Wait `ticks` without work (counted as communication; nothing on MPI). */
void cubemu_idle(cubemu_node *node, cubemu_tick ticks);
/* Enter phase `phase` (an index into the descriptor's phases), at the
 * start of a step before posting its operations. A node starts in phase
 * 0; entering the phase it is in does nothing, and one below it is a
 * program error that stops the run. */
void cubemu_phase(cubemu_node *node, unsigned phase);
/* A marker in traces ("round 5"); formatted only while a trace records. */
void cubemu_mark(cubemu_node *node, const char *format, ...)
    CUBEMU_PRINTF(2, 3);

/* ---- during report: bounds and details ---------------------------------- */

/* A bound on one output field: FIELD is a name as [expect] writes it
 * ("cycles", "messages", "element_transfers", "details.KEY"); a detail
 * must be added before a bound names it. The run's measured value is
 * read from the field and the bound reported as holding or not. */
enum { CUBEMU_UPPER = 0, CUBEMU_LOWER = 1, CUBEMU_EXACT = 2 };
void cubemu_bound(cubemu_report *r, const char *field, const char *name,
                  int kind, double value, const char *source);
/* A bound listed for the reader but not evaluated: another method's or
 * another case's ("n/a"). REASON says why it does not apply to this run,
 * as the report prints it ("the two-phase method's bound; this run's
 * method is naive"). */
void cubemu_bound_na_why(cubemu_report *r, const char *field,
                         const char *name, int kind, const char *reason,
                         const char *source);
/* cubemu_bound_na_why without a reason of the program's own: the report
 * says only that the program lists it for another case. */
void cubemu_bound_na(cubemu_report *r, const char *field, const char *name,
                     int kind, const char *source);
void cubemu_detail_int(cubemu_report *r, const char *key, long long value);
void cubemu_detail_double(cubemu_report *r, const char *key, double value);
void cubemu_detail_text(cubemu_report *r, const char *key, const char *value);

#ifdef __cplusplus
}
#endif

#endif
