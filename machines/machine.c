/* machine.c -- machine parameters from presets and scenario keys.
 *
 * Resolution: the preset file's [machine] keys first, then the scenario's
 * inline keys on top; every value keeps the location it came from, so an
 * error in a preset file points into that file.
 */
#include "machine.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#ifndef CUBEMU_SOURCE_DIR
#define CUBEMU_SOURCE_DIR "."
#endif

static char *machine_program_dir;   /* set once by main, read-only after */

static const char *const machine_keys[] = {
    "preset", "topology", "dimensions", "ports", "startup", "element-time",
    "flop-time", "name", "description", NULL
};

static const char *const machine_topologies[] = { "cube", NULL };

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
    if (machine_program_dir) {
        g_ptr_array_add(dirs, g_build_filename(machine_program_dir, "machines", NULL));
        g_ptr_array_add(dirs, g_build_filename(machine_program_dir, "..", "machines", NULL));
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

Scenario *machine_preset_load(const char *name, GError **error)
{
    if (!*name || strchr(name, '/') || strchr(name, '.')) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "'%s' is not a preset name", name);
        return NULL;
    }
    g_auto(GStrv) dirs = machine_dirs();
    g_autofree char *file = g_strconcat(name, ".ini", NULL);
    for (char **d = dirs; *d; d++) {
        g_autofree char *path = g_build_filename(*d, file, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
            return scenario_load_file(path, error);
    }
    g_auto(GStrv) names = machine_preset_names();
    g_autofree char *valid = g_strjoinv(", ", names);
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "unknown machine preset '%s' (valid: %s)", name,
                *valid ? valid : "none found; set CUBEMU_MACHINES");
    return NULL;
}

const char *machine_ports_text(const Machine *m, char buf[16])
{
    if (m->ports == MACHINE_PORTS_ALL)
        return "all";
    g_snprintf(buf, 16, "%d", m->ports);
    return buf;
}

void machine_clear(Machine *m)
{
    g_free(m->name);
    g_free(m->topology);
    memset(m, 0, sizeof *m);
}

static void machine_take_error(GString *problems, GError *e)
{
    scenario_problem(problems, "%s", e->message);
    g_error_free(e);
}

/* The value of key from the scenario, else from the preset, with where. */
static const char *machine_value(const Scenario *s, const Scenario *preset,
                                 const char *key, const char **where)
{
    const char *v = scenario_get(s, "machine", key);
    if (v) {
        *where = scenario_where(s, "machine", key);
        return v;
    }
    if (preset && (v = scenario_get(preset, "machine", key))) {
        *where = scenario_where(preset, "machine", key);
        return v;
    }
    return NULL;
}

static void machine_time(const Scenario *s, const Scenario *preset,
                         const char *key, long long min, Tick fallback,
                         Tick *out, GString *problems)
{
    const char *where;
    const char *v = machine_value(s, preset, key, &where);
    long long x = fallback;
    GError *e = NULL;
    if (v && !scenario_parse_int(v, where, key, min, MACHINE_MAX_TIME,
                                 &x, &e))
        machine_take_error(problems, e);
    *out = x;
}

gboolean machine_from_scenario(const Scenario *s, Machine *m,
                               GError **error)
{
    g_autoptr(GString) problems = g_string_new(NULL);
    g_autoptr(Scenario) preset = NULL;
    memset(m, 0, sizeof *m);

    g_auto(GStrv) keys = scenario_keys(s, "machine");
    for (char **k = keys; *k; k++)
        if (!g_strv_contains(machine_keys, *k)) {
            g_autofree char *valid = g_strjoinv(", ", (char **)machine_keys);
            scenario_problem(problems, "%s: unknown key '%s' in [machine] "
                            "(valid: %s)", scenario_where(s, "machine", *k),
                            *k, valid);
        }

    const char *preset_name = scenario_get(s, "machine", "preset");
    if (preset_name) {
        GError *e = NULL;
        preset = machine_preset_load(preset_name, &e);
        if (!preset) {
            scenario_problem(problems, "%s: preset: %s",
                            scenario_where(s, "machine", "preset"), e->message);
            g_error_free(e);
        } else {
            g_auto(GStrv) pkeys = scenario_keys(preset, "machine");
            for (char **k = pkeys; *k; k++)
                if (!g_strv_contains(machine_keys, *k) || !strcmp(*k, "preset"))
                    scenario_problem(problems, "%s: key '%s' is not allowed "
                                    "in a preset", scenario_where(preset,
                                    "machine", *k), *k);
        }
    }

    /* A preset that failed to load has been reported; what it would have
     * supplied is not missing on top of that. */
    gboolean preset_failed = preset_name && !preset;
    const char *where;
    const char *topology = machine_value(s, preset, "topology", &where);
    if (!topology && !preset_failed) {
        scenario_problem(problems, "%s: [machine] needs a preset or a topology "
                        "(valid topologies: cube)", scenario_group_where(s, "machine"));
    } else if (topology) {
        int t;
        GError *e = NULL;
        if (!scenario_parse_choice(topology, where, "topology",
                                   machine_topologies, &t, &e))
            machine_take_error(problems, e);
    }
    m->topology = g_strdup(topology ? topology : "cube");

    const char *dims = machine_value(s, preset, "dimensions", &where);
    long long n = 0;
    if (!dims) {
        if (topology && !preset_failed)
            scenario_problem(problems, "%s: [machine] needs dimensions%s%s%s",
                            scenario_group_where(s, "machine"),
                            preset_name ? " (the preset '" : "",
                            preset_name ? preset_name : "",
                            preset_name ? "' leaves them to the scenario)" : "");
    } else {
        GError *e = NULL;
        if (!scenario_parse_int(dims, where, "dimensions", 1,
                                CUBE_MAX_DIMENSIONS, &n, &e))
            machine_take_error(problems, e);
    }
    m->dimensions = (int)n;

    const char *ports = machine_value(s, preset, "ports", &where);
    m->ports = MACHINE_PORTS_ALL;
    if (ports && strcmp(ports, "all") != 0) {
        long long k;
        GError *e = NULL;
        if (!strcmp(ports, "one"))
            m->ports = 1;
        else if (!scenario_parse_int(ports, where, "ports", 1,
                                     CUBE_MAX_DIMENSIONS, &k, &e)) {
            g_autofree char *msg = g_strdup_printf("%s (or: all, one)", e->message);
            scenario_problem(problems, "%s", msg);
            g_error_free(e);
        } else
            m->ports = (int)k;
    }

    machine_time(s, preset, "startup", 0, 0, &m->startup, problems);
    machine_time(s, preset, "element-time", 1, 1, &m->element_time, problems);
    machine_time(s, preset, "flop-time", 0, 0, &m->flop_time, problems);

    const char *name = machine_value(s, preset, "name", &where);
    /* "(modified)" when an inline key overrides a value the preset sets;
     * filling in what the preset leaves open (cube's dimensions) is not. */
    gboolean custom = FALSE;
    for (char **k = keys; preset && *k; k++)
        if (strcmp(*k, "name") && strcmp(*k, "description")
            && scenario_get(preset, "machine", *k))
            custom = TRUE;
    if (!name)
        name = preset_name ? preset_name : "custom";
    m->name = custom && !scenario_get(s, "machine", "name")
                  ? g_strdup_printf("%s (modified)", name) : g_strdup(name);

    if (problems->len) {
        g_set_error_literal(error, SCENARIO_ERROR,
                            SCENARIO_ERROR_INPUT, problems->str);
        machine_clear(m);
        return FALSE;
    }
    return TRUE;
}
