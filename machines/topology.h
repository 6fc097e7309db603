/* topology.h -- how the nodes of a machine are wired: a small interface
 * with one implementation per file (cube.c, mesh.c, complete.c, ccc.c)
 * and one line per topology in topology.c's table.
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
 *
 * Everything else a topology knows is behind its TopologyOps too: its
 * [machine] keys and their parsing (machine.c), its description in the
 * run report (run/report.c), its code and shape in the trace header
 * (traces/file.c), and how the viewer draws it (traces/sdl/render.c).
 * Nothing outside machines/ asks which topology it is: an algorithm
 * asks for the structures it needs (TopologyTrait).
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

/* What an algorithm may rely on besides the default route: a topology
 * declares the structures it has, and an algorithm states which it needs
 * (Algorithm.needs), so an algorithm asks what the machine offers, never
 * which topology it is, and a new topology with a structure inherits the
 * algorithms built on it.
 *   DIMENSIONS  link d joins the addresses that differ in bit d, for every
 *               d < axes (a Boolean cube: the Gray-code, BMMC and exchange
 *               algorithms, and the processor array by Gray codes);
 *   AXES        a k-d mesh: axes, side[], stride[] and wrap give the
 *               coordinates, link 2i steps up axis i and 2i+1 down;
 *   DIRECT      link j at every node is the channel to node j;
 *   RINGS       the ring operations below are defined (the cyclic shift). */
typedef enum {
    TOPOLOGY_DIMENSIONS = 1u << 0,
    TOPOLOGY_AXES = 1u << 1,
    TOPOLOGY_DIRECT = 1u << 2,
    TOPOLOGY_RINGS = 1u << 3,
} TopologyTrait;

/* One family of rings that covers the machine, every node in exactly one
 * ring of `length` nodes (the cyclic shift's rings): filled by the ring
 * operation; the fields after `length` are the topology's own. */
typedef struct {
    uint32_t length;
    /* The most links a step between ring neighbours takes along the
     * default route: 1 when every step is one link. */
    uint32_t longest;
    int axis;                     /* mesh: the lines along this axis */
    int lo, hi;                   /* cube: Gray-code rings over lo..hi */
} TopologyRing;

typedef struct Topology Topology;

/* Declared where they are defined: machine.h (the [machine] keys a
 * topology is built from) and util/json_writer.h (the run report). */
typedef struct MachineInput MachineInput;
typedef struct JsonWriter JsonWriter;

/* How the graph view draws the channel leaving a node on a link: the
 * whole edge between its two nodes, an arc `bulge` x its chord high (0: a
 * straight line), or (stubs) a stub out of the source and one into the
 * destination, each along (dx, dy) in the drawing's units. */
typedef struct {
    gboolean stubs;
    double bulge;
    double dx, dy;
} TopologyStroke;

/* The viewer's side bars: a row per link (runs of links when there are
 * more than fit), labelled with the link's name; a row per link whose
 * channels go up and down, half of them each way, as two bars (the hover
 * then names a channel's direction); or a row per pair of links 2i, 2i+1,
 * as two bars. */
typedef enum {
    TOPOLOGY_BARS_LINKS,
    TOPOLOGY_BARS_UP_DOWN,
    TOPOLOGY_BARS_PAIRS
} TopologyBars;

/* How the viewer (traces/sdl/render.c) draws a topology. The graph view
 * places the nodes in a drawing whose unit is about one neighbour
 * distance and draws every channel the topology has; the matrix view, a
 * row per node and a column per link, draws any topology and needs only
 * link_axis, column_names, matrix_legend and the bars. */
typedef struct {
    /* NULL if the graph view can draw t, else why not (the status line's
     * notice): the graph stays legible for small machines only. */
    const char *(*graph_refusal)(const Topology *t);
    /* Where `node` stands in the drawing. */
    void (*place)(const Topology *t, uint32_t node, double *x, double *y);
    /* How the channel leaving `node` on `link` (a link it has) is drawn. */
    void (*stroke)(const Topology *t, uint32_t node, int link,
                   TopologyStroke *s);
    /* A stub's length in the drawing's units; 0 for a topology without
     * stubs. */
    double stub_length;
    /* The neighbour distance that sizes the nodes; 0: the shortest whole
     * stroke. */
    double unit;
    /* To fill the panel, one axis of the drawing may be scaled up to
     * this many times the other (a grid's rows and columns need not be
     * as far apart); 0 or 1: the drawing keeps its proportions. */
    double stretch;
    /* A node's label in the graph view and in the hovers while the graph
     * view is available; NULL: its address in decimal. */
    void (*node_label)(const Topology *t, uint32_t node, char *buf,
                       size_t size);
    /* Captions of the drawing, each written below the node `emit` is
     * given (a 3-d mesh's "z = 1" under each layer); NULL: none. */
    void (*captions)(const Topology *t,
                     void (*emit)(void *ctx, uint32_t node, const char *text),
                     void *ctx);
    /* The status line's legend of the graph view; NULL, or a NULL answer:
     * the common one. */
    const char *(*graph_legend)(const Topology *t);
    /* Links of one axis (a cube's dimension, a mesh's + and -, all of the
     * complete graph's) stand closer together in the matrix. */
    int (*link_axis)(const Topology *t, int link);
    /* Matrix columns are headed by the link's name ("+x"), else by its
     * number. */
    gboolean column_names;
    /* The status line's legend of the matrix view, a column per link. */
    const char *matrix_legend;
    TopologyBars bars;
    /* The label of the row of bars that starts at `link` (UP_DOWN, PAIRS:
     * "d3", "x"). */
    void (*bar_label)(const Topology *t, int link, char *buf, size_t size);
} TopologyView;

/* One topology's behaviour. Each function is pure: same arguments, same
 * answer, so every node (and every MPI rank) computes the same routes. */
typedef struct {
    const char *name;             /* "cube", "mesh", "complete", "ccc" */
    unsigned traits;              /* TopologyTrait bits */
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
    /* Directed channels of links link0..link1-1: one per node that has the
     * link. In time independent of the nodes (a machine may have 2^26). */
    uint64_t (*channels)(const Topology *t, int link0, int link1);
    /* The most links one node has (the complete graph's nodes lack the
     * link to themselves). */
    int (*node_links)(const Topology *t);
    /* A link per node (the complete graph's link j to node j): links are
     * as many as nodes, so a table per link (the CSV export's columns)
     * lists the links in use, not every link. */
    gboolean sparse_links;

    /* The [machine] keys that describe its shape, NULL-terminated, the
     * one that sizes it first: errors about the size name that key. */
    const char *const *keys;
    /* Build t from those keys (machine.c's machine_input_*): FALSE with a
     * problem reported through `in`, or with *why (g_free) for a value of
     * keys[0] that the constructor refused. */
    gboolean (*parse)(const MachineInput *in, Topology *t, char **why);

    /* Its members of the JSON report's "machine" object (docs/report.md):
     * "dimensions"; "shape", "wrap"; "processors". */
    void (*describe_json)(const Topology *t, JsonWriter *w);
    /* Appended to the text report's "NAME: topology": ", n = 3", " 16x16
     * (torus)", or nothing. */
    void (*describe_text)(const Topology *t, GString *line);
    /* It in a trace's title: "cube", "torus 16x16", "complete"; free with
     * g_free. */
    char *(*title)(const Topology *t);
    /* Its numbers an [expect] or a sweep may name as machine.NAME besides
     * the common ones (a cube's "dimensions"): number i, i = 0, 1, ...,
     * FALSE past the last. NULL: none. */
    gboolean (*number)(const Topology *t, int i, const char **name,
                       double *value);

    /* Its code in the trace header (traces/FORMAT.md): the file's own
     * number, never reused or renumbered. */
    unsigned trace_code;
    /* The header's wrap flag and, after the fixed header, its `axes`
     * sides describe it (a mesh); else both are absent (wrap 0). */
    gboolean trace_shape;
    /* Rebuild from the header's axes, nodes, wrap and sides (trace_shape:
     * axes of them, 1..TOPOLOGY_MAX_AXES): FALSE, with *why when its
     * constructor said why, if no machine of this topology has them. */
    gboolean (*trace_build)(Topology *t, uint32_t axes, uint32_t nodes,
                            gboolean wrap, const uint32_t *side, char **why);

    /* A balanced cut (two halves of nodes / 2 each): the directed
     * channels that cross it one way, for the cut with the fewest the
     * topology knows; 0 when it names none (an odd node count). Bounds
     * an all-to-all from below: half the data crosses it. */
    uint64_t (*bisection)(const Topology *t);

    /* Rings (TOPOLOGY_RINGS; NULL otherwise). `ring_key` is the parameter
     * that picks the family ("axis", "dimensions"; NULL: one family).
     * ring() reads that parameter's text (NULL: the default family) into
     * *r, or says why not in *why (g_free). */
    const char *ring_key;
    gboolean (*ring)(const Topology *t, const char *value, TopologyRing *r,
                     char **why);
    /* Where `node` stands in its ring, 0..length-1. */
    uint32_t (*ring_position)(const Topology *t, const TopologyRing *r,
                              uint32_t node);
    /* The node at `position` of the ring that holds `node`. */
    uint32_t (*ring_node)(const Topology *t, const TopologyRing *r,
                          uint32_t node, uint32_t position);
    /* The link from `node` to `next`, its ring neighbour, when that is one
     * link (the topology's choice when two links lead there), else -1. */
    int (*ring_link)(const Topology *t, const TopologyRing *r, uint32_t node,
                     uint32_t next);

    TopologyView view;
} TopologyOps;

/* A configured topology. Plain data, filled by topology_*_init. */
struct Topology {
    const TopologyOps *ops;
    uint32_t nodes;
    int links;                    /* link indices 0..links-1 */
    int axes;                     /* cube, ccc: n; mesh: k; complete: 0 */
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
/* Is t a Boolean cube: link d of node x leads to x ^ 2^d? */
gboolean topology_is_cube(const Topology *t);
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

/* describe_json, describe_text and number for a topology sized by its
 * `dimensions` n (t->axes): the cube's and the cube-connected cycles'. */
void topology_dimensions_json(const Topology *t, JsonWriter *w);
void topology_dimensions_text(const Topology *t, GString *line);
gboolean topology_dimensions_number(const Topology *t, int i,
                                    const char **name, double *value);

static inline gboolean topology_has(const Topology *t, unsigned traits)
{
    return (t->ops->traits & traits) == traits;
}

/* Whether an algorithm that needs any of `needs` (0: nothing beyond the
 * default route) runs on `ops`. */
static inline gboolean topology_offers(const TopologyOps *ops, unsigned needs)
{
    return needs == 0 || (ops->traits & needs) != 0;
}

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
/* The direction (+1 up, -1 down) of the channel leaving `node` on `link`;
 * inline, as topology_neighbour is: the engine asks it at every hop. */
static inline int topology_direction(const Topology *t, uint32_t node,
                                     int link)
{
    return t->ops->direction(t, node, link);
}
/* Number of nodes that have link l (its directed channels, one per node). */
uint32_t topology_link_channels(const Topology *t, int link);
/* The directed channels of links link0..link1-1 (ops->channels). */
uint64_t topology_links_channels(const Topology *t, int link0, int link1);
/* The topology whose trace code is `code`, or NULL. */
const TopologyOps *topology_find_trace_code(unsigned code);
gboolean topology_has_class(const TopologyOps *ops, MessageClass c);
const char *message_class_name(MessageClass c);

/* Mesh coordinates: c[i] for axis i (cube: the address bits); for a
 * topology with AXES or DIMENSIONS only. */
void topology_coords(const Topology *t, uint32_t node, uint32_t *c);
uint32_t topology_address(const Topology *t, const uint32_t *c);
/* The mesh link along `axis` in `direction` (+1 or -1). */
static inline int topology_mesh_link(int axis, int direction)
{
    return 2 * axis + (direction > 0 ? 0 : 1);
}

#endif
