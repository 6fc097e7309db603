/* fuzz_bmmc.c -- the BMMC matrix and permutation parsers
 * (algorithms/bmmc/catalog.c, and bmmc/program.c through run_setup).
 *
 * Input: byte 0 picks n (-2..67, so out-of-range sizes come too), byte 1
 * the processor bits p, byte 2 the method and routing; the rest is text,
 * whose first four lines are a permutation name (identity, transpose:QxR,
 * ...), a columns list, a complement word and a layout (processor-major,
 * processor-minor, f:F). Each is parsed alone (bmmc_catalog_named,
 * _parse_columns, _parse_complement), the whole text as a specification
 * (bmmc_catalog_parse), a parsed matrix is inverted and factored with the
 * layout's F (bmmc_inverse, bmmc_plan_new), and the four lines are given to
 * the bmmc algorithm as matrix, columns, complement and layout of a
 * scenario on a cube of p dimensions, through run_setup.
 *
 * What run_setup accepts with n <= FUZZ_RUN_N and p <= FUZZ_RUN_P is run
 * (fuzz_run): the plan must move every element where A x XOR c says.
 *
 * Bounded: the scenario route takes n <= FUZZ_MAX_N (the plan is O(n^2),
 * but 2^n elements is what a run would hold) and p <= FUZZ_MAX_P.
 */
#include <stdlib.h>
#include <string.h>

#include "bmmc.h"
#include "catalog.h"
#include "fuzz.h"
#include "prepare.h"
#include "scenario.h"

#define FUZZ_HEADER 3
#define FUZZ_MAX_N 40
#define FUZZ_MAX_P 12
#define FUZZ_RUN_N 10
#define FUZZ_RUN_P 4

enum { LINE_MATRIX, LINE_COLUMNS, LINE_COMPLEMENT, LINE_LAYOUT, LINES };

static const char *const line_keys[LINES] = {
    "matrix", "columns", "complement", "layout"
};
static const char *const methods[] = { "two-phase", "naive" };
static const char *const routings[] = { "ascending", "descending" };

/* f for a layout line, as bmmc/program.c reads it, or any number. */
static int layout_f(const char *text, int n, int p)
{
    if (!strcmp(text, "processor-major"))
        return n - p;
    if (!strcmp(text, "processor-minor"))
        return 0;
    return (int)strtol(g_str_has_prefix(text, "f:") ? text + 2 : text, NULL,
                       10);
}

static void factor(int n, int p, const Gf2Matrix *A, uint64_t c, int f)
{
    uint64_t Ainv[GF2_MAX_DIM], cinv;
    int rc = bmmc_inverse(n, A->col, c, Ainv, &cinv);
    if (rc != 0 && bmmc_strerror(rc) == NULL)
        g_error("fuzz: bmmc_inverse %d without a message", rc);
    BmmcPlan *plan = NULL;
    rc = bmmc_plan_new(n, p, A->col, c, f, &plan);
    if (rc != 0 && plan != NULL)
        g_error("fuzz: bmmc_plan_new failed (%d) but gave a plan", rc);
    bmmc_plan_free(plan);
}

static void through_setup(int n, int p, uint8_t choice, char **line)
{
    if (n < 0 || n > FUZZ_MAX_N || p < 1 || p > FUZZ_MAX_P)
        return;
    Scenario *s = scenario_new("fuzz");
    g_autofree char *dims = g_strdup_printf("%d", p);
    g_autofree char *elements = g_strdup_printf("%llu", 1ULL << n);
    scenario_put(s, "machine", "preset", "cube", "fuzz:1");
    scenario_put(s, "machine", "dimensions", dims, "fuzz:2");
    scenario_put(s, "algorithm", "name", "bmmc", "fuzz:3");
    scenario_put(s, "algorithm", "method", methods[choice & 1], "fuzz:4");
    scenario_put(s, "algorithm", "routing", routings[(choice >> 1) & 1],
                 "fuzz:5");
    scenario_put(s, "algorithm", "elements", elements, "fuzz:6");
    for (int i = 0; i < LINES; i++) {
        g_autofree char *where = g_strdup_printf("fuzz:%d", 7 + i);
        if (line[i] && *line[i])
            scenario_put(s, "algorithm", line_keys[i], line[i], where);
    }
    GError *e = NULL;
    RunSetup setup;
    if (run_setup(s, &setup, &e)) {
        run_setup_release(&setup, TRUE);
        if (n <= FUZZ_RUN_N && p <= FUZZ_RUN_P)
            fuzz_run(s);
    } else {
        fuzz_check_error(&e);
    }
    scenario_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    if (size < FUZZ_HEADER)
        return 0;
    int n = data[0] % (GF2_MAX_DIM + 4) - 2;
    int p = data[1] % (GF2_MAX_DIM + 4) - 2;
    char *text = g_strndup((const char *)data + FUZZ_HEADER,
                           size - FUZZ_HEADER);
    char *line[LINES] = { NULL };
    char **split = g_strsplit(text, "\n", LINES + 1);
    for (int i = 0; i < LINES && split[i]; i++)
        line[i] = split[i];

    GError *e = NULL;
    Gf2Matrix A;
    uint64_t c = 0;
    gboolean have = FALSE;
    if (line[LINE_MATRIX]) {
        if (bmmc_catalog_named(line[LINE_MATRIX], n, &A, &c, &e))
            have = TRUE;
        else
            fuzz_check_error(&e);
    }
    if (line[LINE_COLUMNS]) {
        if (bmmc_catalog_parse_columns(line[LINE_COLUMNS], n, &A, &e))
            have = TRUE;
        else
            fuzz_check_error(&e);
    }
    if (line[LINE_COMPLEMENT]
        && !bmmc_catalog_parse_complement(line[LINE_COMPLEMENT], n, &c, &e))
        fuzz_check_error(&e);
    int f = line[LINE_LAYOUT] ? layout_f(line[LINE_LAYOUT], n, p) : 0;
    if (have)
        factor(n, p, &A, c, f);

    Gf2Matrix B;
    uint64_t d;
    if (bmmc_catalog_parse(text, n, &B, &d, &e))
        factor(n, p, &B, d, f);
    else
        fuzz_check_error(&e);

    through_setup(n, p, data[2], line);
    g_strfreev(split);
    g_free(text);
    return 0;
}
