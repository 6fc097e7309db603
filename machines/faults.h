/* faults.h -- a broken machine: dead links, dead nodes, links down for a
 * while, and the routes that go around them (docs/faults.md).
 *
 * A fault set is written as `[machine] faults = ITEM, ITEM, ...`:
 *   U-V              both channels of the link between nodes U and V
 *   U>V              the one channel from U to V
 *   ...@T1..T2       (a link item) down from tick T1 up to T2, not
 *                    including T2; `@T1..` down from T1 on
 *   node:U           node U: it runs no program and forwards nothing
 *   random:K:SEED    K links, both channels, drawn reproducibly
 *   random-nodes:K:SEED   K nodes, likewise
 *   none             no faults (what a sweep's first value may say)
 * Nodes are numbers: decimal, 0x hexadecimal or 0b binary.
 *
 * A fault set is checked against its machine once, when it is built:
 * every link named exists, and at every tick the live nodes can all reach
 * each other (else the pair that cannot is named). It is immutable after
 * that and shared by reference (machine_copy), so every backend and every
 * observer sees the same faults.
 *
 * Time. Whether a channel is up is asked at a tick: a route is chosen
 * when its message is posted, from the faults in force at that tick, and
 * the engine reserves the whole route then (sim.h). So a message posted
 * before a link goes down finishes over it, as a circuit once set up
 * would; every message posted while it is down goes around it.
 *
 * Routes. On a topology with DIMENSIONS (the cube) a route follows Lee &
 * Hayes's scheme (T. C. Lee and J. P. Hayes, "A fault-tolerant
 * communication scheme for hypercube computers", IEEE Transactions on
 * Computers 41(10), 1992): nodes near faults are labelled unsafe, and a
 * message goes through safe nodes along the dimensions in which it still
 * differs, taking a spare dimension (and correcting it last) only where
 * none is usable. Its guarantee: a path at most two links longer than the
 * shortest surviving one, provided not every live node is unsafe. Where
 * the rule finds no such path (the condition fails, or a one-way link
 * fault the paper's node-fault model does not cover) the route is the
 * shortest surviving path instead, and the route says so (FaultRoute).
 * Other topologies take their default route where it is clear, else the
 * shortest surviving path. Every route is deterministic: the lowest link
 * first among equals.
 */
#ifndef CUBE_FAULTS_H
#define CUBE_FAULTS_H

#include <glib.h>
#include <stdint.h>
#include "topology.h"
#include "types.h"

/* A link down for good. */
#define FAULTS_FOREVER INT64_MAX

/* At most this many faults (links, one-way channels and nodes together,
 * random ones included): far more than the literature's fault sets, and
 * small enough that every lookup is a binary search. */
#define FAULTS_MAX 65536

/* At most this many links down for a while: the fault set's epochs (the
 * ticks at which it changes) are checked and labelled one by one. */
#define FAULTS_MAX_TIMED 64

typedef struct Faults Faults;

/* The items of a fault set as users write them, and what each means
 * (for the parser's messages, `cubemu list` and the manual): NULL-ended. */
typedef struct {
    const char *form, *meaning;
} FaultsSyntax;
extern const FaultsSyntax faults_syntax[];

/* What a message does when its explicit path (node_send, node_exchange)
 * crosses a dead channel or node: goes around it by the machine's
 * fault-tolerant route (priced in its own class, as the links it takes),
 * or fails the run naming the link. */
typedef enum { FAULTS_DETOUR = 0, FAULTS_REFUSE = 1 } FaultPolicy;

/* Build the fault set `spec` (written at `where`, "file:line") for
 * topology t: TRUE with *out NULL for an empty spec or "none"; TRUE with
 * *out set; or FALSE with *why (g_free), which names the item, the link
 * or the pair of nodes that cannot reach each other. */
gboolean faults_parse(const char *spec, const char *where, const Topology *t,
                      Faults **out, char **why);
Faults *faults_ref(Faults *f);
void faults_unref(Faults *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Faults, faults_unref)

/* The spec as written, and a canonical list of what it named ("0-1,
 * 2>3@10..20, node:5", random items expanded), for reports and traces. */
const char *faults_spec(const Faults *f);
char *faults_text(const Faults *f);

/* Counts, for reports: links (both channels) and one-way channels dead at
 * some tick, how many of those only for a while, and dead nodes. */
typedef struct {
    uint32_t links, channels, timed, nodes;
} FaultCounts;
FaultCounts faults_counts(const Faults *f);

/* One entry of the list: a channel (node, link) down over [from, until),
 * or a dead node (link -1, the whole run). Entries are sorted by node,
 * then link, then from. */
typedef struct {
    uint32_t node;
    int link;
    Tick from, until;
} FaultEntry;
/* All of them in that order, appended to a GArray of FaultEntry. */
void faults_entries(const Faults *f, GArray *out);

gboolean faults_has_dead_nodes(const Faults *f);
gboolean faults_node_dead(const Faults *f, uint32_t node);
/* Live nodes, and the i-th of them in address order (i < live). */
uint32_t faults_live_nodes(const Faults *f);
uint32_t faults_live_node(const Faults *f, uint32_t i);
/* Is the channel leaving `node` on `link` down at tick t? (Its far end
 * being dead is asked apart: faults_node_dead.) */
gboolean faults_channel_down(const Faults *f, uint32_t node, int link,
                             Tick t);

/* For a check inline where it is made for every message: a bit a node,
 * set where a channel leaving it is down at some tick; or NULL on a
 * machine with dead nodes, where every hop needs the whole check
 * (faults_blocked_hop). A one-hop path from a node whose bit is clear is
 * clear at every tick. */
const uint64_t *faults_hop_bits(const Faults *f);
/* Node x's bit in such a bitmap. */
static inline gboolean faults_bit(const uint64_t *bits, uint32_t x)
{
    return (bits[x >> 6] >> (x & 63)) & 1;
}

/* The first hop of a path from `from` that a fault blocks at tick t:
 * its index, with *at the node it leaves, or -1 if the path is clear. A
 * hop is blocked if its channel is down or the node it reaches is dead. */
int faults_blocked_hop(const Faults *f, uint32_t from, const int *path,
                       int hops, Tick t, uint32_t *at);

/* How a route was found. */
typedef enum {
    FAULT_ROUTE_DEFAULT,          /* the topology's default route, clear */
    FAULT_ROUTE_SCHEME,           /* the fault-tolerant scheme's (cube) */
    FAULT_ROUTE_SHORTEST          /* the shortest surviving path: where the
                                   * scheme found none within its bound, or
                                   * on a topology without a scheme */
} FaultRouteKind;

/* A route from `from` to `to` (both live) at tick t into *links, grown
 * (g_renew) to *cap entries as needed: the number of links, 0 when
 * from == to. *kind says how it was found. */
int faults_route(const Faults *f, uint32_t from, uint32_t to, Tick t,
                 int **links, size_t *cap, FaultRouteKind *kind);

/* The shortest surviving distance from `from` to `to` at tick t (a
 * breadth-first search: for tests and bounds, not the engine's path). */
uint32_t faults_distance(const Faults *f, uint32_t from, uint32_t to,
                         Tick t);

/* Lee & Hayes's labels (topologies with DIMENSIONS): is the live node
 * unsafe at tick t; and does the scheme's condition hold then (some live
 * node is safe)? */
gboolean faults_unsafe(const Faults *f, uint32_t node, Tick t);
gboolean faults_scheme_holds(const Faults *f, Tick t);
/* Does this fault set's topology route by the scheme (else shortest
 * surviving paths)? */
gboolean faults_have_scheme(const Faults *f);

#endif
