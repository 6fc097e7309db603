/* report.h -- the result of one run: measured counts, bounds, details,
 * and the two ways to print it (a table for people, JSON for programs).
 *
 * Algorithms add bounds and details through the report_* functions;
 * everything else is filled by the runner.
 */
#ifndef CUBE_REPORT_H
#define CUBE_REPORT_H

#include <glib.h>
#include <stdio.h>
#include "node.h"
#include "machine.h"
#include "stats.h"

/* The names of the faults.* fields (report_lookup), NULL-ended: present
 * on a machine with faults only. */
extern const char *const report_faults_fields[];

/* The "schema" field of the JSON report: bumped whenever a field changes
 * meaning or goes away, or a backend's report gains a field the schema
 * forbade it (docs/report.md, "Versions", lists what changed). */
#define REPORT_SCHEMA 8

/* What one element is: its width in 64-bit words and how it prints. A
 * channel moves one element per element-time whatever its width (the
 * papers count elements, not bytes). */
typedef enum {
    ELEMENT_WORD = 0,             /* one 64-bit integer (the default) */
    ELEMENT_DOUBLE,               /* one IEEE double */
    ELEMENT_COMPLEX               /* two doubles: real, imaginary */
} ElementType;

static inline size_t element_words(ElementType e)
{
    return e == ELEMENT_COMPLEX ? 2 : 1;
}

/* "123", "1.5", "1.5-2i" (exact: %.17g); free with g_free. */
char *element_text(ElementType type, const Word *words);
const char *element_type_name(ElementType type);

typedef enum { BOUND_UPPER, BOUND_LOWER, BOUND_EXACT } BoundKind;

/* A bound a paper proves (or the model implies) on one output field.
 * `field` names that field as report_lookup does ("cycles", "messages",
 * "details.index_words"); `measured` is the field's value in this run.
 * A bound that does not apply to this run (another method's, another
 * case's) is still listed, so a reader sees what was left out, but is
 * never evaluated: applies FALSE, value NAN, holds FALSE, and `reason`
 * says why it does not apply (NULL for one that applies). */
typedef struct {
    char *name;
    char *field;
    BoundKind kind;
    double value;
    double measured;
    gboolean applies;
    gboolean holds;               /* applies, and the relation holds */
    char *source;
    char *reason;                 /* why it does not apply, or NULL */
} Bound;

typedef enum { DETAIL_INT, DETAIL_DOUBLE, DETAIL_TEXT,
               DETAIL_INT_LIST, DETAIL_ROWS, DETAIL_OBJECT } DetailType;

typedef struct {
    char *key;
    DetailType type;
    long long i;
    double d;
    char *text;
    GArray *list;                 /* long long, for DETAIL_INT_LIST; for
                                   * DETAIL_ROWS the rows one after another */
    char **columns;               /* DETAIL_ROWS: the column names;
                                   * DETAIL_OBJECT: the member names */
    GArray *values;               /* DETAIL_OBJECT: double per member */
} Detail;

typedef struct {
    char *key;                    /* as in the scenario: "elements-per-node" */
    char *text;
    gboolean is_int;
    long long value;
} ParamValue;

/* The program that measured a report: the emulator (cubemu run, the
 * default of report_new) or MPI ranks (cubemu-mpi run). */
typedef enum { REPORT_BACKEND_EMULATOR = 0, REPORT_BACKEND_MPI } ReportBackend;

/* What only the MPI backend measures (mpi/cubemu_mpi.c fills it). The
 * phase names are the algorithm's own static strings, not copies. */
typedef struct {
    /* What the report leaves out because only the emulator measures it:
     * the algorithm's bounds on such fields (report_bound drops them on an
     * MPI report), and the keys of its details that depend on such fields
     * (NULL-ended, or NULL; freed with the report). */
    unsigned bounds_emulator_only;
    char **details_emulator_only;
    int ranks;
    uint64_t forwards;            /* packets passed on, all ranks */
    double messages_per_rank_max, messages_per_rank_mean;
    double bytes_per_rank_max, bytes_per_rank_mean;   /* payload bytes */
    unsigned phases;
    const char *phase_name[SIM_MAX_PHASES];
    int phase_nodes[SIM_MAX_PHASES];                   /* nodes that entered */
    double phase_seconds_max[SIM_MAX_PHASES];          /* MPI_Wtime, over */
    double phase_seconds_mean[SIM_MAX_PHASES];         /* those nodes */
} ReportMpi;

typedef struct Report {
    char *scenario;               /* path or "default" */
    Machine machine;
    char *algorithm;
    char *method;
    GArray *params;               /* ParamValue */
    uint64_t elements_per_node;
    ElementType element;

    Tick cycles;
    uint64_t element_transfers;
    uint64_t messages;
    uint64_t elements_sent;       /* sum of message sizes (not in JSON) */
    uint64_t max_channel_elements;
    uint64_t class_messages[CLASS_COUNT];
    uint64_t class_elements[CLASS_COUNT];
    uint64_t class_transfers[CLASS_COUNT];
    /* Per link index: elements up, down, and ticks its channels were busy. */
    uint64_t *link_up, *link_down, *link_busy;
    /* With memory paths: the busiest node's path, its ticks (stats.h) */
    Tick path_busy_max;
    uint32_t path_busiest;
    /* On a machine with faults (machine.faults): the engine's counts
     * (stats.h): messages detoured, links they took beyond the path asked
     * (in all, and the most for one message), and routes on which the
     * cube's scheme gave up for the shortest surviving path. */
    uint64_t detoured, extra_links, extra_links_max, routes_given_up;
    /* Per node, summarised: ticks of local work, and the rest of the
     * node's time until it finished (communication and waiting). */
    Tick compute_max, communication_max;
    double compute_mean, communication_mean;
    /* The program's phases (node_phase), in order: name and statistics. */
    unsigned nphases;
    char *phase_name[SIM_MAX_PHASES];
    SimPhase phase[SIM_MAX_PHASES];

    gboolean data_correct;        /* placement and conservation */
    gboolean placement_correct;
    gboolean conserved;
    char *data_problem;           /* first mismatch, or NULL */
    /* Values computed or copied rather than moved (MemoryLayout): no
     * conservation check; tolerance > 0: compared within it. */
    gboolean computed;
    double tolerance;
    /* The first computed_elements of each node's [0, K) are computed
     * results (MemoryLayout); sampled > 0: only that many were checked. */
    size_t computed_elements;
    uint64_t sampled;

    GArray *bounds;               /* Bound */
    GArray *details;              /* Detail */

    uint64_t events;
    double wall_seconds;          /* in sim_run, every attempt's */
    /* The order the engine ran each tick's events in (run.h, RunOrder; not
     * in the JSON: the results are the contract's either way): the
     * locality order throughout, or, after the locality order stopped
     * (order_fallback; wall_seconds includes every try), the locality
     * order from tick 1 (order_locality too) or the contract's. */
    gboolean order_locality;
    gboolean order_fallback;

    Word *memory;             /* nodes x K elements, only with --dump-memory */

    /* `cubemu run --compare`: the same scenario run again with the
     * `compared_set` assignments (SECTION.KEY=VALUE, NULL-terminated),
     * whose cycles, data and bounds the report prints beside its own;
     * NULL when nothing was compared. Both owned. */
    struct Report *compared;
    char **compared_set;

    /* Which program measured the report; the JSON prints the fields that
     * backend measures and no others (docs/report.md). */
    ReportBackend backend;
    ReportMpi mpi;                /* REPORT_BACKEND_MPI only */
} Report;

Report *report_new(void);
void report_free(Report *r);
/* Attach the report of the same scenario run again with the assignments
 * SET (report->compared); takes ownership of OTHER, copies SET. */
void report_set_compared(Report *r, Report *other, char *const *set);
/* Is the compared run the same run without the faults: this machine has
 * faults, the compared one none, and the assignments changed only
 * machine.faults (`cubemu run --compare-faultless`, or `--compare
 * machine.faults=none`)? The report then says what the faults cost. */
gboolean report_compared_faultless(const Report *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Report, report_free)

/* Copy the engine's statistics (the runner does this); phase_names are the
 * algorithm's (st->phases of them, NULL when there are none). */
void report_take_stats(Report *r, const SimStats *st,
                       const char *const *phase_names);

/* For algorithms' report callbacks. A bound of VALUE on the output FIELD,
 * which must exist when the bound is added (report_lookup; add a detail
 * first for a quantity the report does not otherwise carry); the measured
 * value is read from it. On an MPI report a bound on an emulator-only
 * field (report_field_emulator_only) is left out and counted
 * (ReportMpi.bounds_emulator_only), as by report_bound_na and the other
 * bound functions. */
void report_bound(Report *r, const char *field, const char *name,
                  BoundKind kind, double value, const char *source);
/* A bound on a time only class c's messages take, which the field's name
 * does not tell (a detail, such as matmul's shift ticks): report_bound,
 * except that an upper or exact one is n/a where c is priced on memory
 * paths and carried elements, as report_bound does on its own for the
 * cycles, the seconds and the communication and phase times of any class
 * (docs/report.md, "Bounds"). */
void report_class_time_bound(Report *r, MessageClass c, const char *field,
                             const char *name, BoundKind kind, double value,
                             const char *source);
/* The bounds the machine model itself implies, whatever the algorithm
 * (the runner adds them after the algorithm's): on a machine with memory
 * paths, the cycles are at least the busiest node's path's ticks; on a
 * machine with faults, the routing scheme's route length (faults.h). */
void report_machine_bounds(Report *r);
/* On a machine with faults, a bound on a field the faults can change
 * (the times, element transfers, channel and link loads, the engine's
 * events) is the fault-free machine's: report_bound and
 * report_class_time_bound list it n/a, with the faults as the reason
 * (docs/report.md, "Bounds"). Counts the faults leave alone (messages,
 * elements, the algorithm's own details) keep their bounds. */
gboolean report_field_faults_change(const char *field);
/* A bound on the measured cycle count: report_bound(r, "cycles", ...). */
void report_cycle_bound(Report *r, const char *name,
                             BoundKind kind, double value,
                             const char *source);
/* A bound that does not apply to this run (applies FALSE, reported "n/a"):
 * the bound of another method, or of a case this run is not. REASON says
 * which, as the table and the JSON print it ("the sequential method's
 * bound; this run's method is concurrent"). */
void report_bound_na(Report *r, const char *field, const char *name,
                     BoundKind kind, const char *reason, const char *source);
void report_detail_int(Report *r, const char *key, long long v);
void report_detail_double(Report *r, const char *key, double v);
void report_detail_text(Report *r, const char *key, const char *v);
void report_detail_list(Report *r, const char *key,
                             const long long *v, size_t n);
/* A table of integers: `rows` rows of the NULL-terminated `columns`, v
 * row by row. JSON: an array of objects {column: value}; the text table
 * prints one line per row. */
void report_detail_rows(Report *r, const char *key,
                        const char *const *columns, const long long *v,
                        size_t rows);

/* An object of named numbers {name: value}, e.g. seconds per phase.
 * report_lookup finds a member as details.KEY.NAME. */
void report_detail_object(Report *r, const char *key,
                          const char *const *names, const double *v);

/* Is FIELD one only the emulator measures, simulated time and what is
 * counted in it: cycles, seconds, stats.events, time.*, phases.*,
 * per_link.L.utilisation, the faults' detour counts? An MPI report has
 * none of them (report_lookup finds none, report_bound drops a bound on
 * one); every other field
 * (messages, element_transfers, max_channel_elements, per_class.*,
 * per_link.L.elements_up / .elements_down, machine.*, details.*,
 * faults.links / .channels / .timed / .nodes) both backends measure;
 * faults.detoured, .extra_links, .extra_links_max and .routes_given_up
 * are the engine's. */
gboolean report_field_emulator_only(const char *field);
/* Is FIELD one this report's backend does not measure: an emulator-only
 * field of an MPI report, or a detail the MPI report left out
 * (ReportMpi.details_emulator_only)? Such a field of an [expect] is not
 * evaluated on MPI (run/expect.h). */
gboolean report_field_unmeasured(const Report *r, const char *field);

/* A numeric output field by name: cycles, seconds (with tick-seconds),
 * element_transfers, messages, max_channel_elements, elements_per_node,
 * machine.nodes, machine.dimensions, machine.diameter, machine.startup,
 * machine.element_time, stats.events, details.KEY (int or double),
 * per_link.L.elements_up / .elements_down / .utilisation,
 * per_class.CLASS.messages / .elements / .element_transfers,
 * time.compute.max / .mean, time.communication.max / .mean,
 * phases.NAME.cycles / .compute / .communication (largest over nodes) and
 * phases.NAME.seconds (with tick-seconds); on a machine with faults
 * faults.links / .channels / .timed / .nodes and faults.detoured /
 * .extra_links / .extra_links_max / .routes_given_up. FALSE for a field the report's
 * backend does not measure (report_field_emulator_only). */
gboolean report_lookup(const Report *r, const char *field, double *value);
/* The detail `key` of a report, or NULL. */
const Detail *report_find_detail(const Report *r, const char *key);
/* The numeric fields report_lookup knows for this report, in output order
 * (for sweeps' CSV columns); free with g_strfreev. */
char **report_fields(const Report *r);
/* Every bound that applies holds (bounds that do not apply are skipped). */
gboolean report_bounds_hold(const Report *r);
/* Busy ticks / (cycles x channels of link l). */
double report_utilisation(const Report *r, int link);
/* Ticks in seconds, or 0 without tick-seconds. */
double report_seconds(const Report *r, Tick ticks);
/* A duration in seconds as people read it, "1.23 ms" (s, ms, us or ns,
 * four significant digits); free with g_free. The text report and the
 * traces' viewer and summary print seconds through this. */
char *report_duration_text(double seconds);

void report_print_table(const Report *r, FILE *out);

/* The JSON report (docs/report.md, docs/report.schema.json). */
typedef enum {
    REPORT_JSON_PRETTY = 1 << 0,  /* indented (util/json_writer.h), not one line */
    REPORT_JSON_TIMING = 1 << 1,  /* add "timing": the wall-clock fields, the
                                   * only ones that differ between runs */
} ReportJsonFlags;
void report_write_json(const Report *r, FILE *out, ReportJsonFlags flags);
/* report_write_json(r, out, 0): one line, the same bytes for the same run. */
void report_print_json(const Report *r, FILE *out);

const char *bound_kind_text(BoundKind kind);

#endif
