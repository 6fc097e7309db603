/* cmd_machine.c -- `cubemu machine export --simgrid [SCENARIO] [--set
 * machine.KEY=VALUE]... [-o FILE] [--hostfile FILE]`: the machine of a
 * scenario (its [machine] and its preset, as `run` builds it) as a
 * SimGrid platform (XML, version 4.1), for SMPI's replay of the schedules
 * `cubemu run --schedule-out FILE.tit` writes (docs/schedules.md,
 * "Exporting to SimGrid").
 *
 * The platform: a host nX per node X (rank X of a recorded schedule); a
 * link per directed channel (cX-LINK, the channel leaving node X on that
 * link), whose bandwidth is one 8-byte element per element-time of the
 * neighbour class and whose latency is 0; and, since a SimGrid route's
 * time is its links' latencies plus its bytes over its narrowest
 * bandwidth while cubemu's uncontended message of m elements over h
 * links takes Ts + (m + h - 1) Tw (machine-model.md), one link hops-H a
 * route length H, FATPIPE (each message has it whole: it is no resource),
 * whose latency is Ts + (H - 1) Tw and whose bandwidth is an element per
 * Tw, of the neighbour class for one link and of the router class for
 * several (what the default route's messages are). A route for every
 * ordered pair of nodes (a Full zone) takes hops-H and the channels of
 * cubemu's default route: routes of the channels' own, which no routing
 * SimGrid computes would follow; hence the bound on the nodes. Ports,
 * startups that hold a port and memory paths are not modelled (SimGrid
 * shares a link's bandwidth among the messages crossing it instead).
 * A machine of model = loggp, which no channel times, is refused.
 */
#include "cli.h"
#include "output.h"
#include "prepare.h"

#include <inttypes.h>
#include <string.h>

/* The platform lists a route for each ordered pair of nodes, which
 * SimGrid's Full zone keeps as an N x N table: at 256 nodes (the
 * cm200-8k preset) the file is about 10 MB and SimGrid reads it in a few
 * seconds; beyond, both grow as N^2. */
#define MACHINE_EXPORT_MAX_NODES 256

/* Bytes an element stands for: a recorded schedule's (workloads/record.h,
 * RECORD_ELEMENT_BYTES), the replay's element-bytes. */
#define MACHINE_EXPORT_ELEMENT_BYTES RECORD_ELEMENT_BYTES

/* A tick where the machine gives no tick-seconds: a nanosecond, as a
 * recorded schedule's calcs then are in ticks read as nanoseconds. */
#define MACHINE_EXPORT_DEFAULT_TICK 1e-9

/* Host speed where the machine gives no flop-time: SimGrid needs one, and
 * a recorded schedule's calcs are sleeps, which do not use it. */
#define MACHINE_EXPORT_DEFAULT_SPEED "1Gf"

typedef struct {
    const Machine *m;
    const char *source;           /* the scenario, for the comment */
} PlatformWrite;

static double tick_of(const Machine *m)
{
    return m->tick_seconds > 0 ? m->tick_seconds : MACHINE_EXPORT_DEFAULT_TICK;
}

/* Room for a number as the platform writes it. */
#define MACHINE_EXPORT_NUMBER G_ASCII_DTOSTR_BUF_SIZE

/* V in 15 significant digits, the C locale: a decimal tick length is not
 * exact in a double, and 15 digits drop its rounding (8e9 Bps, not
 * 7999999999.999999). */
static const char *platform_number(char buf[MACHINE_EXPORT_NUMBER], double v)
{
    return g_ascii_formatd(buf, MACHINE_EXPORT_NUMBER, "%.15g", v);
}

/* An element per element-time of class c, in bytes per second. */
static void bandwidth_text(const Machine *m, MessageClass c,
                           char buf[MACHINE_EXPORT_NUMBER])
{
    platform_number(buf, MACHINE_EXPORT_ELEMENT_BYTES
                         / ((double)m->price[c].element_time * tick_of(m)));
}

static gboolean write_platform(FILE *out, const char *path, void *data,
                               GError **error)
{
    (void)path;
    (void)error;
    const PlatformWrite *w = data;
    const Machine *m = w->m;
    const Topology *t = &m->topology;
    gboolean router = topology_has_class(t->ops, CLASS_ROUTER);
    char num[MACHINE_EXPORT_NUMBER], bw[MACHINE_EXPORT_NUMBER];
    g_autoptr(GString) shape = g_string_new(NULL);
    t->ops->describe_text(t, shape);
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n", out);
    /* XML forbids "--" inside a comment: the scenario's name and the
     * machine's are written with each "--" as "- -". */
    g_autoptr(GString) what = g_string_new(NULL);
    g_string_printf(what, "%s, machine %s, %s%s (%u nodes)", w->source,
                    m->name, t->ops->name, shape->str, t->nodes);
    while (strstr(what->str, "--"))
        g_string_replace(what, "--", "- -", 0);
    fprintf(out, "<!-- cubemu machine export, SimGrid platform: %s -->\n",
            what->str);
    fputs("<!-- host nX: node X; link cX-L: the channel leaving node X on "
          "link L, an 8-byte element per neighbour element-time; link "
          "hops-H: every route of H links, its startup and pipeline "
          "(Ts + (H - 1) Tw) and its class's element-time; a route per "
          "pair along cubemu's default route. Ports, startups that hold a "
          "port and memory paths are not modelled. -->\n", out);
    fputs("<zone id=\"cubemu\" routing=\"Full\">\n", out);
    for (uint32_t x = 0; x < t->nodes; x++) {
        if (m->flop_time > 0) {
            platform_number(num, 1 / ((double)m->flop_time * tick_of(m)));
            fprintf(out, "  <host id=\"n%u\" speed=\"%sf\"/>\n", x, num);
        } else {
            fprintf(out, "  <host id=\"n%u\" speed=\""
                    MACHINE_EXPORT_DEFAULT_SPEED "\"/>\n", x);
        }
    }
    bandwidth_text(m, CLASS_NEIGHBOUR, bw);
    for (uint32_t x = 0; x < t->nodes; x++)
        for (int l = 0; l < t->links; l++)
            if (topology_neighbour(t, x, l) != TOPOLOGY_NONE)
                fprintf(out, "  <link id=\"c%u-%d\" bandwidth=\"%sBps\" "
                        "latency=\"0s\"/>\n", x, l, bw);
    for (uint32_t h = 1; h <= t->diameter; h++) {
        MessageClass c = h > 1 && router ? CLASS_ROUTER : CLASS_NEIGHBOUR;
        const MachinePrice *p = &m->price[c];
        bandwidth_text(m, c, bw);
        platform_number(num, (double)(p->startup + (Tick)(h - 1) * p->element_time)
                             * tick_of(m));
        fprintf(out, "  <link id=\"hops-%u\" bandwidth=\"%sBps\" latency=\"%ss\" "
                "sharing_policy=\"FATPIPE\"/>\n", h, bw, num);
    }
    g_autofree int *route = g_new(int, topology_max_route(t) + 1);
    for (uint32_t x = 0; x < t->nodes && !ferror(out); x++)
        for (uint32_t y = 0; y < t->nodes; y++) {
            if (x == y)
                continue;         /* SimGrid's loopback */
            int hops = topology_route(t, x, y, route);
            fprintf(out, "  <route src=\"n%u\" dst=\"n%u\" symmetrical=\"NO\">"
                    "<link_ctn id=\"hops-%d\"/>", x, y, hops);
            uint32_t at = x;
            for (int k = 0; k < hops; k++) {
                fprintf(out, "<link_ctn id=\"c%u-%d\"/>", at, route[k]);
                at = topology_neighbour(t, at, route[k]);
            }
            fputs("</route>\n", out);
        }
    fputs("</zone>\n</platform>\n", out);
    return TRUE;
}

/* SMPI's hostfile: the hosts in rank order, rank X on node X. */
static gboolean write_hostfile(FILE *out, const char *path, void *data,
                               GError **error)
{
    (void)path;
    (void)error;
    const Machine *m = data;
    for (uint32_t x = 0; x < machine_nodes(m); x++)
        fprintf(out, "n%u\n", x);
    return TRUE;
}

static int machine_export_command(int argc, char **argv)
{
    gboolean simgrid = FALSE;
    g_autofree char *output = NULL, *hostfile = NULL;
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) rest = NULL;
    GOptionEntry entries[] = {
        { "simgrid", 0, 0, G_OPTION_ARG_NONE, &simgrid,
          "A SimGrid platform (XML, version 4.1) for SMPI's replay of a "
          "schedule written by run --schedule-out FILE.tit (required: the "
          "one format)", NULL },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a scenario key (machine.KEY=VALUE)",
          "SECTION.KEY=VALUE" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "Write here instead of standard output", "FILE" },
        { "hostfile", 0, 0, G_OPTION_ARG_FILENAME, &hostfile,
          "Also write SMPI's hostfile: the hosts in rank order (rank X on "
          "node X)", "FILE" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "[SCENARIO]" },
        { .long_name = NULL }
    };
    g_autofree char *description = g_strdup_printf(
        "Without SCENARIO: the default scenario's machine, with the --set "
        "values on top, as run builds it. A route for every pair of nodes: "
        "at most %d nodes.", MACHINE_EXPORT_MAX_NODES);
    static const char *const once[] = { "--output", "-o", "--hostfile",
                                        NULL };
    if (!cli_parse_options("machine", entries, "- export a machine",
                           description, once, &argc, &argv))
        return EXIT_INPUT;
    if (!simgrid)
        return cli_fail("machine", "export: give the format: --simgrid "
                        "(the one there is)");
    if (rest && rest[0] && rest[1])
        return cli_fail("machine", "export: one scenario at a time ('%s' is "
                        "extra)", rest[1]);
    GError *e = NULL;
    const char *path = rest ? rest[0] : NULL;
    g_autoptr(Scenario) s = cli_build_scenario(path, sets, &e);
    Machine m;
    if (!s || !prepare_machine(s, &m, &e)) {
        cli_print_error("machine", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    int status = EXIT_OK;
    if (m.model == MACHINE_MODEL_LOGGP) {
        /* Its time is LogGP's per-message costs, not its channels': a
         * platform of channels would time another machine. */
        status = cli_fail("machine", "export: %s: a machine of model = "
                          "loggp is timed by LogGP's L, o, g, G, not by "
                          "channels, and a SimGrid platform is channels: "
                          "export a machine of model = engine",
                          scenario_name(s));
    } else if (machine_nodes(&m) > MACHINE_EXPORT_MAX_NODES) {
        status = cli_fail("machine", "export: %s: %u nodes, and a SimGrid "
                          "platform lists a route for every pair of them: "
                          "at most %d nodes (%d routes)", scenario_name(s),
                          machine_nodes(&m), MACHINE_EXPORT_MAX_NODES,
                          MACHINE_EXPORT_MAX_NODES
                              * (MACHINE_EXPORT_MAX_NODES - 1));
    } else {
        PlatformWrite w = { &m, scenario_name(s) };
        if (!output_write_file(output ? output : "-", write_platform, &w, &e)
            || (hostfile && !output_write_file(hostfile, write_hostfile, &m,
                                               &e))) {
            cli_print_error("machine", e);
            g_error_free(e);
            status = EXIT_INPUT;
        }
    }
    machine_clear(&m);
    return status;
}

static int cmd_machine(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out, "Usage:\n"
                "  cubemu machine export --simgrid [SCENARIO] "
                "[--set machine.KEY=VALUE]... [-o FILE] [--hostfile FILE]\n");
        return argc < 2 ? EXIT_INPUT : EXIT_OK;
    }
    if (!strcmp(argv[1], "export"))
        return machine_export_command(argc - 1, argv + 1);
    return cli_fail("machine", "unknown subcommand '%s' (valid: export)",
                    argv[1]);
}

const CliCommand cli_command_machine = {
    .name = "machine",
    .usage = "machine export --simgrid [SCENARIO] [--set SECTION.KEY=VALUE]... [-o FILE] [--hostfile FILE]",
    .run = cmd_machine,
};
