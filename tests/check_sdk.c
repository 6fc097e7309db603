/* check_sdk.c -- the node-program SDK inside cubemu (sdk/): a built-in
 * runs through the same descriptor as a loaded program, and every
 * descriptor is checked field by field before it becomes an algorithm.
 * Loading shared objects, the refusals a user sees and the installed
 * header are tests/sdk.sh's.
 */
/* The broken descriptors below are a good one with one field overridden,
 * on purpose. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

#include "check_main.h"
#include "check_run.h"
#include "sdk.h"
#include "scenario.h"

static void *ok_prepare(const cubemu_machine *m, cubemu_params *p,
                        cubemu_layout *layout)
{
    (void)m;
    (void)p;
    layout->memory_elements = layout->elements_per_node = 1;
    return layout;
}

static void ok_init(const void *c, uint32_t x, cubemu_word *memory)
{
    (void)c;
    memory[0] = x;
}

static int ok_step(cubemu_node *node, const void *c)
{
    (void)node;
    (void)c;
    return CUBEMU_DONE;
}

static void ok_expect(const void *c, uint32_t x, cubemu_word *expected)
{
    (void)c;
    expected[0] = x;
}

static const cubemu_method ok_methods[] = { { "only", "" }, { NULL, NULL } };
static const char *const no_choices[] = { NULL };
static const char *const nine_phases[] = { "1", "2", "3", "4", "5", "6", "7",
                                           "8", "9", NULL };

#define OK_PROGRAM CUBEMU_PROGRAM_VERSION, .name = "ok", \
    .methods = ok_methods, .prepare = ok_prepare, .init = ok_init, \
    .step = ok_step, .expect = ok_expect

/* shift is written against <cubemu/program.h> and listed as a PROGRAM:
 * its Algorithm is the adapter's, over the descriptor's own tables. */
START_TEST(shift_runs_through_the_sdk)
{
    const Algorithm *a = algorithm_find("shift");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(a->program);
    ck_assert_str_eq(a->program->name, "shift");
    ck_assert_ptr_eq(a->methods, a->program->methods);
    ck_assert_ptr_eq(a->params, a->program->params);
    ck_assert_uint_eq(a->program->abi, CUBEMU_PROGRAM_ABI);
    ck_assert_ptr_null(a->program_path);
    /* The others are written against algorithm.h. */
    ck_assert_ptr_null(algorithm_find("exchange")->program);
}
END_TEST

/* A good descriptor becomes an algorithm with its fields. */
START_TEST(good_descriptor_becomes_an_algorithm)
{
    static const cubemu_program p = { OK_PROGRAM, .summary = "s",
                                      .needs = CUBEMU_NEEDS_RINGS };
    GError *e = NULL;
    const Algorithm *a = sdk_algorithm(&p, "x.so", &e);
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->name, "ok");
    ck_assert_str_eq(a->summary, "s");
    ck_assert_str_eq(a->source, "");
    ck_assert_uint_eq(a->needs, TOPOLOGY_RINGS);
    ck_assert_ptr_nonnull(a->params);
    ck_assert_ptr_null(a->params[0].key);          /* none declared */
    ck_assert_str_eq(a->program_path, "x.so");
    g_free((char *)a->program_path);        /* kept for the process, */
    g_free((Algorithm *)a);                 /* but this test's is done */
}
END_TEST

/* Each broken descriptor is refused, naming the file and the problem. */
START_TEST(broken_descriptors_are_refused)
{
    static const cubemu_param choice[] = {
        { .key = "c", .type = CUBEMU_PARAM_CHOICE, .fallback = "a",
          .choices = no_choices }, { .key = NULL } };
    static const cubemu_param twice[] = {
        { .key = "k", .type = CUBEMU_PARAM_INT, .fallback = "1", .max = 9 },
        { .key = "k", .type = CUBEMU_PARAM_INT, .fallback = "1", .max = 9 },
        { .key = NULL } };
    static const cubemu_param reserved[] = {
        { .key = "program", .type = CUBEMU_PARAM_TEXT, .fallback = "" },
        { .key = NULL } };
    static const cubemu_param range[] = {
        { .key = "k", .type = CUBEMU_PARAM_INT, .fallback = "1", .min = 5,
          .max = 1 }, { .key = NULL } };
    static const cubemu_param type[] = {
        { .key = "k", .type = 7, .fallback = "1" }, { .key = NULL } };
    static const cubemu_method bad_method[] = { { "a b", "" },
                                                { NULL, NULL } };
    static const cubemu_method none[] = { { NULL, NULL } };
    static const struct {
        cubemu_program p;
        const char *says;
    } cases[] = {
        { { OK_PROGRAM, .step = NULL }, "x.so: program 'ok' has no step "
          "(prepare, init, step and expect are required)" },
        { { OK_PROGRAM, .expect = NULL }, "x.so: program 'ok' has no expect "
          "(prepare, init, step and expect are required)" },
        { { OK_PROGRAM, .name = "" }, "x.so: its name is missing or not made "
          "of letters, digits and -_." },
        { { OK_PROGRAM, .name = "two words" }, "x.so: its name is missing or "
          "not made of letters, digits and -_." },
        { { OK_PROGRAM, .methods = none }, "x.so: program 'ok' has no methods "
          "(give at least one, {NULL}-terminated)" },
        { { OK_PROGRAM, .methods = bad_method }, "x.so: program 'ok': method "
          "'a b' is not made of letters, digits and -_." },
        { { OK_PROGRAM, .needs = 1u << 9 }, "x.so: program 'ok': needs has "
          "bits that are no CUBEMU_NEEDS_*" },
        { { OK_PROGRAM, .phases = nine_phases }, "x.so: program 'ok' has 9 "
          "phases; at most 8" },
        { { OK_PROGRAM, .params = choice }, "x.so: program 'ok': parameter "
          "'c' is a choice without choices" },
        { { OK_PROGRAM, .params = twice }, "x.so: program 'ok': parameter "
          "'k' is declared twice" },
        { { OK_PROGRAM, .params = reserved }, "x.so: program 'ok': parameter "
          "'program' is not a usable key (name, method and program are "
          "cubemu's)" },
        { { OK_PROGRAM, .params = range }, "x.so: program 'ok': parameter "
          "'k' has min above max" },
        { { OK_PROGRAM, .params = type }, "x.so: program 'ok': parameter "
          "'k' has a type that is no CUBEMU_PARAM_*" },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        GError *e = NULL;
        const Algorithm *a = sdk_algorithm(&cases[i].p, "x.so", &e);
        ck_tally_ptr(&t, NULL, a, "case %zu: refused", i);
        ck_tally_true(&t, e && e->code == SCENARIO_ERROR_INPUT,
                      "case %zu: input error", i);
        ck_tally_str(&t, cases[i].says, e ? e->message : "",
                     "case %zu: message", i);
        g_clear_error(&e);
    }
    ck_tally_assert(&t, "broken descriptors");
}
END_TEST

/* The shift scenario refuses a ring key that is not the topology's
 * through cubemu_fail, at the key's location, as it did before it was
 * written against the SDK. */
START_TEST(program_refusals_name_the_key)
{
    const char *const rows[][3] = {
        { "machine", "preset", "cube" }, { "machine", "dimensions", "3" },
        { "algorithm", "name", "shift" }, { "algorithm", "axis", "1" },
        { NULL, NULL, NULL } };
    Scenario *s = ck_scenario(rows);
    ck_refused(s, "test: axis: does not pick the rings of a cube "
                  "(dimensions)");
    scenario_free(s);
}
END_TEST

static Suite *sdk_suite(void)
{
    Suite *s = suite_create("sdk");
    TCase *t = ck_tcase(s, "descriptor", 0);
    tcase_add_test(t, shift_runs_through_the_sdk);
    tcase_add_test(t, good_descriptor_becomes_an_algorithm);
    tcase_add_test(t, broken_descriptors_are_refused);
    tcase_add_test(t, program_refusals_name_the_key);
    return s;
}

CUBE_CHECK_MAIN(sdk_suite)
