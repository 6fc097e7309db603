/* cmd_list.c -- `cubemu list`: algorithms, methods, parameters and machine presets. */
#include "cli.h"
#include "algorithm.h"
#include "run.h"

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

static int cmd_list(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "cubemu list: unexpected argument '%s'\n", argv[1]);
        return EXIT_INPUT;
    }
    printf("Algorithms\n");
    for (const Algorithm *const *a = algorithm_registry; *a; a++) {
        printf("  %s: %s\n    (%s)\n", (*a)->name, (*a)->summary, (*a)->source);
        printf("    runs on:");
        for (const TopologyOps *const *t = topology_registry; *t; t++)
            if (((*a)->topologies >> (*t)->kind) & 1)
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
    printf("\nMachine presets (machines/)\n");
    g_auto(GStrv) names = machine_preset_names();
    for (char **n = names; *n; n++) {
        g_autoptr(Scenario) p = machine_preset_load(*n, NULL);
        const char *d = p ? scenario_get(p, "machine", "description") : NULL;
        printf("  %-14s %s\n", *n, d ? d : "");
    }
    return EXIT_OK;
}


const CliCommand cli_command_list = {
    .name = "list",
    .usage = "list",
    .run = cmd_list,
};
