/* main.c -- the cubemu command line: run, check, list.
 *
 * Exit status: 0 success; 1 a run finished but its data or an expectation
 * failed; 2 bad input (a flag, a scenario file, a parameter, a machine too
 * large) or a node program error. Every error message names the flag or
 * the file and line.
 */
#include "algorithm.h"
#include "run.h"

#include <stdio.h>
#include <string.h>

#ifndef CUBEMU_VERSION
#define CUBEMU_VERSION "0.1.0"
#endif

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_INPUT = 2 };

/* The scenario `cubemu run` uses when given none. */
static const char default_scenario[] =
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

static const char usage_text[] =
    "Usage:\n"
    "  cubemu run [SCENARIO] [--set SECTION.KEY=VALUE]... [--json] [--dump-memory]\n"
    "  cubemu check SCENARIO... [--set SECTION.KEY=VALUE]...\n"
    "  cubemu list\n"
    "  cubemu --help | --version\n"
    "\n"
    "run    runs one scenario and prints a table (or JSON with --json).\n"
    "       Without SCENARIO it runs the embedded default: gray-to-binary,\n"
    "       method concurrent, K = 1024 on the cm200-8k preset (256 nodes).\n"
    "       --set overrides or adds any scenario key; with no SCENARIO the\n"
    "       default fills in only what is not given (a --set algorithm.name\n"
    "       drops the default's other [algorithm] keys, a --set machine.preset\n"
    "       or machine.topology drops its [machine]).\n"
    "check  runs each scenario and evaluates its [expect]; prints one line per\n"
    "       scenario and 'N passed, N failed'; exit status 1 if any failed.\n"
    "list   algorithms, their methods and parameters, and machine presets.\n"
    "\n"
    "Exit status: 0 ok, 1 a check or the data verification failed, 2 bad input.\n";

static void print_error(const char *command, const GError *e)
{
    fprintf(stderr, "cubemu %s: %s\n", command, e->message);
}

/* ---- building the scenario ------------------------------------------- */

/* Fill from the default scenario what the user's --set did not give. */
static void fill_default(Scenario *s)
{
    g_autoptr(Scenario) def = scenario_load_data("default scenario",
                                                 default_scenario, NULL);
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

static Scenario *build_scenario(const char *path, char **sets, GError **error)
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

/* ---- run ------------------------------------------------------------- */

static int cmd_run(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) rest = NULL;
    gboolean json = FALSE, dump = FALSE;
    GOptionEntry entries[] = {
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a scenario key", "SECTION.KEY=VALUE" },
        { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
        { "dump-memory", 0, 0, G_OPTION_ARG_NONE, &dump,
          "Include every node's final memory", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "[SCENARIO]" },
        { NULL }
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- run one scenario");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx, "Without SCENARIO: the embedded "
        "default (gray-to-binary, concurrent, K = 1024, cm200-8k).");
    GError *e = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
        print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    if (rest && g_strv_length(rest) > 1) {
        fprintf(stderr, "cubemu run: one scenario at a time ('%s' is extra); "
                "use cubemu check for several\n", rest[1]);
        return EXIT_INPUT;
    }
    g_autoptr(Scenario) s = build_scenario(rest ? rest[0] : NULL, sets, &e);
    g_autoptr(GPtrArray) expects = s ? scenario_expectations(s, &e) : NULL;
    if (!expects) {
        print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    CubeRunOptions options = { .dump_memory = dump };
    g_autoptr(CubeReport) r = cube_run(s, &options, &e);
    if (!r) {
        print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    if (json)
        cube_report_print_json(r, stdout);
    else
        cube_report_print_table(r, stdout);
    if (!r->data_correct) {
        fprintf(stderr, "cubemu run: %s: the final memory is wrong: %s\n",
                r->scenario, r->data_problem);
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

/* ---- check ----------------------------------------------------------- */

/* The first failed expectation as text, or NULL if all hold. */
static char *evaluate(const CubeReport *r, GPtrArray *expects)
{
    for (guint i = 0; i < expects->len; i++) {
        const Expectation *x = expects->pdata[i];
        switch (x->kind) {
        case EXPECT_DATA_CORRECT:
            if (!r->data_correct)
                return g_strdup_printf("%s: data = correct, measured: %s",
                                       x->where, r->data_problem);
            break;
        case EXPECT_BOUNDS_HOLD:
            for (guint b = 0; b < r->bounds->len; b++) {
                const CubeBound *bd = &g_array_index(r->bounds, CubeBound, b);
                if (!bd->holds)
                    return g_strdup_printf("%s: bounds = hold, but %s bound "
                                           "'%s' = %.17g does not hold "
                                           "(measured %.17g)", x->where,
                                           cube_bound_kind_text(bd->kind),
                                           bd->name, bd->value, bd->measured);
            }
            break;
        case EXPECT_NUMERIC: {
            double v;
            if (!cube_report_lookup(r, x->field, &v))
                return g_strdup_printf("%s: %s: no such numeric output field",
                                       x->where, x->field);
            if (!expect_op_holds(x->op, v, x->value))
                return g_strdup_printf("%s: expected %s %s %.17g, measured "
                                       "%.17g", x->where, x->field,
                                       expect_op_text(x->op), x->value, v);
            break;
        }
        }
    }
    return NULL;
}

static int cmd_check(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) files = NULL;
    GOptionEntry entries[] = {
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a key in every scenario", "SECTION.KEY=VALUE" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
          "SCENARIO..." },
        { NULL }
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- check scenarios' [expect]");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *e = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
        print_error("check", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    if (!files || !files[0]) {
        fprintf(stderr, "cubemu check: no SCENARIO given (e.g. cubemu check "
                "scenarios/paper/*.ini)\n");
        return EXIT_INPUT;
    }
    unsigned passed = 0, failed = 0;
    gboolean bad_input = FALSE;
    for (char **f = files; *f; f++) {
        g_autoptr(Scenario) s = build_scenario(*f, sets, &e);
        g_autoptr(GPtrArray) expects = s ? scenario_expectations(s, &e) : NULL;
        g_autoptr(CubeReport) r = expects ? cube_run(s, NULL, &e) : NULL;
        if (!r) {
            printf("FAIL %s: %s\n", *f, e->message);
            g_clear_error(&e);
            bad_input = TRUE;
            failed++;
            continue;
        }
        if (expects->len == 0) {
            printf("FAIL %s: no [expect] entries to check\n", *f);
            failed++;
            continue;
        }
        g_autofree char *why = evaluate(r, expects);
        if (why) {
            printf("FAIL %s: %s\n", *f, why);
            failed++;
        } else {
            printf("ok   %s (cycles %lld)\n", *f, (long long)r->cycles);
            passed++;
        }
    }
    printf("%u passed, %u failed\n", passed, failed);
    return bad_input ? EXIT_INPUT : failed ? EXIT_FAILED : EXIT_OK;
}

/* ---- list ------------------------------------------------------------ */

static void list_param(const CubeParamSpec *p)
{
    printf("      %-20s ", p->key);
    if (p->type == CUBE_PARAM_INT) {
        printf("integer %lld..%lld", p->min, p->max);
    } else {
        g_autofree char *c = g_strjoinv("|", (char **)p->choices);
        printf("%s", c);
    }
    printf(", default %s: %s\n", p->fallback ? p->fallback : "(required)",
           p->help);
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "cubemu list: unexpected argument '%s'\n", argv[1]);
        return EXIT_INPUT;
    }
    printf("Algorithms\n");
    for (const CubeAlgorithm *const *a = cube_algorithms; *a; a++) {
        printf("  %s: %s\n    (%s)\n", (*a)->name, (*a)->summary, (*a)->source);
        printf("    methods:\n");
        for (const CubeMethod *m = (*a)->methods; m->name; m++)
            printf("      %-20s %s%s\n", m->name, m->summary,
                   m == (*a)->methods ? " [default]" : "");
        printf("    parameters:\n");
        for (const CubeParamSpec *p = (*a)->params; p->key; p++)
            list_param(p);
    }
    printf("\nMachine presets (machines/)\n");
    g_auto(GStrv) names = machine_preset_names();
    for (char **n = names; *n; n++) {
        g_autoptr(Scenario) p = machine_preset_load(*n, NULL);
        const char *d = p ? scenario_get(p, "machine", "description") : NULL;
        printf("  %-12s %s\n", *n, d ? d : "");
    }
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    machine_set_program_path(argv[0]);
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("cubemu %s\n", CUBEMU_VERSION);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "list"))
        return cmd_list(argc - 1, argv + 1);
    fprintf(stderr, "cubemu: unknown command '%s' (valid: run, check, list; "
            "see cubemu --help)\n", cmd);
    return EXIT_INPUT;
}
