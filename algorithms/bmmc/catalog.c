/* catalog.c -- named BMMC permutations and their text forms.
 *
 * Invariant: every matrix this file hands out is n x n and nonsingular over
 * GF(2), and every complement is below 2^n, so the result can go straight
 * to bmmc_plan_new. Named permutations are built from their definitions in
 * Appendix C; text given by the user is checked (count, range, rank) before
 * anything is written to the caller's outputs.
 */
#include "catalog.h"

#include <errno.h>
#include <string.h>

G_DEFINE_QUARK(bmmc-catalog-error-quark, bmmc_catalog_error)

#define BMMC_CATALOG_TRANSPOSE_PREFIX "transpose:"

/* ---- Named permutations (Appendix C) ---- */

static void bmmc_catalog_identity(int n, Gf2Matrix *A, uint64_t *c)
{
    gf2_identity(A, n);
    *c = 0;
}

static void bmmc_catalog_bit_reversal(int n, Gf2Matrix *A, uint64_t *c)
{
    gf2_zero(A, n, n);
    for (int j = 0; j < n; j++)
        A->col[j] = UINT64_C(1) << (n - 1 - j);   /* y_i = x_{n-1-i} */
    *c = 0;
}

static void bmmc_catalog_vector_reversal(int n, Gf2Matrix *A, uint64_t *c)
{
    gf2_identity(A, n);
    *c = gf2_mask(n);                             /* y_i = NOT x_i */
}

static void bmmc_catalog_gray(int n, Gf2Matrix *A, uint64_t *c)
{
    /* y_i = x_i XOR x_{i+1}: x_j feeds y_j and y_{j-1}. */
    gf2_zero(A, n, n);
    for (int j = 0; j < n; j++)
        A->col[j] = (UINT64_C(1) << j) | (j > 0 ? UINT64_C(1) << (j - 1) : 0);
    *c = 0;
}

static void bmmc_catalog_gray_inverse(int n, Gf2Matrix *A, uint64_t *c)
{
    /* y_i = XOR of x_k, k >= i: x_j feeds y_0 .. y_j. */
    gf2_zero(A, n, n);
    for (int j = 0; j < n; j++)
        A->col[j] = gf2_mask(j + 1);
    *c = 0;
}

static void bmmc_catalog_shuffle(int n, Gf2Matrix *A, uint64_t *c)
{
    gf2_zero(A, n, n);
    for (int j = 0; j < n; j++)
        A->col[j] = UINT64_C(1) << ((j + 1) % n);   /* rotate left */
    *c = 0;
}

static void bmmc_catalog_unshuffle(int n, Gf2Matrix *A, uint64_t *c)
{
    gf2_zero(A, n, n);
    for (int j = 0; j < n; j++)
        A->col[j] = UINT64_C(1) << ((j + n - 1) % n);   /* rotate right */
    *c = 0;
}

typedef struct BmmcCatalogEntry {
    const char *name;
    void (*build)(int n, Gf2Matrix *A, uint64_t *c);
} BmmcCatalogEntry;

static const BmmcCatalogEntry bmmc_catalog_entries[] = {
    { .name = "identity", .build = bmmc_catalog_identity },
    { .name = "bit-reversal", .build = bmmc_catalog_bit_reversal },
    { .name = "vector-reversal", .build = bmmc_catalog_vector_reversal },
    { .name = "gray", .build = bmmc_catalog_gray },
    { .name = "gray-inverse", .build = bmmc_catalog_gray_inverse },
    { .name = "shuffle", .build = bmmc_catalog_shuffle },
    { .name = "unshuffle", .build = bmmc_catalog_unshuffle },
};

static const char *const bmmc_catalog_name_list[] = {
    "identity", "bit-reversal", "vector-reversal", "gray", "gray-inverse",
    "shuffle", "unshuffle", "transpose:QxR", NULL
};

const char *const *bmmc_catalog_names(void)
{
    return bmmc_catalog_name_list;
}

void bmmc_catalog_transpose(int lg_rows, int lg_cols, Gf2Matrix *A)
{
    int n = lg_rows + lg_cols;
    g_return_if_fail(lg_rows >= 0 && lg_cols >= 0 && n <= GF2_MAX_DIM);
    /* Appendix C: column bits x_0..x_{lg R - 1} go up to y_{lg Q ..}, row
     * bits x_{lg R ..} come down to y_0..y_{lg Q - 1}. */
    gf2_zero(A, n, n);
    for (int k = 0; k < n; k++)
        A->col[k] = UINT64_C(1) << (k < lg_cols ? lg_rows + k : k - lg_cols);
}

static gboolean bmmc_catalog_check_n(int n, GError **error)
{
    if (n < 0 || n > GF2_MAX_DIM) {
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SIZE,
                    "n = %d is out of range 0..%d", n, GF2_MAX_DIM);
        return FALSE;
    }
    return TRUE;
}

/* lg of a power of two written in decimal, or -1. */
static int bmmc_catalog_lg(const char *text)
{
    if (*text == '\0' || strspn(text, "0123456789") != strlen(text))
        return -1;
    errno = 0;
    guint64 v = g_ascii_strtoull(text, NULL, 10);
    if (errno != 0 || v == 0 || (v & (v - 1)) != 0)
        return -1;
    return gf2_lowest_bit(v);
}

static gboolean bmmc_catalog_named_transpose(const char *name, int n, Gf2Matrix *A,
                                             uint64_t *c, GError **error)
{
    const char *sizes = name + strlen(BMMC_CATALOG_TRANSPOSE_PREFIX);
    g_auto(GStrv) parts = g_strsplit(sizes, "x", -1);
    if (g_strv_length(parts) != 2 || parts[0][0] == '\0' || parts[1][0] == '\0'
        || strspn(parts[0], "0123456789") != strlen(parts[0])
        || strspn(parts[1], "0123456789") != strlen(parts[1])) {
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SIZE,
                    "'%s' is not of the form transpose:QxR (Q rows, R columns, "
                    "decimal powers of two)", name);
        return FALSE;
    }
    int lg_rows = bmmc_catalog_lg(parts[0]);
    int lg_cols = bmmc_catalog_lg(parts[1]);
    for (int i = 0; i < 2; i++) {
        if ((i == 0 ? lg_rows : lg_cols) < 0) {
            g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SIZE,
                        "%s: %s is not a power of two", name, parts[i]);
            return FALSE;
        }
    }
    if (lg_rows + lg_cols != n) {
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SIZE,
                    "%s: Q x R = 2^%d elements, but n = %d needs 2^%d",
                    name, lg_rows + lg_cols, n, n);
        return FALSE;
    }
    bmmc_catalog_transpose(lg_rows, lg_cols, A);
    *c = 0;
    return TRUE;
}

gboolean bmmc_catalog_named(const char *name, int n, Gf2Matrix *A, uint64_t *c,
                            GError **error)
{
    g_return_val_if_fail(name != NULL && A != NULL && c != NULL, FALSE);
    if (!bmmc_catalog_check_n(n, error))
        return FALSE;
    if (g_str_has_prefix(name, BMMC_CATALOG_TRANSPOSE_PREFIX))
        return bmmc_catalog_named_transpose(name, n, A, c, error);
    for (size_t i = 0; i < G_N_ELEMENTS(bmmc_catalog_entries); i++) {
        if (strcmp(name, bmmc_catalog_entries[i].name) == 0) {
            bmmc_catalog_entries[i].build(n, A, c);
            return TRUE;
        }
    }
    g_autofree char *valid = g_strjoinv(", ", (char **)bmmc_catalog_name_list);
    g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_UNKNOWN,
                "unknown permutation '%s'; valid: %s", name, valid);
    return FALSE;
}

/* ---- Explicit columns and complement ---- */

/* A decimal or 0x-prefixed hex word, surrounding blanks allowed. */
static gboolean bmmc_catalog_word(const char *text, uint64_t *out)
{
    g_autofree char *s = g_strstrip(g_strdup(text));
    const char *digits = s;
    guint base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        digits = s + 2;
        base = 16;
    }
    if (*digits == '\0')
        return FALSE;
    for (const char *d = digits; *d != '\0'; d++)
        if (base == 16 ? !g_ascii_isxdigit(*d) : !g_ascii_isdigit(*d))
            return FALSE;
    errno = 0;
    guint64 v = g_ascii_strtoull(digits, NULL, base);
    if (errno != 0)
        return FALSE;
    *out = v;
    return TRUE;
}

/* "column 0 = column 1 + column 2" for the lowest dependent column, from
 * the dependencies of Appendix A. */
static char *bmmc_catalog_dependency(const Gf2Matrix *m)
{
    uint64_t basis;
    Gf2Matrix deps;
    gf2_column_basis(m, &basis, &deps);
    int j = gf2_lowest_bit(~basis & gf2_mask(m->cols));
    if (deps.col[j] == 0)
        return g_strdup_printf("column %d is zero", j);
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "column %d = ", j);
    const char *sep = "";
    for (uint64_t d = deps.col[j]; d != 0; d &= d - 1) {
        g_string_append_printf(s, "%scolumn %d", sep, gf2_lowest_bit(d));
        sep = " + ";
    }
    return g_string_free(s, FALSE);
}

gboolean bmmc_catalog_parse_columns(const char *value, int n, Gf2Matrix *A,
                                    GError **error)
{
    g_return_val_if_fail(value != NULL && A != NULL, FALSE);
    if (!bmmc_catalog_check_n(n, error))
        return FALSE;
    g_autofree char *stripped = g_strstrip(g_strdup(value));
    /* g_strsplit gives no parts for "", so n = 0 takes an empty value. */
    g_auto(GStrv) parts = g_strsplit(stripped, ",", -1);
    int count = (int)g_strv_length(parts);
    if (count != n) {
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_COLUMNS,
                    "columns: expected %d columns for n = %d, got %d", n, n, count);
        return FALSE;
    }
    Gf2Matrix m;
    gf2_zero(&m, n, n);
    for (int j = 0; j < n; j++) {
        if (!bmmc_catalog_word(parts[j], &m.col[j])) {
            g_autofree char *shown = g_strstrip(g_strdup(parts[j]));
            g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_COLUMNS,
                        "columns: column %d '%s' is not a decimal or 0x-prefixed "
                        "hex word", j, shown);
            return FALSE;
        }
        if (m.col[j] & ~gf2_mask(n)) {
            g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_COLUMNS,
                        "columns: column %d = 0x%" G_GINT64_MODIFIER "x has a 1 "
                        "at or above row n = %d", j, (guint64)m.col[j], n);
            return FALSE;
        }
    }
    int rank = gf2_rank(&m);
    if (rank < n) {
        g_autofree char *why = bmmc_catalog_dependency(&m);
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SINGULAR,
                    "columns: singular over GF(2), rank %d of %d: %s", rank, n, why);
        return FALSE;
    }
    *A = m;
    return TRUE;
}

gboolean bmmc_catalog_parse_complement(const char *value, int n, uint64_t *c,
                                       GError **error)
{
    g_return_val_if_fail(value != NULL && c != NULL, FALSE);
    if (!bmmc_catalog_check_n(n, error))
        return FALSE;
    uint64_t v;
    if (!bmmc_catalog_word(value, &v)) {
        g_autofree char *shown = g_strstrip(g_strdup(value));
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_COMPLEMENT,
                    "complement: '%s' is not a decimal or 0x-prefixed hex word",
                    shown);
        return FALSE;
    }
    if (v & ~gf2_mask(n)) {
        g_set_error(error, BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_COMPLEMENT,
                    "complement: 0x%" G_GINT64_MODIFIER "x has a 1 at or above "
                    "position n = %d", (guint64)v, n);
        return FALSE;
    }
    *c = v;
    return TRUE;
}

/* ---- Whole specifications ---- */

/* Append "line N: message" for err (consumed) to the collected errors. */
static void bmmc_catalog_collect(GString *all, int *first_code, int line, GError *err)
{
    if (all->len > 0)
        g_string_append_c(all, '\n');
    if (line > 0)
        g_string_append_printf(all, "line %d: %s", line, err->message);
    else
        g_string_append(all, err->message);
    if (*first_code < 0)
        *first_code = err->code;
    g_error_free(err);
}

gboolean bmmc_catalog_parse(const char *text, int n, Gf2Matrix *A, uint64_t *c,
                            GError **error)
{
    g_return_val_if_fail(text != NULL && A != NULL && c != NULL, FALSE);
    if (!bmmc_catalog_check_n(n, error))
        return FALSE;
    g_autoptr(GString) all = g_string_new(NULL);
    int code = -1;
    Gf2Matrix m;
    uint64_t perm_c = 0, comp = 0;
    int perm_line = 0, columns_line = 0, complement_line = 0;
    gboolean have_matrix = FALSE;

    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i] != NULL; i++) {
        int line = i + 1;
        g_autofree char *s = g_strstrip(g_strdup(lines[i]));
        if (s[0] == '\0' || s[0] == '#')
            continue;
        char *eq = strchr(s, '=');
        if (eq == NULL) {
            GError *e = g_error_new(BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SYNTAX,
                                    "expected 'key = value', got '%s'", s);
            bmmc_catalog_collect(all, &code, line, e);
            continue;
        }
        *eq = '\0';
        const char *key = g_strstrip(s);
        const char *value = g_strstrip(eq + 1);
        int *seen = strcmp(key, "permutation") == 0 ? &perm_line
                    : strcmp(key, "columns") == 0 ? &columns_line
                    : strcmp(key, "complement") == 0 ? &complement_line : NULL;
        if (seen == NULL) {
            GError *e = g_error_new(BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_UNKNOWN,
                                    "unknown key '%s'; valid: permutation, "
                                    "columns, complement", key);
            bmmc_catalog_collect(all, &code, line, e);
            continue;
        }
        if (*seen > 0) {
            GError *e = g_error_new(BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SYNTAX,
                                    "'%s' already given on line %d", key, *seen);
            bmmc_catalog_collect(all, &code, line, e);
            continue;
        }
        *seen = line;
        GError *e = NULL;
        if (seen == &perm_line) {
            if (bmmc_catalog_named(value, n, &m, &perm_c, &e))
                have_matrix = TRUE;
        } else if (seen == &columns_line) {
            if (bmmc_catalog_parse_columns(value, n, &m, &e))
                have_matrix = TRUE;
        } else {
            bmmc_catalog_parse_complement(value, n, &comp, &e);
        }
        if (e != NULL)
            bmmc_catalog_collect(all, &code, line, e);
    }
    if (perm_line > 0 && columns_line > 0) {
        GError *e = g_error_new(BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SYNTAX,
                                "give one of 'permutation' (line %d) and "
                                "'columns' (line %d), not both",
                                perm_line, columns_line);
        bmmc_catalog_collect(all, &code, 0, e);
    } else if (perm_line == 0 && columns_line == 0) {
        GError *e = g_error_new_literal(BMMC_CATALOG_ERROR, BMMC_CATALOG_ERROR_SYNTAX,
                                        "no 'permutation' or 'columns' given");
        bmmc_catalog_collect(all, &code, 0, e);
    }
    if (all->len > 0) {
        g_set_error_literal(error, BMMC_CATALOG_ERROR, code, all->str);
        return FALSE;
    }
    g_assert(have_matrix);
    *A = m;
    *c = complement_line > 0 ? comp : perm_c;
    return TRUE;
}
