/* check_schedule.c -- message schedules (workloads/schedule.c), the table
 * of their formats (format.c) and the GOAL text reader and writer
 * (goal.c).
 *
 * The GOAL files are in tests/data/goal/: Schedgen's output (each file's
 * first line says how it was made) and hand-written files, read to their
 * exact operations; bad/ holds one file per kind of problem, each refused
 * with its exact message. Round trips (read, write, read) must give the
 * same schedule, and Schedgen's own files back byte for byte.
 */
#include <check.h>
#include "check_main.h"
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "goal.h"
#include "output.h"
#include "schedule.h"

#define DATA CUBEMU_SOURCE_DIR "/tests/data/goal/"

/* ------------------------------------------------------------ helpers */

static char *data_path(const char *file)
{
    return g_strconcat(DATA, file, NULL);
}

static Schedule *read_ok(const char *file)
{
    g_autofree char *path = data_path(file);
    GError *e = NULL;
    Schedule *s = schedule_format_read(path, NULL, &e);
    ck_assert_msg(s != NULL, "%s: %s", path, e ? e->message : "?");
    return s;
}

/* What a refusal left: no result, an input error, which is cleared; its
 * message (g_free it). */
static char *refusal(const void *result, GError **error)
{
    GError *e = *error;
    *error = NULL;
    ck_assert_ptr_null(result);
    ck_assert_ptr_nonnull(e);
    ck_assert_msg(g_error_matches(e, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT),
                  "%s: domain %s code %d", e->message,
                  g_quark_to_string(e->domain), e->code);
    char *msg = g_strdup(e->message);
    g_error_free(e);
    return msg;
}

/* WANT with every '@' replaced by NAME: messages name their file on each
 * line. */
static char *named(const char *want, const char *name)
{
    GString *s = g_string_new(NULL);
    for (const char *p = want; *p; p++)
        if (*p == '@')
            g_string_append(s, name);
        else
            g_string_append_c(s, *p);
    return g_string_free(s, FALSE);
}

/* PATH read as GOAL is refused with exactly WANT ('@' standing for PATH). */
static void assert_path_refused(const char *path, const char *want)
{
    GError *e = NULL;
    Schedule *s = schedule_format_read(path, "goal", &e);
    g_autofree char *msg = refusal(s, &e);
    g_autofree char *w = named(want, path);
    ck_assert_str_eq(msg, w);
}

static void assert_file_refused(const char *file, const char *want)
{
    g_autofree char *path = data_path(file);
    assert_path_refused(path, want);
}

/* TEXT read as "t.goal" is refused with exactly WANT ('@' for t.goal). */
static void assert_text_refused(const char *text, const char *want)
{
    GError *e = NULL;
    Schedule *s = goal_read_data("t.goal", text, strlen(text), &e);
    g_autofree char *msg = refusal(s, &e);
    g_autofree char *w = named(want, "t.goal");
    ck_assert_str_eq(msg, w);
}

static Schedule *text_ok(const char *text)
{
    GError *e = NULL;
    Schedule *s = goal_read_data("t.goal", text, strlen(text), &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "?");
    return s;
}

/* An operation as a test expects it. DEPS lists its dependencies in
 * order: "3" requires operation 3, "^3" irequires it. */
typedef struct {
    SchedKind kind;
    uint64_t size;
    uint32_t peer;
    int32_t tag;
    uint8_t cpu, nic;
    uint32_t line;
    const char *deps;
} WantOp;

static void assert_rank(const Schedule *s, uint32_t r, const WantOp *want,
                        uint32_t n)
{
    ck_assert_uint_lt(r, s->nranks);
    const SchedRank *k = &s->ranks[r];
    ck_assert_msg(k->nops == n, "rank %u: %u operations, expected %u", r,
                  k->nops, n);
    CkTally t = CK_TALLY_INIT;
    uint32_t ndeps = 0;
    for (uint32_t i = 0; i < n; i++) {
        const SchedOp *o = &k->ops[i];
        const WantOp *w = &want[i];
        ck_tally_uint(&t, w->kind, o->kind, "op %u kind", i);
        ck_tally_uint(&t, w->size, o->size, "op %u size", i);
        ck_tally_uint(&t, w->peer, o->peer, "op %u peer", i);
        ck_tally_int(&t, w->tag, o->tag, "op %u tag", i);
        ck_tally_uint(&t, w->cpu, o->cpu, "op %u cpu", i);
        ck_tally_uint(&t, w->nic, o->nic, "op %u nic", i);
        if (w->line)
            ck_tally_uint(&t, w->line, o->line, "op %u line", i);
        g_auto(GStrv) deps = g_strsplit(w->deps ? w->deps : "", " ", -1);
        uint32_t nd = 0;
        for (char **d = deps; *d; d++) {
            if (!**d)
                continue;
            gboolean started = **d == '^';
            uint32_t on = (uint32_t)atoi(*d + started);
            ck_tally_true(&t, nd < o->ndeps, "op %u has dependency %u", i, nd);
            if (nd < o->ndeps) {
                SchedDep got = k->deps[o->dep_first + nd];
                ck_tally_uint(&t, on, got.op, "op %u dependency %u", i, nd);
                ck_tally_uint(&t, started, got.started,
                              "op %u dependency %u started", i, nd);
            }
            nd++;
        }
        ck_tally_uint(&t, nd, o->ndeps, "op %u dependencies", i);
        ck_tally_uint(&t, ndeps, o->dep_first, "op %u dep_first", i);
        ndeps += o->ndeps;
    }
    ck_tally_uint(&t, ndeps, k->ndeps, "rank dependencies");
    ck_tally_assert(&t, "rank %u", r);
}

/* A and B hold the same operations and dependencies (lines aside). */
static void assert_same(const Schedule *a, const Schedule *b,
                        const char *what)
{
    ck_assert_uint_eq(a->nranks, b->nranks);
    CkTally t = CK_TALLY_INIT;
    for (uint32_t r = 0; r < a->nranks; r++) {
        const SchedRank *x = &a->ranks[r], *y = &b->ranks[r];
        ck_tally_uint(&t, x->nops, y->nops, "rank %u operations", r);
        ck_tally_uint(&t, x->ndeps, y->ndeps, "rank %u dependencies", r);
        if (x->nops != y->nops || x->ndeps != y->ndeps)
            continue;
        for (uint32_t i = 0; i < x->nops; i++) {
            const SchedOp *o = &x->ops[i], *p = &y->ops[i];
            ck_tally_true(&t, o->kind == p->kind && o->size == p->size
                          && o->peer == p->peer && o->tag == p->tag
                          && o->cpu == p->cpu && o->nic == p->nic
                          && o->dep_first == p->dep_first
                          && o->ndeps == p->ndeps,
                          "rank %u op %u equal", r, i);
        }
        for (uint32_t d = 0; d < x->ndeps; d++)
            ck_tally_true(&t, x->deps[d].op == y->deps[d].op
                          && x->deps[d].started == y->deps[d].started,
                          "rank %u dependency %u equal", r, d);
    }
    ck_tally_assert(&t, "%s", what);
}

/* A folder for written files, removed with its files by rm_tmp. */
static char *tmp_dir(void)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("check_schedule-XXXXXX", &e);
    ck_assert_msg(dir != NULL, "%s", e ? e->message : "?");
    return dir;
}

static void rm_tmp(char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *path = g_build_filename(dir, name, NULL);
        g_unlink(path);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
    g_free(dir);
}

/* S written as GOAL to DIR/NAME, read back: the same schedule. The file
 * written is left for the caller (its path, g_free). */
static char *round_trip(const Schedule *s, const char *dir, const char *name)
{
    char *path = g_build_filename(dir, name, NULL);
    GError *e = NULL;
    ck_assert_msg(schedule_format_write(s, path, NULL, &e), "%s",
                  e ? e->message : "?");
    Schedule *back = schedule_format_read(path, NULL, &e);
    ck_assert_msg(back != NULL, "%s", e ? e->message : "?");
    assert_same(s, back, name);
    schedule_free(back);
    return path;
}

/* ------------------------------------------------ Schedgen's own files */

/* The dissemination barrier of 8 ranks: in round k each rank sends to
 * r + 2^k and receives from r - 2^k, and a round's send waits for the
 * previous round's receive. */
START_TEST(dissemination_read_exactly)
{
    g_autoptr(Schedule) s = read_ok("dissemination-8.goal");
    ck_assert_uint_eq(s->nranks, 8);
    for (uint32_t r = 0; r < 8; r++) {
        WantOp want[6];
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t d = 1u << k;
            want[2 * k] = (WantOp){ SCHED_SEND, 8, (r + d) % 8, 0, 0, 0, 0,
                                    k ? (k == 1 ? "1" : "3") : NULL };
            want[2 * k + 1] = (WantOp){ SCHED_RECV, 8, (r + 8 - d) % 8, 0, 0,
                                        0, 0, NULL };
        }
        assert_rank(s, r, want, 6);
    }
    /* Lines: the comment, num_ranks, a blank line, rank 0's header, l1. */
    ck_assert_uint_eq(s->ranks[0].ops[0].line, 5);
    ck_assert_uint_eq(s->ranks[0].ops[5].line, 12);
    ck_assert_uint_eq(s->ranks[7].ops[5].line, 89);
    ScheduleTotals t;
    schedule_totals(s, &t);
    ck_assert_uint_eq(t.ops[SCHED_SEND], 24);
    ck_assert_uint_eq(t.ops[SCHED_RECV], 24);
    ck_assert_uint_eq(t.ops[SCHED_CALC], 0);
    ck_assert_uint_eq(t.size[SCHED_SEND], 192);
    ck_assert_uint_eq(t.size[SCHED_RECV], 192);
}
END_TEST

/* Recursive doubling's allreduce of 64 bytes (as 16 elements of 4) on 8
 * ranks: reduce-scatter with partners r^1, r^2, r^4 and halving sizes,
 * then the allgather back; each send waits for the receive before it. */
START_TEST(recursive_doubling_read_exactly)
{
    g_autoptr(Schedule) s = read_ok("allreduce-recdoub-8.goal");
    ck_assert_uint_eq(s->nranks, 8);
    static const uint32_t mask[6] = { 1, 2, 4, 4, 2, 1 };
    static const uint64_t size[6] = { 32, 16, 8, 8, 16, 32 };
    static const char *const after[6] = { NULL, "1", "3", "5", "7", "9" };
    for (uint32_t r = 0; r < 8; r++) {
        WantOp want[12];
        for (uint32_t k = 0; k < 6; k++) {
            want[2 * k] = (WantOp){ SCHED_SEND, size[k], r ^ mask[k], 0, 0, 0,
                                    0, after[k] };
            want[2 * k + 1] = (WantOp){ SCHED_RECV, size[k], r ^ mask[k], 0,
                                        0, 0, 0, NULL };
        }
        assert_rank(s, r, want, 12);
    }
}
END_TEST

/* The linear barrier: rank 0's calc waits for every receive, and each
 * reply waits for the calc; the calc's dependencies name operations that
 * come after it. */
START_TEST(linear_barrier_read_exactly)
{
    g_autoptr(Schedule) s = read_ok("linbarrier-4.goal");
    static const WantOp root[] = {
        { SCHED_CALC, 0, 0, 0, 0, 0, 5, "1 3 5" },
        { SCHED_RECV, 1, 1, 0, 0, 0, 6, NULL },
        { SCHED_SEND, 1, 1, 0, 0, 0, 7, "0" },
        { SCHED_RECV, 1, 2, 0, 0, 0, 10, NULL },
        { SCHED_SEND, 1, 2, 0, 0, 0, 11, "0" },
        { SCHED_RECV, 1, 3, 0, 0, 0, 14, NULL },
        { SCHED_SEND, 1, 3, 0, 0, 0, 15, "0" },
    };
    assert_rank(s, 0, root, G_N_ELEMENTS(root));
    for (uint32_t r = 1; r < 4; r++) {
        const WantOp leaf[] = {
            { SCHED_SEND, 1, 0, 0, 0, 0, 0, NULL },
            { SCHED_RECV, 1, 0, 0, 0, 0, 0, NULL },
        };
        assert_rank(s, r, leaf, 2);
    }
}
END_TEST

/* A non-blocking broadcast: three calcs on cpu 1 in a chain before the
 * binomial tree's messages. */
START_TEST(nonblocking_broadcast_read_exactly)
{
    g_autoptr(Schedule) s = read_ok("bcast-nb-4.goal");
    static const WantOp root[] = {
        { SCHED_CALC, 10, 0, 0, 1, 0, 5, NULL },
        { SCHED_CALC, 10, 0, 0, 1, 0, 6, "0" },
        { SCHED_CALC, 10, 0, 0, 1, 0, 8, "1" },
        { SCHED_SEND, 8, 1, 0, 0, 0, 10, NULL },
        { SCHED_SEND, 8, 2, 0, 0, 0, 11, NULL },
    };
    assert_rank(s, 0, root, G_N_ELEMENTS(root));
    static const WantOp inner[] = {
        { SCHED_CALC, 10, 0, 0, 1, 0, 0, NULL },
        { SCHED_CALC, 10, 0, 0, 1, 0, 0, "0" },
        { SCHED_CALC, 10, 0, 0, 1, 0, 0, "1" },
        { SCHED_RECV, 8, 0, 0, 0, 0, 0, NULL },
        { SCHED_SEND, 8, 3, 0, 0, 0, 0, "3" },
    };
    assert_rank(s, 1, inner, G_N_ELEMENTS(inner));
    static const WantOp leaf[] = {
        { SCHED_CALC, 10, 0, 0, 1, 0, 0, NULL },
        { SCHED_CALC, 10, 0, 0, 1, 0, 0, "0" },
        { SCHED_CALC, 10, 0, 0, 1, 0, 0, "1" },
        { SCHED_RECV, 8, 1, 0, 0, 0, 0, NULL },
    };
    assert_rank(s, 3, leaf, G_N_ELEMENTS(leaf));
}
END_TEST

/* Schedgen's resnet: comments inside the blocks, calcs, large tags and
 * messages; its totals. */
START_TEST(resnet_totals)
{
    g_autoptr(Schedule) s = read_ok("resnet-4.goal");
    ScheduleTotals t;
    schedule_totals(s, &t);
    ck_assert_uint_eq(t.ops[SCHED_SEND], 80);
    ck_assert_uint_eq(t.ops[SCHED_RECV], 80);
    ck_assert_uint_eq(t.ops[SCHED_CALC], 84);
    ck_assert_uint_eq(t.size[SCHED_SEND], t.size[SCHED_RECV]);
    ck_assert_uint_eq(t.size[SCHED_SEND], 1926169856);
    ck_assert_uint_eq(t.size[SCHED_CALC], 1428000);
    /* rank 0's first messages: l4 and l5, tag 16877216. */
    const SchedOp *o = &s->ranks[0].ops[3];
    ck_assert_uint_eq(o->kind, SCHED_SEND);
    ck_assert_uint_eq(o->size, 26046368);
    ck_assert_int_eq(o->tag, 16877216);
    ck_assert_uint_eq(o->line, 11);
}
END_TEST

/* ------------------------------------------------- hand-written files */

START_TEST(features_read_exactly)
{
    g_autoptr(Schedule) s = read_ok("features.goal");
    ck_assert_uint_eq(s->nranks, 3);
    static const WantOp r0[] = {
        { SCHED_SEND, 1024, 1, 7, 0, 0, 10, "1" },
        { SCHED_RECV, 16, 2, 3, 1, 2, 11, NULL },
        { SCHED_SEND, 0, 2, 0, 0, 0, 12, NULL },
        { SCHED_CALC, 500, 0, 0, 3, 0, 14, "^0 1" },
    };
    assert_rank(s, 0, r0, G_N_ELEMENTS(r0));
    static const WantOp r1[] = {
        { SCHED_RECV, 1024, 0, 7, 0, 0, 20, NULL },
    };
    assert_rank(s, 1, r1, G_N_ELEMENTS(r1));
    static const WantOp r2[] = {
        { SCHED_SEND, 16, 0, 3, 0, 1, 25, NULL },
        { SCHED_RECV, 0, 0, 0, 0, 0, 26, NULL },
        { SCHED_CALC, 0, 0, 0, 0, 0, 27, "0 1" },
    };
    assert_rank(s, 2, r2, G_N_ELEMENTS(r2));
}
END_TEST

/* Dependencies on labels defined later in the block (txt2bin refuses
 * them), resolved at the '}'. */
START_TEST(forward_labels_resolved)
{
    g_autoptr(Schedule) s = read_ok("forward.goal");
    static const WantOp r0[] = {
        { SCHED_CALC, 10, 0, 0, 0, 0, 9, NULL },
        { SCHED_SEND, 8, 1, 0, 0, 0, 10, NULL },
        { SCHED_CALC, 5, 0, 0, 0, 0, 11, "0 ^1" },
    };
    assert_rank(s, 0, r0, G_N_ELEMENTS(r0));
}
END_TEST

/* What txt2bin's scanner reads besides Schedgen's layout: blanks
 * anywhere (or none between a number and a keyword), statements after
 * num_ranks, a header or '}' on the same line, comments at a statement's
 * start, CRLF, no final newline, labels that start like keywords. */
START_TEST(free_layout_read)
{
    g_autoptr(Schedule) s = text_ok(
        "num_ranks 2 rank 0 {\r\n"
        "\tl1:send 4bto 1tag 2cpu 3nic 4\r\n"
        "  l2 : recv 4 b from 1  \r\n"
        "/* a comment */ sendx: calc 007 cpu 1\r\n"
        "/* a comment\r\n"
        "   over lines */ requires: calc 1\r\n"
        "requires irequires sendx\r\n"
        "l01: calc 2\n"
        "l01 requiresl1\n"
        "} rank 1 {}");
    static const WantOp r0[] = {
        { SCHED_SEND, 4, 1, 2, 3, 4, 2, NULL },
        { SCHED_RECV, 4, 1, 0, 0, 0, 3, NULL },
        { SCHED_CALC, 7, 0, 0, 1, 0, 4, NULL },
        { SCHED_CALC, 1, 0, 0, 0, 0, 6, "^2" },
        { SCHED_CALC, 2, 0, 0, 0, 0, 8, "0" },
    };
    assert_rank(s, 0, r0, G_N_ELEMENTS(r0));
    assert_rank(s, 1, NULL, 0);
}
END_TEST

/* Labels: l<K> in the direct table or, far ahead of the operations, in
 * the hash table, and others; a label given twice is found whichever
 * table holds it; each block has its own labels. */
START_TEST(labels_in_both_tables)
{
    GString *t = g_string_new("num_ranks 2\nrank 0 {\n"
                              "l1000: calc 1\n"     /* hashed: 1000 > 64 */
                              "l1: calc 2\n"
                              "x_y: calc 3\n");
    for (int i = 2; i < 600; i++)
        g_string_append_printf(t, "l%d: calc %d\n", i, i + 2);
    g_string_append(t, "l1000 requires l599\nx_y irequires l1000\n"
                       "l2 requires x_y\n}\nrank 1 {\nl1000: calc 9\n}\n");
    g_autoptr(Schedule) s = text_ok(t->str);
    const SchedRank *k = &s->ranks[0];
    ck_assert_uint_eq(k->nops, 601);
    ck_assert_uint_eq(k->ndeps, 3);
    ck_assert_uint_eq(k->ops[0].ndeps, 1);
    ck_assert_uint_eq(k->deps[k->ops[0].dep_first].op, 600);
    ck_assert_uint_eq(k->deps[k->ops[2].dep_first].op, 0);
    ck_assert_uint_eq(k->deps[k->ops[2].dep_first].started, 1);
    ck_assert_uint_eq(k->deps[k->ops[3].dep_first].op, 2);
    ck_assert_uint_eq(s->ranks[1].ops[0].size, 9);

    /* l1000 hashed in the block's first line, given again when the direct
     * table would take it. */
    g_string_truncate(t, 0);
    g_string_append(t, "num_ranks 1\nrank 0 {\nl1000: calc 1\n");
    for (int i = 1; i < 600; i++)
        g_string_append_printf(t, "l%d: calc 1\n", i);
    g_string_append(t, "l1000: calc 2\nl5: calc 3\n}\n");
    assert_text_refused(t->str,
                        "@:603: label 'l1000' is defined twice in rank 0's "
                        "block (first at line 3)\n"
                        "@:604: label 'l5' is defined twice in rank 0's "
                        "block (first at line 8)");
    g_string_free(t, TRUE);
}
END_TEST

/* The reader's fast path for Schedgen's lines (a label at the line's
 * start) and its general parser (which a leading blank sends a line to)
 * agree on every line: the same schedule, lines included, or the same
 * refusal. Each text is read as it is and with a tab before every line. */
START_TEST(fast_path_agrees)
{
    static const struct {
        const char *text;
        gboolean ok;
    } cases[] = {
        { "num_ranks 3\nrank 0 {\nl1: send 64b to 1 tag 0\n"
          "l2: recv 64b from 2 tag 2147483647\nl3: calc 1125899906842624\n"
          "l3 requires l2\nl3 irequires l1\nl4: send 1099511627776b to 0 "
          "tag 5\nl1x_2: calc 0\nl4 requires l1x_2\nl01: calc 3\n"
          "l01 requires l1\n}\nrank 1 {\nl1: recv 64b from 0 tag 0\n}\n"
          "rank 2 {\nl2 requires l1\nl1: send 64b to 0 tag 2147483647\n"
          "l2: calc 7\n}\n", TRUE },
        { "num_ranks 2\nrank 0 {\nl1: send 64b to 2 tag 0\n"
          "l2: recv 1099511627777b from 1 tag 0\nl3: calc 1125899906842625\n"
          "l4: send 8b to 1 tag 2147483648\nl5: send 8b to 1 tag -1\n"
          "l6: recv 8b from -1 tag 0\nl7: send 00000000000000000000008b to 1 "
          "tag 0\nl7 requires l7\nl7 requires l9\nl1: calc 1\n"
          "l8: calc 1 cpu 2\nl8 requires l1 \nl8 requires\n}\n", FALSE },
        { "num_ranks 1\nl1: calc 1\nl1 requires l1\nrank 0 {\n"
          "l1: calc 1\n}\nl2: calc 2\n", FALSE },
    };
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        const char *text = cases[c].text;
        GString *blank = g_string_new("\t");
        for (const char *p = text; *p; p++) {
            g_string_append_c(blank, *p);
            if (*p == '\n' && p[1])
                g_string_append_c(blank, '\t');
        }
        GError *e = NULL, *f = NULL;
        g_autoptr(Schedule) a = goal_read_data("t.goal", text, strlen(text),
                                               &e);
        g_autoptr(Schedule) b = goal_read_data("t.goal", blank->str,
                                               blank->len, &f);
        g_string_free(blank, TRUE);
        ck_assert_msg((a != NULL) == cases[c].ok, "case %zu: %s", c,
                      e ? e->message : "read");
        ck_assert_msg((b != NULL) == cases[c].ok, "case %zu: %s", c,
                      f ? f->message : "read");
        if (a) {
            assert_same(a, b, "fast path and general parser");
            for (uint32_t r = 0; r < a->nranks; r++)
                for (uint32_t i = 0; i < a->ranks[r].nops; i++)
                    ck_assert_uint_eq(a->ranks[r].ops[i].line,
                                      b->ranks[r].ops[i].line);
        } else {
            ck_assert_str_eq(e->message, f->message);
            g_error_free(e);
            g_error_free(f);
        }
    }
}
END_TEST

/* ------------------------------------------------------- round trips */

/* Every valid file: read, written, read back: the same schedule. Schedgen's
 * files whose dependencies follow their operations come back byte for
 * byte (but the first line, which says how they were made). */
START_TEST(round_trips)
{
    static const struct {
        const char *file;
        gboolean identical;
    } files[] = {
        { "dissemination-8.goal", TRUE },
        { "allreduce-recdoub-8.goal", TRUE },
        { "bcast-nb-4.goal", TRUE },
        { "linbarrier-4.goal", FALSE },
        { "resnet-4.goal", FALSE },
        { "features.goal", FALSE },
        { "forward.goal", FALSE },
    };
    char *dir = tmp_dir();
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autoptr(Schedule) s = read_ok(files[i].file);
        g_autofree char *out = round_trip(s, dir, files[i].file);
        if (!files[i].identical)
            continue;
        g_autofree char *path = data_path(files[i].file);
        g_autofree char *original = NULL, *written = NULL;
        ck_assert(g_file_get_contents(path, &original, NULL, NULL));
        ck_assert(g_file_get_contents(out, &written, NULL, NULL));
        const char *body = strchr(original, '\n');
        ck_assert_ptr_nonnull(body);
        ck_assert_str_eq(written, body + 1);
    }
    rm_tmp(dir);
}
END_TEST

/* A dependency on a later operation goes after that operation's line
 * (txt2bin needs both labels defined), in the operation's order; empty
 * ranks are written as empty blocks. */
START_TEST(writer_layout)
{
    g_autoptr(Schedule) s = schedule_new("t", 3);
    SchedOp calc = { .kind = SCHED_CALC, .size = 5 };
    SchedOp send = { .kind = SCHED_SEND, .size = 8, .peer = 2, .tag = 3,
                     .cpu = 1, .nic = 2 };
    SchedOp recv = { .kind = SCHED_RECV, .size = 8, .peer = 0, .tag = 3 };
    schedule_add_op(s, 0, &calc);
    schedule_add_dep(s, 0, 2, TRUE);
    schedule_add_dep(s, 0, 1, FALSE);
    schedule_add_op(s, 0, &send);
    schedule_add_op(s, 0, &calc);
    schedule_add_dep(s, 0, 1, FALSE);
    schedule_add_op(s, 2, &recv);
    char *dir = tmp_dir();
    g_autofree char *path = round_trip(s, dir, "layout.goal");
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    ck_assert_str_eq(text,
                     "num_ranks 3\n"
                     "\n"
                     "rank 0 {\n"
                     "l1: calc 5\n"
                     "l2: send 8b to 2 tag 3 cpu 1 nic 2\n"
                     "l3: calc 5\n"
                     "l1 irequires l3\n"
                     "l1 requires l2\n"
                     "l3 requires l2\n"
                     "}\n"
                     "\n"
                     "rank 1 {\n"
                     "}\n"
                     "\n"
                     "rank 2 {\n"
                     "l1: recv 8b from 0 tag 3\n"
                     "}\n");
    rm_tmp(dir);
}
END_TEST

/* A schedule larger than the reader's buffer (lines across its edges):
 * 4096 ranks of a dissemination built with schedule_add_*, written and
 * read back. */
START_TEST(large_round_trip)
{
    const uint32_t n = 4096, rounds = 12;
    g_autoptr(Schedule) s = schedule_new("built", n);
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t k = 0; k < rounds; k++) {
            SchedOp send = { .kind = SCHED_SEND, .size = 1000 + k,
                             .peer = (r + (1u << k)) % n, .tag = (int32_t)k };
            SchedOp recv = { .kind = SCHED_RECV, .size = 1000 + k,
                             .peer = (r + n - (1u << k)) % n,
                             .tag = (int32_t)k };
            uint32_t i = schedule_add_op(s, r, &send);
            ck_assert_uint_eq(i, 2 * k);
            if (k)
                schedule_add_dep(s, r, i - 1, FALSE);
            schedule_add_op(s, r, &recv);
        }
    GError *e = NULL;
    ck_assert_msg(schedule_check(s, &e), "%s", e ? e->message : "?");
    char *dir = tmp_dir();
    g_autofree char *path = round_trip(s, dir, "large.goal");
    GStatBuf st;
    ck_assert_int_eq(g_stat(path, &st), 0);
    ck_assert_int_gt(st.st_size, 2 << 20);
    rm_tmp(dir);
}
END_TEST

/* ------------------------------------------------------------ refusals */

static const struct {
    const char *file;
    const char *message;          /* '@' stands for the file's path */
} bad_files[] = {
    { "syntax.goal",
      "@:3: expected 'b' after the size (GOAL writes 8 bytes as 8b), found "
      "'to': 'l1: send 4 to 1'\n"
      "@:4: expected 'to', found 'from': 'l2: send 4b from 1'\n"
      "@:5: expected 'from', found 'to': 'l3: recv 4b to 1'\n"
      "@:6: expected a time (digits), found the end of the line: 'l4: calc'\n"
      "@:7: expected 'send', 'recv' or 'calc', found 'sned': "
      "'l5: sned 4b to 1'\n"
      "@:8: expected ':', 'requires' or 'irequires' after label 'l6', found "
      "'require': 'l6 require l1'\n"
      "@:9: expected the end of the line, found 'cpu': "
      "'l7: send 4b to 1 tag 0 nic 1 cpu 1'\n"
      "@:10: expected 'cpu' or the end of the line, found 'nic': "
      "'l8: calc 5 nic 1'\n"
      "@:11: expected 'tag', 'cpu', 'nic' or the end of the line, found '/': "
      "'l9: send 4b to 1 // no comment after an operation'\n"
      "@:12: expected a label, 'send', 'recv', 'calc', 'rank', 'num_ranks', "
      "'}' or a comment, found '7': '7: calc 5'\n"
      "@:13: expected a label after 'requires', found the end of the line: "
      "'l10 requires'\n"
      "@:14: expected a rank (digits), found 'one': 'l11: send 4b to one'" },
    { "peers.goal",
      "@:3: peer 4 is out of range (valid: 0..3, for num_ranks 4)\n"
      "@:4: peer 5 is out of range (valid: 0..3, for num_ranks 4)\n"
      "@:13: rank 4 is out of range (valid: 0..3, for num_ranks 4)" },
    { "blocks.goal",
      "@:4: rank 2's block where rank 1's was expected (blocks go in rank "
      "order, 0 to 4, each once)\n"
      "@:6: rank 2's block is given twice (first at line 4)\n"
      "@:8: rank 1's block is out of order (blocks go in rank order, 0 to 4, "
      "each once)\n"
      "@:10: rank 3's block is never closed: '}' is missing (the file ends "
      "at line 10)\n"
      "@: no block for rank 4 (num_ranks is 5)" },
    { "num-ranks.goal",
      "@:1: 'rank 0 {' before 'num_ranks N' (a GOAL schedule opens with "
      "num_ranks)\n"
      "@:3: num_ranks after a rank block (it comes before the first)\n"
      "@:4: num_ranks after a rank block (it comes before the first)\n"
      "@:6: num_ranks inside rank 1's block (it comes before the first "
      "block)" },
    { "num-ranks-missing.goal",
      "@: no 'num_ranks N' (a GOAL schedule opens with it)" },
    { "num-ranks-range.goal",
      "@:1: num_ranks 67108865 is out of range (valid: 1..67108864)" },
    { "num-ranks-zero.goal",
      "@:1: num_ranks 0 is out of range (valid: 1..67108864)" },
    { "labels.goal",
      "@:5: label 'l1' is defined twice in rank 0's block (first at line 3)\n"
      "@:6: rank 0's block has no label 'l9' (l2 requires l9)\n"
      "@:7: rank 0's block has no label 'done' (done irequires l1)\n"
      "@:8: l2 requires itself" },
    { "cycle.goal",
      "@:6: rank 1: dependency cycle: line 6 requires line 8, which requires "
      "line 7, which irequires line 6" },
    { "limits.goal",
      "@:3: size 1099511627777 is out of range (valid: 0..1099511627776)\n"
      "@:4: time 1125899906842625 is out of range (valid: "
      "0..1125899906842624)\n"
      "@:5: tag 2147483648 is out of range (valid: 0..2147483647)\n"
      "@:6: cpu 256 is out of range (valid: 0..255)\n"
      "@:7: nic 300 is out of range (valid: 0..255)\n"
      "@:8: size 123456789012345678901234... is out of range (valid: "
      "0..1099511627776)" },
    { "unsupported.goal",
      "@:3: 'from -1' (any source) is not supported: every receive of a "
      "schedule names its source: 'l1: recv 8b from -1 tag 0'\n"
      "@:4: 'tag -1' (any tag) is not supported: every tag of a schedule is "
      "0..2147483647: 'l2: recv 8b from 1 tag -1'" },
    { "outside.goal",
      "@:2: an operation outside a rank block (a 'rank R {' line opens one)\n"
      "@:3: '}' without an open rank block\n"
      "@:5: 'rank 1 {' inside rank 0's block (opened at line 4): is a '}' "
      "missing?\n"
      "@:7: a dependency outside a rank block (a 'rank R {' line opens one)" },
    { "unclosed-block.goal",
      "@:2: rank 0's block is never closed: '}' is missing (the file ends "
      "at line 3)" },
    { "unclosed-comment.goal",
      "@:2: '/*' is never closed (the file ends at line 5)" },
    { "empty.goal",
      "@: empty file (a GOAL schedule opens with 'num_ranks N')" },
    /* txt2bin's binary output for a schedule of one calc. */
    { "txt2bin.bin",
      "@: not a text file (it holds NUL bytes; a GOAL schedule is text)" },
};

START_TEST(bad_file_refused)
{
    g_autofree char *file = g_strconcat("bad/", bad_files[_i].file, NULL);
    assert_file_refused(file, bad_files[_i].message);
}
END_TEST

START_TEST(unreadable_refused)
{
    assert_file_refused("bad/none.goal",
                        "@: cannot read: No such file or directory");
    assert_file_refused("bad", "@: cannot read: Is a directory");
}
END_TEST

/* Problems past the twentieth are counted, not listed; reading stops. */
START_TEST(problems_capped)
{
    GString *t = g_string_new("num_ranks 1\nrank 0 {\n");
    for (int i = 0; i < 30; i++)
        g_string_append(t, "calc x\n");
    g_string_append(t, "}\n");
    GString *want = g_string_new(NULL);
    for (int i = 0; i < 20; i++)
        g_string_append_printf(want, "@:%d: expected a time (digits), found "
                               "'x': 'calc x'\n", i + 3);
    g_string_append(want, "@: more problems not listed (the first 20 found "
                          "are)");
    assert_text_refused(t->str, want->str);
    g_string_free(t, TRUE);
    g_string_free(want, TRUE);
}
END_TEST

/* A line beyond 65536 characters is refused, quoted in part, and the
 * lines after it are still read and counted. */
START_TEST(long_line_refused)
{
    GString *t = g_string_new("num_ranks 1\nrank 0 {\n// ");
    for (int i = 0; i < 70000; i++)
        g_string_append_c(t, 'a' + i % 26);
    g_string_append(t, "\nl1: calc x\n}\n");
    assert_text_refused(t->str,
                        "@:3: line longer than 65536 characters: '// "
                        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
                        "abcdefghijklmnopqrstuvwxy...'\n"
                        "@:4: expected a time (digits), found 'x': "
                        "'l1: calc x'");
    g_string_free(t, TRUE);
}
END_TEST

/* A file read a buffer at a time (1 MiB): a line too long that is found
 * too long before the buffer's end is refused once and the rest of it, in
 * the next buffer, skipped; a long line within the limit that crosses a
 * buffer's end is read; the lines after both keep their numbers. */
START_TEST(long_lines_across_buffers)
{
    GString *t = g_string_new("num_ranks 1\nrank 0 {\n");
    guint64 line = 2;
    const size_t mib = (size_t)1 << 20;
    while (t->len < mib - 80000) {          /* 80000 of it in the first */
        g_string_append(t, "calc 1\n");
        line++;
    }
    g_string_append(t, "// ");
    for (int i = 0; i < 100000; i++)
        g_string_append_c(t, 'a');
    g_string_append_c(t, '\n');
    guint64 too_long = ++line;
    while (t->len < 2 * mib - 30000) {
        g_string_append(t, "calc 1\n");
        line++;
    }
    g_string_append(t, "/* ");
    for (int i = 0; i < 60000; i++)
        g_string_append_c(t, 'b');
    g_string_append(t, " */\ncalc x\n}\n");
    guint64 bad = line + 2;
    char *dir = tmp_dir();
    g_autofree char *path = g_build_filename(dir, "long.goal", NULL);
    ck_assert(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
    GString *want = g_string_new(NULL);
    g_string_append_printf(want, "@:%" G_GUINT64_FORMAT ": line longer than "
                           "65536 characters: '// ", too_long);
    for (int i = 0; i < 77; i++)
        g_string_append_c(want, 'a');
    g_string_append_printf(want, "...'\n@:%" G_GUINT64_FORMAT ": expected a "
                           "time (digits), found 'x': 'calc x'", bad);
    assert_path_refused(path, want->str);
    g_string_free(want, TRUE);
    g_string_free(t, TRUE);
    rm_tmp(dir);
}
END_TEST

/* A block's header that cannot be read whole still opens the block: its
 * lines are not each refused as outside one. */
START_TEST(header_problems_counted_once)
{
    assert_text_refused("num_ranks 3\nrank 0 {\n}\nrank 1\n{\nl1: calc 5\n"
                        "l2: send 8b to 0\n}\nrank 7 {\nl1: calc 1\n}\n"
                        "rank 2 {\nl2 requires l1\n}\n",
                        "@:4: expected '{' after 'rank 1', found the end of "
                        "the line: 'rank 1'\n"
                        "@:5: expected a label, 'send', 'recv', 'calc', "
                        "'rank', 'num_ranks', '}' or a comment, found '{': "
                        "'{'\n"
                        "@:9: rank 7 is out of range (valid: 0..2, for "
                        "num_ranks 3)\n"
                        "@:13: rank 2's block has no label 'l2' (l2 requires "
                        "l1)");
}
END_TEST

/* Bytes that are not printable ASCII are quoted as \xNN. */
START_TEST(unprintable_quoted)
{
    assert_text_refused("num_ranks 1\nrank 0 {\nl1: calc \xC3\xA9t\xC3\xA9\n}\n",
                        "@:3: expected a time (digits), found '\\xC3': "
                        "'l1: calc \\xC3\\xA9t\\xC3\\xA9'");
    assert_text_refused("num_ranks 1\nrank 0 {\nl1: calc 5\r\r\n}\n",
                        "@:3: expected 'cpu' or the end of the line, found "
                        "'\\x0D': 'l1: calc 5\\x0D'");
}
END_TEST

/* ----------------------------------------------- the schedule itself */

/* schedule_check on schedules built by hand, where no line is known. */
START_TEST(check_refuses)
{
    GError *e = NULL;
    struct {
        SchedOp op;
        const char *message;
    } cases[] = {
        { { .kind = SCHED_SEND, .peer = 2 },
          "t: rank 0, operation 0: send's peer 2 is not a rank (valid: 0..1)" },
        { { .kind = SCHED_RECV, .peer = 1, .tag = -1 },
          "t: rank 0, operation 0: recv's tag -1 is out of range (valid: "
          "0..2147483647)" },
        { { .kind = SCHED_SEND, .size = SCHEDULE_MAX_BYTES + 1 },
          "t: rank 0, operation 0: send of 1099511627777 bytes is out of "
          "range (valid: 0..1099511627776)" },
        { { .kind = SCHED_CALC, .size = SCHEDULE_MAX_TIME + 1 },
          "t: rank 0, operation 0: calc 1125899906842625 is out of range "
          "(valid: 0..1125899906842624)" },
        { { .kind = SCHED_CALC, .peer = 1 },
          "t: rank 0, operation 0: a calc has peer 1 and tag 0 (a calc's are "
          "0)" },
        { { .kind = 3 },
          "t: rank 0, operation 0: kind 3 is none of send (0), recv (1), calc "
          "(2)" },
        { { .kind = SCHED_SEND, .peer = 1, .line = 7 },
          NULL },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(Schedule) s = schedule_new("t", 2);
        schedule_add_op(s, 0, &cases[i].op);
        gboolean ok = schedule_check(s, &e);
        if (!cases[i].message) {
            ck_assert_msg(ok, "%s", e ? e->message : "?");
            continue;
        }
        g_autofree char *msg = refusal(ok ? s : NULL, &e);
        ck_assert_str_eq(msg, cases[i].message);
    }

    g_autoptr(Schedule) s = schedule_new("t", 1);
    SchedOp calc = { .kind = SCHED_CALC, .size = 1 };
    schedule_add_op(s, 0, &calc);
    schedule_add_dep(s, 0, 0, FALSE);
    ck_assert(!schedule_check(s, &e));
    g_autofree char *self = refusal(NULL, &e);
    ck_assert_str_eq(self, "t: rank 0, operation 0: depends on itself");
    s->ranks[0].deps[0].op = 5;
    ck_assert(!schedule_check(s, &e));
    g_autofree char *beyond = refusal(NULL, &e);
    ck_assert_str_eq(beyond, "t: rank 0, operation 0: depends on operation "
                     "5, which the rank does not have (it has 1)");
}
END_TEST

/* A ring of N calcs, operation i requiring operation i+1 (mod N), those
 * from FIRST on placed at lines; LINES: give them lines 10 + i. */
static Schedule *ring(uint32_t n, gboolean lines)
{
    Schedule *s = schedule_new("t", 2);
    SchedOp calc = { .kind = SCHED_CALC, .size = 1 };
    schedule_add_op(s, 1, &calc);          /* an acyclic rank first */
    for (uint32_t i = 0; i < n; i++) {
        calc.line = lines ? 10 + i : 0;
        schedule_add_op(s, 1, &calc);
        schedule_add_dep(s, 1, 1 + (i + 1) % n, i % 2);
    }
    return s;
}

/* A cycle is named by its operations (lines where known), at most eight
 * of them, starting where the search met it. */
START_TEST(cycles_named)
{
    GError *e = NULL;
    g_autoptr(Schedule) a = ring(3, FALSE);
    ck_assert(!schedule_check(a, &e));
    g_autofree char *three = refusal(NULL, &e);
    ck_assert_str_eq(three, "t: rank 1, operation 1: dependency cycle: "
                     "operation 1 requires operation 2, which irequires "
                     "operation 3, which requires operation 1");
    g_autoptr(Schedule) b = ring(10, TRUE);
    ck_assert(!schedule_check(b, &e));
    g_autofree char *ten = refusal(NULL, &e);
    ck_assert_str_eq(ten, "t:10: rank 1: dependency cycle: line 10 requires "
                     "line 11, which irequires line 12, which requires line "
                     "13, which irequires line 14, which requires line 15, "
                     "which irequires line 16, which requires line 17, which "
                     "irequires line 18, ... (10 operations in all)");
    /* Without the closing dependency it is a chain. */
    b->ranks[1].deps[9].op = 0;
    ck_assert_msg(schedule_check(b, &e), "%s", e ? e->message : "?");
}
END_TEST

/* Growth: a rank's arrays keep every operation and dependency through
 * their reallocations; totals count them. */
START_TEST(growth_and_totals)
{
    g_autoptr(Schedule) s = schedule_new("t", 2);
    for (uint32_t i = 0; i < 1000; i++) {
        SchedOp op = { .kind = (uint8_t)(i % 3), .size = i,
                       .peer = i % 3 == SCHED_CALC ? 0 : 1 };
        ck_assert_uint_eq(schedule_add_op(s, 0, &op), i);
        for (uint32_t d = 0; d < i % 4 && d < i; d++)
            schedule_add_dep(s, 0, d, d % 2);
    }
    const SchedRank *k = &s->ranks[0];
    ck_assert_uint_eq(k->nops, 1000);
    ck_assert_uint_ge(k->ops_room, 1000);
    CkTally t = CK_TALLY_INIT;
    uint32_t deps = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        ck_tally_uint(&t, i, k->ops[i].size, "op %u size", i);
        ck_tally_uint(&t, deps, k->ops[i].dep_first, "op %u first", i);
        uint32_t n = MIN(i % 4, i);
        ck_tally_uint(&t, n, k->ops[i].ndeps, "op %u dependencies", i);
        for (uint32_t d = 0; d < k->ops[i].ndeps; d++) {
            ck_tally_uint(&t, d, k->deps[deps + d].op, "op %u dep %u", i, d);
            ck_tally_uint(&t, d % 2, k->deps[deps + d].started,
                          "op %u dep %u started", i, d);
        }
        deps += n;
    }
    ck_tally_assert(&t, "rank 0 after growth");
    ck_assert_uint_eq(k->ndeps, deps);
    GError *e = NULL;
    ck_assert_msg(schedule_check(s, &e), "%s", e ? e->message : "?");
    ScheduleTotals tot;
    schedule_totals(s, &tot);
    ck_assert_uint_eq(tot.ops[SCHED_SEND], 334);
    ck_assert_uint_eq(tot.ops[SCHED_RECV], 333);
    ck_assert_uint_eq(tot.ops[SCHED_CALC], 333);
    ck_assert_uint_eq(tot.size[SCHED_SEND], 334 * 999 / 2);   /* 0, 3 .. 999 */
    ck_assert_uint_eq(tot.size[SCHED_RECV], 333 * 998 / 2);   /* 1, 4 .. 997 */
    ck_assert_uint_eq(tot.size[SCHED_CALC], 333 * 1000 / 2);  /* 2, 5 .. 998 */
}
END_TEST

/* ------------------------------------------------- formats and writing */

START_TEST(format_table)
{
    GError *e = NULL;
    const ScheduleFormat *f = schedule_format_find("goal", &e);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->extension, ".goal");
    ck_assert_ptr_nonnull(f->read);
    ck_assert_ptr_nonnull(f->write);
    ck_assert_ptr_eq(schedule_format_of_path("run/x.GOAL", &e), f);
    ck_assert_ptr_eq(schedule_formats[0], f);
    /* SimGrid's time-independent trace: written, not read */
    const ScheduleFormat *ti = schedule_format_find("simgrid", &e);
    ck_assert_ptr_nonnull(ti);
    ck_assert_str_eq(ti->extension, ".tit");
    ck_assert_ptr_null(ti->read);
    ck_assert_ptr_nonnull(ti->write);
    ck_assert_ptr_eq(schedule_format_of_path("run/x.tit", &e), ti);
    ck_assert_ptr_eq(schedule_formats[1], ti);
    ck_assert_ptr_null(schedule_formats[2]);
    g_autofree char *names = schedule_format_names();
    g_autofree char *extensions = schedule_format_extensions();
    ck_assert_str_eq(names, "goal, simgrid");
    ck_assert_str_eq(extensions, ".goal, .tit");

    const void *none = schedule_format_find("gaol", &e);
    g_autofree char *slip = refusal(none, &e);
    ck_assert_str_eq(slip, "unknown schedule format 'gaol'; did you mean "
                     "'goal'? (valid: goal, simgrid)");
    none = schedule_format_find("smpi", &e);
    g_autofree char *other = refusal(none, &e);
    ck_assert_str_eq(other, "unknown schedule format 'smpi' (valid: goal, simgrid)");
    none = schedule_format_of_path("x.txt", &e);
    g_autofree char *ext = refusal(none, &e);
    ck_assert_str_eq(ext, "x.txt: unknown schedule format (valid extensions: "
                     ".goal, .tit)");
    none = schedule_format_of_path(".goal", &e);
    g_autofree char *bare = refusal(none, &e);
    ck_assert_str_eq(bare, ".goal: unknown schedule format (valid "
                     "extensions: .goal, .tit)");
    none = schedule_format_read("x.txt", NULL, &e);
    g_autofree char *read = refusal(none, &e);
    ck_assert_str_eq(read, "x.txt: unknown schedule format (valid extensions: "
                     ".goal, .tit)");
}
END_TEST

/* The writer refuses what GOAL cannot hold, and schedules that break the
 * invariants, before it creates the file; a write that fails is an output
 * error that names the path. */
START_TEST(writer_refuses)
{
    char *dir = tmp_dir();
    g_autofree char *path = g_build_filename(dir, "w.goal", NULL);
    GError *e = NULL;
    g_autoptr(Schedule) s = schedule_new("t", 2);
    SchedOp calc = { .kind = SCHED_CALC, .size = 3, .nic = 1 };
    schedule_add_op(s, 1, &calc);
    ck_assert(!schedule_format_write(s, path, NULL, &e));
    g_autofree char *nic = refusal(NULL, &e);
    g_autofree char *want = g_strdup_printf("%s: rank 1, operation 0: a calc "
                                            "on nic 1 cannot be written as "
                                            "GOAL (its calc has no nic)",
                                            path);
    ck_assert_str_eq(nic, want);
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));

    s->ranks[1].ops[0].nic = 0;
    s->ranks[1].ops[0].tag = 4;
    ck_assert(!schedule_format_write(s, path, "goal", &e));
    g_autofree char *tag = refusal(NULL, &e);
    ck_assert_str_eq(tag, "t: rank 1, operation 0: a calc has peer 0 and tag "
                     "4 (a calc's are 0)");
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));

    s->ranks[1].ops[0].tag = 0;
    g_autofree char *missing = g_build_filename(dir, "no", "w.goal", NULL);
    ck_assert(!schedule_format_write(s, missing, NULL, &e));
    ck_assert(g_error_matches(e, OUTPUT_ERROR, OUTPUT_ERROR_WRITE));
    ck_assert(g_str_has_prefix(e->message, missing));
    g_clear_error(&e);
    rm_tmp(dir);
}
END_TEST

static Suite *schedule_suite(void)
{
    Suite *s = suite_create("schedule");
    const CkTest goal_files[] = {
        { dissemination_read_exactly, 0 },
        { recursive_doubling_read_exactly, 0 },
        { linear_barrier_read_exactly, 0 },
        { nonblocking_broadcast_read_exactly, 0 },
        { resnet_totals, 0 },
        { features_read_exactly, 0 },
        { forward_labels_resolved, 0 },
        { free_layout_read, 0 },
        { labels_in_both_tables, 0 },
        { fast_path_agrees, 0 },
        { NULL, 0 }
    };
    ck_add_tcase(s, "goal files", 0, goal_files);
    const CkTest trips[] = {
        { round_trips, 0 },
        { writer_layout, 0 },
        { large_round_trip, 0 },
        { NULL, 0 }
    };
    ck_add_tcase(s, "round trips", 30, trips);
    CkTest refusals[] = {
        { bad_file_refused, (int)G_N_ELEMENTS(bad_files) },
        { unreadable_refused, 0 },
        { problems_capped, 0 },
        { long_line_refused, 0 },
        { header_problems_counted_once, 0 },
        { long_lines_across_buffers, 0 },
        { unprintable_quoted, 0 },
        { NULL, 0 }
    };
    ck_add_tcase(s, "refusals", 0, refusals);
    const CkTest schedules[] = {
        { check_refuses, 0 },
        { cycles_named, 0 },
        { growth_and_totals, 0 },
        { format_table, 0 },
        { writer_refuses, 0 },
        { NULL, 0 }
    };
    ck_add_tcase(s, "schedules", 0, schedules);
    return s;
}

CUBE_CHECK_MAIN(schedule_suite)
