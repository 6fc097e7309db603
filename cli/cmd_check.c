/* cmd_check.c -- `cubemu check SCENARIO...`: run scenarios and evaluate their [expect]. */
#include "cli.h"
#include "algorithm.h"
#include "run.h"

#include <string.h>

/* The first failed expectation as text, or NULL if all hold. */
static char *evaluate(const Report *r, GPtrArray *expects)
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
                const Bound *bd = &g_array_index(r->bounds, Bound, b);
                if (!bd->holds)
                    return g_strdup_printf("%s: bounds = hold, but %s bound "
                                           "'%s' = %.17g does not hold "
                                           "(measured %.17g)", x->where,
                                           bound_kind_text(bd->kind),
                                           bd->name, bd->value, bd->measured);
            }
            break;
        case EXPECT_NUMERIC: {
            double v;
            if (!report_lookup(r, x->field, &v))
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
        { .long_name = NULL }
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- check scenarios' [expect]");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *e = NULL;
    if (!cli_parse(ctx, "check", &argc, &argv))
        return EXIT_INPUT;
    if (!files || !files[0]) {
        fprintf(stderr, "cubemu check: no SCENARIO given (e.g. cubemu check "
                "scenarios/paper/*.ini)\n");
        return EXIT_INPUT;
    }
    unsigned passed = 0, failed = 0;
    gboolean bad_input = FALSE;
    for (char **f = files; *f; f++) {
        g_autoptr(Scenario) s = cli_build_scenario(*f, sets, &e);
        /* run_scenario checks [expect] with every other key (run_setup),
         * so that all of a file's problems are reported together. */
        g_autoptr(Report) r = s ? run_scenario(s, NULL, &e) : NULL;
        g_autoptr(GPtrArray) expects = r ? scenario_expectations(s, &e) : NULL;
        if (!expects) {
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


const CliCommand cli_command_check = {
    .name = "check",
    .usage = "check SCENARIO... [--set SECTION.KEY=VALUE]...",
    .run = cmd_check,
};
