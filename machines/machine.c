/* machine.c -- machine parameters from presets and scenario keys.
 *
 * Resolution: the preset file's [machine] keys first, then the scenario's
 * inline keys on top; every value keeps the location it came from, so an
 * error in a preset file points into that file. The keys arrive as plain
 * (key, value, location) lists (MachineKeys): run/prepare.c reads the
 * scenario and the preset's file, this file only finds the preset.
 */
#include "machine.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include "kernel.h"
#include "keyvalue.h"
#include "suggest.h"

#ifndef CUBEMU_SOURCE_DIR
#define CUBEMU_SOURCE_DIR "."
#endif

static char *machine_program_dir;   /* set once by main, read-only after */

/* Keys every topology takes; each topology's own keys are its ops' keys,
 * and kernel.NAME keys are open-ended. */
static const char *const machine_keys[] = {
    "preset", "name", "description", "topology", "ports", "startup",
    "element-time", "neighbour.startup", "neighbour.element-time",
    "router.startup", "router.element-time", "memory-path",
    "neighbour.memory-path", "router.memory-path", "startup-holds-port",
    "flop-time", "tick-seconds", "model", "faults", "fault-policy", NULL
};

static const char *const fault_policies[] = { "detour", "refuse", NULL };

/* The LogGP model's keys (model = loggp), in MachineLoggp's order. */
static const char *const machine_loggp_keys[] = {
    "loggp.L", "loggp.o", "loggp.g", "loggp.G", "loggp.O", "loggp.S", NULL
};

static const char *const machine_models[] = { "engine", "loggp", NULL };

static const char *const yes_no[] = { "no", "yes", NULL };

/* A tick shorter than this or longer than this is surely a typo (an
 * attosecond, an hour). */
#define MACHINE_MIN_TICK_SECONDS 1e-18
#define MACHINE_MAX_TICK_SECONDS 3600.0

void machine_set_program_path(const char *argv0)
{
    g_free(machine_program_dir);
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    machine_program_dir = g_path_get_dirname(exe ? exe : argv0);
}

/* Candidate folders, in order; free with g_strfreev. */
static char **machine_dirs(void)
{
    GPtrArray *dirs = g_ptr_array_new();
    const char *env = g_getenv("CUBEMU_MACHINES");
    if (env && *env)
        g_ptr_array_add(dirs, g_strdup(env));
    /* The program's folder: as main set it, else (cubemu-mpi, the tests,
     * which do not) this process's executable's. */
    g_autofree char *exe_dir = NULL;
    const char *program_dir = machine_program_dir;
    if (!program_dir) {
        g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
        if (exe)
            program_dir = exe_dir = g_path_get_dirname(exe);
    }
    if (program_dir) {
        g_ptr_array_add(dirs, g_build_filename(program_dir, "machines", NULL));
        g_ptr_array_add(dirs, g_build_filename(program_dir, "..", "machines", NULL));
        /* An installed tree (make install): PREFIX/bin/cubemu finds
         * PREFIX/share/cubemu/machines wherever PREFIX (or DESTDIR) puts
         * it, with no prefix compiled in. */
        g_ptr_array_add(dirs, g_build_filename(program_dir, "..", "share",
                                               "cubemu", "machines", NULL));
    }
    g_ptr_array_add(dirs, g_build_filename(CUBEMU_SOURCE_DIR, "machines", NULL));
    g_ptr_array_add(dirs, NULL);
    return (char **)g_ptr_array_free(dirs, FALSE);
}

static gint machine_name_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **machine_preset_names(void)
{
    g_auto(GStrv) dirs = machine_dirs();
    for (char **d = dirs; *d; d++) {
        GDir *dir = g_dir_open(*d, 0, NULL);
        if (!dir)
            continue;
        GPtrArray *names = g_ptr_array_new();
        const char *f;
        while ((f = g_dir_read_name(dir)))
            if (g_str_has_suffix(f, ".ini"))
                g_ptr_array_add(names, g_strndup(f, strlen(f) - 4));
        g_dir_close(dir);
        if (names->len == 0) {
            g_ptr_array_free(names, TRUE);
            continue;
        }
        g_ptr_array_sort(names, machine_name_cmp);
        g_ptr_array_add(names, NULL);
        return (char **)g_ptr_array_free(names, FALSE);
    }
    return g_new0(char *, 1);
}

char *machine_preset_path(const char *name, char **why)
{
    if (!*name || strchr(name, '/') || strchr(name, '.')) {
        *why = g_strdup_printf("'%s' is not a preset name", name);
        return NULL;
    }
    g_auto(GStrv) dirs = machine_dirs();
    g_autofree char *file = g_strconcat(name, ".ini", NULL);
    for (char **d = dirs; *d; d++) {
        char *path = g_build_filename(*d, file, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
            return path;
        g_free(path);
    }
    g_auto(GStrv) names = machine_preset_names();
    g_autofree char *valid = g_strjoinv(", ", names);
    g_autofree char *hint = suggest_text(name, (const char *const *)names);
    *why = g_strdup_printf("unknown machine preset '%s'%s (valid: %s)", name,
                           hint, *valid ? valid : "none found; set "
                           "CUBEMU_MACHINES");
    return NULL;
}

char *machine_data_file(const char *name, char **why)
{
    /* A bare name only: a scenario names a file of the machine library, not
     * any file on the host. */
    if (!*name || strchr(name, '/') || name[0] == '.') {
        *why = g_strdup_printf("'%s' is not a bare file name (files are "
                               "looked up where presets are)", name);
        return NULL;
    }
    g_auto(GStrv) dirs = machine_dirs();
    for (char **d = dirs; *d; d++) {
        char *path = g_build_filename(*d, name, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
            return path;
        g_free(path);
    }
    g_autofree char *looked = g_strjoinv(", ", dirs);
    *why = g_strdup_printf("no file '%s' (looked in: %s)", name, looked);
    return NULL;
}

const char *machine_ports_text(const Machine *m, char buf[16])
{
    if (m->ports == MACHINE_PORTS_ALL)
        return "all";
    g_snprintf(buf, 16, "%d", m->ports);
    return buf;
}

gboolean machine_ports_limited(const Machine *m)
{
    return machine_port_limit(m) < machine_node_links(m);
}

gboolean machine_memory_paths(const Machine *m)
{
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        if (m->price[c].memory_path)
            return TRUE;
    return FALSE;
}

gboolean machine_uniform_price(const Machine *m)
{
    return m->price[CLASS_NEIGHBOUR].startup == m->price[CLASS_ROUTER].startup
           && m->price[CLASS_NEIGHBOUR].element_time
                  == m->price[CLASS_ROUTER].element_time;
}

const MachineKernel *machine_kernel(const Machine *m, const char *name)
{
    for (int i = 0; i < m->nkernels; i++)
        if (!strcmp(m->kernel[i].name, name))
            return &m->kernel[i];
    return NULL;
}

void machine_clear(Machine *m)
{
    g_free(m->name);
    for (int i = 0; i < m->nkernels; i++) {
        g_free(m->kernel[i].name);
        kernel_data_free(&m->kernel[i]);
    }
    faults_unref(m->faults);
    memset(m, 0, sizeof *m);
}

void machine_copy(Machine *dst, const Machine *src)
{
    *dst = *src;
    dst->name = g_strdup(src->name);
    for (int i = 0; i < src->nkernels; i++) {
        dst->kernel[i].name = g_strdup(src->kernel[i].name);
        dst->kernel[i].data = kernel_data_copy(&src->kernel[i]);
    }
    dst->faults = faults_ref(src->faults);
}

/* Where a machine's values come from: the scenario's [machine] on top of
 * its preset's. Problems are collected, each with its location. */
struct MachineInput {
    const MachineKeys *s, *preset;
    GString *problems;
};

/* key's entry in ks, or NULL (a handful of keys: a scan). */
static const MachineKey *keys_find(const MachineKeys *ks, const char *key)
{
    for (size_t i = 0; i < ks->n; i++)
        if (!strcmp(ks->keys[i].key, key))
            return &ks->keys[i];
    return NULL;
}

static const char *keys_get(const MachineKeys *ks, const char *key)
{
    const MachineKey *k = keys_find(ks, key);
    return k ? k->value : NULL;
}

/* Where key was written (the group's place for a key never given). */
static const char *keys_where(const MachineKeys *ks, const char *key)
{
    const MachineKey *k = keys_find(ks, key);
    return k ? k->where : ks->group_where;
}

static void machine_take_why(GString *problems, char *why)
{
    keyvalue_problem(problems, "%s", why);
    g_free(why);
}

/* The value of key from the scenario, else from the preset, with where. */
const char *machine_input_value(const MachineInput *in, const char *key,
                                const char **where)
{
    const char *v = keys_get(in->s, key);
    if (v) {
        *where = keys_where(in->s, key);
        return v;
    }
    if (in->preset && (v = keys_get(in->preset, key))) {
        *where = keys_where(in->preset, key);
        return v;
    }
    return NULL;
}

gboolean machine_input_int(const MachineInput *in, const char *key,
                           long long min, long long max, long long *out)
{
    const char *where;
    const char *v = machine_input_value(in, key, &where);
    char *why = NULL;
    if (!v)
        return FALSE;
    if (!keyvalue_parse_int(v, where, key, min, max, out, &why)) {
        machine_take_why(in->problems, why);
        return FALSE;
    }
    return TRUE;
}

gboolean machine_input_choice(const MachineInput *in, const char *key,
                              const char *const *choices, int *out)
{
    const char *where;
    const char *v = machine_input_value(in, key, &where);
    char *why = NULL;
    if (v && !keyvalue_parse_choice(v, where, key, choices, out, &why)) {
        machine_take_why(in->problems, why);
        return FALSE;
    }
    return TRUE;
}

void machine_input_problem(const MachineInput *in, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    g_autofree char *text = g_strdup_vprintf(format, ap);
    va_end(ap);
    keyvalue_problem(in->problems, "%s", text);
}

const char *machine_input_group_where(const MachineInput *in)
{
    return in->s->group_where;
}

/* A class's key `what` (startup, element-time, memory-path): its own key,
 * else the plain key, the scenario's before the preset's (a scenario's
 * plain key overrides a preset's class key). Its value, or NULL; *key and
 * *where say which key it was and where it was written. */
static const char *machine_class_value(const MachineInput *in, MessageClass c,
                                       const char *what, char **own,
                                       const char **key, const char **where)
{
    *own = g_strdup_printf("%s.%s", message_class_name(c), what);
    const MachineKeys *layers[2] = { in->s, in->preset };
    for (int l = 0; l < 2; l++) {
        if (!layers[l])
            continue;
        const char *keys[2] = { *own, what };
        for (int k = 0; k < 2; k++) {
            const char *v = keys_get(layers[l], keys[k]);
            if (v) {
                *key = keys[k];
                *where = keys_where(layers[l], keys[k]);
                return v;
            }
        }
    }
    return NULL;
}

/* A bad value of a class key: reported, except that every class without
 * its own key reads the same plain key, reported once, the first time
 * (*plain_reported). */
static void machine_class_refuse(const MachineInput *in, const char *own,
                                 const char *key, char *why,
                                 gboolean *plain_reported)
{
    gboolean plain = strcmp(key, own) != 0;
    if (!plain || !*plain_reported)
        machine_take_why(in->problems, why);
    else
        g_free(why);
    if (plain)
        *plain_reported = TRUE;
}

/* A class's startup or element-time (machine_class_value), or the
 * fallback. */
static Tick machine_class_time(const MachineInput *in, MessageClass c,
                               const char *what, long long min, Tick fallback,
                               gboolean *plain_reported)
{
    g_autofree char *own = NULL;
    const char *key, *where;
    const char *v = machine_class_value(in, c, what, &own, &key, &where);
    long long x = fallback;
    char *why = NULL;
    if (v && !keyvalue_parse_int(v, where, key, min, MACHINE_MAX_TIME, &x,
                                 &why))
        machine_class_refuse(in, own, key, why, plain_reported);
    return x;
}

/* A class's yes/no key (memory-path), no when absent or bad. */
static gboolean machine_class_flag(const MachineInput *in, MessageClass c,
                                   const char *what, gboolean *plain_reported)
{
    g_autofree char *own = NULL;
    const char *key, *where;
    const char *v = machine_class_value(in, c, what, &own, &key, &where);
    int x = 0;
    char *why = NULL;
    if (v && !keyvalue_parse_choice(v, where, key, yes_no, &x, &why)) {
        machine_class_refuse(in, own, key, why, plain_reported);
        return FALSE;
    }
    return x == 1;
}

/* Keys of `group` of one layer that are not machine keys, not the
 * topology's own keys, and not kernel.NAME. */
static void machine_check_keys(const MachineInput *in, const MachineKeys *layer,
                               const TopologyOps *topology)
{
    /* A preset's keys of another topology than the one the scenario sets
     * are the scenario's conflict, not the preset's mistake: they are
     * reported once, at the scenario's topology key. */
    const char *own_topology = layer == in->preset
                               ? keys_get(in->s, "topology")
                               : NULL;
    g_autoptr(GPtrArray) conflicts = g_ptr_array_new();
    const TopologyOps *conflict_owner = NULL;
    for (size_t i = 0; i < layer->n; i++) {
        const char *const *k = &layer->keys[i].key;
        const char *where = layer->keys[i].where;
        if (layer == in->preset && !strcmp(*k, "preset")) {
            keyvalue_problem(in->problems, "%s: key 'preset' is not allowed "
                             "in a preset", where);
            continue;
        }
        if (g_str_has_prefix(*k, "kernel.") && (*k)[7])
            continue;
        if (g_strv_contains(machine_loggp_keys, *k))
            continue;
        if (g_strv_contains(machine_keys, *k)) {
            MessageClass c = g_str_has_prefix(*k, "router.") ? CLASS_ROUTER
                             : CLASS_NEIGHBOUR;
            if (topology && strchr(*k, '.') && !topology_has_class(topology, c))
                keyvalue_problem(in->problems, "%s: '%s': topology %s has no "
                                 "%s class (every destination is a neighbour; "
                                 "price messages with startup and "
                                 "element-time)", where, *k, topology->name,
                                 message_class_name(c));
            continue;
        }
        /* Topologies may share a key (a cube's and a CCC's dimensions):
         * the machine's own topology owns it if it lists it, else the
         * first that does. */
        const TopologyOps *owner = NULL;
        for (const TopologyOps *const *t = topology_registry; *t; t++)
            if (g_strv_contains((const char *const *)(*t)->keys, *k)
                && (!owner || *t == topology))
                owner = *t;
        if (owner && topology && owner != topology && own_topology) {
            g_ptr_array_add(conflicts, (gpointer)*k);
            conflict_owner = owner;
        } else if (owner && topology && owner != topology) {
            g_autofree char *own = g_strjoinv(", ", (char **)topology->keys);
            keyvalue_problem(in->problems, "%s: '%s' describes a %s; this "
                             "machine's topology is %s (its keys: %s)", where,
                             *k, owner->name, topology->name, own);
        } else if (!owner) {
            GString *valid = g_string_new(NULL);
            g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
            for (const char *const *m = machine_keys; *m; m++) {
                g_string_append_printf(valid, "%s, ", *m);
                g_ptr_array_add(names, g_strdup(*m));
            }
            for (const TopologyOps *const *t = topology_registry; *t; t++)
                for (const char *const *tk = (*t)->keys; *tk; tk++) {
                    gboolean listed = FALSE;
                    for (const TopologyOps *const *u = topology_registry;
                         u < t; u++)
                        listed |= g_strv_contains((*u)->keys, *tk);
                    if (listed)
                        continue;
                    g_string_append_printf(valid, "%s, ", *tk);
                    g_ptr_array_add(names, g_strdup(*tk));
                }
            for (const char *const *m = machine_loggp_keys; *m; m++) {
                g_string_append_printf(valid, "%s, ", *m);
                g_ptr_array_add(names, g_strdup(*m));
            }
            g_ptr_array_add(names, NULL);
            g_string_append(valid, "kernel.NAME");
            g_autofree char *hint = suggest_text(*k,
                                                 (const char *const *)names->pdata);
            keyvalue_problem(in->problems, "%s: unknown key '%s' in [machine]%s "
                             "(valid: %s)", where, *k, hint, valid->str);
            g_string_free(valid, TRUE);
        }
    }
    if (conflicts->len) {
        g_ptr_array_add(conflicts, NULL);
        g_autofree char *list = g_strjoinv(", ", (char **)conflicts->pdata);
        gboolean one = conflicts->len == 2;
        keyvalue_problem(in->problems, "%s: topology: '%s' conflicts with "
                         "preset '%s', whose key%s %s describe%s a %s (valid: "
                         "a preset of topology %s, or no preset)",
                         keys_where(in->s, "topology"),
                         own_topology, keys_get(in->s, "preset"),
                         one ? "" : "s", list, one ? "s" : "",
                         conflict_owner->name, own_topology);
    }
}

/* Build the topology from its keys (the topology's parse); FALSE
 * (problems reported) if it cannot be built. */
static gboolean machine_topology(const MachineInput *in, const TopologyOps *ops,
                                 Topology *t)
{
    char *why = NULL;
    if (ops->parse(in, t, &why))
        return TRUE;
    if (why) {
        /* The key whose value the topology refused, as every other
         * message names it. */
        const char *where = "";
        machine_input_value(in, ops->keys[0], &where);
        keyvalue_problem(in->problems, "%s: %s: %s", where, ops->keys[0], why);
        g_free(why);
    }
    return FALSE;
}

/* The kernel.NAME keys, the preset's first, so a scenario's key replaces
 * its preset's binding of the same name. */
static void machine_kernels(const MachineInput *in, Machine *m)
{
    const MachineKeys *layers[2] = { in->preset, in->s };
    const char *where_of[MACHINE_MAX_KERNELS];
    for (int l = 0; l < 2; l++) {
        if (!layers[l])
            continue;
        for (size_t i = 0; i < layers[l]->n; i++) {
            const char *const *k = &layers[l]->keys[i].key;
            if (!g_str_has_prefix(*k, "kernel.") || !(*k)[7])
                continue;
            const char *name = *k + 7;
            const char *where = layers[l]->keys[i].where;
            MachineKernel parsed = { 0 };
            char *why = NULL;
            if (!kernel_parse(layers[l]->keys[i].value, &parsed, &why)) {
                keyvalue_problem(in->problems, "%s: %s: %s", where, *k, why);
                g_free(why);
                continue;
            }
            MachineKernel *mk = (MachineKernel *)machine_kernel(m, name);
            if (!mk) {
                if (m->nkernels == MACHINE_MAX_KERNELS) {
                    keyvalue_problem(in->problems, "%s: more than %d kernels",
                                     where, MACHINE_MAX_KERNELS);
                    kernel_data_free(&parsed);
                    continue;
                }
                mk = &m->kernel[m->nkernels++];
                mk->name = g_strdup(name);
            }
            kernel_data_free(mk);
            mk->rate = parsed.rate;
            mk->arg = parsed.arg;
            mk->data = parsed.data;
            where_of[mk - m->kernel] = where;
        }
    }
    /* Checked on the bindings that stand: a preset's table rate that the
     * scenario replaces needs nothing. A tick-seconds given but refused has
     * been reported already. */
    const char *tick_where;
    if (machine_input_value(in, "tick-seconds", &tick_where))
        return;
    for (int i = 0; i < m->nkernels; i++)
        if (m->kernel[i].rate->needs_tick_seconds)
            keyvalue_problem(in->problems, "%s: kernel.%s: rate '%s' is in "
                             "seconds: the machine needs tick-seconds (e.g. "
                             "tick-seconds = 1e-7)", where_of[i],
                             m->kernel[i].name, m->kernel[i].rate->name);
}

/* model = and the LogGP keys: the LogGP model prices the complete graph
 * alone (LogGP has no topology), counts nanoseconds, and its keys mean
 * nothing to the engine's model. */
static void machine_loggp(const MachineInput *in, Machine *m,
                          const TopologyOps *topology)
{
    int model = MACHINE_MODEL_ENGINE;
    machine_input_choice(in, "model", machine_models, &model);
    m->model = (MachineModel)model;
    const char *where;
    if (m->model != MACHINE_MODEL_LOGGP) {
        for (const char *const *k = machine_loggp_keys; *k; k++)
            if (machine_input_value(in, *k, &where))
                keyvalue_problem(in->problems, "%s: '%s' needs model = loggp "
                                 "(the engine's model prices messages with "
                                 "startup and element-time)", where, *k);
        return;
    }
    const long long defaults[] = {
        MACHINE_LOGGP_DEFAULT_L, MACHINE_LOGGP_DEFAULT_O_LOWER,
        MACHINE_LOGGP_DEFAULT_G_LOWER, MACHINE_LOGGP_DEFAULT_G_UPPER,
        MACHINE_LOGGP_DEFAULT_O_UPPER, MACHINE_LOGGP_DEFAULT_S
    };
    uint64_t *field[] = { &m->loggp.L, &m->loggp.o, &m->loggp.g,
                          &m->loggp.G, &m->loggp.O, &m->loggp.S };
    for (int i = 0; machine_loggp_keys[i]; i++) {
        long long v = defaults[i];
        machine_input_int(in, machine_loggp_keys[i], 0, MACHINE_LOGGP_MAX, &v);
        *field[i] = (uint64_t)v;
    }
    const char *model_where = "";
    machine_input_value(in, "model", &model_where);
    if (topology && strcmp(topology->name, "complete") != 0)
        keyvalue_problem(in->problems, "%s: model = loggp needs topology = "
                         "complete (LogGP has no topology: every rank reaches "
                         "every other at the same price), not %s",
                         model_where, topology->name);
    if (m->tick_seconds > 0 && m->tick_seconds != MACHINE_LOGGP_TICK_SECONDS) {
        machine_input_value(in, "tick-seconds", &where);
        keyvalue_problem(in->problems, "%s: tick-seconds: model = loggp counts "
                         "nanoseconds, as LogGOPSim does (tick-seconds = 1e-9, "
                         "or leave it out)", where);
    }
    m->tick_seconds = MACHINE_LOGGP_TICK_SECONDS;
}

const char *machine_fault_policy_name(FaultPolicy policy)
{
    return fault_policies[policy == FAULTS_REFUSE ? FAULTS_REFUSE
                                                  : FAULTS_DETOUR];
}

/* faults = and fault-policy = (faults.h), on a topology that stands. The
 * LogGP model has no channels to break. */
static void machine_faults(const MachineInput *in, Machine *m,
                           gboolean have_topology)
{
    const char *where;
    int policy = FAULTS_DETOUR;
    machine_input_choice(in, "fault-policy", fault_policies, &policy);
    m->fault_policy = (FaultPolicy)policy;
    const char *spec = machine_input_value(in, "faults", &where);
    if (!spec || !have_topology)
        return;
    char *why = NULL;
    if (!faults_parse(spec, where, &m->topology, &m->faults, &why)) {
        keyvalue_problem(in->problems, "%s", why);
        g_free(why);
        return;
    }
    if (m->faults && m->model == MACHINE_MODEL_LOGGP)
        keyvalue_problem(in->problems, "%s: faults: model = loggp has no "
                         "links to break (LogGP prices every pair alike); "
                         "use model = engine", where);
}

gboolean machine_from_keys(const MachineKeys *s, const MachineKeys *preset,
                           const char *preset_problem, Machine *m,
                           char **problems_out)
{
    g_autoptr(GString) problems = g_string_new(NULL);
    memset(m, 0, sizeof *m);

    const char *preset_name = keys_get(s, "preset");
    if (preset_problem)
        keyvalue_problem(problems, "%s", preset_problem);
    MachineInput in = { s, preset, problems };
    /* A preset that failed to load has been reported; what it would have
     * supplied is not missing on top of that. */
    gboolean preset_failed = preset_name && !preset;

    const char *where;
    const char *topology = machine_input_value(&in, "topology", &where);
    const TopologyOps *ops = NULL;
    if (topology) {
        ops = topology_find(topology);
        if (!ops) {
            g_autofree char *valid = topology_names();
            g_autoptr(GPtrArray) names = g_ptr_array_new();
            for (const TopologyOps *const *t = topology_registry; *t; t++)
                g_ptr_array_add(names, (gpointer)(*t)->name);
            g_ptr_array_add(names, NULL);
            g_autofree char *hint = suggest_text(topology,
                                                 (const char *const *)names->pdata);
            keyvalue_problem(problems, "%s: topology: unknown topology '%s'%s "
                             "(valid: %s)", where, topology, hint, valid);
        }
    } else if (!preset_failed) {
        g_autofree char *valid = topology_names();
        keyvalue_problem(problems, "%s: [machine] needs a preset or a topology "
                         "(valid topologies: %s)",
                         s->group_where, valid);
    }
    machine_check_keys(&in, s, ops);
    if (preset)
        machine_check_keys(&in, preset, ops);
    gboolean have_topology = ops && machine_topology(&in, ops, &m->topology);

    const char *ports = machine_input_value(&in, "ports", &where);
    m->ports = MACHINE_PORTS_ALL;
    if (ports && strcmp(ports, "all") != 0) {
        long long k;
        char *why = NULL;
        if (!strcmp(ports, "one"))
            m->ports = 1;
        else if (!keyvalue_parse_int(ports, where, "ports", 1,
                                     TOPOLOGY_MAX_NODES, &k, &why)) {
            keyvalue_problem(problems, "%s (or: all, one)", why);
            g_free(why);
        } else
            m->ports = (int)k;
    }

    gboolean startup_reported = FALSE, element_time_reported = FALSE,
             path_reported = FALSE;
    for (MessageClass c = 0; c < CLASS_COUNT; c++) {
        m->price[c].memory_path = machine_class_flag(&in, c, "memory-path",
                                                     &path_reported);
        m->price[c].startup = machine_class_time(&in, c, "startup", 0, 0,
                                                 &startup_reported);
        m->price[c].element_time = machine_class_time(&in, c, "element-time",
                                                      1, 1,
                                                      &element_time_reported);
    }
    const char *holds = machine_input_value(&in, "startup-holds-port", &where);
    int hold = 1;
    char *why = NULL;
    if (holds && !keyvalue_parse_choice(holds, where, "startup-holds-port",
                                        yes_no, &hold, &why))
        machine_take_why(problems, why);
    m->startup_holds_port = hold == 1;

    long long flop = 0;
    machine_input_int(&in, "flop-time", 0, MACHINE_MAX_TIME, &flop);
    m->flop_time = flop;

    const char *tick = machine_input_value(&in, "tick-seconds", &where);
    if (tick) {
        char *end;
        double v = g_ascii_strtod(tick, &end);
        if (end == tick || *end || !isfinite(v) || v < MACHINE_MIN_TICK_SECONDS
            || v > MACHINE_MAX_TICK_SECONDS)
            keyvalue_problem(problems, "%s: tick-seconds: '%s' is not a tick "
                             "length (valid: a number of seconds in %g..%g, "
                             "e.g. 1e-7)", where, tick, MACHINE_MIN_TICK_SECONDS,
                             MACHINE_MAX_TICK_SECONDS);
        else
            m->tick_seconds = v;
    }
    machine_kernels(&in, m);
    machine_loggp(&in, m, have_topology ? ops : NULL);
    machine_faults(&in, m, have_topology);

    const char *name = machine_input_value(&in, "name", &where);
    /* "(modified)" when an inline key overrides a value the preset sets
     * (a plain startup, element-time or memory-path overrides both
     * classes' keys); filling in what the preset leaves open (cube's
     * dimensions) is not. */
    gboolean custom = FALSE;
    for (size_t i = 0; preset && i < s->n; i++) {
        const char *k = s->keys[i].key;
        if (!strcmp(k, "name") || !strcmp(k, "description"))
            continue;
        custom = custom || keys_get(preset, k);
        for (int c = 0; c < CLASS_COUNT && !custom; c++) {
            g_autofree char *ck = g_strdup_printf("%s.%s",
                                                  message_class_name(c), k);
            custom = keys_get(preset, ck) != NULL;
        }
    }
    if (!name)
        name = preset_name ? preset_name : "custom";
    m->name = custom && !keys_get(s, "name")
                  ? g_strdup_printf("%s (modified)", name) : g_strdup(name);

    if (problems->len || !have_topology) {
        if (!problems->len)
            keyvalue_problem(problems, "%s: no topology", s->group_where);
        *problems_out = g_strdup(problems->str);
        machine_clear(m);
        return FALSE;
    }
    return TRUE;
}
