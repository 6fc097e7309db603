/* check_faults.c -- fault sets (machines/faults.h): the syntax and its
 * refusals, reproducible random faults, the connectivity check, Lee &
 * Hayes's labels, and the routes around faults, held on every pair of
 * live nodes of cubes up to n = 8 against a breadth-first search written
 * here (T. C. Lee and J. P. Hayes, "A fault-tolerant communication scheme
 * for hypercube computers", IEEE Transactions on Computers 41(10), 1992:
 * a path at most two links longer than the shortest surviving one, where
 * not every live node is unsafe).
 */
#include "faults.h"
#include "machine.h"
#include "topology.h"

#include <check.h>
#include "check_main.h"
#include <inttypes.h>
#include <string.h>

static Topology cube(int n)
{
    Topology t;
    char *why = NULL;
    ck_assert(topology_cube_init(&t, n, &why));
    return t;
}

static Topology torus(const char *shape)
{
    Topology t;
    int axes;
    uint32_t side[TOPOLOGY_MAX_AXES];
    char *why = NULL;
    ck_assert(topology_parse_shape(shape, &axes, side, &why));
    ck_assert(topology_mesh_init(&t, axes, side, TRUE, &why));
    return t;
}

static Faults *parse_ok(const Topology *t, const char *spec)
{
    Faults *f = NULL;
    char *why = NULL;
    if (!faults_parse(spec, "s.ini:4", t, &f, &why))
        ck_abort_msg("'%s' refused: %s", spec, why);
    return f;
}

static char *parse_error(const Topology *t, const char *spec)
{
    Faults *f = NULL;
    char *why = NULL;
    ck_assert_msg(!faults_parse(spec, "s.ini:4", t, &f, &why),
                  "'%s' accepted", spec);
    ck_assert_ptr_null(f);
    return why;
}

START_TEST(syntax_and_canonical_text)
{
    Topology t = cube(4);
    Faults *f = NULL;
    char *why = NULL;
    ck_assert(faults_parse("none", "s.ini:4", &t, &f, &why));
    ck_assert_ptr_null(f);
    ck_assert(faults_parse("  ", "s.ini:4", &t, &f, &why));
    ck_assert_ptr_null(f);
    ck_assert(faults_parse("random:0:7, random-nodes:0:1", "s.ini:4", &t, &f,
                           &why));
    ck_assert_ptr_null(f);

    f = parse_ok(&t, "0-1, 0b0110>0b0010, 3-7@10..20, 12-13@5.., node:0x9");
    FaultCounts c = faults_counts(f);
    ck_assert_uint_eq(c.links, 3);      /* 0-1, 3-7 and 12-13 */
    ck_assert_uint_eq(c.channels, 1);   /* 6>2 */
    ck_assert_uint_eq(c.timed, 2);
    ck_assert_uint_eq(c.nodes, 1);
    g_autofree char *text = faults_text(f);
    ck_assert_str_eq(text, "node:9, 0-1, 3-7@10..20, 6>2, 12-13@5..");
    ck_assert(faults_node_dead(f, 9));
    ck_assert(!faults_node_dead(f, 8));
    ck_assert(faults_channel_down(f, 0, 0, 0));
    ck_assert(faults_channel_down(f, 1, 0, 1000));
    ck_assert(faults_channel_down(f, 6, 2, 0));
    ck_assert(!faults_channel_down(f, 2, 2, 0));       /* one way only */
    ck_assert(!faults_channel_down(f, 3, 2, 9));
    ck_assert(faults_channel_down(f, 3, 2, 10));
    ck_assert(faults_channel_down(f, 7, 2, 19));
    ck_assert(!faults_channel_down(f, 7, 2, 20));
    ck_assert(!faults_channel_down(f, 12, 0, 4));
    ck_assert(faults_channel_down(f, 13, 0, 1 << 30));
    ck_assert_uint_eq(faults_live_nodes(f), 15);
    ck_assert_uint_eq(faults_live_node(f, 8), 8);
    ck_assert_uint_eq(faults_live_node(f, 9), 10);
    /* The list, a node before its channels, in address order. */
    g_autoptr(GArray) list = g_array_new(FALSE, FALSE, sizeof(FaultEntry));
    faults_entries(f, list);
    const FaultEntry want[] = {
        { 0, 0, 0, FAULTS_FOREVER },  { 1, 0, 0, FAULTS_FOREVER },
        { 3, 2, 10, 20 },             { 6, 2, 0, FAULTS_FOREVER },
        { 7, 2, 10, 20 },             { 9, -1, 0, FAULTS_FOREVER },
        { 12, 0, 5, FAULTS_FOREVER }, { 13, 0, 5, FAULTS_FOREVER },
    };
    ck_assert_uint_eq(list->len, G_N_ELEMENTS(want));
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
        const FaultEntry *e = &g_array_index(list, FaultEntry, i);
        ck_assert_msg(e->node == want[i].node && e->link == want[i].link
                      && e->from == want[i].from && e->until == want[i].until,
                      "entry %zu: node %u link %d %ld..%ld", i, e->node,
                      e->link, (long)e->from, (long)e->until);
    }
    faults_unref(f);

    /* The same fault named twice is one. */
    f = parse_ok(&t, "0-1, 1-0, 0>1");
    c = faults_counts(f);
    ck_assert_uint_eq(c.links, 1);
    ck_assert_uint_eq(c.channels, 0);
    faults_unref(f);
}
END_TEST

START_TEST(refusals_name_the_item)
{
    Topology t = cube(4);
    static const struct {
        const char *spec, *says;
    } bad[] = {
        { "0-3", "'0-3': nodes 0 and 3 are not joined by a link" },
        { "0-16", "node 16 is not in this machine (nodes 0..15)" },
        { "0-x", "'x' is not a node number" },
        { "0~1", "a link is U-V (both ways) or U>V (one way)" },
        { "0-1@5", "a time is T1..T2 or T1.. (ticks)" },
        { "0-1@5..5", "the link is down over no tick (5..5)" },
        { "0-1@a..9", "'a' is not a tick" },
        { "node:", "'' is not a node number" },
        { "random:3", "random faults are random:K:SEED" },
        { "random:33:1", "this machine has 32 links" },
        { "random-nodes:16:1", "16 dead nodes leave none of 16 alive" },
        { "0-1,,2-3", "an empty item" },
        { "0-1, none", "'none' stands alone" },
        { "0x-1", "'0x' is not a node number" },
        { "0b12-1", "'0b12' is not a node number" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *why = parse_error(&t, bad[i].spec);
        ck_assert_msg(g_str_has_prefix(why, "s.ini:4: faults: "), "%s", why);
        ck_assert_msg(strstr(why, bad[i].says), "'%s': %s", bad[i].spec, why);
        ck_assert_msg(strstr(why, "docs/faults.md"), "%s", why);
    }
    /* One link: the noun agrees. */
    Topology one = cube(1);
    g_autofree char *why = parse_error(&one, "random:2:1");
    ck_assert_msg(strstr(why, "'random:2:1': this machine has 1 link ("), "%s",
                  why);
}
END_TEST

START_TEST(disconnecting_sets_are_refused)
{
    Topology t = cube(4);
    /* Every link of node 5: n faults cut it off. */
    g_autofree char *why = parse_error(&t, "5-4, 5-7, 5-1, 5-13");
    ck_assert_str_eq(why, "s.ini:4: faults: node 0 cannot reach node 5: the "
                          "faults disconnect the machine");
    /* Its way out only: it is reached, but reaches no one. */
    g_autofree char *out = parse_error(&t, "5>4, 5>7, 5>1, 5>13");
    ck_assert_str_eq(out, "s.ini:4: faults: node 5 cannot reach node 0: the "
                          "faults disconnect the machine");
    /* For a while: named with the tick it starts. */
    g_autofree char *timed = parse_error(&t, "5-4, 5-7, 5-1, 5-13@100..200");
    ck_assert(strstr(timed, "node 0 cannot reach node 5 from tick 100"));
    /* Its neighbours dead: the node is alone. */
    g_autofree char *nodes = parse_error(&t, "node:4, node:7, node:1, "
                                             "node:13");
    ck_assert(strstr(nodes, "cannot reach node 5"));
    /* n - 1 of them never disconnect the n-cube. */
    faults_unref(parse_ok(&t, "5-4, 5-7, 5-1"));
    Topology r = torus("4x4");
    g_autofree char *ring = parse_error(&r, "0-1, 0-3, 0-4, 0-12");
    ck_assert_str_eq(ring, "s.ini:4: faults: node 0 cannot reach node 1: "
                           "the faults disconnect the machine");
}
END_TEST

START_TEST(random_faults_are_reproducible)
{
    Topology t = cube(10);
    Faults *a = parse_ok(&t, "random:9:42");
    Faults *b = parse_ok(&t, "random:9:42");
    Faults *c = parse_ok(&t, "random:9:43");
    g_autofree char *ta = faults_text(a), *tb = faults_text(b),
                    *tc = faults_text(c);
    ck_assert_str_eq(ta, tb);
    ck_assert_str_ne(ta, tc);
    ck_assert_uint_eq(faults_counts(a).links, 9);
    ck_assert_uint_eq(faults_counts(a).channels, 0);
    faults_unref(a);
    faults_unref(b);
    faults_unref(c);
    Faults *d = parse_ok(&t, "random-nodes:9:7");
    ck_assert_uint_eq(faults_counts(d).nodes, 9);
    ck_assert_uint_eq(faults_live_nodes(d), 1024 - 9);
    faults_unref(d);
    /* Most of a small machine's links: listed and shuffled, still K. */
    Topology s = cube(3);
    Faults *e = parse_ok(&s, "random:2:1");
    ck_assert_uint_eq(faults_counts(e).links, 2);
    faults_unref(e);
    Topology k;
    char *why = NULL;
    ck_assert(topology_complete_init(&k, 16, &why));
    Faults *g = parse_ok(&k, "random:70:5");         /* 70 of 120 links */
    ck_assert_uint_eq(faults_counts(g).links, 70);
    faults_unref(g);
}
END_TEST

/* Lee & Hayes's labels on a hand-made case: in the 4-cube with nodes 0
 * and 3 dead, nodes 1 and 2 have two faulty neighbours each (unsafe);
 * nodes with one faulty neighbour and fewer than two unsafe ones stay
 * safe. */
START_TEST(unsafe_labels)
{
    Topology t = cube(4);
    Faults *f = parse_ok(&t, "node:0, node:3");
    ck_assert(faults_unsafe(f, 1, 0));
    ck_assert(faults_unsafe(f, 2, 0));
    /* 4 has 0 (dead) and... 5, 6, 12 live: one faulty neighbour. */
    ck_assert(!faults_unsafe(f, 4, 0));
    ck_assert(!faults_unsafe(f, 15, 0));
    ck_assert(faults_scheme_holds(f, 0));
    faults_unref(f);
    /* A link fault counts at both its ends: node 0 with links 0-1 and
     * 0-2 down has two faulty neighbours. */
    f = parse_ok(&t, "0-1, 0-2");
    ck_assert(faults_unsafe(f, 0, 0));
    ck_assert(!faults_unsafe(f, 1, 0));
    faults_unref(f);
}
END_TEST

/* ---- routes on every pair -------------------------------------------- */

/* The shortest surviving distances from `from`, by a search written
 * here from faults_channel_down and faults_node_dead alone. */
static void distances(const Faults *f, const Topology *t, uint32_t from,
                      Tick at, uint32_t *dist)
{
    for (uint32_t x = 0; x < t->nodes; x++)
        dist[x] = UINT32_MAX;
    uint32_t *queue = g_new(uint32_t, t->nodes);
    size_t head = 0, tail = 0;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        uint32_t x = queue[head++];
        for (int l = 0; l < t->links; l++) {
            uint32_t y = topology_neighbour(t, x, l);
            if (y == TOPOLOGY_NONE || dist[y] != UINT32_MAX
                || faults_node_dead(f, y) || faults_channel_down(f, x, l, at))
                continue;
            dist[y] = dist[x] + 1;
            queue[tail++] = y;
        }
    }
    g_free(queue);
}

typedef struct {
    uint64_t pairs, scheme, shortest, beyond, longer, sets, holds_sets;
} RouteTally;

/* Every pair of live nodes of f at tick `at`: the route walks usable
 * channels to its destination and is at most the shortest surviving
 * distance + 2. On the cube: the scheme's route is at most the Hamming
 * distance H + 2, and the scheme gives a route up exactly where no path
 * of H + 2 links survives, for the shortest surviving path. */
static void check_all_pairs(const Faults *f, const Topology *t, Tick at,
                            RouteTally *rt, CkTally *ck)
{
    uint32_t n = t->nodes;
    uint32_t *dist = g_new(uint32_t, n);
    int *links = NULL;
    size_t cap = 0;
    rt->sets++;
    rt->holds_sets += faults_scheme_holds(f, at);
    for (uint32_t s = 0; s < n; s++) {
        if (faults_node_dead(f, s))
            continue;
        distances(f, t, s, at, dist);
        for (uint32_t d = 0; d < n; d++) {
            if (faults_node_dead(f, d))
                continue;
            FaultRouteKind kind;
            int hops = faults_route(f, s, d, at, &links, &cap, &kind);
            uint32_t x = s;
            gboolean walk = TRUE;
            for (int h = 0; h < hops && walk; h++) {
                uint32_t y = topology_neighbour(t, x, links[h]);
                walk = y != TOPOLOGY_NONE && !faults_node_dead(f, y)
                       && !faults_channel_down(f, x, links[h], at);
                x = y;
            }
            rt->pairs++;
            ck_tally_true(ck, walk && x == d, "route %u -> %u (%s) walks "
                          "through a fault or ends elsewhere", s, d,
                          faults_spec(f));
            ck_tally_true(ck, (uint32_t)hops <= dist[d] + 2,
                          "route %u -> %u: %d links, shortest %u (%s)", s, d,
                          hops, dist[d], faults_spec(f));
            uint32_t h2 = (uint32_t)__builtin_popcount(s ^ d) + 2;
            if (faults_have_scheme(f)) {
                ck_tally_true(ck, (kind == FAULT_ROUTE_SHORTEST)
                                  == (dist[d] > h2),
                              "route %u -> %u: %s, shortest %u (%s)", s, d,
                              kind == FAULT_ROUTE_SHORTEST ? "given up"
                                                           : "the scheme's",
                              dist[d], faults_spec(f));
                if (kind != FAULT_ROUTE_SHORTEST)
                    ck_tally_true(ck, (uint32_t)hops <= h2, "route %u -> %u:"
                                  " %d links (%s)", s, d, hops,
                                  faults_spec(f));
            }
            if (kind == FAULT_ROUTE_SHORTEST)
                ck_tally_uint(ck, dist[d], hops, "shortest %u -> %u (%s)",
                              s, d, faults_spec(f));
            rt->scheme += kind == FAULT_ROUTE_SCHEME;
            rt->shortest += kind == FAULT_ROUTE_SHORTEST;
            rt->beyond += dist[d] > h2;
            rt->longer += (uint32_t)hops > dist[d];
        }
    }
    g_free(links);
    g_free(dist);
}

/* The property: cubes n <= 8, random sets of 1 .. n-1 faulty
 * links and of 1 .. n-1 dead nodes, every pair of live nodes. */
START_TEST(routes_within_the_guarantee)
{
    int kind = _i;              /* 0: links, 1: nodes */
    RouteTally rt = { 0 };
    CkTally ck = CK_TALLY_INIT;
    for (int n = 3; n <= 8; n++) {
        Topology t = cube(n);
        for (int k = 1; k < n; k++)
            for (int seed = 1; seed <= (n <= 6 ? 6 : 2); seed++) {
                g_autofree char *spec = g_strdup_printf(
                    "%s:%d:%d", kind ? "random-nodes" : "random", k, seed);
                Faults *f = parse_ok(&t, spec);
                check_all_pairs(f, &t, 0, &rt, &ck);
                faults_unref(f);
            }
    }
    ck_tally_assert(&ck, "routes around %s faults", kind ? "node" : "link");
    /* Fewer than n faults leave a path of at most H + 2 links between
     * every pair (of the n disjoint paths between two nodes at distance
     * H, H have H links and the others H + 2): the scheme never gives up,
     * and the condition (some live node safe) holds in every set. */
    ck_assert_uint_eq(rt.shortest, 0);
    ck_assert_uint_eq(rt.beyond, 0);
    ck_assert_uint_eq(rt.holds_sets, rt.sets);
    ck_assert_uint_eq(rt.scheme, rt.pairs);
    /* and the detours are real: some routes are longer than the
     * shortest, none by more than two (asserted pair by pair above) */
    ck_assert_uint_gt(rt.longer, 0);
}
END_TEST

/* Every other topology routes by its default route where that is clear,
 * else by the shortest surviving path: random link faults on a torus, a
 * mesh, the complete graph and cube-connected cycles, sets that
 * disconnect the machine refused and skipped. */
START_TEST(other_topologies_route_around)
{
    Topology t[4];
    t[0] = torus("4x8");
    int axes;
    uint32_t side[TOPOLOGY_MAX_AXES];
    char *why = NULL;
    ck_assert(topology_parse_shape("4x4x2", &axes, side, &why));
    ck_assert(topology_mesh_init(&t[1], axes, side, FALSE, &why));
    ck_assert(topology_complete_init(&t[2], 12, &why));
    MachineKeys keys = { (MachineKey[]){ { "topology", "ccc", "s.ini:2" },
                                         { "dimensions", "3", "s.ini:3" } },
                         2, "s.ini:1" };
    Machine m;
    char *problems = NULL;
    ck_assert(machine_from_keys(&keys, NULL, NULL, &m, &problems));
    t[3] = m.topology;
    RouteTally rt = { 0 };
    CkTally ck = CK_TALLY_INIT;
    int refused = 0;
    for (int i = 0; i < 4; i++)
        for (int k = 1; k <= 4; k++)
            for (int seed = 1; seed <= 4; seed++) {
                g_autofree char *spec = g_strdup_printf("random:%d:%d", k,
                                                        seed);
                Faults *f = NULL;
                g_autofree char *no = NULL;
                if (!faults_parse(spec, "s.ini:4", &t[i], &f, &no)) {
                    ck_assert_msg(strstr(no, "disconnect the machine"), "%s",
                                  no);
                    refused++;
                    continue;
                }
                check_all_pairs(f, &t[i], 0, &rt, &ck);
                faults_unref(f);
            }
    machine_clear(&m);
    ck_tally_assert(&ck, "routes on other topologies");
    ck_assert_uint_eq(rt.scheme, 0);
    ck_assert_uint_gt(rt.shortest, 0);
    ck_assert_uint_gt(rt.sets, 40);
}
END_TEST

Suite *faults_suite(void)
{
    const CkTest parse[] = {
        { syntax_and_canonical_text, 0 },
        { refusals_name_the_item, 0 },
        { disconnecting_sets_are_refused, 0 },
        { random_faults_are_reproducible, 0 },
        { unsafe_labels, 0 },
        { NULL, 0 },
    };
    const CkTest routes[] = {
        { routes_within_the_guarantee, 2 },
        { other_topologies_route_around, 0 },
        { NULL, 0 },
    };
    Suite *s = suite_create("faults");
    ck_add_tcase(s, "parse", 0, parse);
    ck_add_tcase(s, "routes", 60, routes);
    return s;
}

CUBE_CHECK_MAIN(faults_suite)
