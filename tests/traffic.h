/* traffic.h -- a node program that runs on every topology, for the trace
 * tests (no algorithm of cubemu ran beyond the cube when they were
 * written): in step 0 every node sends K elements across each of its
 * links (neighbour messages) and receives what its neighbours send it; in
 * step 1 it sends K elements to the node halfway round the address space
 * by the default route (router messages, several hops on a mesh) and
 * receives the matching block. Each step is marked. With partner_only,
 * only step 1 runs: one message per node, cheap on a complete graph of
 * any size. traffic_record runs it straight through the engine on the
 * machine a [machine] text describes and returns the report (as the
 * runner fills it) and the recorded trace. Header-only: each test binary
 * is one file. */
#ifndef CUBE_TEST_TRAFFIC_H
#define CUBE_TEST_TRAFFIC_H

#include <glib.h>
#include "machine.h"
#include "report.h"
#include "scenario.h"
#include "prepare.h"
#include "sim.h"
#include "trace.h"

/* Elements per message: long enough to contend and pipeline. */
#define TRAFFIC_K 6
/* Tags of the router messages lie above every link's tag. */
#define TRAFFIC_ROUTER_TAG (1 << 30)

typedef struct {
    const Topology *topology;
    size_t k;
    gboolean partner_only;
} Traffic;

/* The node across from `me`: the address half the machine away. */
static inline uint32_t traffic_partner(const Topology *tp, uint32_t me,
                                       gboolean send)
{
    uint32_t half = tp->nodes / 2;
    return send ? (me + half) % tp->nodes : (me + tp->nodes - half) % tp->nodes;
}

static inline NodeStatus traffic_step(Node *node, const void *config)
{
    const Traffic *tr = config;
    const Topology *tp = tr->topology;
    uint32_t me = node_address(node);
    if (node_step(node) == 0 && !tr->partner_only) {
        node_mark(node, "neighbours");
        for (int l = 0; l < node_links(node); l++) {
            uint32_t u = node_neighbour(node, l);
            if (u == NODE_NONE)
                continue;
            node_send(node, &l, 1, 0, tr->k, l);
            /* u's link back to me carries its block; it tags it so. */
            for (int back = 0; back < tp->links; back++)
                if (topology_neighbour(tp, u, back) == me)
                    node_recv(node, u, back, tr->k * (size_t)(2 + l), tr->k);
        }
        return NODE_CONTINUE;
    }
    node_mark(node, "router");
    node_send_to(node, traffic_partner(tp, me, TRUE), 0, tr->k,
                 TRAFFIC_ROUTER_TAG);
    node_recv(node, traffic_partner(tp, me, FALSE), TRAFFIC_ROUTER_TAG,
              tr->k, tr->k);
    return NODE_DONE;
}

/* Run the traffic on the machine of `machine_text` ("[machine]\n..."),
 * recording it. NULL with *error for a bad machine or a failed run. */
static inline Report *traffic_record_mode(const char *machine_text,
                                          gboolean partner_only, Trace **trace,
                                          GError **error)
{
    g_autoptr(Scenario) s = scenario_load_data("traffic", machine_text, error);
    if (!s)
        return NULL;
    Machine m;
    if (!prepare_machine(s, &m, error))
        return NULL;
    Traffic tr = { &m.topology, TRAFFIC_K, partner_only };
    /* Block 0 is sent, block 1 receives the partner's, block 2 + l what
     * arrives over link l. */
    size_t blocks = partner_only ? 2 : (size_t)m.topology.links + 2;
    SimLayout layout = { tr.k * blocks, 1, 0, 0, FALSE };
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    Sim *sim = sim_new(&m, &layout);
    sim_set_observer(sim, trace_recorder_observer(), rec);
    if (!sim_run(sim, traffic_step, &tr, error)) {
        sim_free(sim);
        machine_clear(&m);
        return NULL;
    }
    Report *r = report_new();
    r->scenario = g_strdup("traffic");
    r->machine = m;                       /* the report owns it now */
    r->algorithm = g_strdup("traffic");
    r->method = g_strdup(partner_only ? "router" : "neighbours-then-router");
    r->elements_per_node = tr.k;
    report_take_stats(r, sim_stats(sim), NULL);
    sim_free(sim);
    *trace = trace_recorder_finish(rec, r);
    return r;
}

static inline Report *traffic_record(const char *machine_text, Trace **trace,
                                     GError **error)
{
    return traffic_record_mode(machine_text, FALSE, trace, error);
}

#endif
