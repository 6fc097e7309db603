/* check_topology.c -- the machines of issue #10: topologies (neighbours,
 * default routes, diameters, link names), and the engine's semantics on
 * every topology: pipelining over paths, contention, ports, startups that
 * hold the port, message classes priced apart, wide elements, local work,
 * and a cycle-by-cycle reference simulator on random message sets over
 * meshes, tori and complete graphs.
 */
#include "kernel.h"
#include "sim.h"
#include "topology.h"

#include <check.h>
#include "check_main.h"
#include <string.h>

/* ---- topologies ------------------------------------------------------- */

static Topology mesh(const char *shape, gboolean wrap)
{
    Topology t;
    int axes;
    uint32_t side[TOPOLOGY_MAX_AXES];
    char *why = NULL;
    ck_assert(topology_parse_shape(shape, &axes, side, &why));
    ck_assert(topology_mesh_init(&t, axes, side, wrap, &why));
    return t;
}

static Topology complete(uint32_t p)
{
    Topology t;
    char *why = NULL;
    ck_assert(topology_complete_init(&t, p, &why));
    return t;
}

START_TEST(mesh_addresses_neighbours_and_names)
{
    Topology t = mesh("3x5", FALSE);           /* axis 0 has side 5 */
    ck_assert_uint_eq(t.nodes, 15);
    ck_assert_int_eq(t.links, 4);
    ck_assert_uint_eq(t.side[0], 5);
    ck_assert_uint_eq(t.side[1], 3);
    ck_assert_uint_eq(t.diameter, 4 + 2);
    uint32_t c[2];
    topology_coords(&t, 13, c);                 /* 13 = 2 * 5 + 3 */
    ck_assert_uint_eq(c[0], 3);
    ck_assert_uint_eq(c[1], 2);
    ck_assert_uint_eq(topology_address(&t, c), 13);
    ck_assert_uint_eq(topology_neighbour(&t, 13, 0), 14);   /* +x */
    ck_assert_uint_eq(topology_neighbour(&t, 14, 0), TOPOLOGY_NONE);
    ck_assert_uint_eq(topology_neighbour(&t, 13, 3), 8);    /* -y */
    ck_assert_uint_eq(topology_neighbour(&t, 3, 3), TOPOLOGY_NONE);
    char name[TOPOLOGY_LINK_NAME_MAX];
    topology_link_name(&t, 3, name, sizeof name);
    ck_assert_str_eq(name, "-y");
    ck_assert_uint_eq(topology_link_channels(&t, 0), 12);   /* 3 lines x 4 */

    Topology w = mesh("3x5", TRUE);
    ck_assert_uint_eq(topology_neighbour(&w, 14, 0), 10);   /* wraps */
    ck_assert_uint_eq(topology_neighbour(&w, 3, 3), 13);
    ck_assert_uint_eq(w.diameter, 2 + 1);
    ck_assert_uint_eq(topology_link_channels(&w, 0), 15);

    Topology d6 = mesh("2x2x2x2x2x2", FALSE);
    topology_link_name(&d6, 9, name, sizeof name);
    ck_assert_str_eq(name, "-d4");
}
END_TEST

/* A line of two nodes is one edge, with or without wrap. */
START_TEST(mesh_line_of_two)
{
    CkTally line = CK_TALLY_INIT;
    for (int wrap = 0; wrap <= 1; wrap++) {
        Topology t = mesh("2", wrap);
        ck_tally_uint(&line, 1, t.diameter, "wrap %d: diameter", wrap);
        ck_tally_uint(&line, 1, topology_neighbour(&t, 0, 0),
                      "wrap %d: neighbour of 0 on link 0", wrap);
        ck_tally_uint(&line, TOPOLOGY_NONE, topology_neighbour(&t, 1, 0),
                      "wrap %d: neighbour of 1 on link 0", wrap);
        ck_tally_uint(&line, 0, topology_neighbour(&t, 1, 1),
                      "wrap %d: neighbour of 1 on link 1", wrap);
        ck_tally_uint(&line, TOPOLOGY_NONE, topology_neighbour(&t, 0, 1),
                      "wrap %d: neighbour of 0 on link 1", wrap);
        /* Defined even if the route writes no link (that is tallied). */
        int links[4] = { -1, -1, -1, -1 };
        ck_tally_int(&line, 1, topology_route(&t, 1, 0, links),
                     "wrap %d: hops from 1 to 0", wrap);
        ck_tally_int(&line, 1, links[0], "wrap %d: link from 1 to 0", wrap);
    }
    ck_tally_assert(&line, "a line of two");
}
END_TEST

/* Dimension by dimension, axis 0 first; on a torus the shorter way, the
 * positive direction on a tie. */
START_TEST(torus_routes_take_the_shorter_way)
{
    Topology t = mesh("6x8", TRUE);
    int links[32];
    /* (1, 0) -> (7, 0): up 6 or down 2: down */
    int h = topology_route(&t, 1, 7, links);
    ck_assert_int_eq(h, 2);
    ck_assert_int_eq(links[0], 1);
    ck_assert_int_eq(links[1], 1);
    /* (0, 0) -> (4, 0): a tie of 4 and 4: positive */
    h = topology_route(&t, 0, 4, links);
    ck_assert_int_eq(h, 4);
    static const int plus_x[4] = { 0, 0, 0, 0 };
    ck_assert_int_array_eq(plus_x, links, 4, "route (0, 0) -> (4, 0)");
    /* (2, 1) -> (3, 4): x first (+1), then y: up 3 or down 3: a tie, up */
    h = topology_route(&t, 1 * 8 + 2, 4 * 8 + 3, links);
    ck_assert_int_eq(h, 4);
    ck_assert_int_eq(links[0], 0);
    ck_assert_int_eq(links[1], 2);
    ck_assert_int_eq(links[3], 2);
    /* (0, 5) -> (0, 0): down 5 or up 1: up, through the wrap */
    h = topology_route(&t, 5 * 8, 0, links);
    ck_assert_int_eq(h, 1);
    ck_assert_int_eq(links[0], 2);
    /* every route is minimal and ends at its destination */
    CkTally routes = CK_TALLY_INIT;
    for (uint32_t a = 0; a < t.nodes; a++)
        for (uint32_t b = 0; b < t.nodes; b++) {
            h = topology_route(&t, a, b, links);
            /* As ck_assert_uint_le; the bound also keeps the walk below
             * inside links[], so a route over it is tallied and not
             * walked. */
            gboolean minimal = (uintmax_t)(uint32_t)h <= (uintmax_t)t.diameter;
            ck_tally_true(&routes, minimal, "route %u -> %u: %d hops, at most the "
                          "diameter %u", a, b, h, t.diameter);
            if (!minimal)
                continue;
            uint32_t u = a;
            for (int i = 0; i < h; i++)
                u = topology_neighbour(&t, u, links[i]);
            ck_tally_uint(&routes, b, u, "route %u -> %u: end", a, b);
        }
    ck_tally_assert(&routes, "routes of the 6x8 torus");
    Topology m = mesh("6x8", FALSE);
    h = topology_route(&m, 1, 7, links);
    ck_assert_int_eq(h, 6);                     /* no wrap: the long way */
    ck_assert_int_eq(links[0], 0);
}
END_TEST

START_TEST(complete_graph_links)
{
    Topology t = complete(5);
    ck_assert_int_eq(t.links, 5);
    ck_assert_uint_eq(t.diameter, 1);
    ck_assert_uint_eq(topology_neighbour(&t, 2, 4), 4);
    ck_assert_uint_eq(topology_neighbour(&t, 2, 2), TOPOLOGY_NONE);
    ck_assert(!topology_has_class(t.ops, CLASS_ROUTER));
    char name[TOPOLOGY_LINK_NAME_MAX];
    topology_link_name(&t, 3, name, sizeof name);
    ck_assert_str_eq(name, "to 3");
    int links[1];
    ck_assert_int_eq(topology_route(&t, 4, 1, links), 1);
    ck_assert_int_eq(links[0], 1);
    char *why = NULL;
    Topology bad;
    ck_assert(!topology_complete_init(&bad, 1, &why));
    ck_assert_str_eq(why, "1 is out of range (valid: 2..67108864)");
    g_free(why);
}
END_TEST

START_TEST(shapes_refused)
{
    int axes;
    uint32_t side[TOPOLOGY_MAX_AXES];
    const char *bad[] = { "4x1", "x4", "4xx4", "0", "abc", "4x-2", "" };
    const char *why_text[] = {
        "'4x1': side 1 of axis 0 is out of range (valid: 2..67108864)",
        "'x4' is not a shape: '' is not a side (valid: sides separated by x, e.g. 8x4)",
        "'4xx4' is not a shape: '' is not a side (valid: sides separated by x, e.g. 8x4)",
        "'0': side 0 of axis 0 is out of range (valid: 2..67108864)",
        "'abc' is not a shape: 'abc' is not a side (valid: sides separated by x, e.g. 8x4)",
        "'4x-2' is not a shape: '-2' is not a side (valid: sides separated by x, e.g. 8x4)",
        "'' is not a shape (valid: sides separated by x, highest axis first, at most 32 axes, e.g. 16x16x16)",
    };
    CkTally refused = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *why = NULL;
        ck_tally_true(&refused, !topology_parse_shape(bad[i], &axes, side, &why),
                      "'%s' refused", bad[i]);
        ck_tally_str(&refused, why_text[i], why, "'%s': reason", bad[i]);
        g_free(why);
    }
    ck_tally_assert(&refused, "bad shapes");
    uint32_t big[2] = { 65536, 65536 };
    Topology t;
    char *why = NULL;
    ck_assert(!topology_mesh_init(&t, 2, big, FALSE, &why));
    ck_assert_str_eq(why, "more than 67108864 nodes");
    g_free(why);
}
END_TEST

/* ---- what every topology promises ------------------------------------- */

/* Small instances of every topology, built as a trace's header describes
 * them (TopologyOps.trace_build, which every topology has), and the
 * values of its ring parameter to try (NULL: its one family). */
typedef struct {
    const char *name;
    uint32_t axes, nodes;
    gboolean wrap;
    uint32_t side[3];
    const char *rings[4];
} TInstance;

static const TInstance instances[] = {
    { "cube", 1, 2, FALSE, { 0 }, { "all" } },
    { "cube", 3, 8, FALSE, { 0 }, { "all", "1..2", "0..0" } },
    { "cube", 4, 16, FALSE, { 0 }, { "all", "2..3" } },
    { "mesh", 1, 5, FALSE, { 5 }, { "0" } },
    { "mesh", 2, 12, FALSE, { 4, 3 }, { "0", "1" } },
    { "mesh", 2, 12, TRUE, { 4, 3 }, { "0", "1" } },
    { "mesh", 3, 12, TRUE, { 2, 3, 2 }, { "0", "1", "2" } },
    { "mesh", 2, 16, TRUE, { 4, 4 }, { "0", "1" } },
    { "complete", 0, 2, FALSE, { 0 }, { NULL } },
    { "complete", 0, 7, FALSE, { 0 }, { NULL } },
    { "complete", 0, 8, FALSE, { 0 }, { NULL } },
    { "ccc", 3, 24, FALSE, { 0 }, { NULL } },
    { "ccc", 4, 64, FALSE, { 0 }, { NULL } },
    { "ccc", 5, 160, FALSE, { 0 }, { NULL } },
};

static gboolean instance_build(const TInstance *in, Topology *t)
{
    const TopologyOps *ops = topology_find(in->name);
    if (!ops)
        return FALSE;                   /* not registered in this build */
    char *why = NULL;
    ck_assert_msg(ops->trace_build(t, in->axes, in->nodes, in->wrap, in->side,
                                   &why), "%s: %s", in->name, why);
    ck_assert_uint_eq(t->nodes, in->nodes);
    return TRUE;
}

/* Breadth-first distances from `from` over the links topology_neighbour
 * names: the reference the default routes are held to. */
static void bfs(const Topology *t, uint32_t from, uint32_t *dist)
{
    uint32_t *queue = g_new(uint32_t, t->nodes), head = 0, tail = 0;
    for (uint32_t v = 0; v < t->nodes; v++)
        dist[v] = UINT32_MAX;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (int l = 0; l < t->links; l++) {
            uint32_t u = topology_neighbour(t, v, l);
            if (u != TOPOLOGY_NONE && dist[u] == UINT32_MAX) {
                dist[u] = dist[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    g_free(queue);
}

/* Default routes are shortest paths, reach their destination, and the
 * diameter is the longest of them, exactly. */
START_TEST(routes_are_shortest_on_every_topology)
{
    int built = 0;
    for (size_t k = 0; k < G_N_ELEMENTS(instances); k++) {
        Topology t;
        if (!instance_build(&instances[k], &t))
            continue;
        built++;
        uint32_t *dist = g_new(uint32_t, t.nodes), longest = 0;
        int *links = g_new(int, topology_max_route(&t) + 1);
        for (uint32_t a = 0; a < t.nodes; a++) {
            bfs(&t, a, dist);
            for (uint32_t b = 0; b < t.nodes; b++) {
                ck_assert_uint_ne(dist[b], UINT32_MAX);
                int hops = topology_route(&t, a, b, links);
                ck_assert_msg((uint32_t)hops == dist[b], "%s %u: route %u -> "
                              "%u has %d links, the shortest path %u",
                              t.ops->name, t.nodes, a, b, hops, dist[b]);
                int bad;
                uint32_t at;
                ck_assert_uint_eq(topology_walk(&t, a, links, hops, &bad, &at),
                                  b);
                longest = MAX(longest, dist[b]);
            }
        }
        ck_assert_msg(longest == t.diameter, "%s %u: diameter %u, longest "
                      "shortest path %u", t.ops->name, t.nodes, t.diameter,
                      longest);
        g_free(dist);
        g_free(links);
    }
    ck_assert_int_ge(built, 10);
}
END_TEST

/* A topology's traits are what they promise, for every node and link. */
START_TEST(traits_hold_on_every_topology)
{
    for (size_t k = 0; k < G_N_ELEMENTS(instances); k++) {
        Topology t;
        if (!instance_build(&instances[k], &t))
            continue;
        const TopologyOps *ops = t.ops;
        ck_assert_int_eq(topology_has(&t, TOPOLOGY_RINGS),
                         ops->ring && ops->ring_position && ops->ring_node
                         && ops->ring_link);
        for (uint32_t v = 0; v < t.nodes; v++) {
            uint32_t c[TOPOLOGY_MAX_AXES];
            if (topology_has(&t, TOPOLOGY_AXES))
                topology_coords(&t, v, c);
            for (int l = 0; l < t.links; l++) {
                uint32_t u = topology_neighbour(&t, v, l);
                if (topology_has(&t, TOPOLOGY_DIMENSIONS))
                    ck_assert_uint_eq(u, v ^ (1u << l));
                if (topology_has(&t, TOPOLOGY_DIRECT))
                    ck_assert_uint_eq(u, (uint32_t)l == v ? TOPOLOGY_NONE
                                                          : (uint32_t)l);
                if (topology_has(&t, TOPOLOGY_AXES) && u != TOPOLOGY_NONE) {
                    uint32_t d[TOPOLOGY_MAX_AXES], s = t.side[l / 2];
                    topology_coords(&t, u, d);
                    uint32_t want = l % 2 ? (c[l / 2] + s - 1) % s
                                          : (c[l / 2] + 1) % s;
                    ck_assert_uint_eq(d[l / 2], want);
                }
            }
        }
    }
}
END_TEST

/* Rings cover the machine, every node once; position and node are
 * inverses; a step is at most `longest` links along the default route,
 * exactly that for some step, and ring_link names the one link of a
 * one-link step. */
START_TEST(rings_of_every_topology)
{
    int families = 0;
    for (size_t k = 0; k < G_N_ELEMENTS(instances); k++) {
        Topology t;
        if (!instance_build(&instances[k], &t) || !topology_has(&t, TOPOLOGY_RINGS))
            continue;
        const TopologyOps *ops = t.ops;
        for (int f = 0; f == 0 || (f < 4 && instances[k].rings[f]); f++) {
            TopologyRing r;
            char *why = NULL;
            ck_assert_msg(ops->ring(&t, instances[k].rings[f], &r, &why),
                          "%s: %s", ops->name, why);
            families++;
            uint32_t seen = 0, steepest = 0;
            int *links = g_new(int, topology_max_route(&t) + 1);
            for (uint32_t v = 0; v < t.nodes; v++) {
                uint32_t p = ops->ring_position(&t, &r, v);
                ck_assert_uint_lt(p, r.length);
                ck_assert_uint_eq(ops->ring_node(&t, &r, v, p), v);
                seen += p == 0;
                for (uint32_t q = 0; q < r.length; q++) {
                    uint32_t u = ops->ring_node(&t, &r, v, q);
                    ck_assert_uint_eq(ops->ring_position(&t, &r, u), q);
                    ck_assert_uint_eq(ops->ring_node(&t, &r, u, p), v);
                }
                if (r.length == 1)
                    continue;
                uint32_t next = ops->ring_node(&t, &r, v, (p + 1) % r.length);
                int hops = topology_route(&t, v, next, links);
                ck_assert_uint_le((uint32_t)hops, r.longest);
                steepest = MAX(steepest, (uint32_t)hops);
                int link = ops->ring_link(&t, &r, v, next);
                ck_assert_int_eq(link >= 0, hops == 1);
                if (link >= 0)
                    ck_assert_uint_eq(topology_neighbour(&t, v, link), next);
            }
            ck_assert_uint_eq(seen * r.length, t.nodes);
            if (r.length > 1)
                ck_assert_uint_eq(steepest, r.longest);
            g_free(links);
        }
        char *why = NULL;
        TopologyRing r;
        if (ops->ring_key) {
            ck_assert(!ops->ring(&t, "99", &r, &why));
            ck_assert_ptr_nonnull(why);
            g_free(why);
        }
    }
    ck_assert_int_ge(families, 19);
}
END_TEST

/* The bisection a topology names is a balanced cut with exactly that many
 * channels crossing each way (the one in address order, else found by
 * trying every balanced cut of up to 16 nodes). */
static gboolean cut_matches(const Topology *t, const gboolean *side,
                            uint64_t want)
{
    uint64_t ab = 0, ba = 0;
    for (uint32_t v = 0; v < t->nodes; v++)
        for (int l = 0; l < t->links; l++) {
            uint32_t u = topology_neighbour(t, v, l);
            if (u != TOPOLOGY_NONE && side[v] != side[u])
                *(side[v] ? &ab : &ba) += 1;
        }
    return ab == want && ba == want;
}

START_TEST(bisection_is_a_balanced_cut)
{
    int checked = 0;
    for (size_t k = 0; k < G_N_ELEMENTS(instances); k++) {
        Topology t;
        if (!instance_build(&instances[k], &t))
            continue;
        uint64_t b = t.ops->bisection(&t);
        if (t.nodes % 2) {
            ck_assert_uint_eq(b, 0);
            continue;
        }
        ck_assert_uint_gt(b, 0);
        gboolean *side = g_new0(gboolean, t.nodes), found = FALSE;
        for (uint32_t v = 0; v < t.nodes; v++)
            side[v] = v < t.nodes / 2;
        found = cut_matches(&t, side, b);
        for (uint32_t m = 0; !found && t.nodes <= 16 && m < 1u << t.nodes; m++) {
            if ((uint32_t)__builtin_popcount(m) != t.nodes / 2)
                continue;
            for (uint32_t v = 0; v < t.nodes; v++)
                side[v] = (m >> v) & 1;
            found = cut_matches(&t, side, b);
        }
        ck_assert_msg(found, "%s %u: no balanced cut has %llu channels each "
                      "way", t.ops->name, t.nodes, (unsigned long long)b);
        g_free(side);
        checked++;
    }
    ck_assert_int_ge(checked, 8);
}
END_TEST

/* ---- the engine on every topology ------------------------------------- */

#define MAX_MSGS 12
#define MAX_HOPS 8
#define MAX_ELEMS 12
#define MEMORY 256

typedef struct {
    uint32_t source;
    gboolean to_dest;            /* node_send_to(dest) instead of a path */
    uint32_t dest;
    int hops;
    int path[MAX_HOPS];
    uint64_t count;
    Tick post;                   /* via node_busy */
} TMsg;

typedef struct {
    Topology topo;
    int nmsg;
    TMsg msg[MAX_MSGS];
} TScript;

static uint32_t tmsg_dest(const TScript *sc, const TMsg *m)
{
    if (m->to_dest)
        return m->dest;
    uint32_t u = m->source;
    for (int h = 0; h < m->hops; h++)
        u = topology_neighbour(&sc->topo, u, m->path[h]);
    return u;
}

static NodeStatus tscript_step(Node *node, const void *config)
{
    const TScript *sc = config;
    uint32_t me = node_address(node);
    Tick clock = 0;
    for (int i = 0; i < sc->nmsg; i++) {
        const TMsg *m = &sc->msg[i];
        if (m->source == me) {
            if (m->post > clock) {
                node_busy(node, m->post - clock);
                clock = m->post;
            }
            if (m->to_dest)
                node_send_to(node, m->dest, 0, m->count, i);
            else
                node_send(node, m->path, m->hops, 0, m->count, i);
        }
        if (tmsg_dest(sc, m) == me)
            node_recv(node, m->source, i, 16 + 16 * (size_t)i, m->count);
    }
    return NODE_DONE;
}

typedef struct {
    Tick arrival[MAX_MSGS];
    uint64_t id[MAX_MSGS];
    Tick cross[MAX_MSGS][MAX_HOPS][MAX_ELEMS];
    int hop[MAX_MSGS];
    uint32_t at[MAX_MSGS];
    MessageClass cls[MAX_MSGS];
    Tick startup_at[MAX_MSGS];
} TObserved;

static void tobserve_busy(void *data, const SimMessage *m, uint32_t node,
                          int link, uint64_t first, uint64_t count, Tick start)
{
    TObserved *o = data;
    int i = m->tag;
    (void)link;
    o->id[i] = m->id;
    o->cls[i] = m->cls;
    if (o->hop[i] == 0 || node != o->at[i]) {
        o->hop[i]++;
        o->at[i] = node;
    }
    int h = o->hop[i] - 1;
    for (uint64_t e = 0; e < count; e++) {
        Tick t = start + (Tick)e * m->element_time;
        if (h < MAX_HOPS && first + e < MAX_ELEMS)
            o->cross[i][h][first + e] = t;
        if (t + m->element_time > o->arrival[i])
            o->arrival[i] = t + m->element_time;
    }
}

static void tobserve_startup(void *data, const SimMessage *m, int link,
                             Tick start, Tick duration)
{
    TObserved *o = data;
    (void)link;
    (void)duration;
    o->startup_at[m->tag] = start;
}

static Machine tmachine(const Topology *t, int ports, Tick ts, Tick tau,
                        gboolean holds)
{
    Machine m = { .name = (char *)"test", .topology = *t, .ports = ports,
                  .startup_holds_port = holds, .flop_time = 1 };
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        m.price[c] = (MachinePrice){ ts, tau, FALSE };
    return m;
}

static Sim *trun(const Machine *m, const TScript *sc, TObserved *o,
                 size_t element_words)
{
    memset(o, 0, sizeof *o);
    static const SimObserver obs = { .channel_busy = tobserve_busy,
                                     .startup = tobserve_startup };
    SimLayout layout = { MEMORY, element_words, 0, 0, FALSE };
    Sim *sim = sim_new(m, &layout);
    sim_set_observer(sim, &obs, o);
    for (uint32_t x = 0; x < machine_nodes(m); x++)
        for (size_t j = 0; j < MEMORY * element_words; j++)
            sim_node_memory(sim, x)[j] = (uint64_t)x * 100000 + j;
    GError *e = NULL;
    if (!sim_run(sim, tscript_step, sc, &e))
        ck_abort_msg("run failed: %s", e->message);
    return sim;
}

/* K + h - 1 over h hops, on a mesh path and a torus route. */
START_TEST(pipelining_on_meshes)
{
    TScript sc = { .topo = mesh("8x8", FALSE), .nmsg = 1 };
    sc.msg[0] = (TMsg){ .source = 0, .hops = 5, .path = { 0, 0, 2, 2, 0 },
                        .count = 9 };
    Machine m = tmachine(&sc.topo, MACHINE_PORTS_ALL, 0, 1, TRUE);
    TObserved o;
    Sim *sim = trun(&m, &sc, &o, 1);
    ck_assert_int_eq(o.arrival[0], 9 + 5 - 1);
    CkTally cross = CK_TALLY_INIT;
    for (int h = 0; h < 5; h++)
        for (int e = 0; e < 9; e++)
            ck_tally_int(&cross, e + h, o.cross[0][h][e], "hop %d element %d", h, e);
    ck_tally_assert(&cross, "crossings over the 8x8 mesh path");
    ck_assert_int_eq(o.cls[0], CLASS_ROUTER);
    ck_assert_uint_eq(sim_node_memory(sim, 19)[16 + 8], 8);  /* (3, 2) */
    sim_free(sim);

    /* send_to on a torus: (0,0) -> (7,0) is one hop down through the wrap */
    sc.topo = mesh("8x8", TRUE);
    sc.msg[0] = (TMsg){ .source = 0, .to_dest = TRUE, .dest = 7, .count = 6 };
    m = tmachine(&sc.topo, MACHINE_PORTS_ALL, 4, 3, TRUE);
    sim = trun(&m, &sc, &o, 1);
    ck_assert_int_eq(o.arrival[0], 4 + 6 * 3);
    ck_assert_uint_eq(sim_channel_elements(sim, 0, 1), 6);
    ck_assert_uint_eq(sim_stats(sim)->link_down[1], 6);
    ck_assert_int_eq(o.cls[0], CLASS_ROUTER);    /* a send-to is routed */
    sim_free(sim);
}
END_TEST

/* Two messages through one mesh channel serialise, at element granularity:
 * the older one keeps its slots. */
START_TEST(contention_on_a_mesh)
{
    TScript sc = { .topo = mesh("4", FALSE), .nmsg = 2 };
    sc.msg[0] = (TMsg){ .source = 0, .hops = 2, .path = { 0, 0 }, .count = 8 };
    sc.msg[1] = (TMsg){ .source = 1, .hops = 1, .path = { 0 }, .count = 8 };
    Machine m = tmachine(&sc.topo, MACHINE_PORTS_ALL, 0, 1, TRUE);
    TObserved o;
    Sim *sim = trun(&m, &sc, &o, 1);
    ck_assert_int_eq(o.arrival[0], 9);
    ck_assert_int_eq(o.cross[1][0][0], 0);      /* slips in before the first */
    ck_assert_int_eq(o.cross[1][0][1], 9);
    ck_assert_int_eq(o.arrival[1], 16);
    ck_assert_uint_eq(sim_stats(sim)->max_channel_elements, 16);
    sim_free(sim);
}
END_TEST

/* The SMP step of issue #10: on the complete graph with one port, every
 * node sending one message of m elements and receiving one costs exactly
 * Ts + m Tw, for P = 2, 3, 5, 8. */
START_TEST(complete_graph_one_port_step)
{
    const uint32_t ps[] = { 2, 3, 5, 8 };
    CkTally steps = CK_TALLY_INIT;
    for (size_t k = 0; k < G_N_ELEMENTS(ps); k++) {
        uint32_t p = ps[k];
        Topology topo = complete(p);
        for (uint32_t shift = 1; shift < p; shift++) {
            TScript sc = { .topo = topo, .nmsg = (int)p };
            for (uint32_t i = 0; i < p; i++)
                sc.msg[i] = (TMsg){ .source = i, .to_dest = TRUE,
                                    .dest = (i + shift) % p, .count = 10 };
            Machine m = tmachine(&sc.topo, 1, 300, 2, TRUE);
            TObserved o;
            Sim *sim = trun(&m, &sc, &o, 1);
            ck_tally_int(&steps, 300 + 10 * 2, sim_stats(sim)->cycles,
                         "P = %u, shift %u: cycles", p, shift);
            ck_tally_uint(&steps, p, sim_stats(sim)->class_messages[CLASS_NEIGHBOUR],
                          "P = %u, shift %u: neighbour messages", p, shift);
            ck_tally_uint(&steps, 0, sim_stats(sim)->class_messages[CLASS_ROUTER],
                          "P = %u, shift %u: router messages", p, shift);
            sim_free(sim);
        }
    }
    ck_tally_assert(&steps, "one-port steps on complete graphs");
}
END_TEST

/* LogP's overhead: three messages of m elements posted together on one
 * port cost 3 (Ts + m Tw) when the startup holds the port, Ts + 3 m Tw
 * when it only delays. With all ports a startup holds only its own first
 * channel: three messages on three links overlap. */
START_TEST(startup_holds_the_port)
{
    TScript sc = { .topo = complete(4), .nmsg = 3 };
    for (int i = 0; i < 3; i++)
        sc.msg[i] = (TMsg){ .source = 0, .to_dest = TRUE, .dest = (uint32_t)i + 1,
                            .count = 7 };
    TObserved o;
    Machine held = tmachine(&sc.topo, 1, 20, 1, TRUE);
    Sim *sim = trun(&held, &sc, &o, 1);
    ck_assert_int_eq(sim_stats(sim)->cycles, 3 * (20 + 7));
    ck_assert_int_eq(o.startup_at[0], 0);
    ck_assert_int_eq(o.startup_at[1], 27);
    ck_assert_int_eq(o.startup_at[2], 54);
    ck_assert_int_eq(o.cross[2][0][0], 74);
    sim_free(sim);
    Machine delay = tmachine(&sc.topo, 1, 20, 1, FALSE);
    sim = trun(&delay, &sc, &o, 1);
    ck_assert_int_eq(sim_stats(sim)->cycles, 20 + 3 * 7);
    sim_free(sim);
    Machine all = tmachine(&sc.topo, MACHINE_PORTS_ALL, 20, 1, TRUE);
    sim = trun(&all, &sc, &o, 1);
    ck_assert_int_eq(sim_stats(sim)->cycles, 20 + 7);
    sim_free(sim);
    /* a torus node with one port sends over two different links: the
     * second startup waits for the first message */
    TScript tor = { .topo = mesh("4x4", TRUE), .nmsg = 2 };
    tor.msg[0] = (TMsg){ .source = 5, .hops = 1, .path = { 0 }, .count = 6 };
    tor.msg[1] = (TMsg){ .source = 5, .hops = 1, .path = { 3 }, .count = 6 };
    Machine t1 = tmachine(&tor.topo, 1, 9, 1, TRUE);
    sim = trun(&t1, &tor, &o, 1);
    ck_assert_int_eq(o.arrival[0], 9 + 6);
    ck_assert_int_eq(o.arrival[1], 2 * (9 + 6));
    sim_free(sim);
    Machine t2 = tmachine(&tor.topo, 2, 9, 1, TRUE);
    sim = trun(&t2, &tor, &o, 1);
    ck_assert_int_eq(o.arrival[1], 9 + 6);          /* two ports: overlap */
    sim_free(sim);
    /* two messages over one cube channel with all ports: the second's
     * startup waits for the first message to leave the channel */
    TScript cube = { .nmsg = 2 };
    char *why = NULL;
    ck_assert(topology_cube_init(&cube.topo, 3, &why));
    cube.msg[0] = (TMsg){ .source = 0, .hops = 1, .path = { 2 }, .count = 5 };
    cube.msg[1] = (TMsg){ .source = 0, .hops = 1, .path = { 2 }, .count = 5 };
    Machine c = tmachine(&cube.topo, MACHINE_PORTS_ALL, 10, 1, TRUE);
    sim = trun(&c, &cube, &o, 1);
    ck_assert_int_eq(o.arrival[1], 2 * (10 + 5));
    sim_free(sim);
}
END_TEST

/* Neighbour and router messages priced apart; a path of one link is a
 * neighbour message, a send-to (even to a neighbour) a router message. */
START_TEST(classes_are_priced_apart)
{
    TScript sc = { .topo = mesh("8x8", TRUE), .nmsg = 3 };
    sc.msg[0] = (TMsg){ .source = 0, .hops = 1, .path = { 0 }, .count = 4 };
    sc.msg[1] = (TMsg){ .source = 9, .to_dest = TRUE, .dest = 10, .count = 4 };
    sc.msg[2] = (TMsg){ .source = 20, .hops = 3, .path = { 0, 2, 2 }, .count = 4 };
    Machine m = tmachine(&sc.topo, MACHINE_PORTS_ALL, 0, 1, TRUE);
    m.price[CLASS_NEIGHBOUR] = (MachinePrice){ 2, 3, FALSE };
    m.price[CLASS_ROUTER] = (MachinePrice){ 50, 5, FALSE };
    TObserved o;
    Sim *sim = trun(&m, &sc, &o, 1);
    ck_assert_int_eq(o.cls[0], CLASS_NEIGHBOUR);
    ck_assert_int_eq(o.arrival[0], 2 + 4 * 3);
    ck_assert_int_eq(o.cls[1], CLASS_ROUTER);
    ck_assert_int_eq(o.arrival[1], 50 + 4 * 5);
    ck_assert_int_eq(o.arrival[2], 50 + (4 + 3 - 1) * 5);
    const SimStats *st = sim_stats(sim);
    ck_assert_uint_eq(st->class_messages[CLASS_NEIGHBOUR], 1);
    ck_assert_uint_eq(st->class_messages[CLASS_ROUTER], 2);
    ck_assert_uint_eq(st->class_transfers[CLASS_ROUTER], 4 + 12);
    ck_assert_uint_eq(st->link_busy[0], 4 * 3 + 4 * 5 + 4 * 5);
    sim_free(sim);
}
END_TEST

/* Ports on the complete graph: two senders into one receiver with one port
 * serialise on the receiving port. */
START_TEST(complete_graph_receiving_port)
{
    TScript sc = { .topo = complete(3), .nmsg = 2 };
    sc.msg[0] = (TMsg){ .source = 1, .to_dest = TRUE, .dest = 0, .count = 10 };
    sc.msg[1] = (TMsg){ .source = 2, .to_dest = TRUE, .dest = 0, .count = 10 };
    TObserved o;
    Machine one = tmachine(&sc.topo, 1, 0, 1, TRUE);
    Sim *sim = trun(&one, &sc, &o, 1);
    ck_assert_int_eq(sim_stats(sim)->cycles, 20);
    sim_free(sim);
    Machine two = tmachine(&sc.topo, 2, 0, 1, TRUE);
    sim = trun(&two, &sc, &o, 1);
    ck_assert_int_eq(sim_stats(sim)->cycles, 10);
    sim_free(sim);
}
END_TEST

/* A complex element is two words and still one element per element-time. */
START_TEST(wide_elements)
{
    TScript sc = { .topo = mesh("4x4", TRUE), .nmsg = 1 };
    sc.msg[0] = (TMsg){ .source = 5, .hops = 1, .path = { 2 }, .count = 6 };
    Machine m = tmachine(&sc.topo, MACHINE_PORTS_ALL, 0, 1, TRUE);
    TObserved o;
    Sim *sim = trun(&m, &sc, &o, 2);
    ck_assert_int_eq(o.arrival[0], 6);
    const Word *dst = sim_node_memory(sim, 9) + 16 * 2;
    CkTally words = CK_TALLY_INIT;
    for (int j = 0; j < 12; j++)
        ck_tally_uint(&words, 5 * 100000 + (uint64_t)j, dst[j], "word %d at node 9", j);
    ck_tally_assert(&words, "the wide elements received");
    ck_assert_uint_eq(sim_stats(sim)->element_transfers, 6);
    sim_free(sim);
}
END_TEST

static NodeStatus busy_then_send(Node *node, const void *config)
{
    (void)config;
    uint64_t shape[3] = { 4, 8, 0 };
    uint32_t me = node_address(node);
    if (me == 0) {
        node_busy(node, 5);
        node_kernel(node, "matvec", shape, 64);    /* 2 ticks per flop: 128 */
        node_kernel(node, "other", shape, 10);     /* flop-time 1: 10 */
        node_send_to(node, 1, 0, 3, 0);
    } else if (me == 1) {
        node_recv(node, 0, 0, 0, 3);
    }
    return NODE_DONE;
}

START_TEST(local_work_and_kernels)
{
    Topology t = complete(2);
    Machine m = tmachine(&t, MACHINE_PORTS_ALL, 0, 1, TRUE);
    m.nkernels = 1;
    m.kernel[0].name = (char *)"matvec";
    char *why = NULL;
    ck_assert(kernel_rate_parse("per-flop:2", &m.kernel[0].rate,
                                &m.kernel[0].arg, &why));
    SimLayout layout = { 8, 1, 0, 0, FALSE };
    Sim *sim = sim_new(&m, &layout);
    GError *e = NULL;
    ck_assert(sim_run(sim, busy_then_send, NULL, &e));
    const SimStats *st = sim_stats(sim);
    ck_assert_int_eq(st->compute[0], 5 + 128 + 10);
    ck_assert_int_eq(st->compute[1], 0);
    ck_assert_int_eq(st->finished[0], 143 + 3);
    ck_assert_int_eq(st->finished[1], 143 + 3);
    ck_assert_int_eq(st->cycles, 146);
    sim_free(sim);
    ck_assert(!kernel_rate_parse("per-flop", &m.kernel[0].rate,
                                 &m.kernel[0].arg, &why));
    ck_assert_str_eq(why, "rate 'per-flop' needs a number (NAME:NUMBER)");
    g_free(why);
}
END_TEST

/* An all-to-all: every node posts P - 1 receives (in descending source
 * order, against ascending sends) and P - 1 sends; every block lands in
 * its place. Exercises the match table with many keys per destination. */
static NodeStatus all_to_all(Node *node, const void *config)
{
    (void)config;
    uint32_t me = node_address(node), p = node_count(node);
    g_assert_cmpstr(node_topology(node), ==, "complete");
    g_assert_cmpint(node_links(node), ==, 64);
    g_assert_cmpuint(node_neighbour(node, (int)me), ==, NODE_NONE);
    for (uint32_t k = 1; k < p; k++) {
        uint32_t to = (me + k) % p;
        node_send_to(node, to, to, 1, 7);
    }
    for (uint32_t from = p; from-- > 0;)
        if (from != me)
            node_recv(node, from, 7, p + from, 1);
    return NODE_DONE;
}

START_TEST(all_to_all_many_keys_per_node)
{
    Topology t = complete(64);
    Machine m = tmachine(&t, 1, 0, 1, TRUE);
    SimLayout layout = { 128, 1, 0, 0, FALSE };
    Sim *sim = sim_new(&m, &layout);
    for (uint32_t x = 0; x < 64; x++)
        for (uint32_t j = 0; j < 64; j++)
            sim_node_memory(sim, x)[j] = x * 1000 + j;
    GError *e = NULL;
    ck_assert(sim_run(sim, all_to_all, NULL, &e));
    CkTally blocks = CK_TALLY_INIT;
    for (uint32_t x = 0; x < 64; x++)
        for (uint32_t y = 0; y < 64; y++)
            if (y != x)
                ck_tally_uint(&blocks, y * 1000 + x, sim_node_memory(sim, x)[64 + y],
                              "node %u: the block from node %u", x, y);
    ck_tally_assert(&blocks, "all-to-all blocks");
    /* one port each way: 63 elements out and in per node */
    ck_assert_int_eq(sim_stats(sim)->cycles, 63);
    ck_assert_uint_eq(sim_stats(sim)->messages, 64 * 63);
    sim_free(sim);
}
END_TEST

/* ---- reference simulator on meshes, tori and complete graphs ----------- */

/* Cycle by cycle from the rules of docs/machine-model.md (startups that only delay, one
 * tick per element): in each cycle, messages in priority order, hops in
 * order; a hop moves its next element if it has reached the hop's node,
 * the channel (u, link) is unused this cycle and the ports have room.
 * Within TREFERENCE_CYCLES cycles, or it fails TALLY (naming TRIAL). */
#define TREFERENCE_CYCLES 100000
static void treference(const TScript *sc, const uint64_t *priority,
                       const Machine *m, Tick cross[][MAX_HOPS][MAX_ELEMS],
                       int paths[][MAX_HOPS], const int *hops, CkTally *tally,
                       int trial)
{
    int order[MAX_MSGS];
    for (int i = 0; i < sc->nmsg; i++)
        order[i] = i;
    for (int a = 0; a < sc->nmsg; a++)
        for (int b = a + 1; b < sc->nmsg; b++)
            if (priority[order[b]] < priority[order[a]]) {
                int t = order[a]; order[a] = order[b]; order[b] = t;
            }
    uint64_t done[MAX_MSGS][MAX_HOPS] = { { 0 } };
    uint32_t nodes = sc->topo.nodes;
    int links = sc->topo.links;
    int cap = machine_ports_limited(m) ? m->ports : links;
    int remaining = 0;
    for (int i = 0; i < sc->nmsg; i++)
        remaining += hops[i] > 0;
    /* The bound was asserted every cycle; the loop stops at it instead,
     * and the tally below fails exactly when a cycle reached it. */
    for (Tick t = 0; remaining > 0 && t < TREFERENCE_CYCLES; t++) {
        g_autofree uint8_t *used = g_new0(uint8_t, (size_t)nodes * (size_t)links);
        g_autofree int *sent = g_new0(int, nodes);
        g_autofree int *recvd = g_new0(int, nodes);
        for (int oi = 0; oi < sc->nmsg; oi++) {
            int i = order[oi];
            const TMsg *msg = &sc->msg[i];
            Tick ts = m->price[hops[i] == 1 && !msg->to_dest
                               ? CLASS_NEIGHBOUR : CLASS_ROUTER].startup;
            uint32_t u = msg->source;
            for (int h = 0; h < hops[i]; h++) {
                int l = paths[i][h];
                uint32_t v = topology_neighbour(&sc->topo, u, l);
                uint64_t e = done[i][h];
                gboolean ready = e < msg->count
                    && (h == 0 ? t >= msg->post + ts
                               : (e < done[i][h - 1] && cross[i][h - 1][e] < t));
                size_t ch = (size_t)u * (size_t)links + (size_t)l;
                if (ready && !used[ch] && sent[u] < cap && recvd[v] < cap) {
                    used[ch] = 1;
                    sent[u]++;
                    recvd[v]++;
                    cross[i][h][e] = t;
                    done[i][h]++;
                    if (h == hops[i] - 1 && done[i][h] == msg->count)
                        remaining--;
                }
                u = v;
            }
        }
    }
    ck_tally_true(tally, remaining == 0, "trial %d: the reference delivered "
                  "every message within %d cycles (%d left)", trial,
                  TREFERENCE_CYCLES, remaining);
}

/* A random walk of up to MAX_HOPS links that exist. */
static int random_path(GRand *rng, const Topology *t, uint32_t from, int *path)
{
    int hops = g_rand_int_range(rng, 1, MAX_HOPS + 1);
    uint32_t u = from;
    for (int h = 0; h < hops; h++) {
        int l;
        do
            l = g_rand_int_range(rng, 0, t->links);
        while (topology_neighbour(t, u, l) == TOPOLOGY_NONE);
        path[h] = l;
        u = topology_neighbour(t, u, l);
    }
    return hops;
}

START_TEST(random_messages_match_reference_on_every_topology)
{
    GRand *rng = g_rand_new_with_seed(20261123);
    const char *meshes[] = { "5", "3x4", "2x3x2", "6" };
    /* The topologies built once (mesh and complete assert that they
     * build), each trial drawing one as it drew its shape before. */
    Topology open[4], torus[4], full[7];
    for (int i = 0; i < 4; i++) {
        open[i] = mesh(meshes[i], FALSE);
        torus[i] = mesh(meshes[i], TRUE);
    }
    for (uint32_t p = 2; p < 7; p++)
        full[p] = complete(p);
    CkTally agree = CK_TALLY_INIT;
    for (int trial = 0; trial < 600; trial++) {
        TScript sc;
        memset(&sc, 0, sizeof sc);
        int kind = trial % 3;
        if (kind == 0)
            sc.topo = open[g_rand_int_range(rng, 0, 4)];
        else if (kind == 1)
            sc.topo = torus[g_rand_int_range(rng, 0, 4)];
        else
            sc.topo = full[g_rand_int_range(rng, 2, 7)];
        int portsel = g_rand_int_range(rng, 0, 3);
        int ports = portsel == 0 ? MACHINE_PORTS_ALL : portsel;
        Machine m = tmachine(&sc.topo, ports, 0, 1, FALSE);
        m.price[CLASS_NEIGHBOUR].startup = g_rand_int_range(rng, 0, 3);
        if (topology_has_class(sc.topo.ops, CLASS_ROUTER))
            m.price[CLASS_ROUTER].startup = g_rand_int_range(rng, 0, 3);
        else
            m.price[CLASS_ROUTER] = m.price[CLASS_NEIGHBOUR];
        sc.nmsg = g_rand_int_range(rng, 1, MAX_MSGS + 1);
        Tick last_post[64] = { 0 };
        int paths[MAX_MSGS][MAX_HOPS], hops[MAX_MSGS];
        for (int i = 0; i < sc.nmsg; i++) {
            TMsg *msg = &sc.msg[i];
            msg->source = (uint32_t)g_rand_int_range(rng, 0, (int)sc.topo.nodes);
            msg->to_dest = g_rand_boolean(rng);
            if (msg->to_dest) {
                do
                    msg->dest = (uint32_t)g_rand_int_range(rng, 0, (int)sc.topo.nodes);
                while (msg->dest == msg->source);
                hops[i] = topology_route(&sc.topo, msg->source, msg->dest, paths[i]);
            } else {
                msg->hops = random_path(rng, &sc.topo, msg->source, msg->path);
                hops[i] = msg->hops;
                memcpy(paths[i], msg->path, sizeof msg->path);
            }
            msg->count = (uint64_t)g_rand_int_range(rng, 1, MAX_ELEMS + 1);
            msg->post = last_post[msg->source] + g_rand_int_range(rng, 0, 4);
            last_post[msg->source] = msg->post;
        }
        TObserved o;
        Sim *sim = trun(&m, &sc, &o, 1);
        static Tick ref[MAX_MSGS][MAX_HOPS][MAX_ELEMS];
        memset(ref, 0, sizeof ref);
        treference(&sc, o.id, &m, ref, paths, hops, &agree, trial);
        for (int i = 0; i < sc.nmsg; i++)
            for (int h = 0; h < hops[i]; h++)
                for (uint64_t e = 0; e < sc.msg[i].count; e++)
                    ck_tally_int(&agree, ref[i][h][e], o.cross[i][h][e],
                                 "trial %d (%s) message %d hop %d element %llu "
                                 "(expected: the reference, got: the engine)", trial,
                                 sc.topo.ops->name, i, h, (unsigned long long)e);
        sim_free(sim);
    }
    g_rand_free(rng);
    ck_tally_assert(&agree, "600 random message sets");
}
END_TEST

static Suite *topology_suite(void)
{
    const CkTest topologies[] = {
        { mesh_addresses_neighbours_and_names, 0 },
        { mesh_line_of_two, 0 },
        { torus_routes_take_the_shorter_way, 0 },
        { complete_graph_links, 0 },
        { shapes_refused, 0 },
        { routes_are_shortest_on_every_topology, 0 },
        { traits_hold_on_every_topology, 0 },
        { rings_of_every_topology, 0 },
        { bisection_is_a_balanced_cut, 0 },
        { NULL, 0 },
    };
    const CkTest engine[] = {
        { pipelining_on_meshes, 0 },
        { contention_on_a_mesh, 0 },
        { complete_graph_one_port_step, 0 },
        { startup_holds_the_port, 0 },
        { classes_are_priced_apart, 0 },
        { complete_graph_receiving_port, 0 },
        { wide_elements, 0 },
        { local_work_and_kernels, 0 },
        { all_to_all_many_keys_per_node, 0 },
        { NULL, 0 },
    };
    const CkTest reference[] = {
        { random_messages_match_reference_on_every_topology, 0 },
        { NULL, 0 },
    };
    Suite *s = suite_create("topology");
    ck_add_tcase(s, "topologies", 0, topologies);
    ck_add_tcase(s, "engine", 0, engine);
    ck_add_tcase(s, "reference", 60, reference);
    return s;
}

CUBE_CHECK_MAIN(topology_suite)
