/* node.h -- the node-program API: everything a node program may see and do.
 *
 * A node program is a step function, called by the backend once per step
 * with the handle of one node. Inside the call the program reads its own
 * address, its own memory and its step number, and posts operations:
 * sends, receives, exchanges, local work and phase marks. When every
 * operation posted in a step has completed, the backend calls the program
 * again for the next step, until it returns NODE_DONE.
 *
 * The API names links and destinations, never a topology's internals: a
 * node knows its address, the node count and which of its links lead where
 * (node_neighbour); what a link means (a cube dimension, +x on a mesh, the
 * channel to node j) is the algorithm's business, decided in its prepare
 * from the machine description (machines/topology.h).
 *
 * Memory is an array of elements of node_element_words 64-bit words each
 * (a complex double is two words); offsets and counts are in elements.
 *
 * Rules that make the same source run emulated and on MPI (one rank a node):
 *  - A program never touches another node's memory; it names other nodes
 *    only as destinations and as the source of a receive.
 *  - A send copies its elements at the moment it is posted; the program may
 *    overwrite them at once. An exchange's region is the exception: it is
 *    the exchange's until the exchange completes and replaces it, so the
 *    program leaves it alone for the rest of the step call (the emulator
 *    then reads it only when it must; the sanitizer build reports a write
 *    as a program error).
 *  - A receive writes its elements when it completes, never during the step
 *    call that posted it, so a step may post a send and a receive over the
 *    same offsets (that is exactly node_exchange).
 *  - Messages between one (source, tag) pair and a destination are matched
 *    to receives in posting order (MPI's non-overtaking rule).
 * On MPI a step is: Isend/Irecv for each operation, then Waitall
 * (mpi/node_mpi.c implements this API so, with its own matching so that
 * messages forwarded along a path match like direct ones).
 *
 * Misuse (a link that does not exist, a run outside memory) does not abort:
 * the backend records the first such error, stops the run and reports it
 * with the node and step.
 */
#ifndef CUBE_NODE_H
#define CUBE_NODE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "types.h"             /* Word, Tick */
typedef struct Node Node;

typedef enum { NODE_CONTINUE = 0, NODE_DONE = 1, NODE_ANY = 2 } NodeStatus;

/* No node: node_neighbour across a link the node does not have. */
#define NODE_NONE UINT32_MAX

/* Longest explicit path node_send takes. Four times the diameter of a
 * 2^26-node ring is still below this; a longer path is a program error,
 * not a route. */
#define NODE_MAX_HOPS (1 << 28)

/* What a node's step numbered `step` (node_step) will send first, told
 * before the step runs (Algorithm.peek), so that the engine can ask for
 * the route's lines a few events early: a routed message's hops are
 * cache misses, one a hop, that the step would otherwise wait for in
 * turn. Given the node's address and the step's number, a peek sets
 * *dest and returns how many links of the route it wrote to path (1 to
 * NODE_PEEK_HOPS), or NODE_PEEK_ROUTED with *dest alone for a send along
 * the default route (node_send_to), or NODE_PEEK_NONE where the step
 * sends nothing first or the program cannot say. It must change nothing:
 * it is asked about steps that have not run, and may be asked again. A
 * wrong answer costs time, never a result; the sanitizer build holds
 * every answer to the step's first send (sim.c, peek_check_send). */
#define NODE_PEEK_HOPS 32
#define NODE_PEEK_ROUTED 0
#define NODE_PEEK_NONE (-1)
typedef int (*NodePeekFn)(const void *config, uint32_t node, unsigned step,
                          uint32_t *dest, int *path);

/* Operation-level programs. A program whose layout says so (SimLayout's
 * `each`, MemoryLayout's `each`) may be called not only once a step but
 * as soon as one of its operations completes: each call returns
 * NODE_CONTINUE to be called again once everything it has outstanding
 * has completed (a step's end: the same call, at the same point in the
 * order of events, as a program of steps gets), NODE_ANY to be called at
 * the next tick at which one or more of its operations complete, or
 * NODE_DONE. Operations carry over from call to call, and node_completed
 * says which ones completed since the last. Each send, receive and local
 * work (node_busy, node_compute, node_kernel, node_idle) it posts gets a
 * handle, 0, 1, 2, ... in posting order (node_last_op). A send completes
 * when its last element has left the node, a receive when its last
 * element has arrived (or when it was posted, if its message had arrived
 * before), local work when it ends; local work holds the node across
 * calls, so a call comes no earlier than the end of the node's local
 * work, and what it posts starts then. The program returns NODE_DONE
 * once it has posted its last operation, and the node finishes when all
 * of them have completed; NODE_ANY with nothing outstanding is a program
 * error (nothing would call it again), and so is node_exchange, whose
 * region a step keeps (below), and NODE_ANY in a program of steps.
 * Messages, arbitration and prices are the same as in a program of
 * steps. The workload replay (algorithms/schedule/) is such a program: a
 * schedule's operations depend on one another, not on steps. */
typedef uint32_t NodeOp;

/* The handle of the operation the node posted last. */
NodeOp node_last_op(const Node *node);

/* The node's operations that completed since its previous call (by the
 * tick of this call), each reported once, in ascending handle order:
 * writes at most `max` of them to ops and returns how many it wrote; a
 * program calls it until it returns fewer than max. 0 in a program of
 * steps. */
size_t node_completed(Node *node, NodeOp *ops, size_t max);

/* What the node may know about itself and the machine. */
uint32_t node_address(const Node *node);
uint32_t node_count(const Node *node);
const char *node_topology(const Node *node);        /* "cube", "mesh", "complete" */
int node_links(const Node *node);                   /* link indices 0..links-1 */
uint32_t node_neighbour(const Node *node, int link); /* or NODE_NONE */
/* Whether node x (< node_count) is alive: FALSE for a node the machine's
 * faults name dead (machines/faults.h), which runs no program, forwards
 * nothing and is sent nothing; TRUE on a machine without dead nodes. */
int node_alive(const Node *node, uint32_t x);
unsigned node_step(const Node *node);               /* 0 on the first call */
/* The node's memory, valid for the current step call: between calls the
 * emulator may give the node another block of the same contents (it
 * carries out a swap of two whole memories so), so a program fetches it
 * in each call rather than keeping it in its local state. */
Word *node_memory(Node *node);
size_t node_memory_elements(const Node *node);
size_t node_element_words(const Node *node);
void *node_local(Node *node);                       /* private state, zeroed at start */

/* Send memory[offset, offset+count) along an explicit path of links, hop i
 * crossing link path[i] of the node it has reached. One link: a neighbour
 * message; more: a router message (machine.h prices them). */
void node_send(Node *node, const int *path, int hops, size_t offset,
               size_t count, int tag);

/* Send memory[offset, offset+count) to node dest along the topology's
 * default route: a router message (on the complete graph, a neighbour
 * message over the direct channel). To the node itself: a local copy. */
void node_send_to(Node *node, uint32_t dest, size_t offset, size_t count,
                  int tag);

/* Receive count elements sent by node `source` with `tag` into
 * memory[offset, offset+count). The sizes must agree. */
void node_recv(Node *node, uint32_t source, int tag, size_t offset,
               size_t count);

/* Sendrecv_replace with the neighbour across `link`: send
 * memory[offset, offset+count) to it and receive its block of the same size
 * (it sends hers back across its own link to this node) into the same
 * offsets. The program does not write those elements again in this step
 * call (see the rules above). */
void node_exchange(Node *node, int link, size_t offset, size_t count, int tag);

/* Local work. node_compute: flops floating-point operations at the
 * machine's flop-time each; node_busy: an explicit number of ticks;
 * node_kernel: a named library kernel of the given shape (up to three
 * extents, unused ones 0) timed by the machine's rate for that name, or
 * flops x flop-time if it has none (machines/kernel.h). Each advances the
 * node's clock: operations posted afterwards start later. */
void node_compute(Node *node, uint64_t flops);
/* Wait: advance the node's clock by `ticks` without local work, so that
 * operations posted afterwards start later (a program that times its
 * messages to the cycle). Counted as communication time, not compute. On
 * MPI, where time is real, it does nothing. */
void node_idle(Node *node, Tick ticks);
void node_busy(Node *node, Tick ticks);
void node_kernel(Node *node, const char *kernel, const uint64_t shape[3],
                 uint64_t flops);

/* Enter phase `phase` of the program (an index into the algorithm's list
 * of phase names, Algorithm.phases). A node starts in phase 0 and moves
 * forward only (a phase index below the current one is a program error);
 * the backend accounts the node's time from the call until its next phase
 * or its end to the phase: elapsed time, and how much of it was local work
 * (node_busy, node_compute, node_kernel). Reports give each phase's
 * largest and mean per-node time: ticks on the emulator, seconds on MPI.
 * Call it at the start of a step, before posting that step's operations. */
void node_phase(Node *node, unsigned phase);

/* A phase or step marker ("round 5"), printf-style, recorded in traces.
 * Costs no simulated time, and is not even formatted unless a trace is
 * being recorded. */
void node_mark(Node *node, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* node_mark with its arguments as a va_list (the SDK's cubemu_mark). */
void node_vmark(Node *node, const char *format, va_list ap);

#endif
