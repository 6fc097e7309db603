/* run.c -- run one scenario from its text to a verified report.
 *
 * Verification is independent of the node program: the algorithm's expect()
 * computes what each node must hold, and conservation is checked with two
 * additive multiset hashes of every payload in the verified region, taken
 * before and after the run (an element lost, duplicated or altered changes
 * them except with probability about 2^-128).
 */
#include "run.h"
#include "algorithm.h"
#include "prepare.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* Share of physical memory a run may plan to use: the rest is for the
 * system and for the verifier's buffers. */
#define RUN_MEMORY_SHARE 0.8

uint64_t run_memory_limit(void)
{
    const char *env = g_getenv("CUBEMU_MEMORY_LIMIT");
    if (env && *env)
        return g_ascii_strtoull(env, NULL, 10);
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return UINT64_MAX;
    return (uint64_t)((double)pages * (double)size * RUN_MEMORY_SHARE);
}

/* RUN_ORDER_DEFAULT: $CUBEMU_ORDER, else the locality order. */
static gboolean run_order_env(RunOrder *order, GError **error)
{
    const char *env = g_getenv("CUBEMU_ORDER");
    *order = RUN_ORDER_LOCALITY;
    if (!env || !*env || !strcmp(env, "locality"))
        return TRUE;
    if (!strcmp(env, "contract")) {
        *order = RUN_ORDER_CONTRACT;
        return TRUE;
    }
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "CUBEMU_ORDER: unknown order '%s' (valid: contract, locality)",
                env);
    return FALSE;
}

static char *bytes_text(uint64_t b)
{
    return g_format_size_full(b, G_FORMAT_SIZE_IEC_UNITS);
}

/* The largest |reference| over all nodes, for a tolerant comparison. */
static double reference_scale(const Algorithm *alg, const void *config,
                              uint32_t nodes, size_t k, Word *expected)
{
    double scale = 0;
    for (uint32_t x = 0; x < nodes; x++)
        scale = fmax(scale, run_reference_scale(alg, config, x, k, expected));
    return scale;
}

static const Word *sim_memory_of(void *sim, uint32_t x)
{
    return sim_node_memory(sim, x);
}

/* Every node against the reference (prepare.c's run_check_node), the
 * sampled part, and conservation. */
static void run_verify(Report *r, Sim *sim, const RunSetup *setup,
                       uint32_t nodes, Fingerprint before)
{
    const MemoryLayout *layout = &setup->layout;
    size_t k = layout->elements_per_node;
    size_t computed = layout->computed_elements;
    size_t w = element_words(layout->element);
    g_autofree Word *expected = g_new(Word, k ? k * w : 1);
    gboolean tolerant = layout->tolerance > 0
                        && layout->element == ELEMENT_COMPLEX;
    double limit = tolerant ? layout->tolerance
                              * reference_scale(setup->algorithm,
                                                setup->config, nodes, k,
                                                expected)
                            : 0;
    /* Each node's memory is read once for both checks, while it is in
     * cache (for a 16-cube, 32 MiB that a second pass read again). */
    char *problem = NULL;
    Fingerprint after = { 0, 0 };
    for (uint32_t x = 0; x < nodes; x++) {
        const Word *mem = sim_node_memory(sim, x);
        if (!problem)
            problem = run_check_node(setup, x, mem, expected, limit);
        run_fingerprint_add(&after, mem, computed, k, w);
    }
    if (!problem && layout->sample > 0 && computed > 0)
        problem = run_check_samples(setup, nodes, sim_memory_of, sim);
    r->placement_correct = problem == NULL;
    r->data_problem = problem;
    r->conserved = layout->computed
                   || (after.a == before.a && after.b == before.b);
    if (!r->conserved && !r->data_problem)
        r->data_problem = g_strdup("WRONG: elements were lost or duplicated");
    r->data_correct = r->placement_correct && r->conserved;
}

Report *run_scenario(const Scenario *s, const RunOptions *options,
                     GError **error)
{
    RunSetup setup;
    if (!run_setup(s, &setup, error))
        return NULL;
    Machine machine = setup.machine;
    const Algorithm *alg = setup.algorithm;
    void *config = setup.config;
    MemoryLayout layout = setup.layout;

    uint32_t nodes = machine_nodes(&machine);
    size_t w = element_words(layout.element);
    SimLayout sim_layout = { layout.memory_elements, w, layout.local_size,
                             algorithm_phase_count(alg) };
    uint64_t need = sim_bytes_needed(&machine, &sim_layout)
                    + (options && options->dump_memory
                       ? (uint64_t)nodes * layout.elements_per_node * w
                             * sizeof(Word)
                       : 0);
    uint64_t limit = run_memory_limit();
    if (need > limit) {
        g_autofree char *need_text = bytes_text(need);
        g_autofree char *limit_text = bytes_text(limit);
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s: machine too large: %u nodes with %zu elements each "
                    "would need %s, more than the %s this run may use "
                    "(set CUBEMU_MEMORY_LIMIT in bytes to change the limit)",
                    scenario_name(s), nodes, layout.memory_elements, need_text,
                    limit_text);
        run_setup_release(&setup, TRUE);
        return NULL;
    }

    RunOrder order = options ? options->order : RUN_ORDER_DEFAULT;
    if (order == RUN_ORDER_DEFAULT && !run_order_env(&order, error)) {
        run_setup_release(&setup, TRUE);
        return NULL;
    }
    /* The locality order, and where it stops or the run fails, the
     * contract's from the start (RunOrder). */
    g_autoptr(Sim) sim = NULL;
    Fingerprint before;
    double wall = 0;
    gboolean fallback = FALSE;
    for (;;) {
        g_clear_pointer(&sim, sim_free);
        sim = sim_new(&machine, &sim_layout);
        if (options && options->observer)
            sim_set_observer(sim, options->observer, options->observer_data);
        sim_set_order(sim, order == RUN_ORDER_LOCALITY ? SIM_ORDER_LOCALITY
                                                       : SIM_ORDER_CONTRACT);
        before = (Fingerprint){ 0, 0 };
        for (uint32_t x = 0; x < nodes; x++) {
            alg->init(config, x, sim_node_memory(sim, x));
            run_fingerprint_add(&before, sim_node_memory(sim, x),
                                layout.computed_elements,
                                layout.elements_per_node, w);
        }
        GError *e = NULL;
        gint64 t0 = g_get_monotonic_time();
        gboolean ok = sim_run(sim, alg->step, config, &e);
        wall += (double)(g_get_monotonic_time() - t0) / 1e6;
        if (ok)
            break;
        if (sim_order_locality(sim)) {
            g_debug("%s: %s; running it again in the contract's order",
                    scenario_name(s), e->message);
            g_error_free(e);
            order = RUN_ORDER_CONTRACT;
            fallback = TRUE;
            continue;
        }
        g_propagate_error(error, e);
        run_setup_release(&setup, TRUE);
        return NULL;
    }

    Report *r = report_new();
    r->scenario = g_strdup(scenario_name(s));
    r->machine = machine;                 /* the report owns it now */
    run_report_algorithm(r, &setup);
    r->elements_per_node = layout.elements_per_node;
    r->element = layout.element;
    r->wall_seconds = wall;
    r->order_locality = sim_order_locality(sim);
    r->order_fallback = fallback;
    report_take_stats(r, sim_stats(sim), alg->phases);

    r->computed = layout.computed;
    r->tolerance = layout.tolerance;
    r->computed_elements = layout.computed_elements;
    r->sampled = layout.computed_elements ? layout.sample : 0;
    run_verify(r, sim, &setup, nodes, before);
    if (options && options->dump_memory) {
        size_t k = layout.elements_per_node * w;
        r->memory = g_new(Word, (size_t)nodes * (k ? k : 1));
        for (uint32_t x = 0; x < nodes; x++)
            memcpy(r->memory + (size_t)x * k, sim_node_memory(sim, x),
                   k * sizeof(Word));
    }
    alg->report(config, r);
    run_setup_release(&setup, FALSE);     /* the report owns the machine */
    return r;
}
