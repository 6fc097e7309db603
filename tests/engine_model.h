/* engine_model.h -- what tests/check_engine.c holds the engine against,
 * written from docs/machine-model.md and emu/node.h, not from emu/sim.c:
 * a cycle-by-cycle reference simulator of scripted messages, and an
 * oracle that computes from a random program's plan what each of its
 * receives must hold. Neither calls the engine.
 *
 * With them, what both sides of a comparison read: the scripted messages
 * (Script) that the engine's harness posts and the reference simulator
 * moves, the memory size every test program assumes (MEMORY), and the
 * hash random programs are drawn from (mix32). The functions are static:
 * the header is check_engine.c's alone, included once.
 */
#ifndef CUBE_TESTS_ENGINE_MODEL_H
#define CUBE_TESTS_ENGINE_MODEL_H

#include <check.h>
#include <glib.h>
#include <stdint.h>
#include "sim.h"

/* ---- scripted messages ------------------------------------------------ */

#define MAX_MSGS 16
#define MEMORY 256

typedef struct {
    uint32_t source;
    int hops;
    int path[8];
    uint64_t count;
    Tick post;               /* posting cycle, via node_compute */
} TestMsg;

typedef struct {
    int nmsg;
    TestMsg msg[MAX_MSGS];
} Script;

static uint32_t msg_dest(const TestMsg *m)
{
    uint32_t d = m->source;
    for (int h = 0; h < m->hops; h++)
        d ^= 1u << m->path[h];
    return d;
}

/* The hash the random programs draw their sizes, places and links from. */
static uint32_t mix32(uint32_t a, uint32_t b)
{
    uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u + (a << 6) + (a >> 2));
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

/* ---- reference simulator --------------------------------------------- */

/* Cycle by cycle, straight from the rules of docs/machine-model.md: in each cycle, messages
 * in priority order (posting cycle, then posting order), hops in order,
 * each moves the next element of a hop if it has reached the hop's node
 * (crossed the previous hop in an earlier cycle, or for hop 0, startup has
 * passed), the channel is unused this cycle and the ports have room; with
 * `paths`, also the memory path of the source (hop 0) and of the
 * destination (the last hop), one element a cycle each. */
static void reference(const Script *sc, const uint64_t *priority, int n,
                      int ports, gboolean paths, Tick ts,
                      Tick cross[][8][16])
{
    int order[MAX_MSGS];
    for (int i = 0; i < sc->nmsg; i++)
        order[i] = i;
    for (int a = 0; a < sc->nmsg; a++)           /* sort by engine priority */
        for (int b = a + 1; b < sc->nmsg; b++)
            if (priority[order[b]] < priority[order[a]]) {
                int t = order[a]; order[a] = order[b]; order[b] = t;
            }
    uint64_t done[MAX_MSGS][8] = { { 0 } };
    uint32_t nodes = 1u << n;
    int cap = ports == MACHINE_PORTS_ALL ? n : ports;
    int remaining = 0;
    for (int i = 0; i < sc->nmsg; i++)
        remaining += sc->msg[i].hops > 0 ? 1 : 0;
    for (Tick t = 0; remaining > 0; t++) {
        /* a runaway reference stops the test here, as an assertion would
         * (checked each cycle: an abort, which Check records only when
         * it is reached) */
        if (t >= 100000)
            ck_abort_msg("reference: %d message(s) still moving at cycle %lld",
                         remaining, (long long)t);
        g_autofree uint8_t *used = g_new0(uint8_t, nodes * (uint32_t)n);
        g_autofree int *sent = g_new0(int, nodes);
        g_autofree int *recvd = g_new0(int, nodes);
        g_autofree uint8_t *path_used = g_new0(uint8_t, nodes);
        for (int oi = 0; oi < sc->nmsg; oi++) {
            int i = order[oi];
            const TestMsg *m = &sc->msg[i];
            uint32_t u = m->source;
            for (int h = 0; h < m->hops; h++) {
                int d = m->path[h];
                uint32_t v = u ^ (1u << d);
                uint64_t e = done[i][h];
                gboolean ready = e < m->count
                    && (h == 0 ? t >= m->post + ts
                               : (e < done[i][h - 1] && cross[i][h - 1][e] < t));
                gboolean first = paths && h == 0;
                gboolean last = paths && h == m->hops - 1;
                if (ready && !used[u * (uint32_t)n + (uint32_t)d]
                    && sent[u] < cap && recvd[v] < cap
                    && !(first && path_used[m->source])
                    && !(last && path_used[msg_dest(m)])) {
                    used[u * (uint32_t)n + (uint32_t)d] = 1;
                    if (first)
                        path_used[m->source] = 1;
                    if (last)
                        path_used[msg_dest(m)] = 1;
                    sent[u]++;
                    recvd[v]++;
                    cross[i][h][e] = t;
                    done[i][h]++;
                    if (h == m->hops - 1 && done[i][h] == m->count)
                        remaining--;
                }
                u = v;
            }
        }
    }
}

/* ---- the oracle ------------------------------------------------------- */

/* Random programs whose receives are checked against an oracle: what
 * every receive must hold is computed from the program's plan, not from
 * the engine. In each step every node first fills its memory with
 * f(node, step, element), then posts the step's operations: exchanges
 * across a link (0 to 8 elements, node_busy before some, so their posts
 * are deferred), plain messages to any node or to itself, of 0 to 8
 * elements, two keys, every delivery in a region of the receiver that no
 * other receive of the step writes; or, in about a fifth of a cube's
 * steps, every node exchanges its whole memory across one dimension. In
 * its next step (or after the run) a node checks that each receive holds
 * the sender's f values of that step. Some programs let receive regions
 * overlap (no oracle then), some let nodes finish at different steps, and
 * some drop one receive. How check_engine.c runs them is there
 * (random_programs_match_oracle). */

enum { ORACLE_EXCHANGE, ORACLE_PLAIN, ORACLE_MAX_OPS = 2048 };

typedef struct {
    int kind;
    uint32_t u, v;              /* sender (and, exchanging, one side), receiver */
    int link;                   /* an exchange: u's link to v */
    int tag;
    size_t uoff, voff, count;
    Tick busy_u, busy_v;        /* node_busy before posting */
} OracleOp;

typedef struct {
    const Topology *topo;
    uint32_t nodes;
    int steps;
    uint32_t seed;
    int ops_per_node;
    gboolean overlap;           /* receive regions may overlap: no oracle */
    gboolean lifetimes;         /* nodes finish at different steps */
    gboolean broken;            /* one receive dropped: every way fails */
} OracleProgram;

static int oracle_last_step(const OracleProgram *p, uint32_t x)
{
    if (!p->lifetimes)
        return p->steps - 1;
    return 1 + (int)(mix32(p->seed ^ 0x99u, x) % (uint32_t)(p->steps - 1));
}

static Word oracle_f(uint32_t x, unsigned s, size_t i)
{
    return ((Word)(x + 1) << 40) | ((Word)s << 20) | i;
}

/* The link of node v back to u, its neighbour. */
static int oracle_back(const OracleProgram *p, uint32_t v, uint32_t u)
{
    for (int l = 0; l < p->topo->links; l++)
        if (topology_neighbour(p->topo, v, l) == u)
            return l;
    ck_abort_msg("node %u is not a neighbour of node %u", u, v);
    return -1;
}

/* Step s of the program: its operations in ops (the count returned), or
 * *whole >= 0, the dimension every node exchanges its memory across. */
static int oracle_plan(const OracleProgram *p, unsigned s, OracleOp *ops,
                       int *whole)
{
    *whole = -1;
    if (topology_has(p->topo, TOPOLOGY_DIMENSIONS) && mix32(p->seed ^ 0x51u, s) % 5 == 0) {
        *whole = (int)(mix32(p->seed ^ 0x52u, s) % (uint32_t)p->topo->links);
        return 0;
    }
    size_t cursor[64];          /* the next free receive region of a node */
    /* the bound of cursor[], before it is written: planned for every node
     * step, so an abort where it fails, not a ck_assert recorded each time */
    if (p->nodes > 64)
        ck_abort_msg("oracle_plan: %u nodes, more than 64", p->nodes);
    for (uint32_t x = 0; x < p->nodes; x++)
        cursor[x] = mix32(p->seed ^ 0x54u, s * 64 + x) % 8;
    int nops = (int)(mix32(p->seed ^ 0x55u, s)
                     % (uint32_t)(p->ops_per_node * p->nodes + 1));
    int k = 0;
    for (int i = 0; i < nops && k < ORACLE_MAX_OPS; i++) {
        uint32_t h = mix32(p->seed ^ 0x56u, s * 1000 + (uint32_t)i);
        uint32_t h2 = mix32(p->seed ^ 0x57u, s * 1000 + (uint32_t)i);
        OracleOp op = { 0 };
        op.u = h % p->nodes;
        op.tag = (int)((h >> 8) % 2);
        op.count = (h2 >> 4) % 9;
        op.busy_u = ((h2 >> 12) & 7) == 0 ? 1 + ((h2 >> 15) & 1) : 0;
        op.busy_v = ((h2 >> 16) & 7) == 0 ? 1 : 0;
        if ((h >> 10) % 10 < 4) {
            op.kind = ORACLE_EXCHANGE;
            op.link = (int)((h >> 14) % (uint32_t)p->topo->links);
            op.v = topology_neighbour(p->topo, op.u, op.link);
            if (op.v == TOPOLOGY_NONE)
                continue;
        } else {
            op.kind = ORACLE_PLAIN;
            op.v = (h >> 14) % 8 == 0 ? op.u : (h >> 17) % p->nodes;
            op.uoff = (h2 >> 20) % (MEMORY - op.count);
        }
        if ((int)s > oracle_last_step(p, op.u)
            || (int)s > oracle_last_step(p, op.v))
            continue;
        if (p->overlap) {
            op.voff = (h2 >> 8) % (MEMORY - op.count);
            if (op.kind == ORACLE_EXCHANGE)
                op.uoff = (h2 >> 13) % (MEMORY - op.count);
            ops[k++] = op;
            continue;
        }
        size_t gap = (h2 >> 24) % 3;
        if (cursor[op.v] + gap + op.count > MEMORY)
            continue;
        if (op.kind == ORACLE_EXCHANGE) {
            if (cursor[op.u] + gap + op.count > MEMORY)
                continue;
            cursor[op.u] += gap;
            op.uoff = cursor[op.u];
            cursor[op.u] += op.count;
        }
        cursor[op.v] += gap;
        op.voff = cursor[op.v];
        cursor[op.v] += op.count;
        ops[k++] = op;
    }
    return k;
}

/* Counted atomically: with threads, steps run at once (sim_set_threads). */
static _Atomic uint64_t oracle_checked, oracle_wrong;
static char oracle_first_wrong[160];

static void oracle_expect(uint32_t x, unsigned s, const Word *mem, size_t at,
                          Word want)
{
    oracle_checked++;
    if (mem[at] != want && oracle_wrong++ == 0)
        g_snprintf(oracle_first_wrong, sizeof oracle_first_wrong,
                   "node %u, step %u, element %zu: %#llx, not %#llx", x, s,
                   at, (unsigned long long)mem[at], (unsigned long long)want);
}

/* What node x's receives of step s hold. */
static void oracle_check(const OracleProgram *p, uint32_t x, const Word *mem,
                         unsigned s)
{
    OracleOp ops[ORACLE_MAX_OPS];   /* its own: steps may run at once (threads) */
    if (p->overlap || p->broken)
        return;
    int whole, k = oracle_plan(p, s, ops, &whole);
    if (whole >= 0) {
        uint32_t y = topology_neighbour(p->topo, x, whole);
        if ((int)s <= oracle_last_step(p, y))
            for (size_t i = 0; i < MEMORY; i++)
                oracle_expect(x, s, mem, i, oracle_f(y, s, i));
        return;
    }
    for (int j = 0; j < k; j++) {
        const OracleOp *o = &ops[j];
        for (size_t i = 0; i < o->count; i++) {
            if (o->v == x)
                oracle_expect(x, s, mem, o->voff + i, oracle_f(o->u, s, o->uoff + i));
            if (o->kind == ORACLE_EXCHANGE && o->u == x)
                oracle_expect(x, s, mem, o->uoff + i, oracle_f(o->v, s, o->voff + i));
        }
    }
}

static NodeStatus oracle_step(Node *node, const void *config)
{
    const OracleProgram *p = config;
    OracleOp ops[ORACLE_MAX_OPS];   /* its own: steps may run at once (threads) */
    unsigned s = node_step(node);
    uint32_t x = node_address(node);
    Word *mem = node_memory(node);
    if (s > 0)
        oracle_check(p, x, mem, s - 1);
    for (size_t i = 0; i < MEMORY; i++)
        mem[i] = oracle_f(x, s, i);
    NodeStatus status = (int)s == oracle_last_step(p, x) ? NODE_DONE
                                                         : NODE_CONTINUE;
    int whole, k = oracle_plan(p, s, ops, &whole);
    if (whole >= 0) {
        if ((int)s <= oracle_last_step(p, topology_neighbour(p->topo, x, whole)))
            node_exchange(node, whole, 0, MEMORY, 2);
        return status;
    }
    int drop = p->broken ? (int)(mix32(p->seed ^ 0x77u, s) % (uint32_t)(k + 1))
                         : -1;
    for (int j = 0; j < k; j++) {
        const OracleOp *o = &ops[j];
        if (o->kind == ORACLE_EXCHANGE) {
            if (o->u == x) {
                if (o->busy_u)
                    node_busy(node, o->busy_u);
                node_exchange(node, o->link, o->uoff, o->count, o->tag);
            }
            if (o->v == x) {
                if (o->busy_v)
                    node_busy(node, o->busy_v);
                node_exchange(node, oracle_back(p, o->v, o->u), o->voff,
                              o->count, o->tag);
            }
            continue;
        }
        if (o->u == x) {
            if (o->busy_u)
                node_busy(node, o->busy_u);
            node_send_to(node, o->v, o->uoff, o->count, o->tag);
        }
        if (o->v == x && j != drop)
            node_recv(node, o->u, o->tag, o->voff, o->count);
    }
    return status;
}

#endif
