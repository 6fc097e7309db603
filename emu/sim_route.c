/* sim_route.c -- routing and startups: a message's route reserved the
 * moment it is posted, hop by hop, in runs of elements that each take the
 * earliest free slots of the hop's channel and ports (oldest-first
 * arbitration, sim.h), its startup held on a port where the machine says
 * so, and the statistics of every hop.
 *
 * A unit of its own because it is the machine model's arithmetic, which
 * the tests hold against a reference model (tests/engine_model.h), apart
 * from how nodes, messages and receives meet (sim.c) and from where the
 * channels' state lives (sim_channels.c). The common case, one hop that
 * flows without interruption, is reserved inline in the caller
 * (sim_route and sim_route_one in sim_internal.h); here are the rest:
 * the hop's resources, runs of elements, and startups that hold a port.
 */
#include "sim_internal.h"
#include "oom.h"

static void sim_grow_runs(Sim *sim, size_t need)
{
    if (need <= sim->run_cap)
        return;
    size_t cap = sim->run_cap ? sim->run_cap : 16;
    while (cap < need)
        cap *= 2;
    sim->run_a = EMU_RENEW(Run, sim->run_a, cap, "a message's runs of elements");
    sim->run_b = EMU_RENEW(Run, sim->run_b, cap, "a message's runs of elements");
    sim->run_cap = cap;
}

/* The resources one element of a hop needs: res[0] the channel (capacity
 * one) unless implied by the ports, then the sending and receiving ports
 * (capacity k) when limited, then where the message's class uses memory
 * paths the source's on the first hop and the destination's on the last
 * (capacity one each; a one-hop message's two are different nodes, since
 * no topology links a node to itself). */
typedef struct {
    Timeline *res[5];
    uint32_t cap[5];
    int n;
} Hop;

/* Earliest t >= from at which one element may cross: every resource of
 * the hop is free for one element-time. */
static Tick hop_fit(const Hop *hop, Tick from, Tick tau)
{
    Tick t = from;
    for (;;) {
        Tick t0 = t;
        for (int r = 0; r < hop->n; r++)
            t = timeline_fit(hop->res[r], t, tau, hop->cap[r]);
        if (t == t0)
            return t;
    }
}

static Tick hop_free_until(const Hop *hop, Tick t)
{
    Tick until = TIMELINE_FOREVER;
    for (int r = 0; r < hop->n; r++) {
        Tick u = timeline_free_until(hop->res[r], t, hop->cap[r]);
        if (u < until)
            until = u;
    }
    return until;
}

/* Reserve the startup of a message whose startups hold the port: on the
 * source's sending port when ports are limited, else on its first
 * channel (with all ports, every channel has its own port). Returns when
 * the startup ends. */
Tick sim_hold_startup(Sim *sim, const SimMessage *msg, int link,
                      Tick ts)
{
    Timeline *res;
    uint32_t cap;
    if (sim->send_port) {
        res = &sim->send_port[msg->source];
        cap = sim->port_capacity;
        if (sim->checks)
            sim_order_touch(sim, &sim->port_mark[msg->source], msg->source,
                            "the send port", msg->source);
    } else {
        res = sim_channel_timeline(sim, msg->source, link);
        cap = 1;
        if (sim->checks)
            sim_channel_touch(sim, res, msg->source, msg->source);
    }
    timeline_prune(res, sim->now);
    Tick s = timeline_fit(res, sim->now, ts, cap);
    timeline_take(res, s, s + ts);
    if (!sim->send_port)
        sim_channel_took(sim, link, res, s + ts);
    if (sim->observer && sim->observer->startup)
        sim->observer->startup(sim->observer_data, msg, link, s, ts);
    return s + ts;
}

/* The hops of a route from hop h0 on, in runs of elements: the message's
 * first element ready to leave node u (hop h0's source) at `ready`. */
static Tick route_in_runs(Sim *sim, const SimMessage *msg, const int *path,
                          int hops, int h0, uint32_t u, Tick ready,
                          Tick *left)
{
    const Tick tau = msg->element_time;
    uint64_t count = msg->count;

    sim_grow_runs(sim, 1);
    gboolean in_is_a = TRUE;       /* run_a holds this hop's input */
    Run *in = sim->run_a, *out = sim->run_b;
    size_t nin = 1;
    in[0] = (Run){ 0, count, ready };
    Tick end = ready;

    const gboolean paths = machine_price(&sim->machine, msg->cls)->memory_path;
    if (paths) {
        /* Each element holds its source's path on the first hop and its
         * destination's on the last, tau ticks each (sim_route_runs takes
         * such a route here from hop 0). */
        sim_path_account(sim, msg->source, (Tick)count * tau);
        sim_path_account(sim, msg->dest, (Tick)count * tau);
    }
    for (int h = h0; h < hops; h++) {
        int link = path[h];
        uint32_t v = topology_neighbour(sim->topo, u, link);
        Timeline *ch = sim->channels_implied
                           ? NULL : sim_channel_timeline(sim, u, link);
        Hop hop = { .n = 0 };
        if (ch) {
            hop.res[hop.n] = ch;
            hop.cap[hop.n++] = 1;
        }
        if (sim->send_port) {
            hop.res[hop.n] = &sim->send_port[u];
            hop.cap[hop.n++] = sim->port_capacity;
            hop.res[hop.n] = &sim->recv_port[v];
            hop.cap[hop.n++] = sim->port_capacity;
        }
        /* An element is read from the source's memory while it crosses
         * the first channel and written into the destination's while it
         * crosses the last; a node's path carries one element at a time,
         * whether it is sending or receiving. */
        if (paths && h == 0) {
            hop.res[hop.n] = &sim->mem_path[msg->source];
            hop.cap[hop.n++] = 1;
        }
        if (paths && h == hops - 1) {
            hop.res[hop.n] = &sim->mem_path[msg->dest];
            hop.cap[hop.n++] = 1;
        }
        for (int r = 0; r < hop.n; r++)
            timeline_prune(hop.res[r], sim->now);
        if (sim->checks) {
            if (ch)
                sim_channel_touch(sim, ch, msg->source, u);
            if (sim->send_port) {
                sim_order_touch(sim, &sim->port_mark[u], msg->source,
                                "the send port", u);
                sim_order_touch(sim, &sim->port_mark[sim->nodes + v],
                                msg->source, "the receive port", v);
            }
            if (paths && h == 0)
                sim_order_touch(sim, &sim->path_mark[msg->source],
                                msg->source, "the memory path", msg->source);
            if (paths && h == hops - 1)
                sim_order_touch(sim, &sim->path_mark[msg->dest], msg->source,
                                "the memory path", msg->dest);
        }

        size_t nout = 0;
        Tick prev_end = INT64_MIN;
        for (size_t i = 0; i < nin; i++) {
            uint64_t k = 0;
            while (k < in[i].count) {
                Tick want = in[i].start + (Tick)k * tau;
                if (want < prev_end)
                    want = prev_end;
                Tick t = hop_fit(&hop, want, tau);
                Tick until = hop_free_until(&hop, t);
                uint64_t take = in[i].count - k;
                if (until != TIMELINE_FOREVER
                    && (uint64_t)((until - t) / tau) < take)
                    take = (uint64_t)((until - t) / tau);
                Tick stop = t + (Tick)take * tau;
                for (int r = 0; r < hop.n; r++)
                    timeline_take(hop.res[r], t, stop);
                if (sim->observer && sim->observer->channel_busy)
                    sim->observer->channel_busy(sim->observer_data, msg, u,
                                                link, in[i].first + k, take, t);
                if (nout > 0 && out[nout - 1].start
                                    + (Tick)out[nout - 1].count * tau == t) {
                    out[nout - 1].count += take;
                } else {
                    sim_grow_runs(sim, nout + 1);
                    in = in_is_a ? sim->run_a : sim->run_b;
                    out = in_is_a ? sim->run_b : sim->run_a;
                    out[nout++] = (Run){ in[i].first + k, take, t };
                }
                prev_end = stop;
                k += take;
            }
        }
        sim_hop_account(sim, msg, u, link, ch, prev_end);

        end = prev_end;
        if (h == 0)
            *left = end;
        /* An element that crossed in [t, t+tau) may leave the next node at
         * t+tau. */
        for (size_t i = 0; i < nout; i++)
            out[i].start += tau;
        in_is_a = !in_is_a;
        in = in_is_a ? sim->run_a : sim->run_b;
        out = in_is_a ? sim->run_b : sim->run_a;
        nin = nout;
        u = v;
    }
    return end;
}

/* Routes up to this many hops have their channels read ahead. */
#define ROUTE_AHEAD_HOPS 32

/* sim_route's general case (sim_internal.h): the message, its first
 * element ready to leave the source at `ready`. While the message flows
 * over its hops without interruption (each hop's channel free for all
 * its elements from the slot it first finds), each hop is one claim
 * (timeline_claim), which reserves exactly what the runs below would
 * reserve for one run; from the first hop where it would break into
 * runs, the runs take over from there. Routed messages (a BMMC's, a
 * transpose's) mostly flow, so most hops cost a claim. */
Tick sim_route_runs(Sim *sim, const SimMessage *msg, const int *path,
                    int hops, Tick ready, Tick *left)
{
    uint32_t u = msg->source;
    int h = 0;
    if (!sim->send_port && !sim->channels_implied
        && !machine_price(&sim->machine, msg->cls)->memory_path) {
        const Tick tau = msg->element_time;
        Tick end = ready;
        /* The route's channels are known now: ask for all their lines at
         * once, then for the span blocks of the contended ones, so that
         * the hops' misses overlap instead of coming one after another. */
        Timeline *chs[ROUTE_AHEAD_HOPS];
        uint32_t us[ROUTE_AHEAD_HOPS];
        gboolean ahead = hops <= ROUTE_AHEAD_HOPS;
        if (ahead) {
            uint32_t v = u;
            for (int k = 0; k < hops; k++) {
                us[k] = v;
                chs[k] = sim_channel_timeline(sim, v, path[k]);
                EMU_PREFETCH(chs[k]);
                v = topology_neighbour(sim->topo, v, path[k]);
            }
            for (int k = 0; k < hops; k++)
                timeline_prefetch(chs[k]);
        }
        for (; h < hops; h++) {
            int link = path[h];
            Timeline *ch = ahead ? chs[h] : sim_channel_timeline(sim, u, link);
            if (sim->checks)
                sim_channel_touch(sim, ch, msg->source, u);
            Tick t = timeline_claim(ch, sim->now, ready, tau, msg->count);
            if (t < 0)
                break;
            end = t + (Tick)msg->count * tau;
            if (sim->observer && sim->observer->channel_busy)
                sim->observer->channel_busy(sim->observer_data, msg, u, link,
                                            0, msg->count, t);
            sim_hop_account(sim, msg, u, link, ch, end);
            if (h == 0)
                *left = end;
            /* An element that crossed in [t, t+tau) may leave the next
             * node at t+tau. */
            ready = t + tau;
            u = ahead && h + 1 < hops ? us[h + 1]
                                      : topology_neighbour(sim->topo, u, link);
        }
        if (h == hops)
            return end;
    }
    return route_in_runs(sim, msg, path, hops, h, u, ready, left);
}
