/* check_shape.c -- util/shape.c, the one parser of "AxBxC" shapes: extents
 * in text order, the count, syntax and range faults in that precedence,
 * the extent a fault names, 64-bit overflow, and the one message style.
 * What each caller says in its own words is tested with the caller
 * (check_topology, check_dblas, check_matmul, check_reshape).
 */
#include "shape.h"

#include <check.h>
#include "check_main.h"

static const ShapeSpec two_to_four = {
    .form = "AxB (say 4x4)",
    .min_extents = 2, .max_extents = 4, .min = 1, .max = 1000,
};

START_TEST(extents_in_text_order)
{
    uint64_t v[4] = { 0 };
    int n = 0;
    ShapeFailure f;
    char *why = NULL;
    ck_assert(shape_parse("16x8x0004", &two_to_four, v, &n, &f, &why));
    ck_assert_int_eq(n, 3);
    uint64_t want[] = { 16, 8, 4 };
    ck_assert_uint_array_eq(want, v, 3, "16x8x0004");
    ck_assert_int_eq(f.fault, SHAPE_OK);
    ck_assert_ptr_null(why);
    ck_assert(shape_parse("2X3", &two_to_four, v, &n, NULL, NULL));
    ck_assert_int_eq(n, 2);
    ck_assert_uint_eq(v[0], 2);
    ck_assert_uint_eq(v[1], 3);
}
END_TEST

START_TEST(faults_refused)
{
    static const struct {
        const char *text;
        ShapeFault fault;
        int index;              /* -1: none */
        const char *extent;
        const char *why;
    } cases[] = {
        { "", SHAPE_COUNT, -1, NULL, "'' is not AxB (say 4x4)" },
        { "4", SHAPE_COUNT, -1, NULL, "'4' is not AxB (say 4x4)" },
        { "1x1x1x1x1", SHAPE_COUNT, -1, NULL,
          "'1x1x1x1x1' is not AxB (say 4x4)" },
        { "x4", SHAPE_SYNTAX, 0, "", "'x4' is not AxB (say 4x4)" },
        { "4xx4", SHAPE_SYNTAX, 1, "", "'4xx4' is not AxB (say 4x4)" },
        { "4x", SHAPE_SYNTAX, 1, "", "'4x' is not AxB (say 4x4)" },
        { "4x-2", SHAPE_SYNTAX, 1, "-2", "'4x-2' is not AxB (say 4x4)" },
        { "4x+2", SHAPE_SYNTAX, 1, "+2", "'4x+2' is not AxB (say 4x4)" },
        { "4x 2", SHAPE_SYNTAX, 1, " 2", "'4x 2' is not AxB (say 4x4)" },
        { "4x2 ", SHAPE_SYNTAX, 1, "2 ", "'4x2 ' is not AxB (say 4x4)" },
        { "4by4", SHAPE_COUNT, -1, NULL, "'4by4' is not AxB (say 4x4)" },
        { "0x4", SHAPE_RANGE, 0, "0",
          "'0x4': extent 0 is out of range (valid: 1..1000)" },
        { "4x1001", SHAPE_RANGE, 1, "1001",
          "'4x1001': extent 1001 is out of range (valid: 1..1000)" },
        /* syntax anywhere before range; the first range fault in text
         * order */
        { "0xq", SHAPE_SYNTAX, 1, "q", "'0xq' is not AxB (say 4x4)" },
        { "4x0x2000", SHAPE_RANGE, 1, "0",
          "'4x0x2000': extent 0 is out of range (valid: 1..1000)" },
        { "18446744073709551616x1", SHAPE_RANGE, 0, "18446744073709551616",
          "'18446744073709551616x1': extent 18446744073709551616 is out of "
          "range (valid: 1..1000)" },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint64_t v[4];
        int n = -1;
        ShapeFailure f;
        char *why = NULL;
        const char *text = cases[i].text;
        ck_tally_true(&t, !shape_parse(text, &two_to_four, v, &n, &f, &why),
                      "'%s' refused", text);
        ck_tally_int(&t, cases[i].fault, f.fault, "'%s': fault", text);
        ck_tally_int(&t, cases[i].index, f.index, "'%s': index", text);
        if (cases[i].extent) {
            g_autofree char *at = g_strndup(f.at, (gsize)f.len);
            ck_tally_str(&t, cases[i].extent, at, "'%s': extent", text);
        }
        ck_tally_str(&t, cases[i].why, why, "'%s': message", text);
        g_free(why);
    }
    ck_tally_assert(&t, "refused shapes");
}
END_TEST

/* On a range fault every extent is read, one beyond 64 bits as
 * G_MAXUINT64, so that a caller can say more (procgrid_parse prints them). */
START_TEST(range_keeps_the_extents)
{
    static const ShapeSpec any = { .min_extents = 2, .max_extents = 2,
                                   .min = 1, .max = 8 };
    uint64_t v[2];
    int n = 0;
    ShapeFailure f;
    ck_assert(!shape_parse("99999999999999999999x16", &any, v, &n, &f, NULL));
    ck_assert_int_eq(f.fault, SHAPE_RANGE);
    ck_assert_int_eq(n, 2);
    ck_assert_uint_eq(v[0], G_MAXUINT64);
    ck_assert_uint_eq(v[1], 16);
    ck_assert_uint_eq(f.extents, 2);
    char *why = NULL;
    ck_assert(!shape_parse(NULL, &any, v, &n, &f, &why));
    ck_assert_int_eq(f.fault, SHAPE_COUNT);
    ck_assert_str_eq(why, "'' is not a shape (extents joined by x, e.g. 8x4)");
    g_free(why);
}
END_TEST

static Suite *shape_suite(void)
{
    Suite *s = suite_create("shape");
    TCase *tc = ck_tcase(s, "shape", 0);
    tcase_add_test(tc, extents_in_text_order);
    tcase_add_test(tc, faults_refused);
    tcase_add_test(tc, range_keeps_the_extents);
    return s;
}

CUBE_CHECK_MAIN(shape_suite)
