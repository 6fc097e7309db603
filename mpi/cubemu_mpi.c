/* cubemu_mpi.c -- `cubemu-mpi run SCENARIO [--json] [--dump-memory]
 * [--wait-limit SECONDS]` under mpirun: run a scenario's algorithm for
 * real, one MPI rank a node. With --wait-limit a node that waits that long
 * for its receives with nothing arriving stops the job with an error
 * naming the receive (exit status 1) instead of hanging.
 *
 * Every rank reads the scenario and prepares the machine and the
 * algorithm's configuration exactly as `cubemu run` does (run/prepare.c),
 * fills its own memory (alg->init), runs the node program over MPI
 * (node_mpi.c), and verifies its own memory: against alg->expect, against
 * alg->expect_element for the sampled offsets that fall on it, and the
 * multiset fingerprints summed over all ranks for conservation. Rank 0
 * prints the report: a table, or with --json an object in the shape of
 * `cubemu run --json` where the fields apply; what the emulator counts in
 * cycles is measured here in wall-clock seconds, under details.wall.
 *
 * Exit status: 0 the data are correct, 1 they are not or the program
 * failed, 2 bad input (including a rank count that is not the machine's
 * node count).
 */
#include "output.h"
#include "node_mpi.h"
#include "prepare.h"

#include <json-glib/json-glib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_INPUT = 2 };

static int rank, size;

G_GNUC_PRINTF(1, 2)
static void say_error(const char *fmt, ...)
{
    if (rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("cubemu-mpi run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int finish(int status)
{
    MPI_Finalize();
    return status;
}

#define WAIT_FLAG "--wait-limit"

/* --wait-limit's value: seconds, a finite number above 0. */
static gboolean parse_seconds(const char *text, double *out)
{
    char *end = NULL;
    double v = g_ascii_strtod(text, &end);
    if (!*text || *end || !isfinite(v) || v <= 0)
        return FALSE;
    *out = v;
    return TRUE;
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

static void json_element(JsonBuilder *b, ElementType type, const Word *w)
{
    double d[2];
    memcpy(d, w, element_words(type) * sizeof(Word));
    switch (type) {
    case ELEMENT_WORD:
        json_builder_add_int_value(b, (gint64)w[0]);
        break;
    case ELEMENT_DOUBLE:
        json_builder_add_double_value(b, d[0]);
        break;
    case ELEMENT_COMPLEX:
        json_builder_begin_array(b);
        json_builder_add_double_value(b, d[0]);
        json_builder_add_double_value(b, d[1]);
        json_builder_end_array(b);
        break;
    }
}

static void json_max_mean(JsonBuilder *b, const char *key, double max,
                          double mean)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "max");
    json_builder_add_double_value(b, max);
    json_builder_set_member_name(b, "mean");
    json_builder_add_double_value(b, mean);
    json_builder_end_object(b);
}

typedef struct {
    const char *scenario;
    const RunSetup *setup;
    const Report *names;          /* algorithm, method, params */
    gboolean data_correct, placement_correct, conserved;
    const char *problem;
    double seconds;               /* the slowest rank's run */
    uint64_t *messages, *bytes, *forwards;       /* per rank */
    unsigned phases;
    double phase_max[SIM_MAX_PHASES], phase_sum[SIM_MAX_PHASES];
    int phase_nodes[SIM_MAX_PHASES];
    const Word *memory;           /* size x K elements, or NULL */
} Result;

static void print_json(const Result *res)
{
    const RunSetup *setup = res->setup;
    const Machine *m = &setup->machine;
    const Algorithm *alg = setup->algorithm;
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "cubemu");
    json_builder_add_string_value(b, CUBEMU_VERSION);
    json_builder_set_member_name(b, "schema");
    json_builder_add_int_value(b, REPORT_SCHEMA);
    json_builder_set_member_name(b, "backend");
    json_builder_add_string_value(b, "mpi");
    json_builder_set_member_name(b, "scenario");
    json_builder_add_string_value(b, res->scenario);
    json_builder_set_member_name(b, "machine");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "topology");
    json_builder_add_string_value(b, machine_topology_name(m));
    json_builder_set_member_name(b, "nodes");
    json_builder_add_int_value(b, machine_nodes(m));
    json_builder_end_object(b);

    json_builder_set_member_name(b, "algorithm");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "name");
    json_builder_add_string_value(b, res->names->algorithm);
    json_builder_set_member_name(b, "method");
    json_builder_add_string_value(b, res->names->method);
    for (guint i = 0; i < res->names->params->len; i++) {
        const ParamValue *v = &g_array_index(res->names->params, ParamValue, i);
        g_autofree char *k = g_strdup(v->key);
        g_strdelimit(k, "-", '_');
        json_builder_set_member_name(b, k);
        if (v->is_int)
            json_builder_add_int_value(b, v->value);
        else
            json_builder_add_string_value(b, v->text);
    }
    json_builder_end_object(b);

    json_builder_set_member_name(b, "element");
    json_builder_add_string_value(b, element_type_name(setup->layout.element));
    json_builder_set_member_name(b, "elements_per_node");
    json_builder_add_int_value(b, (gint64)setup->layout.elements_per_node);
    uint64_t messages = 0, bytes = 0, forwards = 0;
    uint64_t mmax = 0, bmax = 0;
    for (int x = 0; x < size; x++) {
        messages += res->messages[x];
        bytes += res->bytes[x];
        forwards += res->forwards[x];
        mmax = MAX(mmax, res->messages[x]);
        bmax = MAX(bmax, res->bytes[x]);
    }
    json_builder_set_member_name(b, "messages");
    json_builder_add_int_value(b, (gint64)messages);
    json_builder_set_member_name(b, "data_correct");
    json_builder_add_boolean_value(b, res->data_correct);
    if (res->problem) {
        json_builder_set_member_name(b, "data_problem");
        json_builder_add_string_value(b, res->problem);
    }

    json_builder_set_member_name(b, "details");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "wall");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "seconds");
    json_builder_add_double_value(b, res->seconds);
    json_builder_set_member_name(b, "phases");
    json_builder_begin_array(b);
    for (unsigned i = 0; i < res->phases; i++) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, alg->phases ? alg->phases[i] : "run");
        json_builder_set_member_name(b, "nodes");
        json_builder_add_int_value(b, res->phase_nodes[i]);
        json_max_mean(b, "seconds", res->phase_max[i],
                      res->phase_nodes[i] ? res->phase_sum[i]
                                                / res->phase_nodes[i] : 0);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_max_mean(b, "messages_per_rank", (double)mmax,
                  (double)messages / size);
    json_max_mean(b, "bytes_per_rank", (double)bmax, (double)bytes / size);
    json_builder_set_member_name(b, "forwards");
    json_builder_add_int_value(b, (gint64)forwards);
    json_builder_end_object(b);
    json_builder_end_object(b);

    json_builder_set_member_name(b, "stats");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "ranks");
    json_builder_add_int_value(b, size);
    json_builder_set_member_name(b, "wall_seconds");
    json_builder_add_double_value(b, res->seconds);
    json_builder_end_object(b);

    if (res->memory) {
        size_t k = setup->layout.elements_per_node;
        size_t w = element_words(setup->layout.element);
        json_builder_set_member_name(b, "memory");
        json_builder_begin_array(b);
        for (int x = 0; x < size; x++) {
            json_builder_begin_array(b);
            for (size_t j = 0; j < k; j++)
                json_element(b, setup->layout.element,
                             res->memory + ((size_t)x * k + j) * w);
            json_builder_end_array(b);
        }
        json_builder_end_array(b);
    }
    json_builder_end_object(b);

    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    g_autofree char *text = json_generator_to_data(gen, NULL);
    printf("%s\n", text);
}

static void print_table(const Result *res)
{
    const RunSetup *setup = res->setup;
    const Algorithm *alg = setup->algorithm;
    uint64_t messages = 0, bytes = 0, forwards = 0;
    for (int x = 0; x < size; x++) {
        messages += res->messages[x];
        bytes += res->bytes[x];
        forwards += res->forwards[x];
    }
    printf("scenario    %s\n", res->scenario);
    printf("machine     %s, %u nodes (one MPI rank each)\n",
           machine_topology_name(&setup->machine),
           machine_nodes(&setup->machine));
    printf("algorithm   %s (%s)\n", res->names->algorithm, res->names->method);
    printf("wall        %.6f s\n", res->seconds);
    for (unsigned i = 0; i < res->phases; i++)
        printf("  phase %-12s max %.6f s, mean %.6f s over %d nodes\n",
               alg->phases ? alg->phases[i] : "run", res->phase_max[i],
               res->phase_nodes[i] ? res->phase_sum[i] / res->phase_nodes[i]
                                   : 0, res->phase_nodes[i]);
    printf("messages    %llu (%llu bytes; %llu forwards)\n",
           (unsigned long long)messages, (unsigned long long)bytes,
           (unsigned long long)forwards);
    printf("data        %s\n", res->data_correct ? "correct" : res->problem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    gboolean json = FALSE, dump = FALSE;
    const char *path = NULL;
    MpiNodeOptions options = { 0 };
    gboolean usage = argc < 2 || strcmp(argv[1], "run") != 0;
    for (int i = 2; i < argc && !usage; i++) {
        if (!strcmp(argv[i], "--json"))
            json = TRUE;
        else if (!strcmp(argv[i], "--dump-memory"))
            dump = TRUE;
        else if (!strcmp(argv[i], WAIT_FLAG)
                 || g_str_has_prefix(argv[i], WAIT_FLAG "=")) {
            const char *eq = strchr(argv[i], '=');
            const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v) {
                say_error(WAIT_FLAG " needs a value: a number of seconds "
                          "above 0");
                return finish(EXIT_INPUT);
            }
            if (!parse_seconds(v, &options.wait_limit)) {
                say_error(WAIT_FLAG ": '%s' is not a number of seconds "
                          "(valid: a number above 0)", v);
                return finish(EXIT_INPUT);
            }
        } else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else
            usage = TRUE;
    }
    if (usage || !path) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np NODES cubemu-mpi run SCENARIO "
                    "[--json] [--dump-memory] [--wait-limit SECONDS]\n");
        return finish(EXIT_INPUT);
    }

    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_file(path, &e);
    RunSetup setup;
    if (!s || !run_setup(s, &setup, &e)) {
        say_error("%s", e->message);
        g_error_free(e);
        return finish(EXIT_INPUT);
    }
    uint32_t nodes = machine_nodes(&setup.machine);
    if (nodes != (uint32_t)size) {
        say_error("%s: the machine has %u nodes but %d MPI ranks run it (one "
                  "rank a node: mpirun -np %u)", path, nodes, size, nodes);
        run_setup_release(&setup, TRUE);
        return finish(EXIT_INPUT);
    }
    const Algorithm *alg = setup.algorithm;
    const MemoryLayout *layout = &setup.layout;
    size_t w = element_words(layout->element);
    size_t k = layout->elements_per_node;
    unsigned phases = algorithm_phase_count(alg);
    Node *node = mpi_node_new(&setup.machine, MPI_COMM_WORLD,
                              layout->memory_elements, w, layout->local_size,
                              phases, &options);
    Word *mem = node_memory(node);
    alg->init(setup.config, (uint32_t)rank, mem);
    Fingerprint fp[2] = { { 0, 0 }, { 0, 0 } };
    run_fingerprint_add(&fp[0], mem, layout->computed_elements, k, w);

    MPI_Barrier(MPI_COMM_WORLD);
    if (!mpi_node_run(node, alg->step, setup.config, &e)) {
        fprintf(stderr, "cubemu-mpi run: %s\n", e->message);
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
    Result res = { .scenario = scenario_name(s), .setup = &setup,
                   .phases = phases ? phases : 1 };
    res.placement_correct = first_wrong == size;
    res.conserved = layout->computed
                    || (total[0] == total[2] && total[1] == total[3]);
    res.data_correct = res.placement_correct && res.conserved;
    res.problem = first_problem ? first_problem
                  : res.conserved ? NULL
                                  : "WRONG: elements were lost or duplicated";

    /* Statistics to rank 0. */
    uint64_t mine[3] = { st->messages, st->bytes, st->forwards };
    g_autofree uint64_t *all = g_new(uint64_t, 3 * (size_t)size);
    MPI_Gather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    g_autofree uint64_t *messages = g_new(uint64_t, size);
    g_autofree uint64_t *bytes = g_new(uint64_t, size);
    g_autofree uint64_t *forwards = g_new(uint64_t, size);
    for (int x = 0; x < size; x++) {
        messages[x] = all[3 * x];
        bytes[x] = all[3 * x + 1];
        forwards[x] = all[3 * x + 2];
    }
    res.messages = messages;
    res.bytes = bytes;
    res.forwards = forwards;
    int visited[SIM_MAX_PHASES];
    for (unsigned i = 0; i < res.phases; i++)
        visited[i] = st->phase_visited[i];
    MPI_Reduce(st->phase_seconds, res.phase_max, (int)res.phases, MPI_DOUBLE,
               MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(st->phase_seconds, res.phase_sum, (int)res.phases, MPI_DOUBLE,
               MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(visited, res.phase_nodes, (int)res.phases, MPI_INT, MPI_SUM, 0,
               MPI_COMM_WORLD);
    MPI_Reduce(&st->seconds, &res.seconds, 1, MPI_DOUBLE, MPI_MAX, 0,
               MPI_COMM_WORLD);
    g_autofree Word *memory = NULL;
    if (dump) {
        size_t words = k * w;
        if (words > INT_MAX / 8 / (size_t)size) {
            say_error("--dump-memory: %zu words a node is too many to gather",
                      words);
            dump = FALSE;
        } else {
            memory = rank == 0 ? g_new(Word, words * size + 1) : NULL;
            MPI_Gather(mem, (int)words, MPI_UINT64_T, memory, (int)words,
                       MPI_UINT64_T, 0, MPI_COMM_WORLD);
            res.memory = memory;
        }
    }

    if (rank == 0) {
        g_autoptr(Report) names = report_new();
        run_report_algorithm(names, &setup);
        res.names = names;
        if (json)
            print_json(&res);
        else
            print_table(&res);
        if (!res.data_correct)
            fprintf(stderr, "cubemu-mpi run: %s: the final memory is wrong: "
                    "%s\n", res.scenario, res.problem);
    }
    mpi_node_free(node);
    run_setup_release(&setup, TRUE);
    /* A report standard output did not take is an error (exit 2). */
    if (rank == 0 && !output_close_stdout("cubemu-mpi run"))
        return finish(EXIT_INPUT);
    return finish(res.data_correct ? EXIT_OK : EXIT_FAILED);
}
