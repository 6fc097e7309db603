/* scenario_default.c -- the default scenario and building a command's
 * scenario around it (scenario_default.h).
 */
#include "scenario_default.h"

#include <string.h>

/* The scenario `cubemu run` and `cubemu-mpi run` use when given none. */
const char scenario_default_text[] =
    "# cubemu's default scenario: the concurrent Gray-to-binary conversion\n"
    "# of Johnsson & Ho (Section 4, Figure 5, Theorem 5) on a 256-node CM-200\n"
    "# in the paper's model: channels that work independently, at the\n"
    "# CM-200's price an element. `cubemu run` compares it with the CM-200\n"
    "# as built, whose nodes each move their elements through one memory path.\n"
    "[machine]\n"
    "preset = cm200-8k\n"
    "memory-path = no\n"
    "[algorithm]\n"
    "name = gray-to-binary\n"
    "method = concurrent\n"
    "elements-per-node = 1024\n"
    "[expect]\n"
    "data = correct\n"
    "bounds = hold\n";

/* Fill from the default scenario what the user's --set did not give. */
static void fill_default(Scenario *s)
{
    g_autoptr(Scenario) def = scenario_load_data("default scenario",
                                                 scenario_default_text, NULL);
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

Scenario *scenario_default_build(const char *path, char **sets,
                                 char **compare, GError **error)
{
    g_autoptr(Scenario) s = path ? scenario_load_file(path, error)
                                 : scenario_new("default");
    if (!s)
        return NULL;
    for (char **a = sets; a && *a; a++)
        if (!scenario_apply_set(s, *a, error))
            return NULL;
    for (char **a = compare; a && *a; a++)
        if (!scenario_apply_flag(s, "--compare", *a, error))
            return NULL;
    if (!path)
        fill_default(s);
    return g_steal_pointer(&s);
}
