/* program.c -- the SDK's functions (cubemu/program.h) over cubemu's own,
 * and a descriptor made into an Algorithm (sdk.h).
 *
 * The handles a program sees are cubemu's objects under the SDK's names:
 * a cubemu_node is the backend's Node, a cubemu_report the run's Report;
 * a cubemu_machine is a copy of the Machine that lives in the wrapper
 * around the program's configuration (SdkRun), so it is valid from prepare
 * to release as the header promises; cubemu_params carries the error of
 * cubemu_fail back to the runner. The enumerations of the header equal
 * cubemu's own, so values pass through unchanged (checked below).
 */
#include "sdk.h"
#include "scenario.h"

#include <math.h>
#include <string.h>

/* Both sides as int: they are different enumerations. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(CUBEMU_NEEDS_DIMENSIONS, TOPOLOGY_DIMENSIONS)
               && SAME(CUBEMU_NEEDS_AXES, TOPOLOGY_AXES)
               && SAME(CUBEMU_NEEDS_DIRECT, TOPOLOGY_DIRECT)
               && SAME(CUBEMU_NEEDS_RINGS, TOPOLOGY_RINGS), "traits");
_Static_assert(SAME(CUBEMU_WORD, ELEMENT_WORD)
               && SAME(CUBEMU_DOUBLE, ELEMENT_DOUBLE)
               && SAME(CUBEMU_COMPLEX, ELEMENT_COMPLEX), "element types");
_Static_assert(SAME(CUBEMU_UPPER, BOUND_UPPER)
               && SAME(CUBEMU_LOWER, BOUND_LOWER)
               && SAME(CUBEMU_EXACT, BOUND_EXACT), "bound kinds");
_Static_assert(SAME(CUBEMU_NEIGHBOUR, CLASS_NEIGHBOUR)
               && SAME(CUBEMU_ROUTER, CLASS_ROUTER), "message classes");
_Static_assert(SAME(CUBEMU_CONTINUE, NODE_CONTINUE)
               && SAME(CUBEMU_DONE, NODE_DONE), "step results");
_Static_assert(CUBEMU_NONE == NODE_NONE && CUBEMU_NONE == TOPOLOGY_NONE,
               "no node");
_Static_assert(sizeof(cubemu_word) == sizeof(Word)
               && sizeof(cubemu_tick) == sizeof(Tick), "word and tick");

struct cubemu_machine {
    Machine machine;
};

struct cubemu_params {
    const Params *params;
    GError *error;                /* cubemu_fail's, the first */
};

/* What the runner holds as the configuration of a program's run. */
typedef struct {
    const cubemu_program *program;
    struct cubemu_machine machine;
    void *config;                 /* the program's own */
} SdkRun;

#define NODE(n) ((Node *)(n))
#define CNODE(n) ((const Node *)(n))
#define REPORT(r) ((Report *)(r))
#define TOPO(m) (&(m)->machine.topology)

/* ---- parameters ---------------------------------------------------------- */

long long cubemu_param_int(const cubemu_params *p, const char *key)
{
    return params_int(p->params, key);
}

int cubemu_param_choice(const cubemu_params *p, const char *key)
{
    return params_choice(p->params, key);
}

const char *cubemu_param_text(const cubemu_params *p, const char *key)
{
    return params_text(p->params, key);
}

int cubemu_param_given(const cubemu_params *p, const char *key)
{
    return params_given(p->params, key) ? 1 : 0;
}

int cubemu_method_index(const cubemu_params *p)
{
    return params_method(p->params);
}

void *cubemu_fail(cubemu_params *p, const char *key, const char *format, ...)
{
    if (p->error)
        return NULL;              /* the first failure is the one told */
    va_list ap;
    va_start(ap, format);
    g_autofree char *what = g_strdup_vprintf(format, ap);
    va_end(ap);
    if (key)
        return params_fail(p->params, &p->error, key, "%s", what);
    return params_fail_group(p->params, &p->error, "%s", what);
}

/* ---- the machine ----------------------------------------------------------- */

uint32_t cubemu_machine_nodes(const cubemu_machine *m)
{
    return m->machine.topology.nodes;
}

const char *cubemu_machine_topology(const cubemu_machine *m)
{
    return m->machine.topology.ops->name;
}

int cubemu_machine_links(const cubemu_machine *m)
{
    return m->machine.topology.links;
}

int cubemu_machine_axes(const cubemu_machine *m)
{
    return m->machine.topology.axes;
}

uint32_t cubemu_machine_side(const cubemu_machine *m, int axis)
{
    const Topology *t = TOPO(m);
    return axis >= 0 && axis < t->axes && axis < TOPOLOGY_MAX_AXES
               ? t->side[axis] : 0;
}

int cubemu_machine_wrap(const cubemu_machine *m)
{
    return m->machine.topology.wrap ? 1 : 0;
}

uint32_t cubemu_machine_diameter(const cubemu_machine *m)
{
    return m->machine.topology.diameter;
}

int cubemu_machine_node_alive(const cubemu_machine *m, uint32_t node)
{
    return node < TOPO(m)->nodes
           && !faults_node_dead(m->machine.faults, node);
}

uint32_t cubemu_machine_neighbour(const cubemu_machine *m, uint32_t node,
                                  int link)
{
    const Topology *t = TOPO(m);
    if (node >= t->nodes || link < 0 || link >= t->links)
        return CUBEMU_NONE;
    return topology_neighbour(t, node, link);
}

int cubemu_machine_route(const cubemu_machine *m, uint32_t from, uint32_t to,
                         int *links)
{
    const Topology *t = TOPO(m);
    if (from >= t->nodes || to >= t->nodes)
        return 0;
    return topology_route(t, from, to, links);
}

static const MachinePrice *price_of(const cubemu_machine *m, int c)
{
    return machine_price(&m->machine, c == CUBEMU_ROUTER ? CLASS_ROUTER
                                                         : CLASS_NEIGHBOUR);
}

cubemu_tick cubemu_machine_startup(const cubemu_machine *m, int message_class)
{
    return price_of(m, message_class)->startup;
}

cubemu_tick cubemu_machine_element_time(const cubemu_machine *m,
                                        int message_class)
{
    return price_of(m, message_class)->element_time;
}

int cubemu_machine_ports(const cubemu_machine *m)
{
    return m->machine.ports == MACHINE_PORTS_ALL ? 0 : m->machine.ports;
}

cubemu_tick cubemu_machine_flop_time(const cubemu_machine *m)
{
    return m->machine.flop_time;
}

double cubemu_machine_tick_seconds(const cubemu_machine *m)
{
    return m->machine.tick_seconds;
}

/* ---- rings ----------------------------------------------------------------- */

/* The topology's ring in the SDK's: its own fields in `own`. */
static void ring_to_sdk(const TopologyRing *r, cubemu_ring *out)
{
    memset(out, 0, sizeof *out);
    out->length = r->length;
    out->longest = r->longest;
    out->own[0] = r->axis;
    out->own[1] = r->lo;
    out->own[2] = r->hi;
}

static TopologyRing ring_from_sdk(const cubemu_ring *r)
{
    return (TopologyRing){ .length = r->length, .longest = r->longest,
                           .axis = r->own[0], .lo = r->own[1],
                           .hi = r->own[2] };
}

const char *cubemu_ring_key(const cubemu_machine *m)
{
    return TOPO(m)->ops->ring_key;
}

int cubemu_ring_get(const cubemu_machine *m, const char *value,
                    cubemu_ring *ring, char *why, size_t why_size)
{
    const Topology *t = TOPO(m);
    if (!t->ops->ring) {
        if (why && why_size)
            g_strlcpy(why, "this topology has no rings", why_size);
        return 0;
    }
    TopologyRing r = { 0 };
    g_autofree char *reason = NULL;
    if (!t->ops->ring(t, value, &r, &reason)) {
        if (why && why_size)
            g_strlcpy(why, reason ? reason : "no such rings", why_size);
        return 0;
    }
    ring_to_sdk(&r, ring);
    return 1;
}

uint32_t cubemu_ring_position(const cubemu_machine *m, const cubemu_ring *r,
                              uint32_t node)
{
    TopologyRing tr = ring_from_sdk(r);
    return TOPO(m)->ops->ring_position(TOPO(m), &tr, node);
}

uint32_t cubemu_ring_node(const cubemu_machine *m, const cubemu_ring *r,
                          uint32_t node, uint32_t position)
{
    TopologyRing tr = ring_from_sdk(r);
    return TOPO(m)->ops->ring_node(TOPO(m), &tr, node, position);
}

int cubemu_ring_link(const cubemu_machine *m, const cubemu_ring *r,
                     uint32_t node, uint32_t next)
{
    TopologyRing tr = ring_from_sdk(r);
    return TOPO(m)->ops->ring_link(TOPO(m), &tr, node, next);
}

/* ---- the node -------------------------------------------------------------- */

uint32_t cubemu_address(const cubemu_node *n) { return node_address(CNODE(n)); }
uint32_t cubemu_nodes(const cubemu_node *n) { return node_count(CNODE(n)); }
int cubemu_links(const cubemu_node *n) { return node_links(CNODE(n)); }
unsigned cubemu_step(const cubemu_node *n) { return node_step(CNODE(n)); }
cubemu_word *cubemu_memory(cubemu_node *n) { return node_memory(NODE(n)); }
void *cubemu_local(cubemu_node *n) { return node_local(NODE(n)); }

int cubemu_node_alive(const cubemu_node *n, uint32_t address)
{
    return node_alive(CNODE(n), address) ? 1 : 0;
}

uint32_t cubemu_neighbour(const cubemu_node *n, int link)
{
    return node_neighbour(CNODE(n), link);
}

size_t cubemu_memory_elements(const cubemu_node *n)
{
    return node_memory_elements(CNODE(n));
}

size_t cubemu_element_words(const cubemu_node *n)
{
    return node_element_words(CNODE(n));
}

void cubemu_send(cubemu_node *n, const int *path, int hops, size_t offset,
                 size_t count, int tag)
{
    node_send(NODE(n), path, hops, offset, count, tag);
}

void cubemu_send_to(cubemu_node *n, uint32_t dest, size_t offset,
                    size_t count, int tag)
{
    node_send_to(NODE(n), dest, offset, count, tag);
}

void cubemu_recv(cubemu_node *n, uint32_t source, int tag, size_t offset,
                 size_t count)
{
    node_recv(NODE(n), source, tag, offset, count);
}

void cubemu_exchange(cubemu_node *n, int link, size_t offset, size_t count,
                     int tag)
{
    node_exchange(NODE(n), link, offset, count, tag);
}

void cubemu_compute(cubemu_node *n, uint64_t flops)
{
    node_compute(NODE(n), flops);
}

void cubemu_busy(cubemu_node *n, cubemu_tick ticks)
{
    node_busy(NODE(n), ticks);
}

void cubemu_kernel(cubemu_node *n, const char *kernel,
                   const uint64_t shape[3], uint64_t flops)
{
    node_kernel(NODE(n), kernel, shape, flops);
}

void cubemu_idle(cubemu_node *n, cubemu_tick ticks)
{
    node_idle(NODE(n), ticks);
}

void cubemu_phase(cubemu_node *n, unsigned phase)
{
    node_phase(NODE(n), phase);
}

void cubemu_mark(cubemu_node *n, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    node_vmark(NODE(n), format, ap);
    va_end(ap);
}

/* ---- the report ------------------------------------------------------------ */

/* A kind the header does not name is taken as the weakest claim. */
static BoundKind bound_kind(int kind)
{
    return kind == CUBEMU_UPPER ? BOUND_UPPER
           : kind == CUBEMU_EXACT ? BOUND_EXACT : BOUND_LOWER;
}

void cubemu_bound(cubemu_report *r, const char *field, const char *name,
                  int kind, double value, const char *source)
{
    report_bound(REPORT(r), field, name, bound_kind(kind), value, source);
}

void cubemu_bound_na_why(cubemu_report *r, const char *field,
                         const char *name, int kind, const char *reason,
                         const char *source)
{
    report_bound_na(REPORT(r), field, name, bound_kind(kind), reason, source);
}

void cubemu_bound_na(cubemu_report *r, const char *field, const char *name,
                     int kind, const char *source)
{
    cubemu_bound_na_why(r, field, name, kind,
                        "its program lists it as another case's bound",
                        source);
}

void cubemu_detail_int(cubemu_report *r, const char *key, long long value)
{
    report_detail_int(REPORT(r), key, value);
}

void cubemu_detail_double(cubemu_report *r, const char *key, double value)
{
    report_detail_double(REPORT(r), key, value);
}

void cubemu_detail_text(cubemu_report *r, const char *key, const char *value)
{
    report_detail_text(REPORT(r), key, value);
}

/* ---- the adapter: a descriptor run as an Algorithm ------------------------- */

/* The layout a program gave, checked and made cubemu's; FALSE with the
 * reason in *why. */
static gboolean layout_from_sdk(const cubemu_layout *in, MemoryLayout *out,
                                char **why)
{
    if (in->element < CUBEMU_WORD || in->element > CUBEMU_COMPLEX)
        *why = g_strdup_printf("element type %d is none of CUBEMU_WORD, "
                               "CUBEMU_DOUBLE, CUBEMU_COMPLEX", in->element);
    else if (in->elements_per_node > in->memory_elements)
        *why = g_strdup_printf("elements_per_node %zu is more than "
                               "memory_elements %zu", in->elements_per_node,
                               in->memory_elements);
    else if (in->computed_elements > in->elements_per_node)
        *why = g_strdup_printf("computed_elements %zu is more than "
                               "elements_per_node %zu", in->computed_elements,
                               in->elements_per_node);
    else if (!(in->tolerance >= 0) || !isfinite(in->tolerance))
        *why = g_strdup_printf("tolerance %g is not a finite number >= 0",
                               in->tolerance);
    else if (in->tolerance > 0 && in->element != CUBEMU_COMPLEX)
        *why = g_strdup("a tolerance applies to CUBEMU_COMPLEX elements only");
    else {
        *out = (MemoryLayout){
            .memory_elements = in->memory_elements,
            .elements_per_node = in->elements_per_node,
            .local_size = in->local_size,
            .element = (ElementType)in->element,
            .computed = in->computed != 0,
            .tolerance = in->tolerance,
            .computed_elements = in->computed_elements,
        };
        return TRUE;
    }
    return FALSE;
}

static void sdk_release(void *config)
{
    SdkRun *run = config;
    if (run->program->release)
        run->program->release(run->config);
    machine_clear(&run->machine.machine);
    g_free(run);
}

static void *sdk_prepare(const Machine *m, const Params *p,
                         MemoryLayout *layout, GError **error)
{
    const cubemu_program *prog = params_algorithm(p)->program;
    SdkRun *run = g_new0(SdkRun, 1);
    run->program = prog;
    machine_copy(&run->machine.machine, m);
    struct cubemu_params params = { p, NULL };
    cubemu_layout given = { 0 };
    run->config = prog->prepare(&run->machine, &params, &given);
    char *why = NULL;
    if (params.error || !run->config) {
        if (params.error)
            g_propagate_error(error, params.error);
        else
            params_fail_group(p, error, "program '%s': prepare failed "
                              "without saying why (cubemu_fail)", prog->name);
        if (run->config && prog->release)
            prog->release(run->config);
        machine_clear(&run->machine.machine);
        g_free(run);
        return NULL;
    }
    if (!layout_from_sdk(&given, layout, &why)) {
        params_fail_group(p, error, "program '%s': prepare's layout: %s",
                          prog->name, why);
        g_free(why);
        sdk_release(run);
        return NULL;
    }
    return run;
}

static void sdk_init(const void *config, uint32_t x, Word *memory)
{
    const SdkRun *run = config;
    run->program->init(run->config, x, memory);
}

static NodeStatus sdk_step(Node *node, const void *config)
{
    const SdkRun *run = config;
    return run->program->step((cubemu_node *)node, run->config)
                   == CUBEMU_CONTINUE ? NODE_CONTINUE : NODE_DONE;
}

static void sdk_expect(const void *config, uint32_t x, Word *expected)
{
    const SdkRun *run = config;
    run->program->expect(run->config, x, expected);
}

static void sdk_report(const void *config, Report *r)
{
    const SdkRun *run = config;
    if (run->program->report)
        run->program->report(run->config, &run->machine, (cubemu_report *)r);
}

/* A name as the report, the list and [expect] carry it: letters, digits
 * and "-_.", not empty. */
static gboolean good_name(const char *s)
{
    if (!s || !*s)
        return FALSE;
    for (; *s; s++)
        if (!g_ascii_isalnum(*s) && !strchr("-_.", *s))
            return FALSE;
    return TRUE;
}

unsigned sdk_flags(const cubemu_program *p)
{
    return p->size >= offsetof(cubemu_program, flags) + sizeof p->flags
           ? p->flags : 0;
}

/* Everything the header requires of a descriptor, past its version; the
 * first problem in *why. */
static gboolean descriptor_ok(const cubemu_program *p, char **why)
{
    if (!good_name(p->name)) {
        *why = g_strdup("its name is missing or not made of letters, digits "
                        "and -_.");
        return FALSE;
    }
    const char *missing = !p->prepare ? "prepare" : !p->init ? "init"
                          : !p->step ? "step" : !p->expect ? "expect" : NULL;
    if (missing) {
        *why = g_strdup_printf("program '%s' has no %s (prepare, init, step "
                               "and expect are required)", p->name, missing);
        return FALSE;
    }
    if (!p->methods || !p->methods[0].name) {
        *why = g_strdup_printf("program '%s' has no methods (give at least "
                               "one, {NULL}-terminated)", p->name);
        return FALSE;
    }
    for (const cubemu_method *m = p->methods; m->name; m++)
        if (!good_name(m->name)) {
            *why = g_strdup_printf("program '%s': method '%s' is not made of "
                                   "letters, digits and -_.", p->name,
                                   m->name);
            return FALSE;
        }
    if (p->needs & ~(unsigned)(CUBEMU_NEEDS_DIMENSIONS | CUBEMU_NEEDS_AXES
                               | CUBEMU_NEEDS_DIRECT | CUBEMU_NEEDS_RINGS)) {
        *why = g_strdup_printf("program '%s': needs has bits that are no "
                               "CUBEMU_NEEDS_*", p->name);
        return FALSE;
    }
    if (sdk_flags(p) & ~(unsigned)(CUBEMU_RUNS_WITH_DEAD_NODES
                                   | CUBEMU_RUNS_IN_THREADS)) {
        *why = g_strdup_printf("program '%s': flags has bits that are no "
                               "CUBEMU_RUNS_*", p->name);
        return FALSE;
    }
    unsigned phases = 0;
    while (p->phases && p->phases[phases])
        phases++;
    if (phases > SIM_MAX_PHASES) {
        *why = g_strdup_printf("program '%s' has %u phases; at most %d",
                               p->name, phases, SIM_MAX_PHASES);
        return FALSE;
    }
    for (const cubemu_param *a = p->params; a && a->key; a++) {
        const char *bad = NULL;
        if (!good_name(a->key) || !strcmp(a->key, "name")
            || !strcmp(a->key, "method") || !strcmp(a->key, "program"))
            bad = "is not a usable key (name, method and program are "
                  "cubemu's)";
        else if (a->type < CUBEMU_PARAM_INT || a->type > CUBEMU_PARAM_TEXT)
            bad = "has a type that is no CUBEMU_PARAM_*";
        else if (a->type == CUBEMU_PARAM_CHOICE
                 && (!a->choices || !a->choices[0]))
            bad = "is a choice without choices";
        else if (a->type == CUBEMU_PARAM_INT && a->min > a->max)
            bad = "has min above max";
        for (const cubemu_param *b = p->params; !bad && b < a; b++)
            if (!strcmp(a->key, b->key))
                bad = "is declared twice";
        if (bad) {
            *why = g_strdup_printf("program '%s': parameter '%s' %s", p->name,
                                   a->key ? a->key : "(null)", bad);
            return FALSE;
        }
    }
    return TRUE;
}

static const cubemu_param no_params[] = { { .key = NULL } };

const Algorithm *sdk_algorithm(const cubemu_program *p, const char *path,
                               GError **error)
{
    char *why = NULL;
    if (!descriptor_ok(p, &why)) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, "%s%s%s",
                    path ? path : "", path ? ": " : "", why);
        g_free(why);
        return NULL;
    }
    Algorithm *a = g_new0(Algorithm, 1);
    a->name = p->name;
    a->summary = p->summary ? p->summary : "";
    a->source = p->source ? p->source : "";
    a->needs = p->needs;
    a->dead_nodes = (sdk_flags(p) & CUBEMU_RUNS_WITH_DEAD_NODES) != 0;
    a->one_thread = !(sdk_flags(p) & CUBEMU_RUNS_IN_THREADS);
    a->methods = p->methods;
    a->params = p->params ? p->params : no_params;
    a->phases = p->phases;
    a->prepare = sdk_prepare;
    a->release = sdk_release;
    a->init = sdk_init;
    a->step = sdk_step;
    a->expect = sdk_expect;
    a->report = sdk_report;
    a->program = p;
    a->program_path = path ? g_strdup(path) : NULL;
    return a;
}
