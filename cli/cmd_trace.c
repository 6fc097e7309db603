/* cmd_trace.c -- `cubemu trace export FILE --format FORMAT [-o OUT]
 * [--window CYCLES]` and `cubemu trace info FILE`: read a trace written by
 * `cubemu run --trace` and convert or summarise it. Any bad file or flag is
 * "cubemu trace: WHAT: reason" and exit status 2. The formats, their
 * names, extensions and which take --window come from the exporters'
 * table (trace_export_formats, traces/export.h), here and in --help.
 */
#include "cli.h"
#include "output.h"
#include "export.h"

#include <errno.h>
#include <string.h>

static int trace_error(GError *e)
{
    cli_print_error("trace", e);
    g_error_free(e);
    return EXIT_INPUT;
}

/* items joined "a, b or c". */
static char *join_or(GPtrArray *items)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < items->len; i++)
        g_string_append_printf(s, "%s%s",
                               i == 0 ? "" : i + 1 == items->len ? " or " : ", ",
                               (const char *)items->pdata[i]);
    return g_string_free(s, FALSE);
}

/* --format's help: "chrome or perfetto (the same JSON), paje (ViTE) or
 * csv". */
char *cli_export_format_help(void)
{
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++) {
        GString *item = g_string_new(x->name);
        for (const char *const *a = x->aliases; a && *a; a++)
            g_string_append_printf(item, " or %s", *a);
        if (x->description)
            g_string_append_printf(item, " (%s)", x->description);
        g_ptr_array_add(items, g_string_free(item, FALSE));
    }
    return join_or(items);
}

/* The formats that take --window: "csv". */
static char *windowed_formats(void)
{
    g_autoptr(GPtrArray) items = g_ptr_array_new();
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++)
        if (x->windowed)
            g_ptr_array_add(items, (gpointer)x->name);
    return join_or(items);
}

char *cli_export_format_choices(gboolean aliases)
{
    GString *s = g_string_new(NULL);
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++) {
        g_string_append_printf(s, "%s%s", s->len ? "|" : "", x->name);
        for (const char *const *a = x->aliases; aliases && a && *a; a++)
            g_string_append_printf(s, "|%s", *a);
    }
    return g_string_free(s, FALSE);
}

char *cli_export_extensions(void)
{
    GString *s = g_string_new(NULL);
    for (const TraceExportFormatSpec *x = trace_export_formats; x->name; x++)
        for (const char *const *e = x->extensions; e && *e; e++)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", *e);
    return g_string_free(s, FALSE);
}

static int trace_export_command(int argc, char **argv)
{
    g_autofree char *format = NULL, *output = NULL;
    gint64 window = G_MININT64;          /* not given */
    g_auto(GStrv) rest = NULL;
    g_autofree char *formats = cli_export_format_help();
    g_autofree char *windowed = windowed_formats();
    g_autofree char *format_text = g_strdup_printf(
        "%s; default: from -o's extension", formats);
    g_autofree char *window_text = g_strdup_printf(
        "%s: cycles per row (default: one element-time, at most %d rows)",
        windowed, TRACE_CSV_MAX_ROWS);
    GOptionEntry entries[] = {
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, format_text,
          "FORMAT" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "Write here instead of standard output", "OUT" },
        { "window", 'w', 0, G_OPTION_ARG_INT64, &window, window_text,
          "CYCLES" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "TRACE" },
        { .long_name = NULL }
    };
    static const char *const once[] = { "--format", "-f", "--output", "-o", "--window", "-w", NULL };
    if (!cli_parse_options("trace", entries, "- convert a trace", NULL, once,
                           &argc, &argv))
        return EXIT_INPUT;
    const TraceExportFormatSpec *example = &trace_export_formats[0];
    if (!rest || !rest[0])
        return cli_fail("trace", "export: no TRACE given (e.g. cubemu trace export "
                          "run.trace --format %s -o run%s)", example->name,
                        example->extensions ? example->extensions[0] : "");
    if (rest[1])
        return cli_fail("trace", "export: one TRACE at a time ('%s' is extra)", rest[1]);
    g_autofree char *names = trace_export_valid_names(FALSE);
    g_autofree char *extensions = trace_export_valid_names(TRUE);
    TraceExportFormat f;
    if (format && !trace_export_format_parse(format, &f))
        return cli_fail("trace", "--format %s: unknown format (valid: %s)",
                        format, names);
    if (!format && !(output && trace_export_format_of_path(output, &f)))
        return cli_fail("trace", "export: --format is required (valid: %s), or "
                        "an -o whose extension names one (%s)", names, extensions);
    if (window != G_MININT64 && window <= 0)
        return cli_fail("trace", "--window %" G_GINT64_FORMAT ": must be a positive "
                          "number of cycles", (gint64)window);
    if (window == G_MININT64)
        window = 0;
    else if (!trace_export_formats[f].windowed)
        return cli_fail("trace", "--window applies to --format %s only", windowed);
    GError *e = NULL;
    g_autoptr(Trace) t = trace_load(rest[0], &e);
    if (!t)
        return trace_error(e);
    g_autoptr(Output) out = output_open(output ? output : "-", &e);
    if (!out)
        return trace_error(e);
    gboolean ok = trace_export(t, f, window,
                               output_stream(out),
                               output ? output : "standard output", &e)
                  && output_commit(g_steal_pointer(&out), &e);
    return ok ? EXIT_OK : trace_error(e);
}

static int trace_info_command(int argc, char **argv)
{
    g_auto(GStrv) rest = NULL;
    GOptionEntry entries[] = {
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "TRACE" },
        { .long_name = NULL }
    };
    if (!cli_parse_options("trace", entries, "- summarise a trace", NULL,
                           NULL, &argc, &argv))
        return EXIT_INPUT;
    if (!rest || !rest[0] || rest[1])
        return cli_fail("trace", "info: give exactly one TRACE");
    GError *e = NULL;
    g_autoptr(Trace) t = trace_load(rest[0], &e);
    if (!t)
        return trace_error(e);
    g_autofree char *title = trace_title(t);
    printf("%s\n", title);
    printf("  format version   %u.%u\n", t->version_major, t->version_minor);
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        printf("  %-16s %s\n", in->key, in->value);
    }
    g_autofree char *topology = trace_topology_text(t);
    char ports[16];
    printf("  topology         %s, %d links\n", topology, t->topology.links);
    if (t->ports == MACHINE_PORTS_ALL)
        g_strlcpy(ports, "all", sizeof ports);
    else
        g_snprintf(ports, sizeof ports, "%d", t->ports);
    printf("  ports            %s\n", ports);
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        if (topology_has_class(t->topology.ops, c))
            printf("  %-16s startup %" G_GINT64_FORMAT ", element time %"
                   G_GINT64_FORMAT "%s%s\n", message_class_name(c),
                   (gint64)t->price[c].startup, (gint64)t->price[c].element_time,
                   t->price[c].startup > 0 && t->startup_holds_port
                       ? " (startups hold a port)" : "",
                   t->price[c].memory_path ? ", memory paths" : "");
    if (t->tick_seconds > 0)
        printf("  tick             %g s\n", t->tick_seconds);
    g_autofree char *seconds = trace_seconds_text(t, t->cycles);
    printf("  cycles           %" G_GINT64_FORMAT "%s%s%s\n", (gint64)t->cycles,
           seconds ? " (" : "", seconds ? seconds : "", seconds ? ")" : "");
    printf("  element transfers %" G_GUINT64_FORMAT "\n", (guint64)t->element_transfers);
    printf("  channels used    %u\n", t->channels->len);
    printf("  messages         %u\n", t->messages->len);
    printf("  busy records     %u\n", t->busy->len);
    printf("  startups         %u\n", t->startups->len);
    printf("  labels           %u\n", t->labels->len);
    printf("  marks            %u\n", t->marks->len);
    return EXIT_OK;
}

static int cmd_trace(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *out = argc < 2 ? stderr : stdout;
        g_autofree char *choices = cli_export_format_choices(FALSE);
        fprintf(out, "Usage:\n"
                "  cubemu trace export TRACE --format %s [-o OUT] "
                "[--window CYCLES]\n"
                "  cubemu trace info TRACE\n", choices);
        return argc < 2 ? EXIT_INPUT : EXIT_OK;
    }
    if (!strcmp(argv[1], "export"))
        return trace_export_command(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info"))
        return trace_info_command(argc - 1, argv + 1);
    return cli_fail("trace", "unknown subcommand '%s' (valid: export, info)", argv[1]);
}

const CliCommand cli_command_trace = {
    .name = "trace",
    .usage = "trace export TRACE --format FORMAT [-o OUT] [--window CYCLES] | trace info TRACE",
    .run = cmd_trace,
};
