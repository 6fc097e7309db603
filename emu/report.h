/* report.h -- the result of one run: measured counts, bounds, details,
 * and the two ways to print it (a table for people, JSON for programs).
 *
 * Algorithms add bounds and details through the cube_report_* functions;
 * everything else is filled by the runner.
 */
#ifndef CUBE_REPORT_H
#define CUBE_REPORT_H

#include <glib.h>
#include <stdio.h>
#include "cube.h"
#include "machine.h"

typedef enum { CUBE_BOUND_UPPER, CUBE_BOUND_LOWER, CUBE_BOUND_EXACT } CubeBoundKind;

typedef struct {
    char *name;
    CubeBoundKind kind;
    double value;
    double measured;
    gboolean holds;
    char *source;
} CubeBound;

typedef enum { CUBE_DETAIL_INT, CUBE_DETAIL_DOUBLE, CUBE_DETAIL_TEXT,
               CUBE_DETAIL_INT_LIST } CubeDetailType;

typedef struct {
    char *key;
    CubeDetailType type;
    long long i;
    double d;
    char *text;
    GArray *list;                 /* long long, for CUBE_DETAIL_INT_LIST */
} CubeDetail;

typedef struct {
    char *key;                    /* as in the scenario: "elements-per-node" */
    char *text;
    gboolean is_int;
    long long value;
} CubeParamValue;

typedef struct CubeReport {
    char *scenario;               /* path or "default" */
    CubeMachine machine;
    char *algorithm;
    char *method;
    GArray *params;               /* CubeParamValue */
    uint64_t elements_per_node;

    CubeTime cycles;
    uint64_t element_transfers;
    uint64_t messages;
    uint64_t elements_sent;       /* sum of message sizes (not in JSON) */
    uint64_t max_channel_elements;
    uint64_t *elements_up, *elements_down;   /* per dimension */

    gboolean data_correct;        /* placement and conservation */
    gboolean placement_correct;
    gboolean conserved;
    char *data_problem;           /* first mismatch, or NULL */

    GArray *bounds;               /* CubeBound */
    GArray *details;              /* CubeDetail */

    uint64_t events;
    double wall_seconds;

    CubeWord *memory;             /* nodes x K, only with --dump-memory */
} CubeReport;

CubeReport *cube_report_new(void);
void cube_report_free(CubeReport *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CubeReport, cube_report_free)

/* For algorithms' report callbacks. */
void cube_report_bound(CubeReport *r, const char *name, CubeBoundKind kind,
                       double value, double measured, const char *source);
/* A bound on the measured cycle count. */
void cube_report_cycle_bound(CubeReport *r, const char *name,
                             CubeBoundKind kind, double value,
                             const char *source);
void cube_report_detail_int(CubeReport *r, const char *key, long long v);
void cube_report_detail_double(CubeReport *r, const char *key, double v);
void cube_report_detail_text(CubeReport *r, const char *key, const char *v);
void cube_report_detail_list(CubeReport *r, const char *key,
                             const long long *v, size_t n);

/* A numeric output field by name: cycles, element_transfers, messages,
 * max_channel_elements, elements_per_node, machine.nodes,
 * machine.dimensions, stats.events, details.KEY (int or double), or
 * per_dimension.D.elements_up / .elements_down / .utilisation. */
gboolean cube_report_lookup(const CubeReport *r, const char *field,
                            double *value);
gboolean cube_report_bounds_hold(const CubeReport *r);
double cube_report_utilisation(const CubeReport *r, int dim);

void cube_report_print_table(const CubeReport *r, FILE *out);
void cube_report_print_json(const CubeReport *r, FILE *out);

const char *cube_bound_kind_text(CubeBoundKind kind);

#endif
