/* check_report.c -- bounds as data, output fields and "did you mean".
 *
 * What the report promises a reader: every bound names the output field it
 * bounds and carries that field's measured value; a bound that does not
 * apply to the run (another method's) is listed as n/a and never fails
 * `bounds = hold`; the fields a run reports are known before the run, so a
 * misspelt [expect] field is refused before it, with the closest name; and
 * field names read '-' and '_' alike. Scenario paths are relative to the
 * repository's root, where make check runs the suites. The JSON writer
 * (util/json_writer.c) prints numbers and strings exactly as documented,
 * whichever of its ways it takes.
 */
#include <check.h>
#include "check_main.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "prepare.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "suggest.h"

/* ---- suggest.c -------------------------------------------------------- */

START_TEST(distance_counts_edits)
{
    ck_assert_uint_eq(suggest_distance("cycles", "cycles"), 0);
    ck_assert_uint_eq(suggest_distance("cyles", "cycles"), 1);      /* drop */
    ck_assert_uint_eq(suggest_distance("cyclees", "cycles"), 1);    /* add */
    ck_assert_uint_eq(suggest_distance("cycels", "cycles"), 1);     /* swap */
    ck_assert_uint_eq(suggest_distance("cyclas", "cycles"), 1);     /* change */
    ck_assert_uint_eq(suggest_distance("", "abc"), 3);
    ck_assert_uint_eq(suggest_distance("abc", ""), 3);
    /* Case, and '-' against '_', are not edits. */
    ck_assert_uint_eq(suggest_distance("Element-Transfers",
                                       "element_transfers"), 0);
    ck_assert_uint_eq(suggest_distance("kitten", "sitting"), 3);
}
END_TEST

START_TEST(closest_is_a_slip_not_another_name)
{
    static const char *const fields[] = { "cycles", "seconds", "messages",
                                          "element_transfers", NULL };
    ck_assert_str_eq(suggest_closest("cyles", fields), "cycles");
    ck_assert_str_eq(suggest_closest("second", fields), "seconds");
    ck_assert_str_eq(suggest_closest("element-transfers", fields),
                     "element_transfers");
    ck_assert_str_eq(suggest_closest("elemnt-transfer", fields),
                     "element_transfers");
    /* An exact name is never "corrected", and a far one gets nothing. */
    ck_assert_ptr_null(suggest_closest("cycles", fields));
    ck_assert_ptr_null(suggest_closest("latency", fields));
    /* Five characters allow one edit, not two. */
    ck_assert_ptr_null(suggest_closest("cyls", fields));
    /* Ties go to the earlier candidate. */
    static const char *const two[] = { "ab", "ac", NULL };
    ck_assert_str_eq(suggest_closest("aa", two), "ab");
    g_autofree char *t = suggest_text("mesages", fields);
    ck_assert_str_eq(t, "; did you mean 'messages'?");
    g_autofree char *none = suggest_text("zzz", fields);
    ck_assert_str_eq(none, "");
}
END_TEST

/* ---- bounds ------------------------------------------------------------ */

static Report *bare_report(void)
{
    Report *r = report_new();
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data("m.ini", "[machine]\n"
        "topology = cube\ndimensions = 3\n", &e);
    ck_assert_msg(s && prepare_machine(s, &r->machine, &e), "%s",
                  e ? e->message : "");
    r->scenario = g_strdup("m.ini");
    r->algorithm = g_strdup("none");
    r->method = g_strdup("none");
    int links = r->machine.topology.links;
    r->link_up = g_new0(uint64_t, (size_t)links);
    r->link_down = g_new0(uint64_t, (size_t)links);
    r->link_busy = g_new0(uint64_t, (size_t)links);
    r->cycles = 100;
    r->messages = 8;
    r->elements_per_node = 16;
    report_detail_int(r, "index-words", 0);
    return r;
}

START_TEST(bound_reads_its_field)
{
    g_autoptr(Report) r = bare_report();
    report_cycle_bound(r, "upper", BOUND_UPPER, 120, "s");
    report_bound(r, "messages", "exact", BOUND_EXACT, 9, "s");
    report_bound(r, "details.index-words", "zero", BOUND_EXACT, 0, "s");
    ck_assert_uint_eq(r->bounds->len, 3);
    const Bound *b = &g_array_index(r->bounds, Bound, 0);
    ck_assert_str_eq(b->field, "cycles");
    ck_assert(b->measured == 100 && b->applies && b->holds);
    b = &g_array_index(r->bounds, Bound, 1);
    ck_assert_str_eq(b->field, "messages");
    ck_assert(b->measured == 8 && b->applies && !b->holds);
    b = &g_array_index(r->bounds, Bound, 2);
    ck_assert(b->measured == 0 && b->holds);
    ck_assert(!report_bounds_hold(r));
}
END_TEST

START_TEST(bound_of_another_method_is_never_evaluated)
{
    g_autoptr(Report) r = bare_report();
    report_cycle_bound(r, "mine", BOUND_UPPER, 120, "s");
    /* 100 cycles would break an upper bound of anything below it: n/a
     * carries no value, so nothing can fail. */
    report_bound_na(r, "cycles", "theirs", BOUND_UPPER, "another case's",
                    "t");
    const Bound *b = &g_array_index(r->bounds, Bound, 1);
    ck_assert(!b->applies && !b->holds && isnan(b->value));
    ck_assert(b->measured == 100);
    ck_assert(report_bounds_hold(r));

    /* JSON: field, measured, applies; value and holds null for n/a. */
    g_autofree char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_print_json(r, f);
    ck_assert_int_eq(fclose(f), 0);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, text, (gssize)len, NULL));
    JsonArray *bounds = json_object_get_array_member(
        json_node_get_object(json_parser_get_root(p)), "bounds");
    ck_assert_uint_eq(json_array_get_length(bounds), 2);
    JsonObject *mine = json_array_get_object_element(bounds, 0);
    JsonObject *theirs = json_array_get_object_element(bounds, 1);
    ck_assert_str_eq(json_object_get_string_member(mine, "field"), "cycles");
    ck_assert_int_eq(json_object_get_int_member(mine, "measured"), 100);
    ck_assert_int_eq(json_object_get_int_member(mine, "value"), 120);
    ck_assert(json_object_get_boolean_member(mine, "applies"));
    ck_assert(json_object_get_boolean_member(mine, "holds"));
    ck_assert(!json_object_get_boolean_member(theirs, "applies"));
    ck_assert(json_object_get_null_member(theirs, "value"));
    ck_assert(json_object_get_null_member(theirs, "holds"));
    ck_assert_int_eq(json_object_get_int_member(theirs, "measured"), 100);
    /* reason: null for a bound that applies, the text for one that does
     * not; and the table prints it under the bound. */
    ck_assert(json_object_get_null_member(mine, "reason"));
    ck_assert_str_eq(json_object_get_string_member(theirs, "reason"),
                     "another case's");
    g_autofree char *table = NULL;
    f = open_memstream(&table, &len);
    report_print_table(r, f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_msg(strstr(table, "      on cycles: t\n      n/a: another "
                                "case's\n"), "%s", table);
}
END_TEST

/* Where a class priced on memory paths carried elements, an upper or
 * exact bound on a communication time is n/a, with the reason; a lower
 * one, and every bound on a count, is still evaluated (docs/report.md,
 * "Bounds"). */
START_TEST(time_bounds_on_memory_paths_are_na)
{
    g_autoptr(Report) r = bare_report();
    r->machine.price[CLASS_ROUTER].memory_path = TRUE;
    r->communication_max = 90;
    /* paths on a class that carried nothing delay nothing */
    report_cycle_bound(r, "unused paths", BOUND_UPPER, 50, "s");
    const Bound *unused = &g_array_index(r->bounds, Bound, 0);
    ck_assert(unused->applies && !unused->holds);
    g_array_set_size(r->bounds, 0);
    r->class_elements[CLASS_ROUTER] = 8;
    report_cycle_bound(r, "upper", BOUND_UPPER, 50, "Theorem 3");
    report_cycle_bound(r, "exact", BOUND_EXACT, 100, "s");
    report_bound(r, "time.communication.max", "comm", BOUND_UPPER, 1, "s");
    report_cycle_bound(r, "lower", BOUND_LOWER, 120, "s");
    report_bound(r, "messages", "count", BOUND_EXACT, 9, "s");
    report_bound(r, "details.index-words", "detail", BOUND_UPPER, 0, "s");
    ck_assert_uint_eq(r->bounds->len, 6);
    for (guint i = 0; i < 3; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        ck_assert_msg(!b->applies && isnan(b->value), "%s", b->name);
        ck_assert_msg(strstr(b->reason, "memory paths"), "%s", b->reason);
    }
    ck_assert_str_eq(g_array_index(r->bounds, Bound, 0).source, "Theorem 3");
    const Bound *lower = &g_array_index(r->bounds, Bound, 3);
    ck_assert(lower->applies && !lower->holds);
    const Bound *count = &g_array_index(r->bounds, Bound, 4);
    ck_assert(count->applies && !count->holds);
    const Bound *detail = &g_array_index(r->bounds, Bound, 5);
    ck_assert(detail->applies && detail->holds);
    ck_assert(!report_bounds_hold(r));

    /* A bound on one class's time (a detail): n/a only where that class
     * has paths and carried elements. */
    g_array_set_size(r->bounds, 0);
    report_class_time_bound(r, CLASS_NEIGHBOUR, "details.index-words",
                            "neighbour", BOUND_EXACT, 1, "s");
    report_class_time_bound(r, CLASS_ROUTER, "details.index-words", "router",
                            BOUND_EXACT, 1, "s");
    const Bound *nb = &g_array_index(r->bounds, Bound, 0);
    const Bound *rt = &g_array_index(r->bounds, Bound, 1);
    ck_assert(nb->applies && !nb->holds);
    ck_assert(!rt->applies && strstr(rt->reason, "memory paths"));

    /* Without paths the same upper bound is evaluated, and fails. */
    r->machine.price[CLASS_ROUTER].memory_path = FALSE;
    report_cycle_bound(r, "upper again", BOUND_UPPER, 50, "s");
    const Bound *again = &g_array_index(r->bounds, Bound, 2);
    ck_assert(again->applies && !again->holds);
}
END_TEST

START_TEST(fields_read_dashes_as_underscores)
{
    g_autoptr(Report) r = bare_report();
    double v = 0;
    ck_assert(report_lookup(r, "elements-per-node", &v) && v == 16);
    ck_assert(report_lookup(r, "elements_per_node", &v) && v == 16);
    ck_assert(report_lookup(r, "details.index_words", &v) && v == 0);
    ck_assert(report_lookup(r, "details.index-words", &v));
    ck_assert(!report_lookup(r, "elements-per-nod", &v));
    ck_assert(!report_lookup(r, "cycles.", &v));
}
END_TEST

/* Issue 47 item 2: a sequential gray-to-binary run used to evaluate
 * Theorem 5, the concurrent algorithm's bound, and fail `bounds = hold`. */
START_TEST(sequential_gray_is_not_held_to_theorem5)
{
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data("seq.ini",
        "[machine]\ntopology = cube\ndimensions = 3\n"
        "[algorithm]\nname = gray-to-binary\nmethod = sequential\n"
        "elements-per-node = 64\n", &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    g_autoptr(Report) r = run_scenario(s, NULL, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    ck_assert(r->data_correct);
    gboolean seen_t5 = FALSE, seen_seq = FALSE;
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        ck_assert_str_eq(b->field, "cycles");
        ck_assert(b->measured == (double)r->cycles);
        if (g_str_has_prefix(b->name, "Theorem 5")) {
            seen_t5 = TRUE;
            ck_assert(!b->applies);
        }
        if (g_str_has_prefix(b->name, "sequential")) {
            seen_seq = TRUE;
            /* Figure 4: (n - 1)(Ts + K), met exactly on the 3-cube. */
            ck_assert(b->applies && b->holds);
        }
    }
    ck_assert(seen_t5 && seen_seq);
    ck_assert(report_bounds_hold(r));
}
END_TEST

/* ---- the fields a run reports, before the run -------------------------- */

/* One small scenario per algorithm and topology the registry has. */
static const char *const field_scenarios[] = {
    "scenarios/examples/exchange-sequential.ini",
    "scenarios/paper/johnsson-ho-figure1.ini",
    "scenarios/paper/johnsson-ho-figure5-seq0.ini",
    "scenarios/paper/johnsson-ho-binary-to-gray.ini",
    "scenarios/paper/johnsson-ho-theorem3-K8.ini",
    "scenarios/bmmc/compare-shuffle-naive.ini",
    "scenarios/bmmc/compare-shuffle-two-phase.ini",
    "scenarios/dblas/cube-3-matvec-5x7.ini",
    "scenarios/dblas/cube-3-rank1-5x7.ini",
    "scenarios/dblas/torus-4x8-vecmat-20x28.ini",
    "scenarios/matmul/c-torus.ini",
    "scenarios/matmul/c-square-cube.ini",
    "scenarios/fft/broadcast-corner.ini",
    "scenarios/shift/complete-one-port.ini",
    "scenarios/shift/cube-gray-ring.ini",
    "scenarios/transpose/smp8-pairwise-small.ini",
};

START_TEST(fields_known_before_the_run_are_the_run_s)
{
    const char *path = field_scenarios[_i];
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_file(path, &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    RunSetup setup;
    ck_assert_msg(run_setup(s, &setup, &e), "%s", e ? e->message : "");
    g_auto(GStrv) before = run_setup_fields(&setup);
    run_setup_release(&setup, TRUE);
    g_autoptr(Report) r = run_scenario(s, NULL, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    g_auto(GStrv) after = report_fields(r);
    ck_assert_msg(g_strv_length(before) == g_strv_length(after),
                  "%s: %u fields before the run, %u after", path,
                  g_strv_length(before), g_strv_length(after));
    CkTally t = CK_TALLY_INIT;
    for (guint i = 0; after[i]; i++)
        ck_tally_str(&t, before[i], after[i], "field %u", i);
    ck_tally_assert(&t, "%s", path);
    /* And every bound's field is one of them, measured as reported. */
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        double v;
        ck_assert_msg(report_lookup(r, b->field, &v), "%s: bound '%s' on "
                      "'%s'", path, b->name, b->field);
        ck_assert_msg(v == b->measured, "%s: bound '%s'", path, b->name);
    }
}
END_TEST

static char *setup_error(const char *text)
{
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data("x.ini", text, &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    RunSetup setup;
    if (run_setup(s, &setup, &e)) {
        run_setup_release(&setup, TRUE);
        return NULL;
    }
    char *m = g_strdup(e->message);
    g_error_free(e);
    return m;
}

#define GRAY3 "[machine]\ntopology = cube\ndimensions = 3\n" \
              "[algorithm]\nname = gray-to-binary\nelements-per-node = 8\n"

START_TEST(misspelt_expect_field_is_refused_before_the_run)
{
    g_autofree char *m = setup_error(GRAY3 "[expect]\ncyles = 5\n");
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(strstr(m, "x.ini:8: no output field 'cyles'"), "%s", m);
    ck_assert_msg(strstr(m, "did you mean 'cycles'?"), "%s", m);

    /* Every bad field at once, each with its own line. */
    g_autofree char *two = setup_error(GRAY3 "[expect]\ncyles = 5\n"
                                       "details.sets = 2\nmesages = 1\n");
    ck_assert_ptr_nonnull(two);
    ck_assert_msg(strstr(two, "x.ini:8:") && strstr(two, "x.ini:10:")
                  && !strstr(two, "x.ini:9:"), "%s", two);

    /* Dashes as in the scenario's keys, underscores as in the JSON. */
    g_autofree char *ok = setup_error(GRAY3 "[expect]\nelement-transfers = 0\n"
                                      "elements_per_node = 8\n"
                                      "details.set-size = 4\n");
    ck_assert_msg(ok == NULL, "%s", ok);
}
END_TEST

START_TEST(names_get_did_you_mean)
{
    g_autofree char *alg = setup_error("[machine]\ntopology = cube\n"
        "dimensions = 3\n[algorithm]\nname = gray-to-binry\n");
    ck_assert_msg(alg && strstr(alg, "did you mean 'gray-to-binary'?"), "%s", alg);
    g_autofree char *key = setup_error("[machine]\ntopology = cube\n"
        "dimensions = 3\n[algorithm]\nname = gray-to-binary\n"
        "elements-per-nod = 8\n");
    ck_assert_msg(key && strstr(key, "did you mean 'elements-per-node'?"), "%s", key);
    g_autofree char *method = setup_error(GRAY3 "method = sequentail\n");
    ck_assert_msg(method && strstr(method, "did you mean 'sequential'?"), "%s",
                  method);
    g_autofree char *mkey = setup_error("[machine]\ntopology = cube\n"
        "dimesions = 3\n[algorithm]\nname = gray-to-binary\n");
    ck_assert_msg(mkey && strstr(mkey, "did you mean 'dimensions'?"), "%s", mkey);
    g_autofree char *topo = setup_error("[machine]\ntopology = cueb\n"
        "dimensions = 3\n[algorithm]\nname = gray-to-binary\n");
    ck_assert_msg(topo && strstr(topo, "did you mean 'cube'?"), "%s", topo);
    g_autofree char *preset = setup_error("[machine]\npreset = cm200-8l\n"
        "[algorithm]\nname = gray-to-binary\n");
    ck_assert_msg(preset && strstr(preset, "did you mean 'cm200-8k'?"), "%s",
                  preset);
    g_autofree char *group = setup_error(GRAY3 "[expcet]\ncycles = 1\n");
    ck_assert_msg(group && strstr(group, "did you mean 'expect'?"), "%s", group);
}
END_TEST

/* ---- json_writer.c ------------------------------------------------------ */

/* Integers at their extremes, strings plain and escaped, and doubles
 * written more than once, many more than the writer remembers, each as
 * json_format_double makes it. */
START_TEST(json_writer_text)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    JsonWriter *w = json_writer_new(f, FALSE);
    json_writer_begin_array(w);
    json_writer_int(w, INT64_MIN);
    json_writer_int(w, -1);
    json_writer_int(w, 0);
    json_writer_int(w, INT64_MAX);
    json_writer_uint(w, UINT64_MAX);
    json_writer_string(w, "plain ~");
    json_writer_string(w, "q\"b\\n\n\x01\x7f");
    json_writer_string(w, "\xc3\xa9\xff");
    GString *want = g_string_new("[-9223372036854775808,-1,0,"
                                 "9223372036854775807,18446744073709551615,"
                                 "\"plain ~\",\"q\\\"b\\\\n\\n\\u0001\\u007f\","
                                 "\"\xc3\xa9\xef\xbf\xbd\"");
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 300; i++) {
            double v = i % 3 ? 1.0 / (i + 1) : (double)i * 0.5;
            char buf[JSON_DOUBLE_BUF];
            json_writer_double(w, v);
            g_string_append_printf(want, ",%s", json_format_double(buf, v));
        }
    json_writer_end_array(w);
    json_writer_finish(w);
    fclose(f);
    g_string_append(want, "]\n");
    ck_assert_str_eq(text, want->str);
    ck_assert(strstr(text, ",0.5,") && strstr(text, ",0.3333333333333333,"));
    g_string_free(want, TRUE);
    free(text);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = ck_tcase(s, "suggest", 0);
    tcase_add_test(tc, distance_counts_edits);
    tcase_add_test(tc, closest_is_a_slip_not_another_name);
    tc = ck_tcase(s, "bounds", 0);
    tcase_add_test(tc, bound_reads_its_field);
    tcase_add_test(tc, bound_of_another_method_is_never_evaluated);
    tcase_add_test(tc, time_bounds_on_memory_paths_are_na);
    tcase_add_test(tc, fields_read_dashes_as_underscores);
    tcase_add_test(tc, sequential_gray_is_not_held_to_theorem5);
    tc = ck_tcase(s, "fields", 300);
    tcase_add_loop_test(tc, fields_known_before_the_run_are_the_run_s, 0,
                        (int)G_N_ELEMENTS(field_scenarios));
    tcase_add_test(tc, misspelt_expect_field_is_refused_before_the_run);
    tcase_add_test(tc, names_get_did_you_mean);
    tc = ck_tcase(s, "json", 0);
    tcase_add_test(tc, json_writer_text);
    return s;
}

CUBE_CHECK_MAIN(report_suite)
