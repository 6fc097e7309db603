/* fuzz_goal.c -- the GOAL reader and writer (workloads/goal.c): the input
 * is a GOAL file. Read with goal_read_data; a refusal must say something.
 * A schedule it accepts must hold the invariants (schedule_check), be
 * written (goal_write_stream, to memory) and read back to the same
 * operations and dependencies, and its text then written again must be
 * the same bytes: the reader and the writer agree on every schedule the
 * reader accepts. And the input read again with a tab before every line
 * (which sends each line to the general parser, past the fast path for
 * Schedgen's lines) gives the same schedule, lines included, or the same
 * refusal: the two ways of reading a line agree.
 *
 * Bounded: the round trip runs for schedules of at most FUZZ_MAX_OPS
 * operations (a short input can hold many, each about 20 bytes, and the
 * written text is a few times the read one).
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "goal.h"
#include "schedule.h"

#define FUZZ_MAX_OPS 100000u
/* Inputs read again with blanks: below the reader's longest line, so that
 * the blank added cannot make one too long. */
#define FUZZ_BLANK_MAX 60000u

/* S as GOAL text (free it), *len its length. */
static char *written(const Schedule *s, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (!out)
        g_error("fuzz: open_memstream failed");
    GError *e = NULL;
    if (!goal_write_stream(s, out, "fuzz.goal", &e))
        g_error("fuzz: accepted schedule not written: %s", e->message);
    if (fclose(out) != 0)
        g_error("fuzz: writing to memory failed");
    return text;
}

static void same(const Schedule *a, const Schedule *b)
{
    if (a->nranks != b->nranks)
        g_error("fuzz: %u ranks read back as %u", a->nranks, b->nranks);
    for (uint32_t r = 0; r < a->nranks; r++) {
        const SchedRank *x = &a->ranks[r], *y = &b->ranks[r];
        if (x->nops != y->nops || x->ndeps != y->ndeps)
            g_error("fuzz: rank %u: %u operations and %u dependencies read "
                    "back as %u and %u", r, x->nops, x->ndeps, y->nops,
                    y->ndeps);
        for (uint32_t i = 0; i < x->nops; i++) {
            const SchedOp *o = &x->ops[i], *p = &y->ops[i];
            if (o->kind != p->kind || o->size != p->size
                || o->peer != p->peer || o->tag != p->tag
                || o->cpu != p->cpu || o->nic != p->nic
                || o->dep_first != p->dep_first || o->ndeps != p->ndeps)
                g_error("fuzz: rank %u operation %u read back differs", r, i);
        }
        for (uint32_t d = 0; d < x->ndeps; d++)
            if (x->deps[d].op != y->deps[d].op
                || x->deps[d].started != y->deps[d].started)
                g_error("fuzz: rank %u dependency %u read back differs", r, d);
    }
}

/* DATA read with a tab before every line: as RESULT (with error E) was. */
static void same_with_blanks(const uint8_t *data, size_t size,
                             const Schedule *result, const GError *e)
{
    GString *blank = g_string_new("\t");
    for (size_t i = 0; i < size; i++) {
        g_string_append_c(blank, (char)data[i]);
        if (data[i] == '\n' && i + 1 < size)
            g_string_append_c(blank, '\t');
    }
    GError *f = NULL;
    Schedule *b = goal_read_data("fuzz.goal", blank->str, size ? blank->len
                                                              : 0, &f);
    g_string_free(blank, TRUE);
    if (!result != !b)
        g_error("fuzz: read with blanks, %s: %s", b ? "accepted" : "refused",
                e ? e->message : f->message);
    if (!b) {
        if (strcmp(e->message, f->message) != 0)
            g_error("fuzz: read with blanks, another refusal: %s\n--\n%s",
                    e->message, f->message);
        g_error_free(f);
        return;
    }
    same(result, b);
    for (uint32_t r = 0; r < b->nranks; r++)
        for (uint32_t i = 0; i < b->ranks[r].nops; i++)
            if (result->ranks[r].ops[i].line != b->ranks[r].ops[i].line)
                g_error("fuzz: read with blanks, rank %u operation %u at "
                        "another line", r, i);
    schedule_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    GError *e = NULL;
    Schedule *s = goal_read_data("fuzz.goal", (const char *)data, size, &e);
    if (size <= FUZZ_BLANK_MAX)
        same_with_blanks(data, size, s, e);
    if (!s) {
        fuzz_check_error(&e);
        return 0;
    }
    if (!schedule_check(s, &e))
        g_error("fuzz: accepted schedule breaks an invariant: %s", e->message);
    ScheduleTotals t;
    schedule_totals(s, &t);
    if (t.ops[SCHED_SEND] + t.ops[SCHED_RECV] + t.ops[SCHED_CALC]
        <= FUZZ_MAX_OPS) {
        size_t len, again_len;
        char *text = written(s, &len);
        Schedule *back = goal_read_data("fuzz.goal", text, len, &e);
        if (!back)
            g_error("fuzz: written schedule refused: %s", e->message);
        same(s, back);
        char *again = written(back, &again_len);
        if (again_len != len || memcmp(again, text, len) != 0)
            g_error("fuzz: the text written twice differs");
        free(again);
        schedule_free(back);
        free(text);
    }
    schedule_free(s);
    return 0;
}
