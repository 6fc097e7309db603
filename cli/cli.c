/* cli.c -- pieces the commands share: the default scenario, building a
 * scenario from a file or the default plus --set values, error printing.
 */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

/* The scenario `cubemu run` uses when given none. */
const char cli_default_scenario[] =
    "# cubemu's default scenario: the concurrent Gray-to-binary conversion\n"
    "# of Johnsson & Ho (Section 4, Figure 5, Theorem 5) on a 256-node CM-200.\n"
    "[machine]\n"
    "preset = cm200-8k\n"
    "[algorithm]\n"
    "name = gray-to-binary\n"
    "method = concurrent\n"
    "elements-per-node = 1024\n"
    "[expect]\n"
    "data = correct\n"
    "bounds = hold\n";

void cli_print_error(const char *command, const GError *e)
{
    fprintf(stderr, "cubemu %s: %s\n", command, e->message);
}

int cli_fail(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "cubemu %s: %s\n", command, what);
    return EXIT_INPUT;
}

gboolean cli_parse(GOptionContext *ctx, const char *command, int *argc,
                   char ***argv)
{
    GError *e = NULL;
    if (g_option_context_parse(ctx, argc, argv, &e))
        return TRUE;
    cli_print_error(command, e);
    g_error_free(e);
    return FALSE;
}

/* Fill from the default scenario what the user's --set did not give. */
static void fill_default(Scenario *s)
{
    g_autoptr(Scenario) def = scenario_load_data("default scenario",
                                                 cli_default_scenario, NULL);
    g_assert(def);
    const char *name = scenario_get(s, "algorithm", "name");
    gboolean other_algorithm = name && g_strcmp0(name,
                               scenario_get(def, "algorithm", "name")) != 0;
    gboolean other_machine = scenario_get(s, "machine", "preset")
                             || scenario_get(s, "machine", "topology");
    gboolean user_changed_run = scenario_has_group(s, "machine")
                                || scenario_has_group(s, "algorithm");
    g_auto(GStrv) groups = scenario_groups(def);
    for (char **g = groups; *g; g++) {
        if ((other_machine && !strcmp(*g, "machine"))
            || (other_algorithm && !strcmp(*g, "algorithm"))
            || (user_changed_run && !strcmp(*g, "expect")))
            continue;
        g_auto(GStrv) keys = scenario_keys(def, *g);
        for (char **k = keys; *k; k++)
            if (!scenario_get(s, *g, *k))
                scenario_put(s, *g, *k, scenario_get(def, *g, *k),
                             scenario_where(def, *g, *k));
    }
}

Scenario *cli_build_scenario(const char *path, char **sets, GError **error)
{
    g_autoptr(Scenario) s = path ? scenario_load_file(path, error)
                                 : scenario_new("default");
    if (!s)
        return NULL;
    for (char **a = sets; a && *a; a++)
        if (!scenario_apply_set(s, *a, error))
            return NULL;
    if (!path)
        fill_default(s);
    return g_steal_pointer(&s);
}

