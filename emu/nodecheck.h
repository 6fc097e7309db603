/* nodecheck.h -- the node API's argument checks and the error a misuse
 * records, shared by its two backends (emu/sim.c and mpi/node_mpi.c) so
 * that a program error reads the same emulated and on MPI.
 *
 * Each nodecheck_* check returns NULL when the argument is valid, else the
 * message (g_free it); node_checked records it. The checks are inline and
 * allocate only on failure: sends and receives call them on the engine's
 * hot path. Recording (node_fail, nodecheck.c) is out of line: only a
 * misuse reaches it.
 */
#ifndef CUBE_NODECHECK_H
#define CUBE_NODECHECK_H

#include <glib.h>
#include "node.h"
#include "topology.h"

/* Where a backend records a program's misuse: the run's error (set by the
 * first misuse only), its domain and code, and the step that misused the
 * API. */
typedef struct NodeFault {
    GError **error;
    GQuark domain;
    int code;
    unsigned step;
} NodeFault;

/* Defined by each backend, as the node API is: where node's misuse goes. */
NodeFault node_fault(Node *node);

/* Records "node program error at node N, step S: WHAT" unless an error is
 * recorded already; returns FALSE, for `return node_fail(...)`. */
G_GNUC_PRINTF(2, 3)
gboolean node_fail(Node *node, const char *fmt, ...);

/* TRUE if a check passed (why is NULL), else why (taken) is recorded. */
static inline gboolean node_checked(Node *node, char *why)
{
    if (G_LIKELY(!why))
        return TRUE;
    node_fail(node, "%s", why);
    g_free(why);
    return FALSE;
}

/* A run of count elements at offset, in a memory of `elements`. */
static inline char *nodecheck_run(const char *op, size_t offset, size_t count,
                                  size_t elements)
{
    if (offset <= elements && count <= elements - offset)
        return NULL;
    return g_strdup_printf("%s of %zu elements at offset %zu is outside "
                           "memory of %zu elements", op, count, offset,
                           elements);
}

/* A node named by a send ("send to") or a receive ("receive from"). */
static inline char *nodecheck_node(const char *op, uint32_t v, uint32_t nodes)
{
    if (v < nodes)
        return NULL;
    return g_strdup_printf("%s node %u (valid: 0..%u)", op, v, nodes - 1);
}

/* A send path from node `from`: its length, and a link at every hop;
 * *dest is where it ends. */
static inline char *nodecheck_path(const Topology *t, uint32_t from,
                                   const int *path, int hops, uint32_t *dest)
{
    *dest = TOPOLOGY_NONE;
    if (hops < 0 || hops > NODE_MAX_HOPS)
        return g_strdup_printf("send path of %d hops (valid: 0..%d)", hops,
                               NODE_MAX_HOPS);
    int bad = 0;
    uint32_t at = from;
    *dest = topology_walk(t, from, path, hops, &bad, &at);
    if (*dest != TOPOLOGY_NONE)
        return NULL;
    return g_strdup_printf("send path hop %d: node %u has no link %d (valid: "
                           "0..%d where the node has them)", bad, at,
                           path[bad], t->links - 1);
}

/* node_exchange across `link` of node `from`, whose neighbour there is nb
 * (node_neighbour). */
static inline char *nodecheck_link(const Topology *t, uint32_t from, int link,
                                   uint32_t nb)
{
    if (nb != NODE_NONE)
        return NULL;
    return g_strdup_printf("exchange across link %d: node %u has no such "
                           "link (valid: 0..%d where the node has them)",
                           link, from, t->links - 1);
}

/* Entering phase `phase` from `current`, of `declared` phases. */
static inline char *nodecheck_phase(unsigned phase, unsigned current,
                                    unsigned declared)
{
    if (phase >= declared)
        return g_strdup_printf("phase %u does not exist (the program "
                               "declares %u)", phase, declared);
    if (phase < current)
        return g_strdup_printf("phase %u after phase %u (phases only move "
                               "forward)", phase, current);
    return NULL;
}

/* A message of count elements from source (tag) into a receive of want. */
static inline char *nodecheck_count(size_t count, uint32_t source, int tag,
                                    size_t want)
{
    if (count == want)
        return NULL;
    return g_strdup_printf("message of %zu elements from node %u (tag %d) "
                           "does not match the receive of %zu elements",
                           count, source, tag, want);
}

/* node_busy and node_idle ("busy", "idle"): a count of ticks. */
static inline char *nodecheck_ticks(const char *op, Tick ticks)
{
    if (ticks < 0)
        return g_strdup_printf("%s for %lld ticks (valid: 0 or more)", op,
                               (long long)ticks);
    return NULL;
}

/* node_checked for a run of count elements at offset in node's memory
 * ("send", "receive"). */
static inline gboolean node_check_run(Node *node, const char *op,
                                      size_t offset, size_t count)
{
    return node_checked(node, nodecheck_run(op, offset, count,
                                            node_memory_elements(node)));
}

#endif
