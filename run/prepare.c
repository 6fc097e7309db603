/* prepare.c -- what a run does before and after the engine, shared by the
 * emulator's runner (run.c) and the MPI program (mpi/cubemu_mpi.c): the
 * scenario's [algorithm] resolved into parameters, the machine and the
 * algorithm's configuration prepared, and the per-node pieces of
 * verification (multiset fingerprints, element comparison, the sample
 * stream). Nothing here touches the engine, so the MPI program links it
 * without the engine (emu/sim*.c).
 */
#include "prepare.h"
#include "bits.h"
#include "sdk.h"
#include "keyvalue.h"
#include "suggest.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

Scenario *prepare_preset(const char *name, GError **error)
{
    char *why = NULL;
    g_autofree char *path = machine_preset_path(name, &why);
    if (!path) {
        g_set_error_literal(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, why);
        g_free(why);
        return NULL;
    }
    return scenario_load_file(path, error);
}

/* A scenario's [machine] keys as machines/ reads them; the strings are
 * the scenario's (names: a copy), valid while it is. */
typedef struct {
    char **names;
    MachineKey *keys;
    MachineKeys view;
} PrepareKeys;

static void prepare_keys(PrepareKeys *pk, const Scenario *s)
{
    pk->names = scenario_keys(s, "machine");
    size_t n = g_strv_length(pk->names);
    pk->keys = g_new0(MachineKey, n + 1);
    for (size_t i = 0; i < n; i++)
        pk->keys[i] = (MachineKey){
            pk->names[i], scenario_get(s, "machine", pk->names[i]),
            scenario_where(s, "machine", pk->names[i]) };
    pk->view = (MachineKeys){ pk->keys, n,
                              scenario_group_where(s, "machine") };
}

static void prepare_keys_clear(PrepareKeys *pk)
{
    g_strfreev(pk->names);
    g_free(pk->keys);
}

gboolean prepare_machine(const Scenario *s, Machine *m, GError **error)
{
    g_autoptr(Scenario) preset = NULL;
    g_autofree char *preset_problem = NULL;
    const char *preset_name = scenario_get(s, "machine", "preset");
    if (preset_name) {
        GError *e = NULL;
        preset = prepare_preset(preset_name, &e);
        if (!preset) {
            preset_problem = g_strdup_printf("%s: preset: %s",
                                             scenario_where(s, "machine",
                                                            "preset"),
                                             e->message);
            g_error_free(e);
        }
    }
    PrepareKeys own, of_preset = { 0 };
    prepare_keys(&own, s);
    if (preset)
        prepare_keys(&of_preset, preset);
    char *problems = NULL;
    gboolean ok = machine_from_keys(&own.view, preset ? &of_preset.view : NULL,
                                    preset_problem, m, &problems);
    prepare_keys_clear(&own);
    if (preset)
        prepare_keys_clear(&of_preset);
    if (!ok) {
        g_set_error_literal(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                            problems);
        g_free(problems);
    }
    return ok;
}

/* Groups a scenario may have. */
static const char *const run_groups[] = { "machine", "algorithm", "expect", NULL };

typedef struct {
    const ParamSpec *spec;
    char *text;
    char *where;                  /* the key's location, else its group's */
    gboolean given;
    long long value;
    char *path;                   /* text as a path from where it was given
                                   * (params_path), or NULL */
} ParamEntry;

struct Params {
    const Algorithm *algorithm;
    int method;
    char *method_where;
    char *group_where;            /* the [algorithm] header's location */
    char *program;                /* the program key as written, or NULL */
    char *program_where;
    GArray *entries;              /* ParamEntry, in spec order */
};

static void param_entry_clear(gpointer p)
{
    ParamEntry *e = p;
    g_free(e->text);
    g_free(e->where);
    g_free(e->path);
}

static void params_free(Params *p)
{
    if (!p)
        return;
    g_free(p->method_where);
    g_free(p->group_where);
    g_free(p->program);
    g_free(p->program_where);
    if (p->entries)
        g_array_unref(p->entries);
    g_free(p);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Params, params_free)

/* The entry of a declared key, or NULL. */
static const ParamEntry *params_find(const Params *p, const char *key)
{
    for (guint i = 0; i < p->entries->len; i++) {
        const ParamEntry *e = &g_array_index(p->entries, ParamEntry, i);
        if (!strcmp(e->spec->key, key))
            return e;
    }
    return NULL;
}

static const ParamEntry *params_entry(const Params *p, const char *key)
{
    const ParamEntry *e = params_find(p, key);
    if (e)
        return e;
    g_error("algorithm %s asked for undeclared parameter '%s'",
            p->algorithm->name, key);
}

long long params_int(const Params *p, const char *key)
{
    return params_entry(p, key)->value;
}

int params_choice(const Params *p, const char *key)
{
    return (int)params_entry(p, key)->value;
}

const char *params_text(const Params *p, const char *key)
{
    return params_entry(p, key)->text;
}

const char *params_path(const Params *p, const char *key)
{
    const ParamEntry *e = params_entry(p, key);
    return e->path ? e->path : e->text;
}

gboolean params_given(const Params *p, const char *key)
{
    return params_entry(p, key)->given;
}

int params_method(const Params *p)
{
    return p->method;
}

const Algorithm *params_algorithm(const Params *p)
{
    return p->algorithm;
}

void *params_fail_group(const Params *p, GError **error, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, "%s: %s",
                p->program_where ? p->program_where : p->group_where, what);
    return NULL;
}

void *params_fail(const Params *p, GError **error, const char *key,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* A key the algorithm does not declare (a loaded program's
     * cubemu_fail may name any) is placed at the group. */
    const ParamEntry *e = strcmp(key, "method") ? params_find(p, key) : NULL;
    const char *where = !strcmp(key, "method") ? p->method_where
                        : e ? e->where
                        : p->program_where ? p->program_where
                                           : p->group_where;
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "%s: %s: %s", where, key, what);
    return NULL;
}

const Algorithm *algorithm_find(const char *name)
{
    for (const Algorithm *const *a = algorithm_list(); *a; a++)
        if (!strcmp((*a)->name, name))
            return *a;
    return NULL;
}

static char *algorithm_names(void)
{
    GString *s = g_string_new(NULL);
    for (const Algorithm *const *a = algorithm_list(); *a; a++)
        g_string_append_printf(s, "%s%s", s->len ? ", " : "", (*a)->name);
    return g_string_free(s, FALSE);
}

/* The algorithm [algorithm] names: a built-in by name, or a program by
 * its shared object (`program`, relative to the scenario file that gives
 * it, or to the current directory for --set); then a name, if given, must
 * be the program's. NULL with the problem added to `problems`. */
static const Algorithm *resolve_algorithm(const Scenario *s, GString *problems)
{
    const char *name = scenario_get(s, "algorithm", "name");
    const char *program = scenario_get(s, "algorithm", "program");
    if (program) {
        const char *where = scenario_where(s, "algorithm", "program");
        g_autofree char *path = scenario_path(s, "algorithm", "program");
        g_autofree char *shown = g_strdup_printf("%s: program", where);
        GError *e = NULL;
        const Algorithm *alg = sdk_load(path, shown, &e);
        if (!alg) {
            keyvalue_problem(problems, "%s", e->message);
            g_error_free(e);
            return NULL;
        }
        if (name && strcmp(name, alg->name)) {
            keyvalue_problem(problems, "%s: name: '%s', but the program %s "
                             "is '%s' (give its name or none)",
                             scenario_where(s, "algorithm", "name"), name,
                             program, alg->name);
            return NULL;
        }
        return alg;
    }
    if (!name) {
        g_autofree char *valid = algorithm_names();
        keyvalue_problem(problems, "%s: [algorithm] needs a name (valid: %s) "
                         "or a program (a node program's shared object)",
                         scenario_group_where(s, "algorithm"), valid);
        return NULL;
    }
    const Algorithm *alg = algorithm_find(name);
    if (!alg) {
        g_autofree char *valid = algorithm_names();
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        for (const Algorithm *const *a = algorithm_list(); *a; a++)
            g_ptr_array_add(names, (gpointer)(*a)->name);
        g_ptr_array_add(names, NULL);
        g_autofree char *hint = suggest_text(name,
                                             (const char *const *)names->pdata);
        keyvalue_problem(problems, "%s: name: unknown algorithm '%s'%s (valid: %s)",
                    scenario_where(s, "algorithm", "name"), name, hint, valid);
        return NULL;
    }
    return alg;
}

/* Resolve [algorithm] into params; every problem goes to `problems`. */
static Params *params_resolve(const Scenario *s, GString *problems)
{
    const Algorithm *alg = resolve_algorithm(s, problems);
    if (!alg)
        return NULL;
    Params *p = g_new0(Params, 1);
    p->algorithm = alg;
    p->group_where = g_strdup(scenario_group_where(s, "algorithm"));
    const char *program = scenario_get(s, "algorithm", "program");
    if (program) {
        p->program = g_strdup(program);
        p->program_where = g_strdup(scenario_where(s, "algorithm", "program"));
    }
    p->entries = g_array_new(FALSE, TRUE, sizeof(ParamEntry));
    g_array_set_clear_func(p->entries, param_entry_clear);

    GPtrArray *methods = g_ptr_array_new();
    for (const AlgorithmMethod *m = alg->methods; m->name; m++)
        g_ptr_array_add(methods, (gpointer)m->name);
    g_ptr_array_add(methods, NULL);
    const char *method = scenario_get(s, "algorithm", "method");
    p->method_where = g_strdup(method ? scenario_where(s, "algorithm", "method")
                                      : scenario_group_where(s, "algorithm"));
    GError *e = NULL;
    if (method && !scenario_parse_choice(method, p->method_where, "method",
                                         (const char *const *)methods->pdata,
                                         &p->method, &e)) {
        keyvalue_problem(problems, "%s", e->message);
        g_clear_error(&e);
    }
    g_ptr_array_free(methods, TRUE);

    g_auto(GStrv) keys = scenario_keys(s, "algorithm");
    for (char **k = keys; *k; k++) {
        if (!strcmp(*k, "name") || !strcmp(*k, "method")
            || !strcmp(*k, "program"))
            continue;
        gboolean known = FALSE;
        for (const ParamSpec *ps = alg->params; ps->key; ps++)
            known |= !strcmp(ps->key, *k);
        if (!known) {
            GString *valid = g_string_new("name, method, program");
            g_autoptr(GPtrArray) names = g_ptr_array_new();
            g_ptr_array_add(names, "name");
            g_ptr_array_add(names, "method");
            g_ptr_array_add(names, "program");
            for (const ParamSpec *ps = alg->params; ps->key; ps++) {
                g_string_append_printf(valid, ", %s", ps->key);
                g_ptr_array_add(names, (gpointer)ps->key);
            }
            g_ptr_array_add(names, NULL);
            g_autofree char *hint = suggest_text(*k,
                                                 (const char *const *)names->pdata);
            keyvalue_problem(problems, "%s: unknown key '%s' for algorithm '%s'%s "
                        "(valid: %s)", scenario_where(s, "algorithm", *k), *k,
                        alg->name, hint, valid->str);
            g_string_free(valid, TRUE);
        }
    }

    for (const ParamSpec *ps = alg->params; ps->key; ps++) {
        const char *text = scenario_get(s, "algorithm", ps->key);
        const char *where = scenario_where(s, "algorithm", ps->key);
        if (!text && !ps->fallback) {
            keyvalue_problem(problems, "%s: [algorithm] %s needs %s (%s)",
                        scenario_group_where(s, "algorithm"), alg->name,
                        ps->key, ps->help);
            continue;
        }
        ParamEntry entry = { ps, g_strdup(text ? text : ps->fallback),
                             g_strdup(text ? where
                                           : scenario_group_where(s, "algorithm")),
                             text != NULL, 0,
                             text ? scenario_path(s, "algorithm", ps->key) : NULL };
        gboolean ok;
        if (ps->type == PARAM_TEXT) {
            if (!text && !*ps->fallback)
                g_clear_pointer(&entry.text, g_free);     /* optional, absent */
            ok = TRUE;
        } else if (ps->type == PARAM_INT && ps->fallback
            && !strcmp(ps->fallback, "auto") && !strcmp(entry.text, "auto")) {
            entry.value = PARAM_AUTO;
            ok = TRUE;
        } else if (ps->type == PARAM_INT) {
            ok = scenario_parse_int(entry.text, entry.where, ps->key, ps->min,
                                    ps->max, &entry.value, &e);
        } else {
            int choice = 0;
            ok = scenario_parse_choice(entry.text, entry.where, ps->key,
                                       ps->choices, &choice, &e);
            entry.value = choice;
        }
        if (!ok) {
            keyvalue_problem(problems, "%s", e->message);
            g_clear_error(&e);
        }
        g_array_append_val(p->entries, entry);
    }
    return p;
}


/* Fail with `first` (may be NULL) and then the [expect] problems (may be
 * empty), one error: a bad [expect] line is reported with whatever else is
 * wrong in the scenario, not instead of it. Takes `first`. */
static gboolean setup_fail(GError **error, GError *first,
                           const GString *expect_problems)
{
    if (!expect_problems->len) {
        g_propagate_error(error, first);
        return FALSE;
    }
    g_autoptr(GString) all = g_string_new(NULL);
    if (first)
        keyvalue_problem(all, "%s", first->message);
    keyvalue_problem(all, "%s", expect_problems->str);
    g_clear_error(&first);
    g_set_error_literal(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, all->str);
    return FALSE;
}

static void check_expect_fields(const RunSetup *setup, GPtrArray *expects,
                                GString *problems);

gboolean run_setup(const Scenario *s, RunSetup *setup, GError **error)
{
    memset(setup, 0, sizeof *setup);
    g_autoptr(GString) problems = g_string_new(NULL);
    /* [expect] is checked here too, with everything else, so that its
     * problems join the others' (cubemu run reads the entries later). */
    g_autoptr(GString) expect_problems = g_string_new(NULL);
    GError *e = NULL;
    g_autoptr(GPtrArray) expects = scenario_expectations(s, &e);
    if (!expects) {
        g_string_append(expect_problems, e->message);
        g_clear_error(&e);
    }
    g_auto(GStrv) groups = scenario_groups(s);
    for (char **g = groups; *g; g++)
        if (!g_strv_contains(run_groups, *g))
        {
            g_autofree char *hint = suggest_text(*g, run_groups);
            keyvalue_problem(problems, "%s: unknown group [%s]%s (valid: machine, "
                        "algorithm, expect)", scenario_group_where(s, *g), *g,
                        hint);
        }

    Machine machine;
    gboolean have_machine = prepare_machine(s, &machine, &e);
    if (!have_machine) {
        keyvalue_problem(problems, "%s", e->message);
        g_clear_error(&e);
    }
    g_autoptr(Params) params = params_resolve(s, problems);
    if (problems->len) {
        if (have_machine)
            machine_clear(&machine);
        return setup_fail(error, g_error_new_literal(SCENARIO_ERROR,
                          SCENARIO_ERROR_INPUT, problems->str),
                          expect_problems);
    }

    const Algorithm *alg = params->algorithm;
    if (!topology_offers(machine.topology.ops, alg->needs)) {
        GString *valid = g_string_new(NULL);
        for (const TopologyOps *const *t = topology_registry; *t; t++)
            if (topology_offers(*t, alg->needs))
                g_string_append_printf(valid, "%s%s", valid->len ? ", " : "",
                                       (*t)->name);
        e = g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                        "%s: algorithm '%s' does not run on topology '%s' "
                        "(it runs on: %s)",
                        scenario_where(s, "algorithm", "name"), alg->name,
                        machine_topology_name(&machine), valid->str);
        g_string_free(valid, TRUE);
        machine_clear(&machine);
        return setup_fail(error, e, expect_problems);
    }
    if (machine.model == MACHINE_MODEL_LOGGP && !alg->times_loggp) {
        e = g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                        "%s: algorithm '%s' cannot run on a machine of model "
                        "= loggp: the LogGP model times schedule replays "
                        "alone ([algorithm] name = schedule); use model = "
                        "engine for the others",
                        scenario_where(s, "algorithm", "name"), alg->name);
        machine_clear(&machine);
        return setup_fail(error, e, expect_problems);
    }
    if (faults_has_dead_nodes(machine.faults) && !alg->dead_nodes) {
        e = g_error_new(SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                        "%s: algorithm '%s' needs every node, and machine."
                        "faults names %" PRIu32 " dead (%s): on a machine "
                        "with dead nodes run a schedule (name = schedule, "
                        "mapping = live) or a program that declares "
                        "CUBEMU_RUNS_WITH_DEAD_NODES (docs/faults.md)",
                        scenario_where(s, "machine", "faults"), alg->name,
                        faults_counts(machine.faults).nodes,
                        faults_spec(machine.faults));
        machine_clear(&machine);
        return setup_fail(error, e, expect_problems);
    }
    MemoryLayout layout = { 0 };
    void *config = alg->prepare(&machine, params, &layout, &e);
    if (!config) {
        machine_clear(&machine);
        return setup_fail(error, e, expect_problems);
    }
    if (expect_problems->len) {
        alg->release(config);
        machine_clear(&machine);
        return setup_fail(error, NULL, expect_problems);
    }
    g_assert(layout.elements_per_node <= layout.memory_elements);
    g_assert(layout.computed_elements <= layout.elements_per_node);
    g_assert(!layout.sample || alg->expect_element);
    setup->machine = machine;
    setup->params = g_steal_pointer(&params);
    setup->algorithm = alg;
    setup->config = config;
    setup->layout = layout;
    check_expect_fields(setup, expects, expect_problems);
    if (expect_problems->len) {
        run_setup_release(setup, TRUE);
        return setup_fail(error, NULL, expect_problems);
    }
    return TRUE;
}

/* A report of a run that did nothing: every count zero, the phases
 * declared, the algorithm's own report callback adding its details and
 * bounds. The callback sees only counts (never memory), and which fields
 * it adds depends on the configuration, not on what was measured, so a
 * real run reports the same names. */
Report *run_setup_report(const RunSetup *setup)
{
    const Algorithm *alg = setup->algorithm;
    Report *r = report_new();
    machine_copy(&r->machine, &setup->machine);
    run_report_algorithm(r, setup);
    r->elements_per_node = setup->layout.elements_per_node;
    r->element = setup->layout.element;
    int links = r->machine.topology.links;
    r->link_up = g_new0(uint64_t, (size_t)links + 1);
    r->link_down = g_new0(uint64_t, (size_t)links + 1);
    r->link_busy = g_new0(uint64_t, (size_t)links + 1);
    r->nphases = algorithm_phase_count(alg);
    for (unsigned p = 0; p < r->nphases; p++)
        r->phase_name[p] = g_strdup(alg->phases[p]);
    r->data_correct = TRUE;
    alg->report(setup->config, r);
    return r;
}

char **run_setup_fields(const RunSetup *setup)
{
    Report *r = run_setup_report(setup);
    char **fields = report_fields(r);
    report_free(r);
    return fields;
}

/* Every numeric [expect] field names an output this run reports: a
 * misspelt field is refused before the run, with the closest name. */
static void check_expect_fields(const RunSetup *setup, GPtrArray *expects,
                                GString *problems)
{
    Report *r = NULL;
    g_auto(GStrv) fields = NULL;
    for (guint i = 0; i < expects->len; i++) {
        const Expectation *x = expects->pdata[i];
        if (x->kind != EXPECT_NUMERIC)
            continue;
        if (!r)
            r = run_setup_report(setup);
        double v;
        if (report_lookup(r, x->field, &v))
            continue;
        if (!fields) {
            /* Candidates: the fields [expect] can name (bound.NAME columns
             * are a sweep's, not an output field). */
            g_auto(GStrv) all = report_fields(r);
            GPtrArray *keep = g_ptr_array_new();
            for (char **f = all; *f; f++)
                if (!g_str_has_prefix(*f, "bound."))
                    g_ptr_array_add(keep, g_strdup(*f));
            g_ptr_array_add(keep, NULL);
            fields = (char **)g_ptr_array_free(keep, FALSE);
        }
        g_autofree char *hint = suggest_text(x->field,
                                             (const char *const *)fields);
        /* The list names each link's fields once, as a pattern. */
        g_autoptr(GString) some = g_string_new(NULL);
        for (char **f = fields; *f; f++)
            if (!g_str_has_prefix(*f, "per_link."))
                g_string_append_printf(some, "%s, ", *f);
        g_string_append_printf(some, "per_link.L.elements_up, "
                               "per_link.L.elements_down, "
                               "per_link.L.utilisation for L = 0..%d",
                               setup->machine.topology.links - 1);
        keyvalue_problem(problems, "%s: no output field '%s' in a run of %s%s "
                         "(fields: %s; and data, bounds)", x->where, x->field,
                         setup->algorithm->name, hint, some->str);
    }
    if (r)
        report_free(r);
}

void run_setup_release(RunSetup *setup, gboolean clear_machine)
{
    if (setup->config)
        setup->algorithm->release(setup->config);
    setup->config = NULL;
    g_clear_pointer(&setup->params, params_free);
    if (clear_machine)
        machine_clear(&setup->machine);
}

void run_report_algorithm(Report *r, const RunSetup *setup)
{
    const Params *params = setup->params;
    r->algorithm = g_strdup(setup->algorithm->name);
    r->method = g_strdup(setup->algorithm->methods[params->method].name);
    if (params->program) {
        ParamValue v = { g_strdup("program"), g_strdup(params->program),
                         FALSE, 0 };
        g_array_append_val(r->params, v);
    }
    for (guint i = 0; i < params->entries->len; i++) {
        const ParamEntry *pe = &g_array_index(params->entries, ParamEntry, i);
        if (!pe->text)
            continue;
        ParamValue v = { g_strdup(pe->spec->key), g_strdup(pe->text),
                             pe->spec->type == PARAM_INT
                                 && strcmp(pe->text, "auto") != 0,
                             pe->value };
        g_array_append_val(r->params, v);
    }
}

/* Two additive multiset hashes: the sums over a multiset do not depend on
 * order. Each item is folded through a 64 x 64 -> 128-bit multiply (the
 * product's halves xored, wyhash's mixer) with its own pair of constants;
 * an item is lost or duplicated unnoticed only if both folds of it (or of
 * the difference it makes) vanish. One multiply an item and hash: a
 * splitmix64 finaliser, two multiplies and three shifts each, would be a
 * noticeable part of a run, which hashes every element before and after. */
#ifndef __SIZEOF_INT128__
#error "cubemu's fingerprints need a compiler with unsigned __int128"
#endif
static inline uint64_t fold_mul(uint64_t x, uint64_t y)
{
    __extension__ unsigned __int128 p = (unsigned __int128)x * y;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline uint64_t mix_a(uint64_t x)
{
    return fold_mul(x ^ 0xa0761d6478bd642fULL, 0xe7037ed1a0b428dbULL);
}

static inline uint64_t mix_b(uint64_t x)
{
    return fold_mul(x ^ 0x8ebc6af09c88c6e3ULL, 0x589965cc75374cc3ULL);
}

/* An element of w words hashes as one item: its words chained through
 * the mixer, so an element is the unit that is lost or duplicated. Adds
 * elements [from, k) of one node's memory. */
void run_fingerprint_add(Fingerprint *f, const Word *mem, size_t from,
                         size_t k, size_t w)
{
    uint64_t a = 0, b = 0;
    if (w == 1) {
        for (size_t j = from; j < k; j++) {
            a += mix_a(mem[j]);
            b += mix_b(mem[j]);
        }
    } else {
        for (size_t j = from; j < k; j++) {
            uint64_t e = mem[j * w];
            for (size_t i = 1; i < w; i++)
                e = mix_a(e) ^ mem[j * w + i];
            a += mix_a(e);
            b += mix_b(e);
        }
    }
    f->a += a;
    f->b += b;
}

/* The largest |reference| of one node, for a tolerant comparison. */
double run_reference_scale(const Algorithm *alg, const void *config,
                           uint32_t x, size_t k, Word *expected)
{
    double scale = 0;
    alg->expect(config, x, expected);
    for (size_t j = 0; j < k; j++) {
        double v[2];
        memcpy(v, expected + 2 * j, sizeof v);
        scale = fmax(scale, hypot(v[0], v[1]));
    }
    return scale;
}

static char *mismatch(ElementType type, uint32_t x, size_t j,
                      const Word *held, const Word *want)
{
    g_autofree char *h = element_text(type, held);
    g_autofree char *e = element_text(type, want);
    return g_strdup_printf("WRONG: node %u offset %zu holds %s, the "
                           "reference says %s", x, j, h, e);
}

char *run_check_node(const RunSetup *setup, uint32_t x, const Word *mem,
                     Word *expected, double limit)
{
    const MemoryLayout *layout = &setup->layout;
    ElementType type = layout->element;
    size_t w = element_words(type), k = layout->elements_per_node;
    size_t computed = layout->computed_elements;
    gboolean sampled = layout->sample > 0 && computed > 0;
    gboolean tolerant = layout->tolerance > 0 && type == ELEMENT_COMPLEX;
    setup->algorithm->expect(setup->config, x, expected);
    size_t from = sampled ? computed : 0;
    /* Where every element is compared bit for bit, one memcmp of the
     * whole block; the loop below runs only to name a mismatch (an 8-byte
     * memcmp call per element would cost a call an element). */
    if (!tolerant && (type == ELEMENT_WORD || from >= computed)
        && memcmp(mem + from * w, expected + from * w,
                  (k - from) * w * sizeof(Word)) == 0)
        return NULL;
    for (size_t j = from; j < k; j++)
        if (!run_element_matches(mem + j * w, expected + j * w, type, j,
                                 computed, tolerant, limit))
            return mismatch(type, x, j, mem + j * w, expected + j * w);
    return NULL;
}

char *run_check_samples(const RunSetup *setup, uint32_t nodes,
                        RunMemoryFn memory_of, void *data)
{
    const MemoryLayout *layout = &setup->layout;
    size_t w = element_words(layout->element);
    uint64_t state = layout->sample_seed;
    Word want[2];
    for (uint64_t i = 0; i < layout->sample; i++) {
        uint32_t x;
        size_t j;
        run_sample_pick(&state, nodes, layout->computed_elements, &x, &j);
        const Word *mem = memory_of(data, x);
        if (!mem)
            continue;
        setup->algorithm->expect_element(setup->config, x, j, want);
        if (!run_element_matches(mem + j * w, want, layout->element, j,
                                 layout->computed_elements, FALSE, 0))
            return mismatch(layout->element, x, j, mem + j * w, want);
    }
    return NULL;
}

/* The sampler's mixer (keep it: it decides which elements a sampled run
 * checks): MurmurHash3's 64-bit finaliser of x xor a constant, over a
 * sequence stepped by splitmix64's gamma. Not bits_splitmix64, whose
 * finaliser differs. */
static uint64_t sample_mix(uint64_t x)
{
    x ^= 0x632be59bd9b4e019ULL;
    x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdULL;
    x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

void run_sample_pick(uint64_t *state, uint32_t nodes, size_t computed,
                     uint32_t *x, size_t *j)
{
    *state += BITS_SPLITMIX64_GAMMA;
    uint64_t z = sample_mix(*state);
    *x = (uint32_t)(z % nodes);
    *j = (size_t)((z / nodes) % computed);
}

/* Whether a held complex element is within `limit` of the reference. */
static gboolean complex_close(const Word *held, const Word *want,
                              double limit)
{
    double a[2], b[2];
    memcpy(a, held, sizeof a);
    memcpy(b, want, sizeof b);
    return hypot(a[0] - b[0], a[1] - b[1]) <= limit;
}

/* Doubles compared by value (so 0.0 equals -0.0; a NaN never matches). */
static gboolean doubles_equal(const Word *a, const Word *b, size_t w)
{
    for (size_t i = 0; i < w; i++) {
        double x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        if (!(x == y))
            return FALSE;
    }
    return TRUE;
}

/* Does the held element match the reference? Offsets below `computed` are
 * computed results: within the tolerance, or equal by value for doubles. */
gboolean run_element_matches(const Word *held, const Word *want,
                                ElementType type, size_t j, size_t computed,
                                gboolean tolerant, double limit)
{
    size_t w = element_words(type);
    if (tolerant)
        return complex_close(held, want, limit);
    if (j < computed && type != ELEMENT_WORD)
        return doubles_equal(held, want, w);
    return memcmp(held, want, w * sizeof(Word)) == 0;
}

