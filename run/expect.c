/* expect.c -- [expect] on a report, and a check's outcomes as lines, TAP
 * and JUnit XML (expect.h).
 */
#include "expect.h"

#include <string.h>

/* Not evaluated on this backend: the field is named, never passed or
 * failed in silence. */
static void unevaluated_add(GPtrArray *unevaluated, char *what)
{
    if (unevaluated)
        g_ptr_array_add(unevaluated, what);
    else
        g_free(what);
}

char *expect_evaluate(const Report *r, GPtrArray *expects,
                      GPtrArray *unevaluated, unsigned *evaluated)
{
    unsigned n = 0;
    char *failure = NULL;
    for (guint i = 0; !failure && i < expects->len; i++) {
        const Expectation *x = expects->pdata[i];
        switch (x->kind) {
        case EXPECT_DATA_CORRECT:
            n++;
            if (!r->data_correct)
                failure = g_strdup_printf("%s: data = correct, measured: %s",
                                          x->where, r->data_problem);
            break;
        case EXPECT_BOUNDS_HOLD:
            n++;
            for (guint b = 0; !failure && b < r->bounds->len; b++) {
                const Bound *bd = &g_array_index(r->bounds, Bound, b);
                if (bd->applies && !bd->holds)
                    failure = g_strdup_printf("%s: bounds = hold, but %s "
                                              "bound '%s' on %s = %.17g does "
                                              "not hold (measured %.17g)",
                                              x->where,
                                              bound_kind_text(bd->kind),
                                              bd->name, bd->field, bd->value,
                                              bd->measured);
            }
            if (r->backend == REPORT_BACKEND_MPI
                && r->mpi.bounds_emulator_only > 0)
                unevaluated_add(unevaluated, g_strdup_printf(
                    "%u bound%s on what only the emulator measures",
                    r->mpi.bounds_emulator_only,
                    r->mpi.bounds_emulator_only == 1 ? "" : "s"));
            break;
        case EXPECT_NUMERIC: {
            if (report_field_unmeasured(r, x->field)) {
                unevaluated_add(unevaluated, g_strdup(x->field));
                break;
            }
            n++;
            double v;
            if (!report_lookup(r, x->field, &v))
                failure = g_strdup_printf("%s: %s: no such numeric output "
                                          "field", x->where, x->field);
            else if (!expect_op_holds(x->op, v, x->value))
                failure = g_strdup_printf("%s: expected %s %s %.17g, "
                                          "measured %.17g", x->where,
                                          x->field, expect_op_text(x->op),
                                          x->value, v);
            break;
        }
        }
    }
    if (evaluated)
        *evaluated = n;
    return failure;
}

ExpectResult *expect_result_new(const char *path)
{
    ExpectResult *c = g_new0(ExpectResult, 1);
    c->path = g_strdup(path);
    return c;
}

void expect_result_free(gpointer result)
{
    ExpectResult *c = result;
    if (!c)
        return;
    g_free(c->path);
    g_free(c->message);
    g_free(c->summary);
    g_free(c);
}

void expect_print_line(FILE *out, const ExpectResult *c)
{
    if (c->status == EXPECT_PASS)
        fprintf(out, "ok   %s (%s)\n", c->path, c->summary);
    else
        fprintf(out, "FAIL %s: %s\n", c->path, c->message);
}

/* Text for an XML attribute: escaped, and line breaks kept as &#10; (a
 * parser turns a literal one into a space). */
static char *xml_attr(const char *text)
{
    g_autofree char *esc = g_markup_escape_text(text, -1);
    g_auto(GStrv) lines = g_strsplit(esc, "\n", -1);
    return g_strjoinv("&#10;", lines);
}

static void seconds_text(char buf[G_ASCII_DTOSTR_BUF_SIZE], double seconds)
{
    g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, "%.3f", seconds);
}

void expect_write_junit(FILE *out, const char *suite, GPtrArray *results,
                        unsigned failures, unsigned errors, double seconds)
{
    char t[G_ASCII_DTOSTR_BUF_SIZE];
    g_autofree char *classname = g_strdup(suite);
    g_strdelimit(classname, " ", '.');
    g_autofree char *name = xml_attr(suite);
    seconds_text(t, seconds);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"%s\" tests=\"%u\" failures=\"%u\" "
            "errors=\"%u\" time=\"%s\">\n", name, results->len, failures,
            errors, t);
    fprintf(out, "  <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" "
            "errors=\"%u\" skipped=\"0\" time=\"%s\">\n", name, results->len,
            failures, errors, t);
    for (guint i = 0; i < results->len; i++) {
        const ExpectResult *c = results->pdata[i];
        g_autofree char *path = xml_attr(c->path);
        seconds_text(t, c->seconds);
        fprintf(out, "    <testcase classname=\"%s\" name=\"%s\" "
                "time=\"%s\"", classname, path, t);
        if (c->status == EXPECT_PASS) {
            fprintf(out, "/>\n");
            continue;
        }
        const char *tag = c->status == EXPECT_FAIL ? "failure" : "error";
        g_autofree char *msg = xml_attr(c->message);
        g_autofree char *body = g_markup_escape_text(c->message, -1);
        fprintf(out, ">\n      <%s message=\"%s\">%s</%s>\n    </testcase>\n",
                tag, msg, body, tag);
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}

/* A YAML double-quoted scalar. */
static char *yaml_quote(const char *text)
{
    GString *s = g_string_new("\"");
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(s, "\\%c", *p);
        else if (*p == '\n')
            g_string_append(s, "\\n");
        else if (*p == '\t')
            g_string_append(s, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf(s, "\\x%02x", *p);
        else
            g_string_append_c(s, *p);
    }
    g_string_append_c(s, '"');
    return g_string_free(s, FALSE);
}

void expect_print_tap(FILE *out, unsigned n, const ExpectResult *c)
{
    if (c->status == EXPECT_PASS) {
        fprintf(out, "ok %u - %s # %s\n", n, c->path, c->summary);
        return;
    }
    g_autofree char *msg = yaml_quote(c->message);
    g_autofree char *file = yaml_quote(c->path);
    char t[G_ASCII_DTOSTR_BUF_SIZE];
    seconds_text(t, c->seconds);
    fprintf(out, "not ok %u - %s\n  ---\n  message: %s\n  severity: %s\n"
            "  file: %s\n  duration_seconds: %s\n  ...\n", n, c->path, msg,
            c->status == EXPECT_FAIL ? "fail" : "error", file, t);
}
