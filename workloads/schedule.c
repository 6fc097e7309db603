/* schedule.c -- a message schedule as data (schedule.h): building one
 * operation at a time, checking the invariants, totals.
 *
 * Growth: schedule_add_op and schedule_add_dep double a rank's arrays
 * (ops_room, deps_room say what is allocated), so that a recorder that
 * appends to many ranks in turn copies each operation a bounded number of
 * times; a reader that knows a rank's counts allocates them exactly.
 */
#include "schedule.h"

#include <string.h>

G_DEFINE_QUARK(cubemu-schedule-error-quark, schedule_error)

/* The first allocation of a rank's arrays, in elements: small, since a
 * schedule of 2^26 ranks may have few operations each. */
#define SCHEDULE_FIRST_ROOM 8u

/* A cycle's message names at most this many operations, then how many it
 * has in all: enough to find it in the file. */
#define SCHEDULE_CYCLE_NAMED 8u

Schedule *schedule_new(const char *name, uint32_t nranks)
{
    g_return_val_if_fail(name != NULL, NULL);
    g_return_val_if_fail(nranks >= 1 && nranks <= SCHEDULE_MAX_RANKS, NULL);
    Schedule *s = g_new0(Schedule, 1);
    s->name = g_strdup(name);
    s->nranks = nranks;
    s->ranks = g_new0(SchedRank, nranks);
    return s;
}

void schedule_free(Schedule *s)
{
    if (!s)
        return;
    for (uint32_t r = 0; s->ranks && r < s->nranks; r++) {
        g_free(s->ranks[r].ops);
        g_free(s->ranks[r].deps);
    }
    g_free(s->ranks);
    g_free(s->name);
    g_free(s->comment);
    g_free(s);
}

/* The room after ROOM, full, grows: doubled, never above LIMIT. */
static uint32_t grown(uint32_t room, uint32_t limit)
{
    uint64_t want = room ? (uint64_t)room * 2 : SCHEDULE_FIRST_ROOM;
    return (uint32_t)MIN(want, (uint64_t)limit);
}

uint32_t schedule_add_op(Schedule *s, uint32_t r, const SchedOp *op)
{
    g_return_val_if_fail(s != NULL && op != NULL && r < s->nranks, 0);
    SchedRank *k = &s->ranks[r];
    g_return_val_if_fail(k->nops < SCHEDULE_MAX_OPS, 0);
    if (k->nops == k->ops_room) {
        k->ops_room = grown(k->ops_room, SCHEDULE_MAX_OPS);
        k->ops = g_renew(SchedOp, k->ops, k->ops_room);
    }
    SchedOp *o = &k->ops[k->nops];
    *o = *op;
    o->dep_first = k->ndeps;
    o->ndeps = 0;
    return k->nops++;
}

void schedule_add_dep(Schedule *s, uint32_t r, uint32_t on, gboolean started)
{
    g_return_if_fail(s != NULL && r < s->nranks);
    SchedRank *k = &s->ranks[r];
    g_return_if_fail(k->nops > 0 && on < SCHEDULE_MAX_OPS);
    g_return_if_fail(k->ndeps < SCHEDULE_MAX_DEPS);
    SchedOp *last = &k->ops[k->nops - 1];
    /* The last operation's dependencies are the rank's last ones. */
    g_return_if_fail(last->dep_first + last->ndeps == k->ndeps);
    if (k->ndeps == k->deps_room) {
        k->deps_room = grown(k->deps_room, SCHEDULE_MAX_DEPS);
        k->deps = g_renew(SchedDep, k->deps, k->deps_room);
    }
    k->deps[k->ndeps++] = (SchedDep){ .op = on, .started = started ? 1 : 0 };
    last->ndeps++;
}

/* ------------------------------------------------------------- checking */

/* "NAME:LINE: rank R" or, for an operation of no line, "NAME: rank R,
 * operation I": where a problem with operation I of rank R is. */
static char *where(const Schedule *s, uint32_t r, uint32_t i)
{
    const SchedOp *o = &s->ranks[r].ops[i];
    if (o->line)
        return g_strdup_printf("%s:%u: rank %u", s->name, o->line, r);
    return g_strdup_printf("%s: rank %u, operation %u", s->name, r, i);
}

/* "line L" or "operation I": an operation within a message about its rank. */
static void name_op(GString *out, const SchedRank *k, uint32_t i)
{
    if (k->ops[i].line)
        g_string_append_printf(out, "line %u", k->ops[i].line);
    else
        g_string_append_printf(out, "operation %u", i);
}

static const char *const kind_names[] = { "send", "recv", "calc" };

static gboolean fail_op(const Schedule *s, uint32_t r, uint32_t i,
                        GError **error, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);

static gboolean fail_op(const Schedule *s, uint32_t r, uint32_t i,
                        GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *at = where(s, r, i);
    g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT, "%s: %s", at, what);
    return FALSE;
}

/* One operation's fields and dependency range. */
static gboolean check_op(const Schedule *s, uint32_t r, uint32_t i,
                         GError **error)
{
    const SchedRank *k = &s->ranks[r];
    const SchedOp *o = &k->ops[i];
    if (o->kind > SCHED_CALC)
        return fail_op(s, r, i, error, "kind %u is none of send (0), recv (1), "
                       "calc (2)", o->kind);
    if (o->kind == SCHED_CALC) {
        if (o->peer || o->tag)
            return fail_op(s, r, i, error, "a calc has peer %u and tag %d "
                           "(a calc's are 0)", o->peer, o->tag);
        if (o->size > SCHEDULE_MAX_TIME)
            return fail_op(s, r, i, error, "calc %" G_GUINT64_FORMAT " is out "
                           "of range (valid: 0..%" G_GUINT64_FORMAT ")",
                           o->size, (guint64)SCHEDULE_MAX_TIME);
    } else {
        const char *kind = kind_names[o->kind];
        if (o->peer >= s->nranks)
            return fail_op(s, r, i, error, "%s's peer %u is not a rank "
                           "(valid: 0..%u)", kind, o->peer, s->nranks - 1);
        if (o->tag < 0)
            return fail_op(s, r, i, error, "%s's tag %d is out of range "
                           "(valid: 0..%d)", kind, o->tag, SCHEDULE_MAX_TAG);
        if (o->size > SCHEDULE_MAX_BYTES)
            return fail_op(s, r, i, error, "%s of %" G_GUINT64_FORMAT " bytes "
                           "is out of range (valid: 0..%" G_GUINT64_FORMAT ")",
                           kind, o->size, (guint64)SCHEDULE_MAX_BYTES);
    }
    if (o->dep_first > k->ndeps || o->ndeps > k->ndeps - o->dep_first)
        return fail_op(s, r, i, error, "dependencies %u..%u are not the "
                       "rank's (it has %u)", o->dep_first,
                       o->dep_first + o->ndeps, k->ndeps);
    for (uint32_t d = o->dep_first; d < o->dep_first + o->ndeps; d++) {
        uint32_t on = k->deps[d].op;
        if (on >= k->nops)
            return fail_op(s, r, i, error, "depends on operation %u, which "
                           "the rank does not have (it has %u)", on, k->nops);
        if (on == i)
            return fail_op(s, r, i, error, "depends on itself");
    }
    return TRUE;
}

/* Rank R's dependency graph has no cycle: a depth-first search along
 * "depends on" that finds an operation still on its path has found one.
 * STATE and the two stacks hold nops elements each. */
enum { UNSEEN, ON_PATH, DONE };

static gboolean check_cycles(const Schedule *s, uint32_t r, uint8_t *state,
                             uint32_t *path, uint32_t *next, GError **error)
{
    const SchedRank *k = &s->ranks[r];
    memset(state, UNSEEN, k->nops);
    for (uint32_t root = 0; root < k->nops; root++) {
        if (state[root] != UNSEEN)
            continue;
        uint32_t depth = 0;
        path[depth] = root;
        next[depth] = 0;
        state[root] = ON_PATH;
        while (depth != UINT32_MAX) {
            const SchedOp *o = &k->ops[path[depth]];
            if (next[depth] == o->ndeps) {
                state[path[depth]] = DONE;
                depth--;          /* from 0, UINT32_MAX ends the search */
                continue;
            }
            uint32_t on = k->deps[o->dep_first + next[depth]++].op;
            if (state[on] == DONE)
                continue;
            if (state[on] == UNSEEN) {
                depth++;
                path[depth] = on;
                next[depth] = 0;
                state[on] = ON_PATH;
                continue;
            }
            /* path[from .. depth] and back to on. */
            uint32_t from = depth;
            while (path[from] != on)
                from--;
            uint32_t length = depth - from + 1;
            GString *text = g_string_new("dependency cycle: ");
            name_op(text, k, on);
            for (uint32_t j = 0; j < length && j < SCHEDULE_CYCLE_NAMED; j++) {
                uint32_t op = path[from + j];
                uint32_t after = j + 1 < length ? path[from + j + 1] : on;
                const SchedOp *x = &k->ops[op];
                gboolean started = FALSE;
                for (uint32_t d = 0; d < x->ndeps; d++)
                    if (k->deps[x->dep_first + d].op == after) {
                        started = k->deps[x->dep_first + d].started;
                        break;
                    }
                g_string_append(text, j ? ", which " : " ");
                g_string_append(text, started ? "irequires " : "requires ");
                name_op(text, k, after);
            }
            if (length > SCHEDULE_CYCLE_NAMED)
                g_string_append_printf(text, ", ... (%u operations in all)",
                                       length);
            fail_op(s, r, on, error, "%s", text->str);
            g_string_free(text, TRUE);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean schedule_check(const Schedule *s, GError **error)
{
    g_return_val_if_fail(s != NULL, FALSE);
    uint32_t most = 0;
    for (uint32_t r = 0; r < s->nranks; r++) {
        const SchedRank *k = &s->ranks[r];
        for (uint32_t i = 0; i < k->nops; i++)
            if (!check_op(s, r, i, error))
                return FALSE;
        most = MAX(most, k->nops);
    }
    uint8_t *state = g_new(uint8_t, most ? most : 1);
    uint32_t *path = g_new(uint32_t, most ? most : 1);
    uint32_t *next = g_new(uint32_t, most ? most : 1);
    gboolean ok = TRUE;
    for (uint32_t r = 0; ok && r < s->nranks; r++)
        ok = check_cycles(s, r, state, path, next, error);
    g_free(state);
    g_free(path);
    g_free(next);
    return ok;
}

void schedule_write_comment(const Schedule *s, FILE *out, const char *marker)
{
    g_return_if_fail(s != NULL && out != NULL && marker != NULL);
    for (const char *line = s->comment; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        fputs(marker, out);
        if (n) {
            fputc(' ', out);
            fwrite(line, 1, n, out);
        }
        fputc('\n', out);
        line = end ? end + 1 : line + n;
    }
}

void schedule_totals(const Schedule *s, ScheduleTotals *out)
{
    g_return_if_fail(s != NULL && out != NULL);
    memset(out, 0, sizeof *out);
    for (uint32_t r = 0; r < s->nranks; r++) {
        const SchedRank *k = &s->ranks[r];
        for (uint32_t i = 0; i < k->nops; i++) {
            unsigned kind = k->ops[i].kind;
            if (kind > SCHED_CALC)
                continue;
            out->ops[kind]++;
            out->size[kind] += k->ops[i].size;
        }
    }
}

void schedule_rank_dependents(const SchedRank *sr, uint32_t *after,
                              uint32_t *dependent)
{
    uint32_t n = sr->nops;
    memset(after, 0, ((size_t)n + 1) * sizeof *after);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t d = 0; d < sr->ops[i].ndeps; d++)
            after[sr->deps[sr->ops[i].dep_first + d].op + 1]++;
    for (uint32_t i = 0; i < n; i++)
        after[i + 1] += after[i];
    /* fill with after[op] as op's cursor, which leaves it at op + 1's
     * start; then back one place */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t d = 0; d < sr->ops[i].ndeps; d++) {
            SchedDep dep = sr->deps[sr->ops[i].dep_first + d];
            dependent[after[dep.op]++] = i | (dep.started ? SCHEDULE_ON_START : 0);
        }
    memmove(after + 1, after, (size_t)n * sizeof *after);
    after[0] = 0;
}
