/* fuzz_scenario.c -- the scenario reader (run/scenario.c): the input is a
 * scenario file. Loaded with scenario_load_data, walked through every
 * accessor, its [expect] parsed, every value read as an integer and as a
 * choice; then each line of the input is applied as a --set assignment
 * (onto the loaded scenario, or an empty one when loading failed), and the
 * first group and key are removed again.
 */
#include <string.h>

#include "fuzz.h"
#include "scenario.h"

/* --set is given on a command line: a few dozen at most. */
#define FUZZ_MAX_SETS 64

static const char *const yes_no[] = { "no", "yes", NULL };

static void walk(Scenario *s)
{
    GError *e = NULL;
    g_auto(GStrv) groups = scenario_groups(s);
    for (char **g = groups; *g; g++) {
        (void)scenario_group_where(s, *g);
        g_auto(GStrv) keys = scenario_keys(s, *g);
        for (char **k = keys; *k; k++) {
            const char *v = scenario_get(s, *g, *k);
            const char *where = scenario_where(s, *g, *k);
            if (!v || !where)
                g_error("fuzz: key [%s] %s listed but absent", *g, *k);
            long long n;
            int c;
            if (!scenario_parse_int(v, where, *k, -1000000, 1000000, &n, &e))
                fuzz_check_error(&e);
            if (!scenario_parse_choice(v, where, *k, yes_no, &c, &e))
                fuzz_check_error(&e);
        }
    }
    GPtrArray *x = scenario_expectations(s, &e);
    if (x)
        g_ptr_array_free(x, TRUE);
    else
        fuzz_check_error(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    char *text = g_strndup((const char *)data, size);
    GError *e = NULL;
    Scenario *s = scenario_load_data("fuzz.ini", text, &e);
    if (!s) {
        fuzz_check_error(&e);
        s = scenario_new("fuzz");
    }
    walk(s);

    char **lines = g_strsplit(text, "\n", FUZZ_MAX_SETS + 1);
    for (int i = 0; lines[i] && i < FUZZ_MAX_SETS; i++)
        if (!scenario_apply_set(s, lines[i], &e))
            fuzz_check_error(&e);
    g_strfreev(lines);
    walk(s);

    g_auto(GStrv) groups = scenario_groups(s);
    if (groups[0]) {
        g_auto(GStrv) keys = scenario_keys(s, groups[0]);
        if (keys[0])
            scenario_remove_key(s, groups[0], keys[0]);
        scenario_remove_group(s, groups[0]);
        if (scenario_has_group(s, groups[0]))
            g_error("fuzz: group [%s] survived its removal", groups[0]);
    }
    walk(s);
    scenario_free(s);
    g_free(text);
    return 0;
}
