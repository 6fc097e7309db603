/* check_scenario.c -- unit tests for run/scenario.c.
 *
 * Data files live in tests/data/scenario/ relative to the working directory,
 * or in $CUBEMU_TEST_DATA/scenario/ when that variable is set.
 */
#include <check.h>
#include "check_main.h"
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "scenario.h"

/* Path of a data file; g_free it. */
static char *data_path(const char *file) {
    const char *dir = g_getenv("CUBEMU_TEST_DATA");
    if (dir == NULL || *dir == '\0') dir = "tests/data";
    return g_build_filename(dir, "scenario", file, NULL);
}

static Scenario *load_ok(const char *file) {
    g_autofree char *path = data_path(file);
    GError *err = NULL;
    Scenario *s = scenario_load_file(path, &err);
    ck_assert_msg(s != NULL, "%s: %s", path, err ? err->message : "?");
    ck_assert_ptr_null(err);
    return s;
}

/* What a load that must fail left: no scenario, an input error; its
 * message (g_free it). */
static char *refusal(Scenario *s, GError *err) {
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(err);
    ck_assert(g_error_matches(err, SCENARIO_ERROR,
                              SCENARIO_ERROR_INPUT));
    char *msg = g_strdup(err->message);
    g_error_free(err);
    return msg;
}

/* Load a file that must fail; return the message (g_free it). */
static char *load_fail(const char *path) {
    GError *err = NULL;
    Scenario *s = scenario_load_file(path, &err);
    return refusal(s, err);
}

static char *data_fail(const char *text) {
    GError *err = NULL;
    Scenario *s = scenario_load_data("t.ini", text, &err);
    return refusal(s, err);
}

/* The data file FILE fails to load with its path, then exactly TAIL. */
static void assert_file_refused(const char *file, const char *tail) {
    g_autofree char *path = data_path(file);
    g_autofree char *msg = load_fail(path);
    g_autofree char *want = g_strconcat(path, tail, NULL);
    ck_assert_str_eq(msg, want);
}

/* A key as a scenario should hold it: its value (NULL: the key is
 * absent) and, unless NULL, where it was given. */
typedef struct {
    const char *group, *key, *value, *where;
} KeyWant;

static void assert_keys(const Scenario *s, const KeyWant *want, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const KeyWant *w = &want[i];
        const char *got = scenario_get(s, w->group, w->key);
        ck_assert_msg(g_strcmp0(got, w->value) == 0,
                      "[%s] %s: \"%s\", expected \"%s\"", w->group, w->key,
                      got ? got : "(absent)", w->value ? w->value : "(absent)");
        if (w->where)
            ck_assert_msg(g_strcmp0(scenario_where(s, w->group, w->key),
                                    w->where) == 0,
                          "[%s] %s: given at \"%s\", expected \"%s\"",
                          w->group, w->key,
                          scenario_where(s, w->group, w->key), w->where);
    }
}

static void assert_strv(char **got, const char *const *want) {
    guint n = g_strv_length(got);
    guint m = g_strv_length((char **)want);
    ck_assert_uint_eq(n, m);    /* bounds the reads of both below */
    CkTally same = CK_TALLY_INIT;
    for (guint i = 0; i < n; i++)
        ck_tally_str(&same, want[i], got[i], "element %u", i);
    ck_tally_assert(&same, "string vector of %u", n);
}

/* ------------------------------------------------------------ valid file */

START_TEST(test_valid_values) {
    g_autoptr(Scenario) s = load_ok("valid.ini");
    static const KeyWant want[] = {
        { "machine", "preset", "cm200-16k", NULL },
        { "machine", "dimensions", "9", NULL },
        { "algorithm", "name", "a#b", NULL },
        { "algorithm", "method", "concurrent", NULL },
        { "algorithm", "elements-per-node", "64", NULL },
        { "expect", "cycles", "<= 64", NULL },
        { "machine", "wiring.kind", "gray code = yes", NULL },
        { "machine", "absent", NULL, NULL },
        { "absent", "preset", NULL, NULL },
    };
    assert_keys(s, want, G_N_ELEMENTS(want));
    ck_assert(scenario_has_group(s, "expect"));
    ck_assert(!scenario_has_group(s, "nothing"));
}
END_TEST

START_TEST(test_valid_locations) {
    g_autoptr(Scenario) s = load_ok("valid.ini");
    g_autofree char *path = data_path("valid.ini");
    ck_assert_str_eq(scenario_name(s), path);
    struct { const char *g, *k; int line; } want[] = {
        { "machine", "preset", 4 }, { "machine", "dimensions", 5 },
        { "algorithm", "name", 8 }, { "algorithm", "method", 9 },
        { "algorithm", "elements-per-node", 10 }, { "expect", "cycles", 12 },
        { "expect", "data", 13 }, { "expect", "bounds", 14 },
        { "machine", "wiring.kind", 16 },
    };
    CkTally where = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
        g_autofree char *w = g_strdup_printf("%s:%d", path, want[i].line);
        ck_tally_str(&where, w, scenario_where(s, want[i].g, want[i].k),
                     "[%s] %s", want[i].g, want[i].k);
    }
    ck_tally_assert(&where, "key locations");
    g_autofree char *gm = g_strdup_printf("%s:3", path);
    g_autofree char *ga = g_strdup_printf("%s:7", path);
    ck_assert_str_eq(scenario_group_where(s, "machine"), gm);
    ck_assert_str_eq(scenario_group_where(s, "algorithm"), ga);
}
END_TEST

START_TEST(test_valid_order) {
    g_autoptr(Scenario) s = load_ok("valid.ini");
    g_auto(GStrv) groups = scenario_groups(s);
    const char *wg[] = { "machine", "algorithm", "expect", NULL };
    assert_strv(groups, wg);
    g_auto(GStrv) mk = scenario_keys(s, "machine");
    const char *wm[] = { "preset", "dimensions", "wiring.kind", NULL };
    assert_strv(mk, wm);
    g_auto(GStrv) ak = scenario_keys(s, "algorithm");
    const char *wa[] = { "name", "method", "elements-per-node", NULL };
    assert_strv(ak, wa);
    g_auto(GStrv) none = scenario_keys(s, "nothing");
    ck_assert_ptr_nonnull(none);
    ck_assert_ptr_null(none[0]);
}
END_TEST

START_TEST(test_load_data_default) {
    GError *err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(
        "default", "[machine]\r\ndimensions=7\r\n[run]\nx = 1 ;c\n", &err);
    ck_assert_ptr_null(err);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(scenario_name(s), "default");
    static const KeyWant want[] = {
        { "machine", "dimensions", "7", "default:2" },
        { "run", "x", "1", "default:4" },
    };
    assert_keys(s, want, G_N_ELEMENTS(want));
    ck_assert_str_eq(scenario_where(s, "run", "y"), "scenario default");
    ck_assert_str_eq(scenario_group_where(s, "nope"), "scenario default");

    g_autoptr(Scenario) e = scenario_load_data("empty", "", &err);
    ck_assert_ptr_null(err);
    ck_assert_ptr_nonnull(e);
    g_auto(GStrv) groups = scenario_groups(e);
    ck_assert_ptr_null(groups[0]);
}
END_TEST

/* scenario_path: a relative value from the scenario file's folder, as
 * given where that folder is the current one; an absolute one as it is;
 * one given by --set from the current folder. */
START_TEST(test_path_from_the_file_folder) {
    g_autofree char *dir = g_dir_make_tmp("cubemu-path.XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
    g_autofree char *sub = g_build_filename(dir, "sub", NULL);
    ck_assert_int_eq(g_mkdir(sub, 0700), 0);
    static const char text[] = "[algorithm]\nprogram = ./a.so\nother = b.so\n"
                               "abs = /x/c.so\n";
    g_autofree char *in_sub = g_build_filename(sub, "t.ini", NULL);
    g_autofree char *in_dir = g_build_filename(dir, "t.ini", NULL);
    ck_assert(g_file_set_contents(in_sub, text, -1, NULL));
    ck_assert(g_file_set_contents(in_dir, text, -1, NULL));
    ck_assert_int_eq(chdir(dir), 0);   /* the test's own process */
    static const struct {
        const char *file, *key, *want;
    } cases[] = {
        { "t.ini", "program", "./a.so" },
        { "t.ini", "other", "./b.so" },
        { "t.ini", "abs", "/x/c.so" },
        { "sub/t.ini", "program", "sub/./a.so" },
        { "sub/t.ini", "other", "sub/b.so" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        GError *err = NULL;
        g_autoptr(Scenario) s = scenario_load_file(cases[i].file, &err);
        ck_assert_msg(s != NULL, "%s: %s", cases[i].file, err ? err->message : "");
        g_autofree char *got = scenario_path(s, "algorithm", cases[i].key);
        ck_assert_msg(!strcmp(got, cases[i].want), "%s %s: %s, not %s",
                      cases[i].file, cases[i].key, got, cases[i].want);
    }
    g_autoptr(Scenario) set = scenario_load_data("t.ini", "[algorithm]\n", NULL);
    ck_assert_ptr_nonnull(set);
    ck_assert_ptr_null(scenario_path(set, "algorithm", "program"));
    g_unlink(in_sub);
    g_unlink(in_dir);
    g_rmdir(sub);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_where_missing_is_stable) {
    g_autoptr(Scenario) s = scenario_new("my.ini");
    ck_assert_str_eq(scenario_name(s), "my.ini");
    const char *a = scenario_where(s, "machine", "dimensions");
    ck_assert_str_eq(a, "scenario my.ini");
    scenario_put(s, "machine", "preset", "x", "here:1");
    const char *b = scenario_where(s, "machine", "dimensions");
    ck_assert_ptr_eq(a, b);
    ck_assert_str_eq(a, "scenario my.ini");
    ck_assert_str_eq(scenario_where(s, "machine", "preset"), "here:1");
    ck_assert_str_eq(scenario_group_where(s, "machine"), "here:1");
}
END_TEST

/* ----------------------------------------------------------- broken files */

START_TEST(test_broken_all_problems) {
    g_autofree char *path = data_path("broken.ini");
    g_autofree char *msg = load_fail(path);
    g_autofree char *want = g_strdup_printf(
        "%1$s:1: key before any [group] header: 'orphan = 1'\n"
        "%1$s:4: expected '[group]', 'key = value' or a comment: "
        "'this is garbage'\n"
        "%1$s:5: unterminated group header: '[bad group'\n"
        "%1$s:6: text after group header: '[algorithm] extra'\n"
        "%1$s:9: key 'method' in [algorithm] given twice (first at line 8)\n"
        "%1$s:10: empty value: 'name ='\n"
        "%1$s:11: empty group name: '[]'\n"
        "%1$s:12: bad group name (use letters, digits, '-', '_', '.'): "
        "'[sp ace]'\n"
        "%1$s:13: empty key: '= 3'\n"
        "%1$s:14: bad key name (use letters, digits, '-', '_', '.'): "
        "'bad key = 4'",
        path);
    ck_assert_str_eq(msg, want);
}
END_TEST

START_TEST(test_duplicate_across_repeated_group) {
    assert_file_refused(
        "dup.ini",
        ":7: key 'method' in [algorithm] given twice (first at line 3)");
}
END_TEST

START_TEST(test_repeated_group_continues) {
    GError *err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(
        "r.ini", "[a]\nx = 1\n[b]\ny = 2\n[a]\nz = 3\n", &err);
    ck_assert_ptr_null(err);
    g_auto(GStrv) groups = scenario_groups(s);
    const char *wg[] = { "a", "b", NULL };
    assert_strv(groups, wg);
    g_auto(GStrv) keys = scenario_keys(s, "a");
    const char *wk[] = { "x", "z", NULL };
    assert_strv(keys, wk);
    ck_assert_str_eq(scenario_where(s, "a", "z"), "r.ini:6");
    ck_assert_str_eq(scenario_group_where(s, "a"), "r.ini:1");
}
END_TEST

START_TEST(test_missing_file) {
    g_autofree char *tail = g_strdup_printf(": cannot read: %s",
                                            g_strerror(ENOENT));
    assert_file_refused("no-such-file.ini", tail);
}
END_TEST

START_TEST(test_directory) {
    g_autofree char *tail = g_strdup_printf(": cannot read: %s",
                                            g_strerror(EISDIR));
    assert_file_refused("", tail);
}
END_TEST

START_TEST(test_not_utf8) {
    assert_file_refused("not-utf8.ini", ":3: not UTF-8 text");
}
END_TEST

START_TEST(test_nul_byte) {
    assert_file_refused("nul.ini", ":4: not UTF-8 text");
}
END_TEST

START_TEST(test_long_line) {
    GString *text = g_string_new("[a]\nk = ");
    for (int i = 0; i < 4096; i++) g_string_append_c(text, 'v');
    g_string_append(text, "\nok = 1\n");
    g_autofree char *msg = data_fail(text->str);
    /* the echo is the first 60 bytes: "k = " and 56 of the v's */
    g_autofree char *vs = g_strnfill(56, 'v');
    g_autofree char *want = g_strdup_printf(
        "t.ini:2: line longer than 4096 characters: 'k = %s...'", vs);
    ck_assert_str_eq(msg, want);
    g_string_free(text, TRUE);

    /* exactly 4096 bytes is fine */
    text = g_string_new("[a]\nk = ");
    while (text->len < 4 + 4096) g_string_append_c(text, 'v');
    GError *err = NULL;
    Scenario *s = scenario_load_data("t.ini", text->str, &err);
    ck_assert_ptr_null(err);
    ck_assert_uint_eq(strlen(scenario_get(s, "a", "k")), 4096 - 4);
    scenario_free(s);
    g_string_free(text, TRUE);
}
END_TEST

START_TEST(test_inline_comment_rules) {
    GError *err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(
        "c.ini",
        "[g] # header comment\n"
        "a = x#y\n"
        "b = x;y\n"
        "c = x # y\n"
        "d = x\t;y\n"
        "   ; indented comment\n"
        "   # indented comment\n"
        "e=  spaced  out  \n",
        &err);
    ck_assert_ptr_null(err);
    static const KeyWant want[] = {
        { "g", "a", "x#y", NULL }, { "g", "b", "x;y", NULL },
        { "g", "c", "x", NULL }, { "g", "d", "x", NULL },
        { "g", "e", "spaced  out", "c.ini:8" },
    };
    assert_keys(s, want, G_N_ELEMENTS(want));
}
END_TEST

START_TEST(test_bom_skipped) {
    GError *err = NULL;
    g_autoptr(Scenario) s =
        scenario_load_data("b.ini", "\xEF\xBB\xBF[a]\nk = v\n", &err);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(scenario_get(s, "a", "k"), "v");
    ck_assert_str_eq(scenario_group_where(s, "a"), "b.ini:1");
}
END_TEST

START_TEST(test_comment_only_value_is_empty) {
    g_autofree char *msg = data_fail("[g]\nk = # nothing\n");
    ck_assert_str_eq(msg, "t.ini:2: empty value: 'k = # nothing'");
}
END_TEST

/* ------------------------------------------------------------------ --set */

START_TEST(test_set_replace) {
    g_autoptr(Scenario) s = load_ok("valid.ini");
    GError *err = NULL;
    ck_assert(scenario_apply_set(s, "algorithm.method=pipelined", &err));
    ck_assert_ptr_null(err);
    ck_assert_str_eq(scenario_get(s, "algorithm", "method"), "pipelined");
    ck_assert_str_eq(scenario_where(s, "algorithm", "method"),
                     "--set algorithm.method=pipelined");
    g_auto(GStrv) ak = scenario_keys(s, "algorithm");
    const char *wa[] = { "name", "method", "elements-per-node", NULL };
    assert_strv(ak, wa);
}
END_TEST

START_TEST(test_set_add) {
    g_autoptr(Scenario) s = load_ok("valid.ini");
    GError *err = NULL;
    ck_assert(scenario_apply_set(s, "algorithm.extra = a=b.c ", &err));
    ck_assert(scenario_apply_set(s, "run.seed=42", &err));
    ck_assert(scenario_apply_set(s, "expect.details.D=<= 3", &err));
    ck_assert_ptr_null(err);
    static const KeyWant want[] = {
        { "algorithm", "extra", "a=b.c", "--set algorithm.extra = a=b.c " },
        { "run", "seed", "42", "--set run.seed=42" },
        { "expect", "details.D", "<= 3", NULL },
    };
    assert_keys(s, want, G_N_ELEMENTS(want));
    ck_assert_str_eq(scenario_group_where(s, "run"), "--set run.seed=42");
    g_auto(GStrv) groups = scenario_groups(s);
    const char *wg[] = { "machine", "algorithm", "expect", "run", NULL };
    assert_strv(groups, wg);
    g_auto(GStrv) ak = scenario_keys(s, "algorithm");
    const char *wa[] = { "name", "method", "elements-per-node", "extra", NULL };
    assert_strv(ak, wa);
}
END_TEST

START_TEST(test_set_malformed) {
    static const char *const bad[] = {
        "machine",              /* no '.' nor '=' */
        "machine.dimensions",   /* no '=' */
        "dimensions=7",         /* no '.' */
        ".dimensions=7",        /* empty section */
        "machine.=7",           /* empty key */
        "machine.dimensions=",  /* empty value */
        "machine.dimensions=  ",/* blank value */
        "mach ine.dimensions=7",/* bad section */
        "machine.dim/ensions=7",/* bad key */
        "a=b.c",                /* '=' before the first '.' */
        "",
    };
    g_autoptr(Scenario) s = scenario_new("default");
    CkTally refused = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *err = NULL;
        ck_tally_true(&refused, !scenario_apply_set(s, bad[i], &err),
                      "'%s' refused", bad[i]);
        ck_tally_true(&refused, g_error_matches(err, SCENARIO_ERROR,
                                                SCENARIO_ERROR_INPUT),
                      "'%s': an input error", bad[i]);
        g_autofree char *want = g_strdup_printf(
            "--set '%s': expected SECTION.KEY=VALUE, "
            "e.g. --set machine.dimensions=7", bad[i]);
        /* No error is tallied (ck_tally_str fails on NULL), not read. */
        ck_tally_str(&refused, want, err ? err->message : NULL, "'%s': message",
                     bad[i]);
        g_clear_error(&err);
    }
    ck_tally_assert(&refused, "malformed --set");
    g_auto(GStrv) groups = scenario_groups(s);
    ck_assert_ptr_null(groups[0]);
}
END_TEST

/* ----------------------------------------------------------- expectations */

START_TEST(test_expectations_all_ops) {
    GError *err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(
        "x.ini",
        "[machine]\nd = 1\n"
        "[expect]\n"
        "a = == 1\n"
        "b = <=2.5\n"
        "c = >= -3\n"
        "d = < 4e2\n"
        "e = >5\n"
        "f = 6\n"
        "data = correct\n"
        "bounds = hold\n"
        "details.D = <= 16\n",
        &err);
    ck_assert_ptr_null(err);
    g_autoptr(GPtrArray) xs = scenario_expectations(s, &err);
    ck_assert_ptr_null(err);
    ck_assert_ptr_nonnull(xs);
    ck_assert_uint_eq(xs->len, 9);
    struct {
        const char *field, *text;
        ExpectKind kind;
        ExpectOp op;
        double value;
        int line;
    } want[] = {
        { "a", "== 1", EXPECT_NUMERIC, EXPECT_EQ, 1, 4 },
        { "b", "<=2.5", EXPECT_NUMERIC, EXPECT_LE, 2.5, 5 },
        { "c", ">= -3", EXPECT_NUMERIC, EXPECT_GE, -3, 6 },
        { "d", "< 4e2", EXPECT_NUMERIC, EXPECT_LT, 400, 7 },
        { "e", ">5", EXPECT_NUMERIC, EXPECT_GT, 5, 8 },
        { "f", "6", EXPECT_NUMERIC, EXPECT_EQ, 6, 9 },
        { "data", "correct", EXPECT_DATA_CORRECT, EXPECT_EQ, 0, 10 },
        { "bounds", "hold", EXPECT_BOUNDS_HOLD, EXPECT_EQ, 0, 11 },
        { "details.D", "<= 16", EXPECT_NUMERIC, EXPECT_LE, 16, 12 },
    };
    CkTally parsed = CK_TALLY_INIT;
    for (guint i = 0; i < xs->len; i++) {
        Expectation *x = g_ptr_array_index(xs, i);
        g_autofree char *where = g_strdup_printf("x.ini:%d", want[i].line);
        ck_tally_str(&parsed, want[i].field, x->field, "expectation %u: field", i);
        ck_tally_str(&parsed, want[i].text, x->text, "expectation %u (%s): text", i,
                     want[i].field);
        ck_tally_str(&parsed, where, x->where, "expectation %u (%s): where", i,
                     want[i].field);
        ck_tally_int(&parsed, want[i].kind, x->kind, "expectation %u (%s): kind", i,
                     want[i].field);
        ck_tally_int(&parsed, want[i].op, x->op, "expectation %u (%s): op", i,
                     want[i].field);
        if (x->kind == EXPECT_NUMERIC)
            ck_tally_double(&parsed, want[i].value, x->value,
                            "expectation %u (%s): value", i, want[i].field);
    }
    ck_tally_assert(&parsed, "expectations");
}
END_TEST

START_TEST(test_expectations_none) {
    GError *err = NULL;
    g_autoptr(Scenario) s = scenario_new("default");
    g_autoptr(GPtrArray) xs = scenario_expectations(s, &err);
    ck_assert_ptr_null(err);
    ck_assert_ptr_nonnull(xs);
    ck_assert_uint_eq(xs->len, 0);
}
END_TEST

START_TEST(test_expectations_errors) {
    g_autoptr(Scenario) s = load_ok("expect-bad.ini");
    GError *err = NULL;
    ck_assert(scenario_apply_set(s, "expect.limit=< inf", &err));
    ck_assert(scenario_apply_set(s, "expect.ok=> 1", &err));
    ck_assert(scenario_apply_set(s, "expect.junk=3 apples", &err));
    ck_assert(scenario_apply_set(s, "expect.bare=<", &err));
    GPtrArray *xs = scenario_expectations(s, &err);
    ck_assert_ptr_null(xs);
    ck_assert(g_error_matches(err, SCENARIO_ERROR,
                              SCENARIO_ERROR_INPUT));
    g_autofree char *path = data_path("expect-bad.ini");
#define CMP "(valid: NUMBER, or OP NUMBER with OP one of ==, <=, >=, <, >)"
    g_autofree char *want = g_strdup_printf(
        "%1$s:2: expect cycles: '<= abc' is not a comparison " CMP "\n"
        "%1$s:3: expect messages: '=< 3' is not a comparison " CMP "\n"
        "%1$s:4: expect data: unknown value 'wrong' (valid: correct)\n"
        "%1$s:5: expect bounds: unknown value 'broken' (valid: hold)\n"
        "--set expect.limit=< inf: expect limit: '< inf' is not a "
        "comparison " CMP "\n"
        "--set expect.junk=3 apples: expect junk: '3 apples' is not a "
        "comparison " CMP "\n"
        "--set expect.bare=<: expect bare: '<' is not a comparison " CMP,
        path);
#undef CMP
    ck_assert_str_eq(err->message, want);
    g_error_free(err);
}
END_TEST

START_TEST(test_expect_ops) {
    ck_assert_str_eq(expect_op_text(EXPECT_EQ), "==");
    ck_assert_str_eq(expect_op_text(EXPECT_LE), "<=");
    ck_assert_str_eq(expect_op_text(EXPECT_GE), ">=");
    ck_assert_str_eq(expect_op_text(EXPECT_LT), "<");
    ck_assert_str_eq(expect_op_text(EXPECT_GT), ">");
    ck_assert(expect_op_holds(EXPECT_EQ, 3, 3));
    ck_assert(!expect_op_holds(EXPECT_EQ, 3, 4));
    ck_assert(expect_op_holds(EXPECT_LE, 3, 3));
    ck_assert(expect_op_holds(EXPECT_LE, 2, 3));
    ck_assert(!expect_op_holds(EXPECT_LE, 4, 3));
    ck_assert(expect_op_holds(EXPECT_GE, 3, 3));
    ck_assert(!expect_op_holds(EXPECT_GE, 2, 3));
    ck_assert(!expect_op_holds(EXPECT_LT, 3, 3));
    ck_assert(expect_op_holds(EXPECT_LT, 2, 3));
    ck_assert(!expect_op_holds(EXPECT_GT, 3, 3));
    ck_assert(expect_op_holds(EXPECT_GT, 4, 3));
}
END_TEST

/* ------------------------------------------------------------ typed values */

static void int_ok(const char *text, long long min, long long max,
                   long long want) {
    long long v = -12345;
    GError *err = NULL;
    ck_assert_msg(scenario_parse_int(text, "f:1", "k", min, max, &v, &err),
                  "%s", text);
    ck_assert_ptr_null(err);
    ck_assert_int_eq(v, want);
}

static void int_bad(const char *text, long long min, long long max,
                    const char *want) {
    long long v = -12345;
    GError *err = NULL;
    ck_assert_msg(!scenario_parse_int(text, "f:1", "dimensions", min, max,
                                      &v, &err), "%s", text);
    ck_assert_int_eq(v, -12345);
    ck_assert(g_error_matches(err, SCENARIO_ERROR,
                              SCENARIO_ERROR_INPUT));
    ck_assert_str_eq(err->message, want);
    g_error_free(err);
}

START_TEST(test_parse_int) {
    int_ok("7", 0, 10, 7);
    int_ok("0", 0, 10, 0);
    int_ok("10", 0, 10, 10);
    int_ok("+5", 0, 10, 5);
    int_ok("-5", -10, 10, -5);
    int_ok("0x1F", 0, 100, 31);
    int_ok("0XfF", 0, 1000, 255);
    int_ok("-0x10", -100, 0, -16);
    int_ok("010", 0, 100, 10);                  /* decimal, not octal */
    int_ok("9223372036854775807", 0, G_MAXINT64, G_MAXINT64);
    int_ok("-9223372036854775808", G_MININT64, 0, G_MININT64);

    int_bad("11", 0, 10, "f:1: dimensions: 11 is out of range (valid: 0..10)");
    int_bad("-1", 0, 10, "f:1: dimensions: -1 is out of range (valid: 0..10)");
    int_bad("0x100", 0, 255,
            "f:1: dimensions: 0x100 is out of range (valid: 0..255)");
    int_bad("99999999999999999999", 0, 10,
            "f:1: dimensions: 99999999999999999999 is out of range "
            "(valid: 0..10)");
    int_bad("-99999999999999999999", -10, 10,
            "f:1: dimensions: -99999999999999999999 is out of range "
            "(valid: -10..10)");
    int_bad("", 0, 10, "f:1: dimensions: '' is not an integer");
    int_bad("7x", 0, 10, "f:1: dimensions: '7x' is not an integer");
    int_bad("7 ", 0, 10, "f:1: dimensions: '7 ' is not an integer");
    int_bad(" 7", 0, 10, "f:1: dimensions: ' 7' is not an integer");
    int_bad("+", 0, 10, "f:1: dimensions: '+' is not an integer");
    int_bad("0x", 0, 10, "f:1: dimensions: '0x' is not an integer");
    int_bad("0xg", 0, 10, "f:1: dimensions: '0xg' is not an integer");
    int_bad("--1", -10, 10, "f:1: dimensions: '--1' is not an integer");
    int_bad("+-1", -10, 10, "f:1: dimensions: '+-1' is not an integer");
    int_bad("1.5", 0, 10, "f:1: dimensions: '1.5' is not an integer");
}
END_TEST

START_TEST(test_parse_choice) {
    static const char *const methods[] = { "concurrent", "pipelined",
                                           "naive", NULL };
    int idx = -1;
    GError *err = NULL;
    ck_assert(scenario_parse_choice("concurrent", "f:2", "method", methods,
                                    &idx, &err));
    ck_assert_int_eq(idx, 0);
    ck_assert(scenario_parse_choice("naive", "f:2", "method", methods,
                                    &idx, &err));
    ck_assert_int_eq(idx, 2);
    ck_assert_ptr_null(err);

    idx = -1;
    ck_assert(!scenario_parse_choice("Naive", "f:2", "method", methods,
                                     &idx, &err));
    ck_assert_int_eq(idx, -1);
    ck_assert(g_error_matches(err, SCENARIO_ERROR,
                              SCENARIO_ERROR_INPUT));
    ck_assert_str_eq(err->message,
                     "f:2: method: unknown value 'Naive'; did you mean "
                     "'naive'? (valid: concurrent, pipelined, naive)");
    g_clear_error(&err);
    ck_assert(!scenario_parse_choice("concurrent ", "--set a.method=x",
                                     "method", methods, &idx, &err));
    ck_assert_str_eq(err->message,
                     "--set a.method=x: method: unknown value 'concurrent '; "
                     "did you mean 'concurrent'? (valid: concurrent, "
                     "pipelined, naive)");
    g_clear_error(&err);
    /* Nothing close: no suggestion. */
    ck_assert(!scenario_parse_choice("broadcast", "f:3", "method", methods,
                                     &idx, &err));
    ck_assert_str_eq(err->message, "f:3: method: unknown value 'broadcast' "
                     "(valid: concurrent, pipelined, naive)");
    g_clear_error(&err);
}
END_TEST

/* ---------------------------------------------------------------- removal */

START_TEST(test_remove) {
    g_autoptr(Scenario) s = load_ok("valid.ini");
    scenario_remove_key(s, "algorithm", "method");
    scenario_remove_key(s, "algorithm", "absent");     /* silent */
    scenario_remove_key(s, "absent", "method");        /* silent */
    ck_assert_ptr_null(scenario_get(s, "algorithm", "method"));
    ck_assert_str_eq(scenario_where(s, "algorithm", "method"),
                     scenario_where(s, "x", "y"));
    g_auto(GStrv) ak = scenario_keys(s, "algorithm");
    const char *wa[] = { "name", "elements-per-node", NULL };
    assert_strv(ak, wa);

    scenario_remove_group(s, "machine");
    scenario_remove_group(s, "absent");                /* silent */
    ck_assert(!scenario_has_group(s, "machine"));
    ck_assert_ptr_null(scenario_get(s, "machine", "preset"));
    g_auto(GStrv) groups = scenario_groups(s);
    const char *wg[] = { "algorithm", "expect", NULL };
    assert_strv(groups, wg);

    /* a removed group comes back at the end */
    GError *err = NULL;
    ck_assert(scenario_apply_set(s, "machine.dimensions=5", &err));
    g_auto(GStrv) again = scenario_groups(s);
    const char *wa2[] = { "algorithm", "expect", "machine", NULL };
    assert_strv(again, wa2);
    g_auto(GStrv) mk = scenario_keys(s, "machine");
    const char *wm[] = { "dimensions", NULL };
    assert_strv(mk, wm);
}
END_TEST

START_TEST(test_put_replace_keeps_position) {
    g_autoptr(Scenario) s = scenario_new("default");
    scenario_put(s, "g", "a", "1", "w1");
    scenario_put(s, "g", "b", "2", "w2");
    scenario_put(s, "g", "a", "3", "w3");
    g_auto(GStrv) keys = scenario_keys(s, "g");
    const char *wk[] = { "a", "b", NULL };
    assert_strv(keys, wk);
    ck_assert_str_eq(scenario_get(s, "g", "a"), "3");
    ck_assert_str_eq(scenario_where(s, "g", "a"), "w3");
    ck_assert_str_eq(scenario_group_where(s, "g"), "w1");
}
END_TEST

static Suite *scenario_suite(void)
{
    const CkTest valid[] = {
        { test_valid_values, 0 },
        { test_valid_locations, 0 },
        { test_valid_order, 0 },
        { test_load_data_default, 0 },
        { test_where_missing_is_stable, 0 },
        { test_path_from_the_file_folder, 0 },
        { test_repeated_group_continues, 0 },
        { test_inline_comment_rules, 0 },
        { test_bom_skipped, 0 },
        { NULL, 0 },
    };
    const CkTest broken[] = {
        { test_broken_all_problems, 0 },
        { test_duplicate_across_repeated_group, 0 },
        { test_missing_file, 0 },
        { test_directory, 0 },
        { test_not_utf8, 0 },
        { test_nul_byte, 0 },
        { test_long_line, 0 },
        { test_comment_only_value_is_empty, 0 },
        { NULL, 0 },
    };
    const CkTest set[] = {
        { test_set_replace, 0 },
        { test_set_add, 0 },
        { test_set_malformed, 0 },
        { NULL, 0 },
    };
    const CkTest expect[] = {
        { test_expectations_all_ops, 0 },
        { test_expectations_none, 0 },
        { test_expectations_errors, 0 },
        { test_expect_ops, 0 },
        { NULL, 0 },
    };
    const CkTest typed[] = {
        { test_parse_int, 0 },
        { test_parse_choice, 0 },
        { NULL, 0 },
    };
    const CkTest edit[] = {
        { test_remove, 0 },
        { test_put_replace_keeps_position, 0 },
        { NULL, 0 },
    };
    Suite *s = suite_create("scenario");
    ck_add_tcase(s, "valid", 0, valid);
    ck_add_tcase(s, "broken", 0, broken);
    ck_add_tcase(s, "set", 0, set);
    ck_add_tcase(s, "expect", 0, expect);
    ck_add_tcase(s, "typed", 0, typed);
    ck_add_tcase(s, "edit", 0, edit);
    return s;
}

CUBE_CHECK_MAIN(scenario_suite)
