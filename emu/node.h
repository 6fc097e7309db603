/* node.h -- the node-program API: everything a node program may see and do.
 *
 * A node program is a step function, called by the backend once per step
 * with the handle of one node. Inside the call the program reads its own
 * address, its own memory and its step number, and posts operations:
 * exchanges, sends, receives, local computation and phase marks. When every
 * operation posted in a step has completed, the backend calls the program
 * again for the next step, until it returns NODE_DONE.
 *
 * Rules that make the same source run emulated and on MPI (one rank a node):
 *  - A program never touches another node's memory; it names other nodes
 *    only as the source of a receive.
 *  - A send copies its elements at the moment it is posted; the program may
 *    overwrite them at once.
 *  - A receive writes its elements when it completes, never during the step
 *    call that posted it, so a step may post a send and a receive over the
 *    same offsets (that is exactly node_exchange).
 *  - Messages between one (source, tag) pair and a destination are matched
 *    to receives in posting order (MPI's non-overtaking rule).
 * On MPI a step is: Isend/Irecv for each operation, then Waitall.
 *
 * Misuse (a dimension out of range, a run outside memory, a path too long)
 * does not abort: the backend records the first such error, stops the run
 * and reports it with the node and step.
 */
#ifndef CUBE_H
#define CUBE_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t Word;     /* one element: a real 64-bit payload */
typedef int64_t Tick;      /* time in cycles */
typedef struct Node Node;

typedef enum { NODE_CONTINUE = 0, NODE_DONE = 1 } NodeStatus;

/* Longest path a message may take. A path longer than twice the largest
 * cube's diameter would only be a detour; 64 keeps the per-message scratch
 * on the stack. */
#define NODE_MAX_HOPS 64

/* What the node may know about itself and the machine. */
uint32_t node_address(const Node *node);
int node_dimensions(const Node *node);
unsigned node_step(const Node *node);          /* 0 on the first call */
Word *node_memory(Node *node);
size_t node_memory_words(const Node *node);
void *node_local(Node *node);                  /* private state, zeroed at start */

/* Send memory[offset, offset+count) along an explicit path of dimensions,
 * hop i crossing dimension path[i]. The destination is the source address
 * with the path's dimensions flipped in turn. */
void node_send(Node *node, const int *path, int hops,
               size_t offset, size_t count, int tag);

/* Receive count elements sent by node `source` with `tag` into
 * memory[offset, offset+count). The sizes must agree. */
void node_recv(Node *node, uint32_t source, int tag,
               size_t offset, size_t count);

/* Sendrecv_replace with the neighbour across `dimension`: send
 * memory[offset, offset+count) to it and receive its block of the same size
 * into the same offsets. */
void node_exchange(Node *node, int dimension, size_t offset, size_t count,
                   int tag);

/* Local work: flops floating-point operations, flop-time cycles each.
 * Advances the node's clock; operations posted afterwards start later. */
void node_compute(Node *node, uint64_t flops);

/* A phase or step marker ("round 5"), printf-style, recorded in traces.
 * Costs no simulated time, and is not even formatted unless a trace is
 * being recorded. */
void node_mark(Node *node, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
