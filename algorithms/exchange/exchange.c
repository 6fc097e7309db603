/* exchange.c -- the dimension exchange, cubemu's simplest workload and the
 * one its speed is compared on.
 *
 * Every node exchanges K elements with its neighbour across each dimension.
 * Element j of node x starts with payload x*K + j.
 *   sequential  dimensions 0, 1, ..., n-1 in turn, all K elements each time
 *               (the butterfly pattern): n(Ts + K) cycles; every node ends
 *               with its antipode's data in the original order.
 *   all-port    K split into n contiguous parts of nearly equal size; part d
 *               crosses dimension d, all at once: Ts + ceil(K/n) cycles with
 *               ports = all; part d of node x ends on node x xor 2^d.
 */
#include "algorithm.h"

#include <math.h>

typedef struct {
    int n;
    uint64_t k;
    int method;
} ExchangeConfig;

enum { EXCHANGE_SEQUENTIAL, EXCHANGE_ALL_PORT };

static const AlgorithmMethod exchange_methods[] = {
    { "sequential", "dimensions 0..n-1 in turn, all K elements each time" },
    { "all-port", "K split into n parts, part d across dimension d, at once" },
    { NULL, NULL }
};

static const ParamSpec exchange_params[] = {
    { .key = "elements-per-node", .type = PARAM_INT, .fallback = "64",
      .min = 1, .max = 1LL << 32, .help = "K, elements per node" },
    { .key = NULL }
};

/* Part d of K: offsets [*offset, *offset + *count). */
static void part_range(const ExchangeConfig *c, int d, size_t *offset,
                       size_t *count)
{
    uint64_t q = c->k / (uint64_t)c->n, r = c->k % (uint64_t)c->n;
    *offset = (size_t)(q * (uint64_t)d + ((uint64_t)d < r ? (uint64_t)d : r));
    *count = (size_t)(q + ((uint64_t)d < r ? 1 : 0));
}

static NodeStatus exchange_step(Node *node, const void *config)
{
    const ExchangeConfig *c = config;
    unsigned t = node_step(node);
    if (c->method == EXCHANGE_SEQUENTIAL) {
        node_mark(node, "dimension %u", t);
        node_exchange(node, (int)t, 0, (size_t)c->k, (int)t);
        return t + 1 == (unsigned)c->n ? NODE_DONE : NODE_CONTINUE;
    }
    node_mark(node, "all dimensions");
    for (int d = 0; d < c->n; d++) {
        size_t offset, count;
        part_range(c, d, &offset, &count);
        if (count > 0)
            node_exchange(node, d, offset, count, d);
    }
    return NODE_DONE;
}

static void *exchange_prepare(const Machine *m, const Params *p,
                              MemoryLayout *layout, GError **error)
{
    (void)error;
    ExchangeConfig *c = g_new0(ExchangeConfig, 1);
    c->n = m->topology.axes;
    c->k = (uint64_t)params_int(p, "elements-per-node");
    c->method = params_method(p);
    layout->memory_elements = layout->elements_per_node = (size_t)c->k;
    layout->local_size = 0;
    return c;
}

/* Node x's initial payload, x K + j at element j (K in a local: the
 * stores could alias the config's). */
static void fill_payload(Word *out, uint64_t x, uint64_t k)
{
    uint64_t base = x * k;
    for (uint64_t j = 0; j < k; j++)
        out[j] = base + j;
}

static void exchange_init(const void *config, uint32_t x, Word *memory)
{
    const ExchangeConfig *c = config;
    fill_payload(memory, x, c->k);
}

static void exchange_expect(const void *config, uint32_t x, Word *expected)
{
    const ExchangeConfig *c = config;
    if (c->method == EXCHANGE_SEQUENTIAL) {
        fill_payload(expected, x ^ (((uint64_t)1 << c->n) - 1), c->k);
        return;
    }
    for (int d = 0; d < c->n; d++) {
        size_t offset, count;
        part_range(c, d, &offset, &count);
        uint64_t from = x ^ ((uint64_t)1 << d);
        for (size_t j = offset; j < offset + count; j++)
            expected[j] = from * c->k + j;
    }
}

#define ALL_PORT "Ts + ceil(K/n) with ports = all"
#define ALL_PORT_SOURCE "n concurrent exchanges of at most ceil(K/n) elements"

static void exchange_report(const void *config, Report *r)
{
    const ExchangeConfig *c = config;
    /* Every message crosses one link: the neighbour class's price. */
    const MachinePrice *price = machine_price(&r->machine, CLASS_NEIGHBOUR);
    double ts = (double)price->startup, tau = (double)price->element_time;
    double k = (double)c->k, n = c->n;
    if (c->method == EXCHANGE_SEQUENTIAL) {
        report_cycle_bound(r, "n(Ts + K)", BOUND_EXACT,
                                n * (ts + k * tau),
                                "n exchanges of K elements, one dimension "
                                "at a time");
    } else if (!machine_ports_limited(&r->machine)) {
        report_cycle_bound(r, ALL_PORT, BOUND_EXACT, ts + ceil(k / n) * tau,
                           ALL_PORT_SOURCE);
    } else {
        /* With fewer ports than links the n parts queue for them: the
         * bound is the all-port machine's, not this one's. */
        report_bound_na(r, "cycles", ALL_PORT, BOUND_EXACT,
                        "the machine has fewer ports than links, and the "
                        "bound counts on one a link", ALL_PORT_SOURCE);
    }
    uint64_t nodes = (uint64_t)1 << c->n;
    report_bound(r, "element_transfers", "element transfers", BOUND_EXACT,
                 (double)(c->method == EXCHANGE_SEQUENTIAL ? (uint64_t)c->n : 1)
                     * (double)(nodes * c->k),
                 "every element crosses one channel per exchange");
}

const Algorithm algorithm_exchange = {
    .name = "exchange",
    .summary = "every node exchanges K elements with each neighbour",
    .source = "dimension exchange (butterfly); cubemu's speed benchmark",
    .needs = TOPOLOGY_DIMENSIONS,
    .methods = exchange_methods,
    .params = exchange_params,
    .prepare = exchange_prepare,
    .release = g_free,
    .init = exchange_init,
    .step = exchange_step,
    .expect = exchange_expect,
    .report = exchange_report,
};
