/* check_each.c -- operation-level programs (emu/node.h, SimLayout.each):
 * a program called at each completion of one of its operations, not once
 * a step, which the workload replay (algorithms/schedule/) is.
 *
 * Asserted: the calls' ticks and the handles each call reports, worked by
 * hand on small cubes (a send completes when its last element left, a
 * receive when its last element arrived or when it was posted, local work
 * when it ends and holds the node across calls); that operations run
 * independently (a chain behind a short send finishes long before a
 * receive the same node waits for); that a program which waits for all
 * of its operations before posting more gives exactly the run of the
 * same program written in steps, on random programs over several machines
 * (cycles, counts, every node's finish and memory); and the program
 * errors: node_exchange, NODE_CONTINUE with nothing outstanding, a
 * receive never sent.
 */
#include "sim.h"
#include "machine.h"
#include "bits.h"

#include <check.h>
#include "check_main.h"
#include <string.h>

#define MEMORY 128

static Machine cube_machine(int n, int ports, Tick ts, Tick tau)
{
    Machine m = { .name = (char *)"test", .ports = ports, .flop_time = 1 };
    char *why = NULL;
    if (!topology_cube_init(&m.topology, n, &why))
        ck_abort_msg("topology_cube_init(%d): %s", n, why ? why : "");
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        m.price[c] = (MachinePrice){ ts, tau, FALSE };
    return m;
}

static const SimLayout each_layout = { MEMORY, 1, 0, 0, TRUE };
static const SimLayout step_layout = { MEMORY, 1, 0, 0, FALSE };

static void fill_memory(Sim *sim, uint32_t nodes)
{
    for (uint32_t x = 0; x < nodes; x++)
        for (int j = 0; j < MEMORY; j++)
            sim_node_memory(sim, x)[j] = (uint64_t)x * 1000 + (uint64_t)j;
}

/* ---- the calls, worked by hand ---------------------------------------- */

/* Every call of every node: its tick (the engine's time when it ran) and
 * the handles it was told of, as text "T:[a,b]". */
static GString *calls_log[8];

static void log_call(Node *node, Tick at)
{
    NodeOp ops[4];
    size_t n;
    GString *g = calls_log[node_address(node)];
    g_string_append_printf(g, "%s%lld:[", g->len ? " " : "", (long long)at);
    gboolean first = TRUE;
    while ((n = node_completed(node, ops, G_N_ELEMENTS(ops))) > 0) {
        for (size_t i = 0; i < n; i++) {
            g_string_append_printf(g, "%s%u", first ? "" : ",", ops[i]);
            first = FALSE;
        }
        if (n < G_N_ELEMENTS(ops))
            break;
    }
    g_string_append_c(g, ']');
}

/* node.h gives a program no clock: the tests read the engine's time
 * through sim_test.h. */
#include "sim_test.h"

/* 2-cube, one tick an element, no startup:
 *  node 0, call 0: receive 3 elements from node 1 (op 0); send 2
 *    elements to node 2 across link 1 (op 1): its last element leaves
 *    at tick 2;
 *  node 1, call 0: local work, 5 ticks (op 0); call at 5: send 3
 *    elements to node 0 (op 1), in by tick 8, and done;
 *  node 2, call 0: receive the 2 from node 0 (op 0), in at tick 2; done;
 *  node 3: done at once.
 * So node 0 is called at 0, at 2 (its send, op 1) and at 8 (its receive,
 * op 0), and finishes at 8; node 1 at 0 and 5 (its local work) and
 * finishes at 8, when its send's last element has left; node 2 finishes
 * at 2. */
static NodeStatus hand_step(Node *node, const void *config)
{
    Sim *sim = (Sim *)config;
    uint32_t x = node_address(node);
    log_call(node, sim_test_now(sim));
    unsigned call = node_step(node);
    int link1 = 1;
    switch (x) {
    case 0:
        if (call == 0) {
            node_recv(node, 1, 0, 8, 3);
            node_send(node, &link1, 1, 0, 2, 0);
            return NODE_ANY;
        }
        return call == 2 ? NODE_DONE : NODE_ANY;
    case 1:
        if (call == 0) {
            node_busy(node, 5);
            return NODE_ANY;
        }
        node_send_to(node, 0, 0, 3, 0);
        return NODE_DONE;
    case 2:
        node_recv(node, 0, 0, 8, 2);
        return NODE_DONE;
    default:
        return NODE_DONE;
    }
}

START_TEST(calls_come_at_completions)
{
    Machine m = cube_machine(2, MACHINE_PORTS_ALL, 0, 1);
    Sim *sim = sim_new(&m, &each_layout);
    fill_memory(sim, 4);
    for (int x = 0; x < 4; x++)
        calls_log[x] = g_string_new(NULL);
    GError *e = NULL;
    ck_assert_msg(sim_run(sim, hand_step, sim, &e), "%s", e ? e->message : "");
    static const char *const want[] = {
        "0:[] 2:[1] 8:[0]", "0:[] 5:[0]", "0:[]", "0:[]",
    };
    for (int x = 0; x < 4; x++) {
        ck_assert_str_eq(calls_log[x]->str, want[x]);
        g_string_free(calls_log[x], TRUE);
    }
    const SimStats *st = sim_stats(sim);
    ck_assert_int_eq(st->cycles, 8);
    ck_assert_int_eq(st->finished[0], 8);
    ck_assert_int_eq(st->finished[1], 8);
    ck_assert_int_eq(st->finished[2], 2);
    ck_assert_int_eq(st->finished[3], 0);
    ck_assert_uint_eq(st->messages, 2);
    ck_assert_uint_eq(st->element_transfers, 2 + 3 * 1);
    /* the payloads: node 0's elements 8..10 are node 1's 0..2 */
    for (int j = 0; j < 3; j++)
        ck_assert_uint_eq(sim_node_memory(sim, 0)[8 + j], 1000 + (uint64_t)j);
    for (int j = 0; j < 2; j++)
        ck_assert_uint_eq(sim_node_memory(sim, 2)[8 + j], (uint64_t)j);
    ck_assert_int_eq(st->compute[1], 5);
    sim_free(sim);
}
END_TEST

/* A call told of many completions at once gets them in handle order
 * (sim.c sorts them; past a few, by radix over the handles' bytes), not
 * in the order they became known: on the 2-cube, node 0 posts
 * MANY_RECVS receives of one element, the even handles' from node 1 and
 * the odd ones' from node 2, then works until tick MANY_BUSY (handle
 * MANY_RECVS), which puts its next call off until all are in. Nodes 1
 * and 2 send theirs at tick 0, node 1 first, so the receives become
 * known as 0, 2, 4, ..., then 1, 3, 5, .... That call must list handles
 * 0..MANY_RECVS ascending. */
#define MANY_RECVS 600u
#define MANY_BUSY 2000
static NodeOp many_got[MANY_RECVS + 8];
static size_t many_n;
static Tick many_at;

static NodeStatus many_step(Node *node, const void *config)
{
    Sim *sim = (Sim *)config;
    uint32_t x = node_address(node);
    if (x == 0) {
        if (node_step(node) == 0) {
            for (uint32_t k = 0; k < MANY_RECVS; k++)
                node_recv(node, k % 2 ? 2 : 1, 0, 8, 1);
            node_busy(node, MANY_BUSY);
            return NODE_ANY;
        }
        many_at = sim_test_now(sim);
        size_t n;
        while (many_n < G_N_ELEMENTS(many_got)
               && (n = node_completed(node, many_got + many_n,
                                      G_N_ELEMENTS(many_got) - many_n)) > 0)
            many_n += n;
        return NODE_DONE;
    }
    for (uint32_t k = 0; x < 3 && k < MANY_RECVS / 2; k++)
        node_send_to(node, 0, 0, 1, 0);
    return NODE_DONE;
}

START_TEST(many_completions_in_handle_order)
{
    Machine m = cube_machine(2, MACHINE_PORTS_ALL, 0, 1);
    Sim *sim = sim_new(&m, &each_layout);
    fill_memory(sim, 4);
    many_n = 0;
    GError *e = NULL;
    ck_assert_msg(sim_run(sim, many_step, sim, &e), "%s", e ? e->message : "");
    ck_assert_int_eq(many_at, MANY_BUSY);
    ck_assert_uint_eq(many_n, MANY_RECVS + 1);
    for (size_t i = 0; i < many_n; i++)
        ck_assert_uint_eq(many_got[i], i);
    sim_free(sim);
}
END_TEST

/* Local work holds the node across calls: node 0 works 10 ticks (op 0)
 * and posts a receive (op 1) whose message, sent by node 1 at tick 0, is
 * in at tick 3; the call that reports both comes at 10, not at 3. A
 * receive posted after its message arrived completes when it is posted:
 * node 3 sends node 2 one element at tick 0 (in at 1) and receives 4
 * from it; node 2 first sends those 4 (op 0, left at 4), and only in the
 * call at 4 posts the receive of node 3's element (op 1), which
 * completes at 4, reported by a second call at 4. */
static NodeStatus busy_step(Node *node, const void *config)
{
    Sim *sim = (Sim *)config;
    uint32_t x = node_address(node);
    log_call(node, sim_test_now(sim));
    unsigned call = node_step(node);
    int link0 = 0;
    switch (x) {
    case 0:
        if (call == 0) {
            node_busy(node, 10);
            node_recv(node, 1, 0, 8, 3);
            return NODE_ANY;
        }
        return NODE_DONE;
    case 1:
        node_send_to(node, 0, 0, 3, 0);
        return NODE_DONE;
    case 2:
        if (call == 0) {
            node_send(node, &link0, 1, 0, 4, 1);
            return NODE_ANY;
        }
        if (call == 1) {
            node_recv(node, 3, 0, 8, 1);
            return NODE_ANY;
        }
        return NODE_DONE;
    default:
        if (call == 0) {
            node_send(node, &link0, 1, 0, 1, 0);
            node_recv(node, 2, 1, 8, 4);
        }
        return call == 2 ? NODE_DONE : NODE_ANY;
    }
}

START_TEST(local_work_holds_the_node)
{
    Machine m = cube_machine(2, MACHINE_PORTS_ALL, 0, 1);
    Sim *sim = sim_new(&m, &each_layout);
    fill_memory(sim, 4);
    for (int x = 0; x < 4; x++)
        calls_log[x] = g_string_new(NULL);
    GError *e = NULL;
    ck_assert_msg(sim_run(sim, busy_step, sim, &e), "%s", e ? e->message : "");
    static const char *const want[] = {
        "0:[] 10:[0,1]", "0:[]", "0:[] 4:[0] 4:[1]", "0:[] 1:[0] 4:[1]",
    };
    for (int x = 0; x < 4; x++) {
        ck_assert_str_eq(calls_log[x]->str, want[x]);
        g_string_free(calls_log[x], TRUE);
    }
    ck_assert_int_eq(sim_stats(sim)->finished[0], 10);
    ck_assert_int_eq(sim_stats(sim)->finished[2], 4);
    ck_assert_int_eq(sim_stats(sim)->finished[3], 4);
    ck_assert_uint_eq(sim_node_memory(sim, 2)[8], 3000);
    ck_assert_uint_eq(sim_node_memory(sim, 3)[11], 2003);
    sim_free(sim);
}
END_TEST

/* Operations run independently: node 0 waits for a receive from node 1,
 * which works 100 ticks first, and meanwhile sends one element to node
 * 2 (op 1, left by tick 1); at that completion it sends one to node 3,
 * which is in by tick 2. In steps the second send would wait for the
 * receive: node 3 would finish at 102. */
static NodeStatus chain_step(Node *node, const void *config)
{
    (void)config;
    uint32_t x = node_address(node);
    unsigned call = node_step(node);
    NodeOp done[4];
    switch (x) {
    case 0:
        if (call == 0) {
            node_recv(node, 1, 0, 8, 1);
            node_send_to(node, 2, 0, 1, 0);
            return NODE_ANY;
        }
        if (node_completed(node, done, 4) == 1 && done[0] == 1) {
            node_send_to(node, 3, 1, 1, 0);
            return NODE_ANY;
        }
        return NODE_DONE;
    case 1:
        if (call == 0) {
            node_busy(node, 100);
            return NODE_ANY;
        }
        node_send_to(node, 0, 0, 1, 0);
        return NODE_DONE;
    default:
        node_recv(node, 0, 0, 8, 1);
        return NODE_DONE;
    }
}

START_TEST(operations_run_independently)
{
    Machine m = cube_machine(2, MACHINE_PORTS_ALL, 0, 1);
    Sim *sim = sim_new(&m, &each_layout);
    fill_memory(sim, 4);
    GError *e = NULL;
    ck_assert_msg(sim_run(sim, chain_step, NULL, &e), "%s", e ? e->message : "");
    const SimStats *st = sim_stats(sim);
    ck_assert_int_eq(st->finished[2], 1);
    /* node 0 -> 3 is two hops (e-cube: dimension 0, then 1): in at 2 */
    ck_assert_int_eq(st->finished[3], 3);
    ck_assert_int_eq(st->finished[0], 101);
    ck_assert_int_eq(st->cycles, 101);
    ck_assert_uint_eq(sim_node_memory(sim, 3)[8], 1);
    sim_free(sim);
}
END_TEST

/* ---- the same run as steps ---------------------------------------------- */

/* A random program of steps, and the same written at the operation level
 * (it posts a step's operations, waits until every one is reported, then
 * posts the next): every step s, node x sends `count` elements to
 * partner(x, s) and receives as many from the node whose partner it is,
 * after `work` ticks of local work; partners are a permutation a step
 * (x xor mask, or x + shift modulo P), so every message is received.
 * Counts may be 0, partners may be the node itself. */
typedef struct {
    uint32_t nodes;
    unsigned steps;
    uint32_t mask[8], shift[8];
    gboolean xor[8];
    uint32_t count[8][16];        /* by step and node */
    Tick work[8][16];
    gboolean routed;              /* node_send_to, else along one link */
} Plan;

static uint32_t partner(const Plan *p, uint32_t x, unsigned s)
{
    return p->xor[s] ? x ^ p->mask[s] : (x + p->shift[s]) % p->nodes;
}

static uint32_t partner_of(const Plan *p, uint32_t y, unsigned s)
{
    return p->xor[s] ? y ^ p->mask[s]
                     : (y + p->nodes - p->shift[s] % p->nodes) % p->nodes;
}

/* Node x's step s: work, then send and receive. The payload at offset
 * 8 s + 0..3 goes out; the partner's lands at 64 + 8 s + 0..3. */
static void post_step(Node *node, const Plan *p, unsigned s)
{
    uint32_t x = node_address(node), y = partner(p, x, s);
    uint32_t from = partner_of(p, x, s);
    if (p->work[s][x])
        node_busy(node, p->work[s][x]);
    size_t k = p->count[s][x], kin = p->count[s][from];
    node_recv(node, from, (int)s, 64 + 8 * (size_t)s, kin);
    if (p->routed || y == x) {
        node_send_to(node, y, 8 * (size_t)s, k, (int)s);
    } else {
        int link = (int)__builtin_ctz(x ^ y);
        node_send(node, &link, 1, 8 * (size_t)s, k, (int)s);
    }
}

static NodeStatus plan_steps(Node *node, const void *config)
{
    const Plan *p = config;
    post_step(node, p, node_step(node));
    return node_step(node) + 1 == p->steps ? NODE_DONE : NODE_CONTINUE;
}

/* The operation-level version: local state, the step it is in and the
 * operations of that step not yet reported. */
typedef struct {
    unsigned step;
    unsigned left;
} PlanState;

static NodeStatus plan_each(Node *node, const void *config)
{
    const Plan *p = config;
    PlanState *st = node_local(node);
    NodeOp done[8];
    size_t n;
    while ((n = node_completed(node, done, G_N_ELEMENTS(done))) > 0) {
        st->left -= (unsigned)n;
        if (n < G_N_ELEMENTS(done))
            break;
    }
    if (node_step(node) > 0 && st->left > 0)
        return NODE_CONTINUE;
    if (node_step(node) > 0)
        st->step++;
    NodeOp before = node_step(node) == 0 ? 0 : node_last_op(node) + 1;
    post_step(node, p, st->step);
    st->left = node_last_op(node) + 1 - before;
    return st->step + 1 == p->steps ? NODE_DONE : NODE_CONTINUE;
}

static Sim *run_plan(const Machine *m, const Plan *p, gboolean each,
                     GError **error)
{
    SimLayout layout = each ? each_layout : step_layout;
    layout.local_size = sizeof(PlanState);
    Sim *sim = sim_new(m, &layout);
    fill_memory(sim, p->nodes);
    if (!sim_run(sim, each ? plan_each : plan_steps, p, error)) {
        sim_free(sim);
        return NULL;
    }
    return sim;
}

/* n > 0: the n-cube, sends along one link to a neighbour (or the node
 * itself); n = 0: routed sends to the node `shift` on. */
static void random_plan(Plan *p, uint32_t nodes, int n, GRand *r)
{
    memset(p, 0, sizeof *p);
    p->nodes = nodes;
    p->steps = (unsigned)g_rand_int_range(r, 1, 8);
    p->routed = n == 0;
    for (unsigned s = 0; s < p->steps; s++) {
        p->xor[s] = n > 0;
        p->mask[s] = n > 0 ? 1u << g_rand_int_range(r, 0, n) : 0;
        if (n > 0 && g_rand_int_range(r, 0, 4) == 0)
            p->mask[s] = 0;                         /* to itself */
        p->shift[s] = (uint32_t)g_rand_int_range(r, 0, (gint32)nodes);
        for (uint32_t x = 0; x < nodes; x++) {
            p->count[s][x] = (uint32_t)g_rand_int_range(r, 0, 5);
            p->work[s][x] = g_rand_int_range(r, 0, 3) == 0
                                ? (Tick)g_rand_int_range(r, 1, 6) : 0;
        }
    }
}

/* A program that returns NODE_CONTINUE waits for everything it has
 * outstanding, and is called at that point of the order of events where
 * a program of steps is: the two give the same run, contention and all,
 * on cubes with all ports, one or two, startups that hold the port or
 * only delay, memory paths, and the complete graph. */
START_TEST(waiting_for_all_is_the_program_of_steps)
{
    CkTally t = CK_TALLY_INIT;
    GRand *r = g_rand_new_with_seed(7);
    for (int trial = 0; trial < 400; trial++) {
        Machine m;
        int n = 0;
        switch (trial % 4) {
        case 0:
            n = g_rand_int_range(r, 1, 5);
            m = cube_machine(n, MACHINE_PORTS_ALL, g_rand_int_range(r, 0, 4),
                             g_rand_int_range(r, 1, 3));
            break;
        case 1:
            n = g_rand_int_range(r, 2, 5);
            m = cube_machine(n, g_rand_int_range(r, 1, 3),
                             g_rand_int_range(r, 0, 4), g_rand_int_range(r, 1, 3));
            m.startup_holds_port = g_rand_boolean(r);
            break;
        case 2:
            n = 3;
            m = cube_machine(n, MACHINE_PORTS_ALL, g_rand_int_range(r, 0, 3), 1);
            m.price[CLASS_NEIGHBOUR].memory_path = TRUE;
            m.price[CLASS_ROUTER].memory_path = TRUE;
            break;
        default:
            m = cube_machine(1, g_rand_boolean(r) ? MACHINE_PORTS_ALL : 1,
                             g_rand_int_range(r, 0, 4), g_rand_int_range(r, 1, 3));
            m.startup_holds_port = g_rand_boolean(r);
            char *why = NULL;
            if (!topology_complete_init(&m.topology,
                                        (uint32_t)g_rand_int_range(r, 2, 13), &why))
                ck_abort_msg("complete: %s", why);
        }
        /* routed sends on a cube too, which share channels */
        gboolean routed = n == 0 || g_rand_boolean(r);
        uint32_t nodes = machine_nodes(&m);
        Plan p;
        random_plan(&p, nodes, routed ? 0 : n, r);
        GError *e1 = NULL, *e2 = NULL;
        Sim *a = run_plan(&m, &p, FALSE, &e1);
        Sim *b = run_plan(&m, &p, TRUE, &e2);
        ck_tally_true(&t, a && b, "trial %d: both ran (%s / %s)", trial,
                      e1 ? e1->message : "", e2 ? e2->message : "");
        if (a && b) {
            const SimStats *sa = sim_stats(a), *sb = sim_stats(b);
            ck_tally_int(&t, sa->cycles, sb->cycles, "trial %d: cycles", trial);
            ck_tally_uint(&t, sa->messages, sb->messages, "trial %d: messages", trial);
            ck_tally_uint(&t, sa->element_transfers, sb->element_transfers,
                          "trial %d: transfers", trial);
            for (uint32_t x = 0; x < nodes; x++) {
                ck_tally_int(&t, sa->finished[x], sb->finished[x],
                             "trial %d node %u: finished", trial, x);
                ck_tally_int(&t, sa->compute[x], sb->compute[x],
                             "trial %d node %u: compute", trial, x);
                for (int j = 0; j < MEMORY; j++)
                    ck_tally_uint(&t, sim_node_memory(a, x)[j],
                                  sim_node_memory(b, x)[j],
                                  "trial %d node %u element %d", trial, x, j);
            }
        }
        g_clear_error(&e1);
        g_clear_error(&e2);
        sim_free(a);
        sim_free(b);
    }
    g_rand_free(r);
    ck_tally_assert(&t, "400 random programs as steps and at the operation level");
}
END_TEST

/* ---- program errors ------------------------------------------------------ */

static NodeStatus exchange_each(Node *node, const void *config)
{
    (void)config;
    node_exchange(node, 0, 0, 1, 0);
    return NODE_DONE;
}

static NodeStatus nothing_each(Node *node, const void *config)
{
    (void)config;
    return node_address(node) == 1 ? NODE_ANY : NODE_DONE;
}

static NodeStatus any_in_steps(Node *node, const void *config)
{
    (void)config;
    return node_address(node) == 3 ? NODE_ANY : NODE_DONE;
}

static NodeStatus unsent_each(Node *node, const void *config)
{
    (void)config;
    if (node_address(node) == 2)
        node_recv(node, 3, 9, 0, 1);
    return NODE_DONE;
}

START_TEST(program_errors_are_named)
{
    Machine m = cube_machine(2, MACHINE_PORTS_ALL, 0, 1);
    static const struct { NodeStepFn step; const char *want; } cases[] = {
        { exchange_each, "node 0, step 0: node_exchange in an "
                         "operation-level program: its region is the step's "
                         "(node.h); post a send and a receive" },
        { nothing_each, "node 1, step 0: returned NODE_ANY with no "
                        "operation outstanding: nothing would call it again" },
        { unsent_each, "deadlock: node 2 in step 0 waits for 1 receive(s); "
                       "the first from node 3 with tag 9 was never sent" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        Sim *sim = sim_new(&m, &each_layout);
        GError *e = NULL;
        ck_assert(!sim_run(sim, cases[i].step, NULL, &e));
        ck_assert_msg(e && strstr(e->message, cases[i].want), "%s", e ? e->message : "");
        g_error_free(e);
        sim_free(sim);
    }
    /* NODE_ANY is an operation-level program's: a program of steps that
     * returns it is stopped */
    Sim *steps = sim_new(&m, &step_layout);
    GError *e = NULL;
    ck_assert(!sim_run(steps, any_in_steps, NULL, &e));
    ck_assert_msg(e && strstr(e->message, "node 3, step 0: returned NODE_ANY, "
                              "which only an operation-level program may "
                              "(node.h)"), "%s", e ? e->message : "");
    g_error_free(e);
    sim_free(steps);
}
END_TEST

static Suite *each_suite(void)
{
    Suite *s = suite_create("each");
    const CkTest hand[] = {
        { calls_come_at_completions, 0 },
        { many_completions_in_handle_order, 0 },
        { local_work_holds_the_node, 0 },
        { operations_run_independently, 0 },
        { program_errors_are_named, 0 },
        { NULL, 0 },
    };
    const CkTest random[] = {
        { waiting_for_all_is_the_program_of_steps, 0 },
        { NULL, 0 },
    };
    ck_add_tcase(s, "hand", 0, hand);
    ck_add_tcase(s, "random", 30, random);
    return s;
}

CUBE_CHECK_MAIN(each_suite)
