/* cubemu_mpi.c -- the node programs run for real under mpirun, one MPI
 * rank a node:
 *
 *   cubemu-mpi run [SCENARIO] [--set SECTION.KEY=VALUE]...
 *       [--json [--pretty] [--timing]] [--dump-memory] [--wait-limit SECONDS]
 *   cubemu-mpi check SCENARIO... [--set SECTION.KEY=VALUE]...
 *       [--junit FILE] [--tap] [--wait-limit SECONDS]
 *
 * run runs one scenario and prints its report; without a SCENARIO it runs
 * the default scenario, as `cubemu run` does (run/scenario_default.h).
 * check runs each scenario and evaluates its [expect] on the real run, as
 * `cubemu check` does on the emulator's (run/expect.h). --set changes
 * every scenario as it does for cubemu.
 *
 * Every rank reads the scenario and prepares the machine and the
 * algorithm's configuration exactly as `cubemu run` does (run/prepare.c),
 * fills its own memory (alg->init), runs the node program over MPI
 * (node_mpi.c), and verifies its own memory: against alg->expect, against
 * alg->expect_element for the sampled offsets that fall on it, and the
 * multiset fingerprints summed over all ranks for conservation. Rank 0
 * builds the report (below) and prints it: a table, or with --json the
 * JSON of `cubemu run --json`, printed by the same function from a Report
 * with backend "mpi".
 *
 * The wait limit: a node that waits DEFAULT_WAIT_LIMIT seconds (or
 * --wait-limit's; 0 turns it off) for its receives with nothing arriving
 * ends the job (exit status 1) with every node's state, which receive it
 * waits for or that it finished (node_mpi.c, "Deadlocks"), instead of
 * hanging.
 *
 * Exit status: 0 the data are correct (check: every scenario's [expect]
 * holds), 1 they are not, an expectation failed, or the program failed or
 * deadlocked, 2 bad input (including a rank count that is not the
 * machine's node count).
 */
#include "expect.h"
#include "output.h"
#include "node_mpi.h"
#include "prepare.h"
#include "scenario_default.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_INPUT = 2 };

static int rank, size;

/* How messages name the program: the SMPI build is another one. */
#ifdef CUBEMU_SMPI
#define PROGRAM "cubemu-smpi"
#define USAGE_LAUNCH "smpirun -np NODES -platform P.xml cubemu-smpi"
#else
#define PROGRAM "cubemu-mpi"
#define USAGE_LAUNCH "mpirun -np NODES cubemu-mpi"
#endif
#define USAGE_RUN USAGE_LAUNCH " run [SCENARIO] [--set SECTION.KEY=VALUE]... " \
    "[--json [--pretty] [--timing]] [--dump-memory] [--wait-limit SECONDS]"
#define USAGE_CHECK USAGE_LAUNCH " check SCENARIO... "                       \
    "[--set SECTION.KEY=VALUE]... [--junit FILE] [--tap] "                 \
    "[--wait-limit SECONDS]"

/* The command's name in messages: "cubemu-mpi run". */
static const char *command = PROGRAM;

G_GNUC_PRINTF(1, 2)
static void say_error(const char *fmt, ...)
{
    if (rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", command);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void say_usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: " USAGE_RUN "\n       " USAGE_CHECK "\n");
}

#define WAIT_FLAG "--wait-limit"

/* The wait limit without --wait-limit, in seconds. It counts only time in
 * which a waiting node receives nothing, so it bounds the longest local
 * computation between two messages of a correct program; a minute is far
 * more than any node program of the registry computes between two
 * messages at the sizes one host's emulator holds (cubemu runs every
 * node's computation in turn in one process), and short enough that a
 * deadlock in CI ends with its report long before a job's time limit.
 * Longer computations want a larger --wait-limit, or 0 for none. */
#define DEFAULT_WAIT_LIMIT 60.0

/* --wait-limit's value: seconds, a finite number, 0 for no limit. */
static gboolean parse_seconds(const char *text, double *out)
{
    char *end = NULL;
    double v = g_ascii_strtod(text, &end);
    if (!*text || *end || !isfinite(v) || v < 0)
        return FALSE;
    *out = v;
    return TRUE;
}

/* The flags both commands take, and what they set. */
typedef struct {
    GPtrArray *sets;              /* the --set values, NULL-ended */
    MpiNodeOptions options;
} CommonFlags;

/* Whether argv[*i] is FLAG ("--set x" or "--set=x"): 1 with *value (and
 * *i past the value), 0 if it is another argument, -1 (message said) if
 * the value is missing. */
static int flag_value(int argc, char **argv, int *i, const char *flag,
                      const char **value)
{
    size_t n = strlen(flag);
    if (strncmp(argv[*i], flag, n) || (argv[*i][n] && argv[*i][n] != '='))
        return 0;
    if (argv[*i][n] == '=')
        *value = argv[*i] + n + 1;
    else if (*i + 1 < argc)
        *value = argv[++*i];
    else
        return -1;
    return 1;
}

/* --set and --wait-limit: 1 taken, 0 another argument, -1 bad (said). */
static int common_flag(int argc, char **argv, int *i, CommonFlags *f)
{
    const char *v = NULL;
    int got = flag_value(argc, argv, i, "--set", &v);
    if (got < 0)
        say_error("--set needs a value: SECTION.KEY=VALUE");
    if (got > 0)
        g_ptr_array_insert(f->sets, (gint)f->sets->len - 1, (gpointer)v);
    if (got)
        return got;
    got = flag_value(argc, argv, i, WAIT_FLAG, &v);
    if (got < 0)
        say_error(WAIT_FLAG " needs a value: a number of seconds (0 for no "
                  "limit)");
    if (got > 0 && !parse_seconds(v, &f->options.wait_limit)) {
        say_error(WAIT_FLAG ": '%s' is not a number of seconds (valid: a "
                  "number of 0 or more, 0 for no limit)", v);
        return -1;
    }
    return got;
}

static const Word *own_memory(void *mem, uint32_t x)
{
    return x == (uint32_t)rank ? mem : NULL;
}

/* This rank's verification (prepare.c's checks, as run.c makes them for
 * every node): the first mismatch, or NULL. */
static char *verify_own(const RunSetup *setup, const Word *mem)
{
    const MemoryLayout *layout = &setup->layout;
    size_t k = layout->elements_per_node;
    size_t w = element_words(layout->element);
    g_autofree Word *expected = g_new(Word, k ? k * w : 1);
    gboolean tolerant = layout->tolerance > 0
                        && layout->element == ELEMENT_COMPLEX;
    double scale = 0, global = 0;
    if (tolerant)
        scale = run_reference_scale(setup->algorithm, setup->config,
                                    (uint32_t)rank, k, expected);
    MPI_Allreduce(&scale, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double limit = tolerant ? layout->tolerance * global : 0;
    char *problem = run_check_node(setup, (uint32_t)rank, mem, expected,
                                   limit);
    if (!problem && layout->sample > 0 && layout->computed_elements > 0)
        problem = run_check_samples(setup, (uint32_t)size, own_memory,
                                    (void *)mem);
    return problem;
}

/* ---- the report --------------------------------------------------------
 *
 * Rank 0 builds a Report (run/report.h) with backend REPORT_BACKEND_MPI and
 * prints it through report_write_json, the writer of `cubemu run --json`.
 * What a real run measures exactly is set: the messages and every count
 * of the traffic the emulator counts (element transfers, the most
 * elements on one channel, per class, per link: node_mpi.c counts each
 * send as the emulator does, along the path the emulator charges), the
 * data check; the emulator's measurements of simulated time (cycles,
 * seconds, time, phases, events, the links' utilisation) are not printed
 * at all, and what only MPI measures goes under stats (counters) and
 * timing (the clock, with --timing).
 *
 * The algorithm's bounds and details come from its own report callback,
 * which was written for the emulator and may read its measurements of
 * time. report_bound leaves out a bound on a field of simulated time
 * (report_field_emulator_only). A detail is worked out from the time
 * only inside the callback, so the callback runs twice: on the report,
 * whose time fields are zero, and on a probe whose time fields hold
 * values no run has. A detail that comes out the same in both does not
 * depend on them and is kept; one that differs, or appears in only one,
 * is the emulator's and is left out (named in
 * ReportMpi.details_emulator_only) rather than printed as a made-up 0,
 * and so is a bound on it or whose value differs. Every bound left out is
 * counted (ReportMpi.bounds_emulator_only). */

/* Emulator-only measurements (of simulated time) no real run has, for the
 * probe. */
static void probe_fill(Report *p)
{
    int links = p->machine.topology.links;
    p->cycles = 1000003;
    p->events = 4000037;
    for (int l = 0; l < links; l++)
        p->link_busy[l] = 10007 + 7 * (uint64_t)l;
    p->compute_max = 11003;
    p->communication_max = 12007;
    p->compute_mean = 10501.25;
    p->communication_mean = 11503.75;
    for (unsigned i = 0; i < p->nphases; i++) {
        SimPhase *ph = &p->phase[i];
        ph->nodes = 3;
        ph->time_max = 13001 + 101 * (Tick)i;
        ph->compute_max = 14009 + 103 * (Tick)i;
        ph->communication_max = 15013 + 107 * (Tick)i;
        ph->time_sum = 3 * (double)ph->time_max - 7;
        ph->compute_sum = 3 * (double)ph->compute_max - 11;
        ph->communication_sum = 3 * (double)ph->communication_max - 13;
    }
}

/* An MPI report with the setup's machine and algorithm, the run's own
 * measurements copied from `from` (its link arrays must exist), and the
 * emulator's of time zero: link_busy and the phases exist, so a callback
 * that reads them reads 0. */
static Report *report_base(const RunSetup *setup, const Report *from)
{
    Report *r = report_new();
    const Algorithm *alg = setup->algorithm;
    r->backend = REPORT_BACKEND_MPI;
    machine_copy(&r->machine, &setup->machine);
    run_report_algorithm(r, setup);
    int links = r->machine.topology.links;
    size_t bytes = sizeof(uint64_t) * (size_t)(links ? links : 1);
    r->link_up = g_memdup2(from->link_up, bytes);
    r->link_down = g_memdup2(from->link_down, bytes);
    r->link_busy = g_malloc0(bytes);
    r->nphases = algorithm_phase_count(alg);
    for (unsigned i = 0; i < r->nphases; i++)
        r->phase_name[i] = g_strdup(alg->phases[i]);
    r->elements_per_node = setup->layout.elements_per_node;
    r->element = setup->layout.element;
    r->messages = from->messages;
    r->elements_sent = from->elements_sent;
    r->element_transfers = from->element_transfers;
    r->max_channel_elements = from->max_channel_elements;
    memcpy(r->class_messages, from->class_messages, sizeof r->class_messages);
    memcpy(r->class_elements, from->class_elements, sizeof r->class_elements);
    memcpy(r->class_transfers, from->class_transfers,
           sizeof r->class_transfers);
    r->data_correct = from->data_correct;
    r->placement_correct = from->placement_correct;
    r->conserved = from->conserved;
    r->computed = setup->layout.computed;
    r->tolerance = setup->layout.tolerance;
    r->computed_elements = setup->layout.computed_elements;
    r->sampled = setup->layout.computed_elements ? setup->layout.sample : 0;
    return r;
}

static gboolean same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

static gboolean same_strv(char **a, char **b)
{
    if (!a || !b)
        return a == b;
    guint n = g_strv_length(a);
    if (n != g_strv_length(b))
        return FALSE;
    for (guint i = 0; i < n; i++)
        if (strcmp(a[i], b[i]))
            return FALSE;
    return TRUE;
}

static gboolean same_array(const GArray *a, const GArray *b, size_t size)
{
    if (!a || !b)
        return a == b;
    return a->len == b->len && !memcmp(a->data, b->data, a->len * size);
}

static gboolean same_detail(const Detail *a, const Detail *b)
{
    if (a->type != b->type)
        return FALSE;
    switch (a->type) {
    case DETAIL_INT: return a->i == b->i;
    case DETAIL_DOUBLE: return same_double(a->d, b->d);
    case DETAIL_TEXT: return g_strcmp0(a->text, b->text) == 0;
    case DETAIL_INT_LIST:
        return same_array(a->list, b->list, sizeof(long long));
    case DETAIL_ROWS:
        return same_strv(a->columns, b->columns)
               && same_array(a->list, b->list, sizeof(long long));
    case DETAIL_OBJECT:
        return same_strv(a->columns, b->columns)
               && same_array(a->values, b->values, sizeof(double));
    }
    return FALSE;
}

static const Bound *find_bound(const Report *r, const Bound *like)
{
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        if (b->kind == like->kind && !strcmp(b->name, like->name)
            && !strcmp(b->field, like->field))
            return b;
    }
    return NULL;
}

/* The algorithm's bounds and details that an MPI run can stand behind
 * (above): its report callback on r and on a probe, compared. */
static void algorithm_report(const RunSetup *setup, Report *r)
{
    const Algorithm *alg = setup->algorithm;
    g_autoptr(Report) probe = report_base(setup, r);
    probe_fill(probe);
    alg->report(setup->config, r);
    alg->report(setup->config, probe);
    GPtrArray *dropped = g_ptr_array_new();
    for (guint i = r->details->len; i-- > 0;) {
        const Detail *d = &g_array_index(r->details, Detail, i);
        const Detail *q = report_find_detail(probe, d->key);
        if (!q || !same_detail(d, q)) {
            g_ptr_array_insert(dropped, 0, g_strdup(d->key));
            g_array_remove_index(r->details, i);
        }
    }
    for (guint i = r->bounds->len; i-- > 0;) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        const Bound *q = find_bound(probe, b);
        double v;
        if (!report_lookup(r, b->field, &v) || !q || q->applies != b->applies
            || !same_double(q->value, b->value)) {
            g_array_remove_index(r->bounds, i);
            r->mpi.bounds_emulator_only++;
        }
    }
    g_ptr_array_add(dropped, NULL);
    r->mpi.details_emulator_only = (char **)g_ptr_array_free(dropped, FALSE);
}

/* What the table says of what the report leaves out. */
static void print_left_out(const Report *r)
{
    printf("emulator    cycles, time and phases (simulated time) are the "
           "emulator's");
    if (r->mpi.bounds_emulator_only)
        printf("; %u bound%s on them left out", r->mpi.bounds_emulator_only,
               r->mpi.bounds_emulator_only == 1 ? "" : "s");
    for (char **d = r->mpi.details_emulator_only; d && *d; d++)
        printf("%s%s", d == r->mpi.details_emulator_only
                       ? "; details left out: " : ", ", *d);
    printf("\n");
}

static void print_table(const Report *r)
{
    const ReportMpi *mpi = &r->mpi;
    const Topology *t = &r->machine.topology;
    printf("scenario    %s\n", r->scenario);
    printf("machine     %s, %u nodes (one MPI rank each)\n",
           machine_topology_name(&r->machine), machine_nodes(&r->machine));
    printf("algorithm   %s (%s)\n", r->algorithm, r->method);
    printf("wall        %.6f s\n", r->wall_seconds);
    for (unsigned i = 0; i < mpi->phases; i++)
        printf("  phase %-12s max %.6f s, mean %.6f s over %d nodes\n",
               mpi->phase_name[i], mpi->phase_seconds_max[i],
               mpi->phase_seconds_mean[i], mpi->phase_nodes[i]);
    printf("messages    %llu (%.0f bytes; %llu forwards)\n",
           (unsigned long long)r->messages,
           mpi->bytes_per_rank_mean * mpi->ranks,
           (unsigned long long)mpi->forwards);
    printf("transfers   %llu element-hops, at most %llu elements on one "
           "channel\n", (unsigned long long)r->element_transfers,
           (unsigned long long)r->max_channel_elements);
    if (topology_has_class(t->ops, CLASS_ROUTER))
        for (MessageClass c = 0; c < CLASS_COUNT; c++)
            printf("  class %-11s %llu messages, %llu elements, %llu "
                   "element-hops\n", message_class_name(c),
                   (unsigned long long)r->class_messages[c],
                   (unsigned long long)r->class_elements[c],
                   (unsigned long long)r->class_transfers[c]);
    for (int l = 0; l < t->links; l++) {
        if (r->link_up[l] + r->link_down[l] == 0)
            continue;
        char name[TOPOLOGY_LINK_NAME_MAX];
        topology_link_name(t, l, name, sizeof name);
        printf("  link %-12s %llu elements up, %llu down\n", name,
               (unsigned long long)r->link_up[l],
               (unsigned long long)r->link_down[l]);
    }
    if (r->bounds->len) {
        printf("bounds      (those on what an MPI run measures)\n");
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            char v[G_ASCII_DTOSTR_BUF_SIZE], mv[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(v, sizeof v, "%.6g", b->value);
            g_ascii_formatd(mv, sizeof mv, "%.6g", b->measured);
            printf("  %-60s %-6s %12s %12s  %s\n", b->name,
                   bound_kind_text(b->kind), b->applies ? v : "-", mv,
                   !b->applies ? "n/a" : b->holds ? "yes" : "NO");
        }
    }
    print_left_out(r);
    printf("data        %s\n", r->data_correct ? "correct" : r->data_problem);
}

/* Why a rank count is not the machine's node count, and the command line
 * that runs it: Open MPI itself refuses more ranks than cores without
 * --oversubscribe, and root without --allow-run-as-root, before this
 * program starts, so only what this rank can see is said here. */
static void say_rank_count(const char *path, uint32_t nodes, char **argv,
                           int argc)
{
    g_autoptr(GString) line = g_string_new("mpirun");
    unsigned cores = g_get_num_processors();
    if (nodes > cores)
        g_string_append(line, " --oversubscribe");
    if (geteuid() == 0)
        g_string_append(line, " --allow-run-as-root");
    g_string_append_printf(line, " -np %u", nodes);
    for (int i = 0; i < argc; i++) {
        g_autofree char *q = g_shell_quote(argv[i]);
        g_string_append_c(line, ' ');
        g_string_append(line, strpbrk(argv[i], " \t\n'\"\\$`*?[]{}()<>|&;!#~")
                              ? q : argv[i]);
    }
    g_autoptr(GString) why = g_string_new("");
    /* mpirun (Open MPI's, or a PMI launcher's) tells its processes the
     * job's size; a program started on its own is a job of one. */
    if (size == 1 && !g_getenv("OMPI_COMM_WORLD_SIZE") && !g_getenv("PMI_SIZE"))
        g_string_append(why, "; it was started without mpirun");
    if (nodes > cores)
        g_string_append_printf(why, "; this host has %u cores, so Open MPI "
                               "needs --oversubscribe for %u ranks", cores,
                               nodes);
    if (geteuid() == 0)
        g_string_append(why, "; as root Open MPI needs --allow-run-as-root");
    say_error("%s: the machine has %u nodes but %d MPI rank%s run%s it (one "
              "rank a node)%s: %s", path, nodes, size, size == 1 ? "" : "s",
              size == 1 ? "s" : "", why->str, line->str);
}

/* ---- one run ----------------------------------------------------------- */

/* How run_one ended. */
typedef enum {
    RUN_DONE,                     /* ran; *report on rank 0 */
    RUN_BAD_INPUT,                /* *error, the same on every rank */
    RUN_RANKS                     /* the machine's node count is not the
                                   * number of ranks (*nodes) */
} RunOutcome;

/* The traffic counts summed over the ranks into `into` (rank 0's), and the
 * most elements one channel carried: each channel's count is summed over
 * the ranks that sent across it, then the largest taken. */
static void gather_traffic(const MpiNodeStats *st, int links, Report *into)
{
    size_t l = (size_t)links;
    size_t n = 1 + 3 * CLASS_COUNT + 2 * l;
    g_autofree uint64_t *mine = g_new(uint64_t, n);
    g_autofree uint64_t *sum = g_new0(uint64_t, n);
    mine[0] = st->element_transfers;
    for (int c = 0; c < CLASS_COUNT; c++) {
        mine[1 + c] = st->class_messages[c];
        mine[1 + CLASS_COUNT + c] = st->class_elements[c];
        mine[1 + 2 * CLASS_COUNT + c] = st->class_transfers[c];
    }
    memcpy(mine + 1 + 3 * CLASS_COUNT, st->link_up, l * sizeof *mine);
    memcpy(mine + 1 + 3 * CLASS_COUNT + l, st->link_down, l * sizeof *mine);
    MPI_Reduce(mine, sum, (int)n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    size_t channels = (size_t)size * l;
    g_autofree uint64_t *per_channel = rank == 0 && channels
                                       ? g_new0(uint64_t, channels) : NULL;
    if (channels)
        MPI_Reduce(st->channel, per_channel, (int)channels, MPI_UINT64_T,
                   MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    into->element_transfers = sum[0];
    for (int c = 0; c < CLASS_COUNT; c++) {
        into->class_messages[c] = sum[1 + c];
        into->class_elements[c] = sum[1 + CLASS_COUNT + c];
        into->class_transfers[c] = sum[1 + 2 * CLASS_COUNT + c];
    }
    into->link_up = g_new0(uint64_t, l ? l : 1);
    into->link_down = g_new0(uint64_t, l ? l : 1);
    memcpy(into->link_up, sum + 1 + 3 * CLASS_COUNT, l * sizeof *sum);
    memcpy(into->link_down, sum + 1 + 3 * CLASS_COUNT + l, l * sizeof *sum);
    for (size_t i = 0; i < channels; i++)
        into->max_channel_elements = MAX(into->max_channel_elements,
                                         per_channel[i]);
}

/* Run scenario s on every rank (collective): RUN_DONE with *correct (every
 * rank) and, on rank 0, *report; a node program error, or a deadlock that
 * the wait limit ends, aborts the job (exit status 1). The machine's
 * channel counters (nodes x links on every rank, for the report) must fit
 * one MPI message. */
static RunOutcome run_one(const Scenario *s, const MpiNodeOptions *options,
                          gboolean dump, Report **report, gboolean *correct,
                          uint32_t *nodes, GError **error)
{
    *report = NULL;
    *correct = FALSE;
    RunSetup setup;
    if (!run_setup(s, &setup, error))
        return RUN_BAD_INPUT;
    if (!mpi_machine_runs_for_real(&setup.machine,
                                   scenario_where(s, "machine", "faults"),
                                   PROGRAM, error)) {
        run_setup_release(&setup, TRUE);
        return RUN_BAD_INPUT;
    }
    *nodes = machine_nodes(&setup.machine);
    if (*nodes != (uint32_t)size) {
        run_setup_release(&setup, TRUE);
        return RUN_RANKS;
    }
    int links = setup.machine.topology.links;
    if ((uint64_t)*nodes * (uint64_t)links > INT_MAX) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s: %u nodes x %d links: more channels than one MPI "
                    "message counts", scenario_name(s), *nodes, links);
        run_setup_release(&setup, TRUE);
        return RUN_BAD_INPUT;
    }
    const Algorithm *alg = setup.algorithm;
    const MemoryLayout *layout = &setup.layout;
    size_t w = element_words(layout->element);
    size_t k = layout->elements_per_node;
    unsigned phases = algorithm_phase_count(alg);
    MpiNodeOptions o = *options;
    o.count_traffic = TRUE;
    o.each = layout->each;
    Node *node = mpi_node_new(&setup.machine, MPI_COMM_WORLD,
                              layout->memory_elements, w, layout->local_size,
                              phases, &o);
    Word *mem = node_memory(node);
    alg->init(setup.config, (uint32_t)rank, mem);
    Fingerprint fp[2] = { { 0, 0 }, { 0, 0 } };
    run_fingerprint_add(&fp[0], mem, layout->computed_elements, k, w);

    MPI_Barrier(MPI_COMM_WORLD);
    GError *e = NULL;
    if (!mpi_node_run(node, alg->step, setup.config, &e)) {
        fprintf(stderr, "%s: %s\n", command, e->message);
        fflush(stderr);
        g_error_free(e);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILED);
    }
    const MpiNodeStats *st = mpi_node_stats(node);

    /* Verification: own memory, then conservation over all ranks. */
    g_autofree char *problem = verify_own(&setup, mem);
    run_fingerprint_add(&fp[1], mem, layout->computed_elements, k, w);
    uint64_t sums[4] = { fp[0].a, fp[0].b, fp[1].a, fp[1].b }, total[4];
    MPI_Allreduce(sums, total, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    int wrong = problem ? rank : size, first_wrong;
    MPI_Allreduce(&wrong, &first_wrong, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    g_autofree char *first_problem = NULL;
    if (first_wrong < size) {
        /* The lowest rank with a mismatch tells rank 0 about it. */
        char text[512] = "";
        if (rank == first_wrong)
            g_strlcpy(text, problem, sizeof text);
        if (first_wrong != 0) {
            if (rank == first_wrong)
                MPI_Send(text, sizeof text, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
            else if (rank == 0)
                MPI_Recv(text, sizeof text, MPI_CHAR, first_wrong, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        first_problem = g_strdup(text);
    }
    /* What MPI measured, for the report (rank 0's). */
    g_autoptr(Report) measured = report_new();
    measured->placement_correct = first_wrong == size;
    measured->conserved = layout->computed
                          || (total[0] == total[2] && total[1] == total[3]);
    measured->data_correct = measured->placement_correct && measured->conserved;
    *correct = measured->data_correct;
    gather_traffic(st, links, measured);

    /* Statistics to rank 0. */
    uint64_t mine[3] = { st->messages, st->bytes, st->forwards };
    g_autofree uint64_t *all = g_new(uint64_t, 3 * (size_t)size);
    MPI_Gather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    unsigned timed = phases ? phases : 1;    /* "run" without phases */
    double phase_max[SIM_MAX_PHASES], phase_sum[SIM_MAX_PHASES], seconds = 0;
    int visited[SIM_MAX_PHASES], phase_nodes[SIM_MAX_PHASES];
    for (unsigned i = 0; i < timed; i++)
        visited[i] = st->phase_visited[i];
    MPI_Reduce(st->phase_seconds, phase_max, (int)timed, MPI_DOUBLE,
               MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(st->phase_seconds, phase_sum, (int)timed, MPI_DOUBLE,
               MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(visited, phase_nodes, (int)timed, MPI_INT, MPI_SUM, 0,
               MPI_COMM_WORLD);
    MPI_Reduce(&st->seconds, &seconds, 1, MPI_DOUBLE, MPI_MAX, 0,
               MPI_COMM_WORLD);
    g_autofree Word *memory = NULL;
    if (dump) {
        size_t words = k * w;
        if (words > INT_MAX / 8 / (size_t)size) {
            say_error("--dump-memory: %zu words a node is too many to gather",
                      words);
        } else {
            memory = rank == 0 ? g_new(Word, words * size + 1) : NULL;
            MPI_Gather(mem, (int)words, MPI_UINT64_T, memory, (int)words,
                       MPI_UINT64_T, 0, MPI_COMM_WORLD);
        }
    }

    if (rank == 0) {
        uint64_t bytes = 0, mmax = 0, bmax = 0;
        ReportMpi *mpi = &measured->mpi;
        for (int x = 0; x < size; x++) {
            measured->messages += all[3 * x];
            bytes += all[3 * x + 1];
            mpi->forwards += all[3 * x + 2];
            mmax = MAX(mmax, all[3 * x]);
            bmax = MAX(bmax, all[3 * x + 1]);
        }
        /* Payload bytes are whole elements (MpiNodeOptions.element_bytes
         * 0): the emulator's elements_sent, which details may read. */
        measured->elements_sent = bytes / (w * sizeof(Word));

        Report *r = report_base(&setup, measured);
        r->scenario = g_strdup(scenario_name(s));
        r->data_problem = first_problem ? g_strdup(first_problem)
                          : r->conserved ? NULL
                          : g_strdup("WRONG: elements were lost or "
                                     "duplicated");
        r->wall_seconds = seconds;
        mpi = &r->mpi;
        mpi->ranks = size;
        mpi->forwards = measured->mpi.forwards;
        mpi->messages_per_rank_max = (double)mmax;
        mpi->messages_per_rank_mean = (double)r->messages / size;
        mpi->bytes_per_rank_max = (double)bmax;
        mpi->bytes_per_rank_mean = (double)bytes / size;
        mpi->phases = timed;
        for (unsigned i = 0; i < timed; i++) {
            mpi->phase_name[i] = phases ? alg->phases[i] : "run";
            mpi->phase_nodes[i] = phase_nodes[i];
            mpi->phase_seconds_max[i] = phase_max[i];
            mpi->phase_seconds_mean[i] = phase_nodes[i]
                                         ? phase_sum[i] / phase_nodes[i] : 0;
        }
        r->memory = g_steal_pointer(&memory);
        algorithm_report(&setup, r);
        *report = r;
    }
    mpi_node_free(node);
    run_setup_release(&setup, TRUE);
    return RUN_DONE;
}

/* ---- the commands ------------------------------------------------------ */

static int cmd_run(int argc, char **argv)
{
    command = PROGRAM " run";
    gboolean json = FALSE, dump = FALSE, pretty = FALSE, timing = FALSE;
    const char *path = NULL;
    g_autoptr(GPtrArray) sets = g_ptr_array_new();
    g_ptr_array_add(sets, NULL);
    CommonFlags flags = { sets, { .wait_limit = DEFAULT_WAIT_LIMIT } };
    for (int i = 2; i < argc; i++) {
        int got = common_flag(argc, argv, &i, &flags);
        if (got < 0)
            return EXIT_INPUT;
        if (got > 0)
            continue;
        if (!strcmp(argv[i], "--json"))
            json = TRUE;
        else if (!strcmp(argv[i], "--pretty"))
            pretty = TRUE;
        else if (!strcmp(argv[i], "--timing"))
            timing = TRUE;
        else if (!strcmp(argv[i], "--dump-memory"))
            dump = TRUE;
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            say_usage();
            return EXIT_INPUT;
        }
    }
    if ((pretty || timing) && !json) {
        say_error("%s shapes the JSON report: give --json too",
                  pretty ? "--pretty" : "--timing");
        return EXIT_INPUT;
    }

    /* The scenario as cubemu run builds it: the file, or the default
     * filled in around the --set values, then each --set in order. */
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_default_build(path, (char **)sets->pdata, NULL,
                                                   &e);
    g_autoptr(Report) r = NULL;
    gboolean correct = FALSE;
    uint32_t nodes = 0;
    RunOutcome outcome = s ? run_one(s, &flags.options, dump, &r, &correct,
                                     &nodes, &e)
                           : RUN_BAD_INPUT;
    if (outcome == RUN_BAD_INPUT) {
        say_error("%s", e->message);
        g_error_free(e);
        return EXIT_INPUT;
    }
    if (outcome == RUN_RANKS) {
        say_rank_count(scenario_name(s), nodes, argv, argc);
        return EXIT_INPUT;
    }
    if (rank == 0) {
        if (json)
            report_write_json(r, stdout,
                              (pretty ? REPORT_JSON_PRETTY : 0)
                              | (timing ? REPORT_JSON_TIMING : 0));
        else
            print_table(r);
        if (!r->data_correct)
            fprintf(stderr, "%s: %s: the final memory is wrong: %s\n",
                    command, r->scenario, r->data_problem);
        /* A report standard output did not take is an error (exit 2). */
        if (!output_close_stdout(command))
            return EXIT_INPUT;
    }
    return correct ? EXIT_OK : EXIT_FAILED;
}

/* One scenario of a check: its outcome, on rank 0 (every rank runs it). */
static ExpectResult *check_one(const char *path, char **sets,
                               const MpiNodeOptions *options)
{
    ExpectResult *c = expect_result_new(path);
    gint64 t0 = g_get_monotonic_time();
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_default_build(path, sets, NULL, &e);
    g_autoptr(Report) r = NULL;
    gboolean correct = FALSE;
    uint32_t nodes = 0;
    RunOutcome outcome = s ? run_one(s, options, FALSE, &r, &correct, &nodes,
                                     &e)
                           : RUN_BAD_INPUT;
    g_autoptr(GPtrArray) expects = outcome == RUN_DONE
                                   ? scenario_expectations(s, &e) : NULL;
    if (outcome == RUN_RANKS) {
        c->status = EXPECT_ERROR;
        c->message = g_strdup_printf("the machine has %u nodes but %d MPI "
                                     "rank%s run%s it (one rank a node)",
                                     nodes, size, size == 1 ? "" : "s",
                                     size == 1 ? "s" : "");
    } else if (!expects) {
        c->status = EXPECT_ERROR;
        c->message = g_strdup(e->message);
        g_error_free(e);
    } else if (expects->len == 0) {
        c->status = EXPECT_FAIL;
        c->message = g_strdup("no [expect] entries to check");
    } else if (rank == 0) {
        /* An expectation on what only the emulator measures is named, never
         * passed or failed in silence; a scenario none of whose
         * expectations a real run measures has nothing checked, and fails
         * as one without [expect] does. */
        g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func(g_free);
        unsigned evaluated = 0;
        c->message = expect_evaluate(r, expects, skipped, &evaluated);
        g_ptr_array_add(skipped, NULL);
        g_autofree char *list = g_strjoinv(", ", (char **)skipped->pdata);
        g_autofree char *note = *list ? g_strdup_printf(
            "not evaluated on MPI: %s", list) : g_strdup("");
        if (c->message) {
            c->status = EXPECT_FAIL;
            if (*note) {
                char *longer = g_strdup_printf("%s (%s)", c->message, note);
                g_free(c->message);
                c->message = longer;
            }
        } else if (evaluated == 0) {
            c->status = EXPECT_FAIL;
            c->message = g_strdup_printf("no [expect] entry that a run on MPI "
                                         "measures (%s)", note);
        } else {
            c->status = EXPECT_PASS;
            c->summary = g_strdup_printf("messages %llu%s%s",
                                         (unsigned long long)r->messages,
                                         *note ? "; " : "", note);
        }
    }
    c->seconds = (g_get_monotonic_time() - t0) / 1e6;
    return c;
}

static int cmd_check(int argc, char **argv)
{
    command = PROGRAM " check";
    const char *junit = NULL;
    gboolean tap = FALSE;
    g_autoptr(GPtrArray) sets = g_ptr_array_new();
    g_ptr_array_add(sets, NULL);
    g_autoptr(GPtrArray) files = g_ptr_array_new();
    CommonFlags flags = { sets, { .wait_limit = DEFAULT_WAIT_LIMIT } };
    for (int i = 2; i < argc; i++) {
        int got = common_flag(argc, argv, &i, &flags);
        if (got == 0) {
            if (junit && !strncmp(argv[i], "--junit", strlen("--junit"))) {
                say_error("--junit given twice: it takes one value");
                return EXIT_INPUT;
            }
            got = flag_value(argc, argv, &i, "--junit", &junit);
            if (got < 0)
                say_error("--junit needs a value: a FILE, or - for standard "
                          "output");
        }
        if (got < 0)
            return EXIT_INPUT;
        if (got > 0)
            continue;
        if (!strcmp(argv[i], "--tap"))
            tap = TRUE;
        else if (argv[i][0] != '-')
            g_ptr_array_add(files, argv[i]);
        else {
            say_usage();
            return EXIT_INPUT;
        }
    }
    if (files->len == 0) {
        say_error("no SCENARIO given (e.g. " USAGE_LAUNCH " check "
                  "tests/data/mpi/exchange-cube-3.ini)");
        return EXIT_INPUT;
    }
    if (tap && junit && !strcmp(junit, "-")) {
        say_error("--tap and --junit - both write to standard output: give "
                  "--junit a FILE");
        return EXIT_INPUT;
    }
    /* Opened before any run, on rank 0: a bad path is refused before the
     * work, on every rank. */
    g_autoptr(Output) xml = NULL;
    int opened = 1;
    GError *e = NULL;
    if (rank == 0 && junit && !(xml = output_open(junit, &e))) {
        say_error("%s", e->message);
        g_clear_error(&e);
        opened = 0;
    }
    MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!opened)
        return EXIT_INPUT;
    /* The usual lines: standard output, or standard error when the XML
     * goes there; none with --tap. */
    FILE *text = xml && !strcmp(junit, "-") ? stderr : stdout;
    g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func(
        expect_result_free);
    if (tap && rank == 0)
        printf("TAP version 13\n1..%u\n", files->len);
    unsigned passed = 0, failed = 0, errors = 0;
    gint64 start = g_get_monotonic_time();
    for (guint f = 0; f < files->len; f++) {
        ExpectResult *c = check_one(files->pdata[f], (char **)sets->pdata,
                                    &flags.options);
        if (c->status == EXPECT_PASS)
            passed++;
        else
            failed++;
        if (c->status == EXPECT_ERROR)
            errors++;
        if (rank == 0) {
            if (tap)
                expect_print_tap(stdout, results->len + 1, c);
            else
                expect_print_line(text, c);
            fflush(stdout);
            fflush(text);
        }
        g_ptr_array_add(results, c);
    }
    int status = errors ? EXIT_INPUT : failed ? EXIT_FAILED : EXIT_OK;
    if (rank == 0) {
        if (tap)
            printf("# %u passed, %u failed\n", passed, failed);
        else
            fprintf(text, "%u passed, %u failed\n", passed, failed);
        if (xml) {
            expect_write_junit(output_stream(xml), PROGRAM " check", results,
                               failed - errors, errors,
                               (g_get_monotonic_time() - start) / 1e6);
            Output *o = g_steal_pointer(&xml);
            if (!output_commit(o, &e)) {
                say_error("%s", e->message);
                g_clear_error(&e);
                status = EXIT_INPUT;
            }
        }
        if (!output_close_stdout(command))
            status = EXIT_INPUT;
    }
    /* Only rank 0 evaluated the expectations: its status is the job's. */
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int status;
    if (argc >= 2 && !strcmp(argv[1], "run"))
        status = cmd_run(argc, argv);
    else if (argc >= 2 && !strcmp(argv[1], "check"))
        status = cmd_check(argc, argv);
    else {
        say_usage();
        status = EXIT_INPUT;
    }
    MPI_Finalize();
    return status;
}
