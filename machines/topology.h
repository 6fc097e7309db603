/* topology.h -- how the nodes of a machine are wired: a small interface
 * with one implementation per file (cube.c, mesh.c, complete.c) and one
 * line per topology in topology.c's table.
 *
 * Links. Every topology numbers its links 0..links-1 with node-independent
 * meanings, so that "link l" names the same kind of wire at every node:
 *   cube      link d = dimension d, to node ^ 2^d              (links = n)
 *   mesh      link 2i = +axis i, link 2i+1 = -axis i           (links = 2k)
 *   complete  link j = the direct channel to node j            (links = P)
 * A node may lack some links (a mesh border without wrap, the complete
 * graph's link to the node itself): topology_neighbour gives
 * TOPOLOGY_NONE there. Every link present is a pair of directed channels
 * in the engine, one each way; the channel leaving node u on link l is the
 * unit of contention ("one element per element-time").
 *
 * A route is a list of links, crossed in turn. The default route (what
 * node_send_to takes) is minimal and deterministic:
 *   cube      dimensions in ascending order (e-cube routing);
 *   mesh      axis by axis, axis 0 first; on a torus the shorter way round,
 *             the positive direction on a tie;
 *   complete  the direct link.
 *
 * Message classes for pricing (machine.h): a message over one link sent
 * with node_send or node_exchange is a `neighbour` message, one sent with
 * node_send_to or over a path of several links a `router` message; a
 * topology with a single class (the complete graph: every destination is a
 * neighbour) prices every message as `neighbour`.
 */
#ifndef CUBE_TOPOLOGY_H
#define CUBE_TOPOLOGY_H

#include <glib.h>
#include <stdint.h>

/* A link that does not exist at a node. */
#define TOPOLOGY_NONE UINT32_MAX

/* A mesh has at most this many axes: a k-d mesh of side 2 is a k-cube, and
 * node addresses are 32-bit. */
#define TOPOLOGY_MAX_AXES 32

/* Node addresses are uint32_t and the engine indexes dense channel arrays
 * by node * links + link; 2^26 nodes keep both far from overflow, and a
 * machine that large needs more memory than a run is usually given. */
#define TOPOLOGY_MAX_NODES (1u << 26)

/* Addresses are 32-bit and the engine's dense channel index is
 * node * n + d: 26 dimensions keep 2^26 * 26 < 2^32. */
#define TOPOLOGY_CUBE_MAX_DIMENSIONS 26

/* The longest name topology_link_name writes, terminator included. */
#define TOPOLOGY_LINK_NAME_MAX 24

typedef enum { CLASS_NEIGHBOUR = 0, CLASS_ROUTER = 1, CLASS_COUNT } MessageClass;

typedef enum { TOPOLOGY_CUBE, TOPOLOGY_MESH, TOPOLOGY_COMPLETE } TopologyKind;

typedef struct Topology Topology;

/* One topology's behaviour. Each function is pure: same arguments, same
 * answer, so every node (and every MPI rank) computes the same routes. */
typedef struct {
    const char *name;             /* "cube", "mesh", "complete" */
    TopologyKind kind;
    const char *summary;
    unsigned classes;             /* bit c set: class c priced on its own */
    /* Neighbour of `node` across `link`, or TOPOLOGY_NONE. */
    uint32_t (*neighbour)(const Topology *t, uint32_t node, int link);
    /* "dimension 3", "+x", "-z", "to 5". */
    void (*link_name)(const Topology *t, int link, char *buf, size_t size);
    /* +1 if crossing `link` from `node` goes "up" (the address bit or the
     * coordinate grows, or to a higher address), -1 if down. */
    int (*direction)(const Topology *t, uint32_t node, int link);
    /* Default route: write at most topology_max_route(t) links, return the
     * count (0 when from == to). */
    int (*route)(const Topology *t, uint32_t from, uint32_t to, int *links);
} TopologyOps;

/* A configured topology. Plain data, filled by topology_*_init. */
struct Topology {
    const TopologyOps *ops;
    uint32_t nodes;
    int links;                    /* link indices 0..links-1 */
    int axes;                     /* cube: n; mesh: k; complete: 0 */
    uint32_t side[TOPOLOGY_MAX_AXES];   /* mesh: side of axis i (cube: 2) */
    uint32_t stride[TOPOLOGY_MAX_AXES]; /* mesh: address weight of axis i */
    gboolean wrap;                /* mesh: a torus */
    uint32_t diameter;
};

/* The registered topologies, NULL-terminated (topology.c). */
extern const TopologyOps *const topology_registry[];
const TopologyOps *topology_find(const char *name);
/* "cube, mesh, complete"; free with g_free. */
char *topology_names(void);

/* Constructors: FALSE with a message in *why (free with g_free) when the
 * parameters are out of range. */
gboolean topology_cube_init(Topology *t, int dimensions, char **why);
/* side[i] for axis i, i = 0..axes-1 (axis 0 least significant). */
gboolean topology_mesh_init(Topology *t, int axes, const uint32_t *side,
                            gboolean wrap, char **why);
gboolean topology_complete_init(Topology *t, uint32_t processors, char **why);
/* Parse a mesh shape "S_{k-1}x...xS_0" (highest axis first, as written in
 * the papers) into side[0..*axes-1], axis 0 last in the text. */
gboolean topology_parse_shape(const char *text, int *axes, uint32_t *side,
                              char **why);
/* "16x16x16" (highest axis first); free with g_free. */
char *topology_shape_text(const Topology *t);

static inline uint32_t topology_neighbour(const Topology *t, uint32_t node,
                                          int link)
{
    return t->ops->neighbour(t, node, link);
}

/* Where a path of links from `from` ends, or TOPOLOGY_NONE with *bad the
 * first hop whose link the node it reached (*at) does not have (a link
 * index out of range included). What every backend of node_send checks. */
uint32_t topology_walk(const Topology *t, uint32_t from, const int *path,
                       int hops, int *bad, uint32_t *at);

static inline int topology_route(const Topology *t, uint32_t from,
                                 uint32_t to, int *links)
{
    return t->ops->route(t, from, to, links);
}

/* Longest default route: room a caller provides for topology_route. */
static inline uint32_t topology_max_route(const Topology *t)
{
    return t->diameter;
}

void topology_link_name(const Topology *t, int link, char *buf, size_t size);
int topology_direction(const Topology *t, uint32_t node, int link);
/* Number of nodes that have link l (its directed channels, one per node). */
uint32_t topology_link_channels(const Topology *t, int link);
gboolean topology_has_class(const TopologyOps *ops, MessageClass c);
const char *message_class_name(MessageClass c);

/* Mesh coordinates: c[i] for axis i (cube: the address bits). */
void topology_coords(const Topology *t, uint32_t node, uint32_t *c);
uint32_t topology_address(const Topology *t, const uint32_t *c);
/* The mesh link along `axis` in `direction` (+1 or -1). */
static inline int topology_mesh_link(int axis, int direction)
{
    return 2 * axis + (direction > 0 ? 0 : 1);
}

#endif
