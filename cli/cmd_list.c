/* cmd_list.c -- `cubemu list`: algorithms, methods, parameters and machine presets. */
#include "cli.h"
#include "algorithm.h"
#include "run.h"
#include "prepare.h"
#include "export.h"

#include <json-glib/json-glib.h>

#include <string.h>

static void list_param(const ParamSpec *p)
{
    printf("      %-20s ", p->key);
    if (p->type == PARAM_INT) {
        printf("integer %lld..%lld", p->min, p->max);
    } else if (p->type == PARAM_TEXT) {
        printf("text");
    } else {
        g_autofree char *c = g_strjoinv("|", (char **)p->choices);
        printf("%s", c);
    }
    printf(", default %s: %s\n", !p->fallback ? "(required)"
           : *p->fallback ? p->fallback : "(none)", p->help);
}

static void json_strings(JsonBuilder *b, const char *member, char **names)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_array(b);
    for (char **n = names; *n; n++)
        json_builder_add_string_value(b, *n);
    json_builder_end_array(b);
}

static void json_param(JsonBuilder *b, const ParamSpec *p)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "name");
    json_builder_add_string_value(b, p->key);
    json_builder_set_member_name(b, "kind");
    json_builder_add_string_value(b, p->type == PARAM_INT ? "integer"
                                  : p->type == PARAM_TEXT ? "text" : "choice");
    /* As `list` shows it: the default as text, null when there is none. */
    json_builder_set_member_name(b, "required");
    json_builder_add_boolean_value(b, !p->fallback);
    json_builder_set_member_name(b, "default");
    if (p->fallback && *p->fallback)
        json_builder_add_string_value(b, p->fallback);
    else
        json_builder_add_null_value(b);
    if (p->type == PARAM_INT) {
        json_builder_set_member_name(b, "min");
        json_builder_add_int_value(b, p->min);
        json_builder_set_member_name(b, "max");
        json_builder_add_int_value(b, p->max);
    } else if (p->type == PARAM_CHOICE) {
        json_strings(b, "values", (char **)p->choices);
    }
    json_builder_set_member_name(b, "help");
    json_builder_add_string_value(b, p->help);
    json_builder_end_object(b);
}

/* The fault policies, in FaultPolicy order. */
static const FaultPolicy list_policies[] = { FAULTS_DETOUR, FAULTS_REFUSE };

/* "faults": machine.faults's items, machine.fault-policy's values and the
 * report's faults.* fields, from the tables the parser and the report
 * use. */
static void json_faults(JsonBuilder *b)
{
    json_builder_set_member_name(b, "faults");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "syntax");
    json_builder_begin_array(b);
    for (const FaultsSyntax *x = faults_syntax; x->form; x++) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "form");
        json_builder_add_string_value(b, x->form);
        json_builder_set_member_name(b, "meaning");
        json_builder_add_string_value(b, x->meaning);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "policies");
    json_builder_begin_array(b);
    for (size_t i = 0; i < G_N_ELEMENTS(list_policies); i++)
        json_builder_add_string_value(b,
            machine_fault_policy_name(list_policies[i]));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "fields");
    json_builder_begin_array(b);
    for (const char *const *f = report_faults_fields; *f; f++) {
        g_autofree char *name = g_strdup_printf("faults.%s", *f);
        json_builder_add_string_value(b, name);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void list_faults(void)
{
    printf("\nFaults (machine.faults = ITEM, ...; machines/faults.h)\n");
    for (const FaultsSyntax *x = faults_syntax; x->form; x++)
        printf("  %-20s %s\n", x->form, x->meaning);
    printf("  nodes are numbers: decimal, 0x hexadecimal or 0b binary\n");
    printf("  machine.fault-policy:");
    for (size_t i = 0; i < G_N_ELEMENTS(list_policies); i++)
        printf("%s %s", i ? "," : "",
               machine_fault_policy_name(list_policies[i]));
    printf(" (the first is the default)\n  report fields (0 without "
           "faults):");
    for (const char *const *f = report_faults_fields; *f; f++)
        printf("%s faults.%s", f == report_faults_fields ? "" : ",", *f);
    printf("\n");
}

/* Everything the text list shows, from the same tables, plus the trace
 * export formats. */
static int list_json(void)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "algorithms");
    json_builder_begin_array(b);
    for (const Algorithm *const *a = algorithm_list(); *a; a++) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, (*a)->name);
        json_builder_set_member_name(b, "summary");
        json_builder_add_string_value(b, (*a)->summary);
        json_builder_set_member_name(b, "source");
        json_builder_add_string_value(b, (*a)->source);
        json_builder_set_member_name(b, "topologies");
        json_builder_begin_array(b);
        for (const TopologyOps *const *t = topology_registry; *t; t++)
            if (topology_offers(*t, (*a)->needs))
                json_builder_add_string_value(b, (*t)->name);
        json_builder_end_array(b);
        json_builder_set_member_name(b, "default_method");
        json_builder_add_string_value(b, (*a)->methods->name);
        json_builder_set_member_name(b, "methods");
        json_builder_begin_array(b);
        for (const AlgorithmMethod *m = (*a)->methods; m->name; m++) {
            json_builder_begin_object(b);
            json_builder_set_member_name(b, "name");
            json_builder_add_string_value(b, m->name);
            json_builder_set_member_name(b, "summary");
            json_builder_add_string_value(b, m->summary);
            json_builder_set_member_name(b, "default");
            json_builder_add_boolean_value(b, m == (*a)->methods);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_builder_set_member_name(b, "parameters");
        json_builder_begin_array(b);
        for (const ParamSpec *p = (*a)->params; p->key; p++)
            json_param(b, p);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "topologies");
    json_builder_begin_array(b);
    for (const TopologyOps *const *t = topology_registry; *t; t++) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, (*t)->name);
        json_builder_set_member_name(b, "summary");
        json_builder_add_string_value(b, (*t)->summary);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "presets");
    json_builder_begin_array(b);
    g_auto(GStrv) names = machine_preset_names();
    for (char **n = names; *n; n++) {
        g_autoptr(Scenario) p = prepare_preset(*n, NULL);
        const char *d = p ? scenario_get(p, "machine", "description") : NULL;
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, *n);
        json_builder_set_member_name(b, "description");
        json_builder_add_string_value(b, d ? d : "");
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_faults(b);
    /* Trace export formats, from the exporters' table: the formats, every
     * name --format takes, and the extensions -o's path may name one by. */
    json_builder_set_member_name(b, "trace_formats");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "formats");
    json_builder_begin_array(b);
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++)
        json_builder_add_string_value(b, x->name);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "names");
    json_builder_begin_array(b);
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++) {
        json_builder_add_string_value(b, x->name);
        for (const char *const *a = x->aliases; a && *a; a++)
            json_builder_add_string_value(b, *a);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "extensions");
    json_builder_begin_array(b);
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++)
        for (const char *const *e = x->extensions; e && *e; e++)
            json_builder_add_string_value(b, *e);
    json_builder_end_array(b);
    json_builder_end_object(b);
    json_builder_end_object(b);

    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    g_autofree char *text = json_generator_to_data(gen, NULL);
    printf("%s\n", text);
    return EXIT_OK;
}

static int cmd_list(int argc, char **argv)
{
    gboolean json = FALSE;
    g_auto(GStrv) rest = NULL;
    GOptionEntry entries[] = {
        { "json", 0, 0, G_OPTION_ARG_NONE, &json,
          "Print one JSON object, with the trace export formats too", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL,
          NULL },
        { .long_name = NULL }
    };
    if (!cli_parse_options("list", entries, "- the algorithms, their methods "
                           "and parameters, the topologies and the machine "
                           "presets", NULL, NULL, &argc, &argv))
        return EXIT_INPUT;
    if (rest && rest[0]) {
        fprintf(stderr, "cubemu list: unexpected argument '%s'\n", rest[0]);
        return EXIT_INPUT;
    }
    if (json)
        return list_json();
    printf("Algorithms\n");
    for (const Algorithm *const *a = algorithm_list(); *a; a++) {
        printf("  %s: %s\n    (%s)\n", (*a)->name, (*a)->summary, (*a)->source);
        printf("    runs on:");
        for (const TopologyOps *const *t = topology_registry; *t; t++)
            if (topology_offers(*t, (*a)->needs))
                printf(" %s", (*t)->name);
        printf("\n");
        printf("    methods:\n");
        for (const AlgorithmMethod *m = (*a)->methods; m->name; m++)
            printf("      %-20s %s%s\n", m->name, m->summary,
                   m == (*a)->methods ? " [default]" : "");
        printf("    parameters:\n");
        for (const ParamSpec *p = (*a)->params; p->key; p++)
            list_param(p);
    }
    printf("\nTopologies (machines/)\n");
    for (const TopologyOps *const *t = topology_registry; *t; t++)
        printf("  %-14s %s\n", (*t)->name, (*t)->summary);
    list_faults();
    printf("\nMachine presets (machines/)\n");
    g_auto(GStrv) names = machine_preset_names();
    for (char **n = names; *n; n++) {
        g_autoptr(Scenario) p = prepare_preset(*n, NULL);
        const char *d = p ? scenario_get(p, "machine", "description") : NULL;
        printf("  %-14s %s\n", *n, d ? d : "");
    }
    return EXIT_OK;
}


const CliCommand cli_command_list = {
    .name = "list",
    .usage = "list [--json]",
    .run = cmd_list,
};
