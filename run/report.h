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

typedef enum { BOUND_UPPER, BOUND_LOWER, BOUND_EXACT } BoundKind;

typedef struct {
    char *name;
    BoundKind kind;
    double value;
    double measured;
    gboolean holds;
    char *source;
} Bound;

typedef enum { DETAIL_INT, DETAIL_DOUBLE, DETAIL_TEXT,
               DETAIL_INT_LIST } DetailType;

typedef struct {
    char *key;
    DetailType type;
    long long i;
    double d;
    char *text;
    GArray *list;                 /* long long, for DETAIL_INT_LIST */
} Detail;

typedef struct {
    char *key;                    /* as in the scenario: "elements-per-node" */
    char *text;
    gboolean is_int;
    long long value;
} ParamValue;

typedef struct Report {
    char *scenario;               /* path or "default" */
    Machine machine;
    char *algorithm;
    char *method;
    GArray *params;               /* ParamValue */
    uint64_t elements_per_node;

    Tick cycles;
    uint64_t element_transfers;
    uint64_t messages;
    uint64_t elements_sent;       /* sum of message sizes (not in JSON) */
    uint64_t max_channel_elements;
    uint64_t *elements_up, *elements_down;   /* per dimension */

    gboolean data_correct;        /* placement and conservation */
    gboolean placement_correct;
    gboolean conserved;
    char *data_problem;           /* first mismatch, or NULL */

    GArray *bounds;               /* Bound */
    GArray *details;              /* Detail */

    uint64_t events;
    double wall_seconds;

    Word *memory;             /* nodes x K, only with --dump-memory */
} Report;

Report *report_new(void);
void report_free(Report *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Report, report_free)

/* For algorithms' report callbacks. */
void report_bound(Report *r, const char *name, BoundKind kind,
                       double value, double measured, const char *source);
/* A bound on the measured cycle count. */
void report_cycle_bound(Report *r, const char *name,
                             BoundKind kind, double value,
                             const char *source);
void report_detail_int(Report *r, const char *key, long long v);
void report_detail_double(Report *r, const char *key, double v);
void report_detail_text(Report *r, const char *key, const char *v);
void report_detail_list(Report *r, const char *key,
                             const long long *v, size_t n);

/* A numeric output field by name: cycles, element_transfers, messages,
 * max_channel_elements, elements_per_node, machine.nodes,
 * machine.dimensions, stats.events, details.KEY (int or double), or
 * per_dimension.D.elements_up / .elements_down / .utilisation. */
gboolean report_lookup(const Report *r, const char *field,
                            double *value);
gboolean report_bounds_hold(const Report *r);
double report_utilisation(const Report *r, int dim);

void report_print_table(const Report *r, FILE *out);
void report_print_json(const Report *r, FILE *out);

const char *bound_kind_text(BoundKind kind);

#endif
