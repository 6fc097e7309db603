/* goal.c -- LogGOPSim's GOAL text: the reader and the writer of the table's
 * "goal" format (format.h). The language, its limits and how it differs
 * from LogGOPSim's txt2bin are in docs/schedules.md.
 *
 * The reader makes one pass over the text, a buffer at a time and a line
 * at a time, keeping nothing of it: a rank's block is parsed into scratch
 * arrays (its operations, its dependencies as pairs, its labels), which at
 * the block's '}' become the rank's two exact arrays, its dependencies
 * grouped by operation in the order the file gave them. The scratch is
 * reused for the next block, so memory is the schedule's plus its largest
 * block's. Labels are a rank's own: Schedgen's l1, l2, ... index a table
 * directly, any other label goes through a hash table, and both are
 * emptied at the block's end. A dependency may name a label defined later
 * in its block; it is resolved at the '}'.
 *
 * A line of the open block in one of Schedgen's three shapes (fast_line)
 * is taken without the general parser's steps, with the same effect; any
 * other line, and every line with a problem, goes to the general parser,
 * which alone writes messages.
 *
 * Problems are collected, one line each ("FILE:LINE: what was expected,
 * found what: 'the line'"), up to GOAL_MAX_PROBLEMS; once there is one,
 * blocks are still parsed for more but no longer kept.
 */
#include "goal.h"
#include "format.h"
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* The buffer the text is read into, a read at a time. */
#define GOAL_BUFFER ((size_t)1 << 20)
/* The longest line: a statement is a few words (Schedgen's are a few dozen
 * characters), so a longer line is not GOAL; below GOAL_BUFFER, so that a
 * line always fits the buffer. */
#define GOAL_MAX_LINE ((size_t)1 << 16)
/* A file of another kind would give a problem a line: the first ones are
 * enough to act on. */
#define GOAL_MAX_PROBLEMS 20
/* Characters of a line quoted in a message, and of a token after "found". */
#define GOAL_ECHO_MAX 80
#define GOAL_TOKEN_MAX 24
/* Digits of a number quoted in a message. */
#define GOAL_DIGITS_MAX 24
/* A label l<K> indexes the direct table when K is at most twice the
 * block's operations so far plus this much (Schedgen's K is the next
 * operation's number): the table stays proportional to the block. */
#define GOAL_LABEL_SLACK 64
/* The most digits the fast path reads as one number: 10^18 - 1 cannot
 * overflow 64 bits, and every limit is below it (a longer number goes to
 * the general parser, which names it). */
#define GOAL_FAST_DIGITS 18

/* The five words a label cannot be: each starts a statement. */
static const char goal_send[] = "send", goal_recv[] = "recv",
                  goal_calc[] = "calc", goal_rank[] = "rank",
                  goal_num_ranks[] = "num_ranks";

/* ------------------------------------------------------------- reading */

/* A dependency as the file gave it: operation FROM of the block requires
 * (or with STARTED, irequires) operation TO. PENDING is 0, or 1 + the
 * index of its labels in the block's pending list, until the '}'. */
typedef struct {
    uint32_t from, to;
    uint32_t pending;
    gboolean started;
    guint64 line;
} GoalDep;

/* A dependency naming a label not defined when it was read. */
typedef struct {
    const char *from, *to;        /* in the block's strings */
} GoalPending;

/* A problem at LINE (0: of the whole file); they are listed by line,
 * those of the whole file last, since a block's labels are checked at its
 * end. */
typedef struct {
    guint64 line;
    guint seq;                    /* found before those of higher seq */
    GString *text;
} GoalProblem;

typedef struct {
    int fd;                       /* a file, or -1 for text in memory */
    const char *data;
    size_t len, at;
} GoalSource;

typedef struct {
    const char *name;
    GArray *problems;             /* GoalProblem, as found */
    unsigned count;               /* problems found, listed or not */
    gboolean stop;                /* read no further */
    gboolean storing;             /* no problem yet: keep what is read */

    /* The line being read: [text, end), the cursor p. */
    guint64 line;
    const char *text, *end, *p;
    char found[GOAL_TOKEN_MAX + 8];

    /* The file. */
    uint32_t nranks;              /* 0 until a valid num_ranks */
    char nranks_hint[48];         /* ", for num_ranks N" after a rank's
                                   * range, or "" */
    guint64 nranks_line;          /* where num_ranks was given; 0: not yet */
    gboolean nranks_said;         /* a num_ranks line was read, refused or
                                   * not */
    gboolean told_no_nranks;
    uint32_t next_rank;           /* the block expected next */
    gboolean any_block;
    GArray *block_lines;          /* guint64: where rank r's block opened,
                                   * for the blocks read in order */
    GHashTable *late;             /* 1 + rank -> where its block opened, for
                                   * blocks out of order (each a problem) */
    GArray *ranks;                /* SchedRank: the blocks kept */
    gboolean in_comment;
    guint64 comment_line;

    /* The open block. */
    gboolean in_block;
    gboolean block_kept;          /* its rank is the one expected */
    char block_name[32];          /* "rank R's block", or "the block" when
                                   * its header could not be read */
    guint64 block_line;
    GArray *ops;                  /* SchedOp */
    GArray *deps;                 /* GoalDep */
    GArray *pending;              /* GoalPending */
    uint32_t *fast;               /* l<K>: 1 + its operation, or 0 */
    size_t fast_len, fast_top;    /* allocated; 1 + the largest K set */
    GHashTable *labels;           /* other labels -> 1 + operation */
    GStringChunk *strings;        /* their text and pending labels' */
    gboolean strings_used;
    GString *key;                 /* a label looked up in labels */
} GoalReader;

static gboolean is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static gboolean is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static gboolean is_word(char c)
{
    return is_letter(c) || is_digit(c) || c == '_';
}

static gboolean is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Appends TEXT[0 .. LEN) to OUT with every byte that is not printable
 * ASCII as \xNN, so that a message is ASCII whatever the file holds. */
static void append_echo(GString *out, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f)
            g_string_append_c(out, (char)c);
        else
            g_string_append_printf(out, "\\x%02X", c);
    }
}

/* The problem added, or NULL beyond GOAL_MAX_PROBLEMS. */
static GString *G_GNUC_PRINTF(3, 0)
problem_v(GoalReader *R, guint64 line, const char *fmt, va_list ap)
{
    R->storing = FALSE;
    if (++R->count > GOAL_MAX_PROBLEMS) {
        R->stop = TRUE;
        return NULL;
    }
    GoalProblem p = { line, R->problems->len, g_string_new(NULL) };
    g_string_append_vprintf(p.text, fmt, ap);
    g_array_append_val(R->problems, p);
    return p.text;
}

/* A problem at LINE (0: of the whole file). */
static void G_GNUC_PRINTF(3, 4)
problem(GoalReader *R, guint64 line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    problem_v(R, line, fmt, ap);
    va_end(ap);
}

/* A problem with the current line, which it quotes; always FALSE, for the
 * statement that gives up on the line. */
static gboolean G_GNUC_PRINTF(2, 3)
bad(GoalReader *R, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    GString *text = problem_v(R, R->line, fmt, ap);
    va_end(ap);
    if (!text)
        return FALSE;
    const char *a = R->text, *b = R->end;
    while (a < b && is_blank(*a))
        a++;
    while (b > a && is_blank(b[-1]))
        b--;
    g_string_append(text, ": '");
    append_echo(text, a, MIN((size_t)(b - a), (size_t)GOAL_ECHO_MAX));
    g_string_append(text, (size_t)(b - a) > GOAL_ECHO_MAX ? "...'" : "'");
    return FALSE;
}

static gint problem_order(gconstpointer a, gconstpointer b)
{
    const GoalProblem *p = a, *q = b;
    guint64 x = p->line ? p->line : G_MAXUINT64;
    guint64 y = q->line ? q->line : G_MAXUINT64;
    if (x != y)
        return x < y ? -1 : 1;
    return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* The problems as one message, a line each: "NAME:LINE: ...", by line. */
static char *problems_text(GoalReader *R)
{
    g_array_sort(R->problems, problem_order);
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < R->problems->len; i++) {
        const GoalProblem *p = &g_array_index(R->problems, GoalProblem, i);
        if (i)
            g_string_append_c(out, '\n');
        if (p->line)
            g_string_append_printf(out, "%s:%" G_GUINT64_FORMAT ": %s",
                                   R->name, p->line, p->text->str);
        else
            g_string_append_printf(out, "%s: %s", R->name, p->text->str);
    }
    if (R->count > GOAL_MAX_PROBLEMS)
        g_string_append_printf(out, "\n%s: more problems not listed (the "
                               "first %d found are)", R->name,
                               GOAL_MAX_PROBLEMS);
    return g_string_free(out, FALSE);
}

/* What stands at the cursor, for "found ...": a word or number, one
 * character, or the end of the line. */
static const char *found(GoalReader *R)
{
    const char *p = R->p;
    if (p == R->end)
        return "the end of the line";
    size_t n = 1;
    if (is_word(*p))
        while (p + n < R->end && n < GOAL_TOKEN_MAX && is_word(p[n]))
            n++;
    GString *s = g_string_new("'");
    append_echo(s, p, n);
    g_string_append_c(s, '\'');
    g_strlcpy(R->found, s->str, sizeof R->found);
    g_string_free(s, TRUE);
    return R->found;
}

static gboolean expected(GoalReader *R, const char *what)
{
    return bad(R, "expected %s, found %s", what, found(R));
}

static void skip_blanks(GoalReader *R)
{
    while (R->p < R->end && is_blank(*R->p))
        R->p++;
}

/* The N characters of KW at the cursor, taken: a keyword as txt2bin reads
 * it after the first word of a statement, by its letters, whatever
 * follows. take(R, "literal") for a keyword written out. */
static gboolean take_n(GoalReader *R, const char *kw, size_t n)
{
    if ((size_t)(R->end - R->p) < n || memcmp(R->p, kw, n) != 0)
        return FALSE;
    R->p += n;
    return TRUE;
}

#define take(R, kw) take_n((R), (kw), sizeof(kw) - 1)

/* A word at the cursor ([A-Za-z][A-Za-z0-9_]*), taken; its length, 0 if
 * there is none. */
static size_t take_word(GoalReader *R)
{
    const char *p = R->p;
    if (p == R->end || !is_letter(*p))
        return 0;
    while (p < R->end && is_word(*p))
        p++;
    size_t n = (size_t)(p - R->p);
    R->p = p;
    return n;
}

static gboolean word_is(const char *w, size_t n, const char *kw)
{
    return strlen(kw) == n && memcmp(w, kw, n) == 0;
}

/* Decimal digits at the cursor, taken, into *v. WHAT is what was expected
 * ("a size in bytes (digits)"): FALSE, giving up on the line, when there
 * are none. A number below MIN or above MAX is a problem, "NAME N is out of
 * range (valid: MIN..MAX)" followed by HINT, but not one of syntax: *v is
 * then MIN and the line is read on, so that what it defines (a label, a
 * block) is known and no problem follows from this one. */
static gboolean number(GoalReader *R, const char *what, const char *name,
                       uint64_t min, uint64_t max, const char *hint,
                       uint64_t *v)
{
    skip_blanks(R);
    const char *p = R->p;
    if (p == R->end || !is_digit(*p))
        return expected(R, what);
    uint64_t x = 0;
    gboolean over = FALSE;
    for (; p < R->end && is_digit(*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            over = TRUE;
        else
            x = x * 10 + d;
    }
    const char *digits = R->p;
    size_t n = (size_t)(p - digits);
    R->p = p;
    *v = x;
    if (over || x > max || x < min) {
        problem(R, R->line, "%s %.*s%s is out of range (valid: %" PRIu64
                "..%" PRIu64 "%s)", name, (int)MIN(n, (size_t)GOAL_DIGITS_MAX),
                digits, n > GOAL_DIGITS_MAX ? "..." : "", min, max,
                hint ? hint : "");
        *v = min;
    }
    return TRUE;
}

/* Whether W is l<K> as Schedgen writes labels: K decimal without leading
 * zeros and below UINT32_MAX. */
static gboolean fast_label(const char *w, size_t n, uint32_t *k)
{
    if (n < 2 || n > 11 || w[0] != 'l' || (w[1] == '0' && n > 2))
        return FALSE;
    uint64_t x = 0;
    for (size_t i = 1; i < n; i++) {
        if (!is_digit(w[i]))
            return FALSE;
        x = x * 10 + (uint64_t)(w[i] - '0');
    }
    if (x >= UINT32_MAX)
        return FALSE;
    *k = (uint32_t)x;
    return TRUE;
}

/* The operation labelled W in the open block. */
static gboolean label_find(GoalReader *R, const char *w, size_t n,
                           uint32_t *op)
{
    uint32_t k;
    if (fast_label(w, n, &k) && k < R->fast_len && R->fast[k]) {
        *op = R->fast[k] - 1;
        return TRUE;
    }
    if (g_hash_table_size(R->labels) == 0)
        return FALSE;
    g_string_truncate(R->key, 0);
    g_string_append_len(R->key, w, (gssize)n);
    gpointer v;
    if (!g_hash_table_lookup_extended(R->labels, R->key->str, NULL, &v))
        return FALSE;
    *op = GPOINTER_TO_UINT(v) - 1;
    return TRUE;
}

static const char *keep_string(GoalReader *R, const char *w, size_t n)
{
    R->strings_used = TRUE;
    return g_string_chunk_insert_len(R->strings, w, (gssize)n);
}

/* Labels W operation OP of the open block; FALSE if W labels another. */
static gboolean label_define(GoalReader *R, const char *w, size_t n,
                             uint32_t op)
{
    uint32_t before;
    if (label_find(R, w, n, &before)) {
        const SchedOp *o = &g_array_index(R->ops, SchedOp, before);
        problem(R, R->line, "label '%.*s' is defined twice in %s (first at "
                "line %u)", (int)n, w, R->block_name, o->line);
        return FALSE;
    }
    uint32_t k;
    if (fast_label(w, n, &k)
        && (uint64_t)k <= 2 * (uint64_t)op + GOAL_LABEL_SLACK) {
        if (k >= R->fast_len) {
            size_t len = MAX(MAX((size_t)k + 1, 2 * R->fast_len),
                             (size_t)GOAL_LABEL_SLACK);
            R->fast = g_renew(uint32_t, R->fast, len);
            memset(R->fast + R->fast_len, 0,
                   (len - R->fast_len) * sizeof *R->fast);
            R->fast_len = len;
        }
        R->fast[k] = op + 1;
        R->fast_top = MAX(R->fast_top, (size_t)k + 1);
        return TRUE;
    }
    g_hash_table_insert(R->labels, (gpointer)keep_string(R, w, n),
                        GUINT_TO_POINTER(op + 1));
    return TRUE;
}

/* ---- statements: each gives up on the line (FALSE) after a problem */

static gboolean in_block(GoalReader *R, const char *what)
{
    if (R->in_block)
        return TRUE;
    problem(R, R->line, "%s outside a rank block (a 'rank R {' line opens "
            "one)", what);
    return FALSE;
}

/* The end of an operation's or a dependency's line; NEXT lists what else
 * could have come. */
static gboolean line_end(GoalReader *R, const char *next)
{
    skip_blanks(R);
    return R->p == R->end || expected(R, next);
}

/* The optional "cpu C" or "nic N" (KW) at the cursor, into *out; *given
 * says whether it was there. FALSE after a problem of syntax. */
static gboolean unit(GoalReader *R, const char *kw, uint8_t *out,
                     gboolean *given)
{
    skip_blanks(R);
    *given = take_n(R, kw, strlen(kw));
    if (!*given)
        return TRUE;
    uint64_t v;
    const char *what = kw[0] == 'c' ? "a cpu number (digits)"
                       : "a nic number (digits)";
    if (!number(R, what, kw, 0, SCHEDULE_MAX_UNITS, NULL, &v))
        return FALSE;
    *out = (uint8_t)v;
    return TRUE;
}

/* The fields of a send or a receive, after its keyword, into *op. */
static gboolean message(GoalReader *R, SchedOp *op)
{
    gboolean send = op->kind == SCHED_SEND;
    uint64_t v;
    if (!number(R, "a size in bytes (digits)", "size", 0, SCHEDULE_MAX_BYTES,
                NULL, &v))
        return FALSE;
    op->size = v;
    skip_blanks(R);
    if (!take(R, "b"))
        return expected(R, "'b' after the size (GOAL writes 8 bytes as 8b)");
    skip_blanks(R);
    if (!(send ? take(R, "to") : take(R, "from")))
        return expected(R, send ? "'to'" : "'from'");
    skip_blanks(R);
    if (!send && take(R, "-1"))
        return bad(R, "'from -1' (any source) is not supported: every "
                   "receive of a schedule names its source");
    uint32_t most = R->nranks ? R->nranks - 1 : SCHEDULE_MAX_RANKS - 1;
    if (!number(R, "a rank (digits)", "peer", 0, most, R->nranks_hint, &v))
        return FALSE;
    op->peer = (uint32_t)v;
    skip_blanks(R);
    gboolean tag = take(R, "tag"), cpu, nic;
    if (tag) {
        skip_blanks(R);
        if (take(R, "-1"))
            return bad(R, "'tag -1' (any tag) is not supported: every tag "
                       "of a schedule is 0..%d", SCHEDULE_MAX_TAG);
        if (!number(R, "a tag (digits)", "tag", 0, SCHEDULE_MAX_TAG, NULL, &v))
            return FALSE;
        op->tag = (int32_t)v;
    }
    if (!unit(R, "cpu", &op->cpu, &cpu) || !unit(R, "nic", &op->nic, &nic))
        return FALSE;
    return line_end(R, nic ? "the end of the line"
                    : cpu ? "'nic' or the end of the line"
                    : tag ? "'cpu', 'nic' or the end of the line"
                    : "'tag', 'cpu', 'nic' or the end of the line");
}

/* An operation of KIND after its keyword, labelled LABEL (N characters;
 * none when N is 0). It is added, and its label defined, before its
 * fields are read, so that a problem with them is the only one. */
static void operation(GoalReader *R, SchedKind kind, const char *label,
                      size_t n)
{
    if (!in_block(R, "an operation"))
        return;
    if (R->ops->len >= SCHEDULE_MAX_OPS) {
        problem(R, R->line, "%s has more than %u operations (the limit)",
                R->block_name, SCHEDULE_MAX_OPS);
        R->stop = TRUE;
        return;
    }
    uint32_t index = R->ops->len;
    SchedOp blank = { .kind = (uint8_t)kind,
                      .line = R->line <= UINT32_MAX ? (uint32_t)R->line : 0 };
    g_array_append_val(R->ops, blank);
    if (n)
        label_define(R, label, n, index);
    SchedOp *op = &g_array_index(R->ops, SchedOp, index);
    if (kind != SCHED_CALC) {
        message(R, op);
        return;
    }
    uint64_t v = 0;
    gboolean cpu;
    if (number(R, "a time (digits)", "time", 0, SCHEDULE_MAX_TIME, NULL, &v)
        && unit(R, "cpu", &op->cpu, &cpu))
        line_end(R, cpu ? "the end of the line"
                 : "'cpu' or the end of the line");
    op->size = v;
}

/* The rest of "FROM requires TO" (or irequires) after the keyword. */
static void dependency(GoalReader *R, const char *from, size_t nfrom,
                       gboolean started)
{
    const char *kw = started ? "irequires" : "requires";
    skip_blanks(R);
    const char *to = R->p;
    size_t nto = take_word(R);
    if (!nto) {
        g_autofree char *what = g_strdup_printf("a label after '%s'", kw);
        expected(R, what);
        return;
    }
    if (!line_end(R, "the end of the line") || !in_block(R, "a dependency"))
        return;
    if (R->deps->len >= SCHEDULE_MAX_DEPS) {
        problem(R, R->line, "%s has more than %u dependencies (the limit)",
                R->block_name, SCHEDULE_MAX_DEPS);
        R->stop = TRUE;
        return;
    }
    GoalDep d = { .started = started, .line = R->line };
    gboolean known = label_find(R, from, nfrom, &d.from)
                     && label_find(R, to, nto, &d.to);
    if (known && d.from == d.to) {
        problem(R, R->line, "%.*s %s itself", (int)nfrom, from, kw);
        return;
    }
    if (!known) {
        GoalPending p = { keep_string(R, from, nfrom), keep_string(R, to, nto) };
        g_array_append_val(R->pending, p);
        d.pending = R->pending->len;
    }
    g_array_append_val(R->deps, d);
}

/* "num_ranks N" after its keyword. */
static gboolean num_ranks(GoalReader *R)
{
    uint64_t v;
    unsigned before = R->count;
    R->nranks_said = TRUE;
    if (!number(R, "a number of ranks after 'num_ranks' (digits)", "num_ranks",
                1, SCHEDULE_MAX_RANKS, NULL, &v))
        return FALSE;
    if (R->in_block) {
        problem(R, R->line, "num_ranks inside %s (it comes before the "
                "first block)", R->block_name);
        return FALSE;
    }
    if (R->nranks_line) {
        problem(R, R->line, "num_ranks is given twice (first at line %"
                G_GUINT64_FORMAT ")", R->nranks_line);
        return FALSE;
    }
    if (R->any_block) {
        problem(R, R->line, "num_ranks after a rank block (it comes before "
                "the first)");
        return FALSE;
    }
    /* Out of range: given, but no rank can be checked against it. */
    R->nranks_line = R->line;
    R->nranks = R->count == before ? (uint32_t)v : 0;
    if (R->nranks)
        g_snprintf(R->nranks_hint, sizeof R->nranks_hint,
                   ", for num_ranks %u", R->nranks);
    return TRUE;
}

static void close_block(GoalReader *R);

/* Opens a block for rank R, which KNOWN says was read. */
static void open_block(GoalReader *R, uint32_t r, gboolean known)
{
    R->any_block = TRUE;
    R->in_block = TRUE;
    R->block_line = R->line;
    R->block_kept = FALSE;
    if (known)
        g_snprintf(R->block_name, sizeof R->block_name, "rank %u's block", r);
    else
        g_strlcpy(R->block_name, "the block", sizeof R->block_name);
    if (!known)
        return;
    if (!R->nranks_line) {
        if (!R->told_no_nranks)
            problem(R, R->line, "'rank %u {' before 'num_ranks N' (a GOAL "
                    "schedule opens with num_ranks)", r);
        R->told_no_nranks = TRUE;
        return;
    }
    if (!R->nranks || r >= R->nranks)
        return;               /* num_ranks or r was refused: said already */
    if (r == R->next_rank) {
        R->next_rank = r + 1;
        if (R->block_lines->len == r) {
            R->block_kept = TRUE;
            g_array_append_val(R->block_lines, R->line);
        } else                    /* after blocks out of order */
            g_hash_table_insert(R->late, GUINT_TO_POINTER(r + 1),
                                g_memdup2(&R->line, sizeof R->line));
        return;
    }
    guint64 *first = g_hash_table_lookup(R->late, GUINT_TO_POINTER(r + 1));
    if (r < R->block_lines->len)
        first = &g_array_index(R->block_lines, guint64, r);
    if (first) {
        problem(R, R->line, "rank %u's block is given twice (first at line %"
                G_GUINT64_FORMAT ")", r, *first);
        return;
    }
    if (r > R->next_rank) {
        problem(R, R->line, "rank %u's block where rank %u's was expected "
                "(blocks go in rank order, 0 to %u, each once)", r,
                R->next_rank, R->nranks - 1);
        R->next_rank = r + 1;
    } else {
        problem(R, R->line, "rank %u's block is out of order (blocks go in "
                "rank order, 0 to %u, each once)", r, R->nranks - 1);
    }
    g_hash_table_insert(R->late, GUINT_TO_POINTER(r + 1),
                        g_memdup2(&R->line, sizeof R->line));
}

/* "rank R {" after its keyword: opens R's block. A header that cannot be
 * read whole still opens one (of rank R if R was read), so that its lines
 * are read as a block's rather than each refused as outside one. */
static gboolean rank_header(GoalReader *R)
{
    uint64_t v;
    uint32_t most = R->nranks ? R->nranks - 1 : SCHEDULE_MAX_RANKS - 1;
    unsigned before = R->count;
    gboolean known = number(R, "a rank number after 'rank' (digits)", "rank",
                            0, most, R->nranks_hint, &v)
                     && R->count == before;
    gboolean ok = known;
    if (known) {
        skip_blanks(R);
        if (!take(R, "{")) {
            g_autofree char *what = g_strdup_printf("'{' after 'rank %" PRIu64
                                                    "'", v);
            ok = expected(R, what);
        }
    }
    if (R->in_block) {
        if (ok)
            problem(R, R->line, "'rank %" PRIu64 " {' inside %s (opened at "
                    "line %" G_GUINT64_FORMAT "): is a '}' missing?", v,
                    R->block_name, R->block_line);
        close_block(R);
    }
    open_block(R, known ? (uint32_t)v : 0, known);
    return ok;
}

/* The open block's pending dependencies, resolved now that all its labels
 * are known. */
static void resolve(GoalReader *R)
{
    GoalDep *deps = (GoalDep *)(void *)R->deps->data;
    for (guint j = 0; j < R->deps->len; j++) {
        GoalDep *d = &deps[j];
        if (!d->pending)
            continue;
        const GoalPending *p = &g_array_index(R->pending, GoalPending,
                                              d->pending - 1);
        const char *kw = d->started ? "irequires" : "requires";
        const char *missing = !label_find(R, p->from, strlen(p->from), &d->from)
                              ? p->from
                              : !label_find(R, p->to, strlen(p->to), &d->to)
                              ? p->to : NULL;
        if (missing)
            problem(R, d->line, "%s has no label '%s' (%s %s %s)",
                    R->block_name, missing, p->from, kw, p->to);
        else if (d->from == d->to)
            problem(R, d->line, "%s %s itself", p->from, kw);
        d->pending = 0;
    }
}

/* The open block as the next rank's arrays: exact, the dependencies grouped
 * by operation in the order the file gave them. */
static void keep_block(GoalReader *R)
{
    uint32_t nops = R->ops->len, ndeps = R->deps->len;
    SchedRank k = { .nops = nops, .ndeps = ndeps, .ops_room = nops,
                    .deps_room = ndeps };
    k.ops = nops ? g_memdup2(R->ops->data, (gsize)nops * sizeof(SchedOp))
            : NULL;
    const GoalDep *d = (const GoalDep *)(const void *)R->deps->data;
    for (uint32_t j = 0; j < ndeps; j++)
        k.ops[d[j].from].ndeps++;
    uint32_t first = 0;
    for (uint32_t i = 0; i < nops; i++) {
        k.ops[i].dep_first = first;
        first += k.ops[i].ndeps;
        k.ops[i].ndeps = 0;
    }
    k.deps = ndeps ? g_new(SchedDep, ndeps) : NULL;
    for (uint32_t j = 0; j < ndeps; j++) {
        SchedOp *o = &k.ops[d[j].from];
        k.deps[o->dep_first + o->ndeps++] =
            (SchedDep){ .op = d[j].to, .started = d[j].started ? 1 : 0 };
    }
    g_array_append_val(R->ranks, k);
}

/* '}': the open block's end. */
static void close_block(GoalReader *R)
{
    resolve(R);
    if (R->storing && R->block_kept)
        keep_block(R);
    g_array_set_size(R->ops, 0);
    g_array_set_size(R->deps, 0);
    g_array_set_size(R->pending, 0);
    if (R->fast_top)
        memset(R->fast, 0, R->fast_top * sizeof *R->fast);
    R->fast_top = 0;
    if (g_hash_table_size(R->labels))
        g_hash_table_remove_all(R->labels);
    if (R->strings_used)
        g_string_chunk_clear(R->strings);
    R->strings_used = FALSE;
    R->in_block = FALSE;
}

/* A statement that starts with the word W (N characters): TRUE when
 * another may follow it on the line (num_ranks, a block's header), FALSE
 * when it took the line (an operation, a dependency) or gave up on it. */
static gboolean statement(GoalReader *R, const char *w, size_t n)
{
    if (word_is(w, n, goal_num_ranks))
        return num_ranks(R);
    if (word_is(w, n, goal_rank))
        return rank_header(R);
    SchedKind kind = word_is(w, n, goal_send) ? SCHED_SEND
                     : word_is(w, n, goal_recv) ? SCHED_RECV : SCHED_CALC;
    if (kind != SCHED_CALC || word_is(w, n, goal_calc)) {
        operation(R, kind, NULL, 0);
        return FALSE;
    }
    skip_blanks(R);
    if (take(R, ":")) {
        skip_blanks(R);
        if (take(R, goal_send))
            operation(R, SCHED_SEND, w, n);
        else if (take(R, goal_recv))
            operation(R, SCHED_RECV, w, n);
        else if (take(R, goal_calc))
            operation(R, SCHED_CALC, w, n);
        else
            expected(R, "'send', 'recv' or 'calc'");
        return FALSE;
    }
    if (take(R, "requires"))
        dependency(R, w, n, FALSE);
    else if (take(R, "irequires"))
        dependency(R, w, n, TRUE);
    else {
        g_autofree char *what = g_strdup_printf("':', 'requires' or "
                                                "'irequires' after label "
                                                "'%.*s'", (int)n, w);
        expected(R, what);
    }
    return FALSE;
}

/* ---- the fast path: Schedgen's lines */

/* Digits at P (at most GOAL_FAST_DIGITS), into *v; the end, or NULL when
 * there are none or more. */
static const char *fast_digits(const char *p, const char *end, uint64_t *v)
{
    const char *start = p, *stop = end - p > GOAL_FAST_DIGITS
                                       ? p + GOAL_FAST_DIGITS : end;
    uint64_t x = 0;
    while (p < stop && is_digit(*p))
        x = x * 10 + (uint64_t)(*p++ - '0');
    if (p == start || (p < end && is_digit(*p)))
        return NULL;
    *v = x;
    return p;
}

/* A label at P that no keyword can be ('l', a digit, then any word
 * characters, as take_word reads it): its end, or NULL. */
static const char *fast_label_word(const char *p, const char *end)
{
    if (end - p < 2 || p[0] != 'l' || !is_digit(p[1]))
        return NULL;
    for (p += 2; p < end && is_word(*p); p++)
        ;
    return p;
}

/* LIT (N characters) at P: the end, or NULL. */
static const char *fast_literal(const char *p, const char *end,
                                const char *lit, size_t n)
{
    return p && (size_t)(end - p) >= n && memcmp(p, lit, n) == 0 ? p + n
                                                                  : NULL;
}

#define fast_take(p, end, lit) fast_literal((p), (end), (lit), sizeof(lit) - 1)

/* The line [R->text, R->end) of the open block when it is one of the
 * lines Schedgen writes, "L: send Sb to P tag T" (recv ... from ...),
 * "L: calc T" or "L requires M" (irequires), with single blanks and every
 * number in range and every label of a dependency defined: taken as the
 * general parser below takes it, with the same effect, and TRUE. Anything
 * else, FALSE with nothing done, for the general parser, which names what
 * is wrong. Most of a large schedule's lines are these, and the general
 * parser's steps (a call a token, each with its checks and messages)
 * would cost several times as much. */
static gboolean fast_line(GoalReader *R)
{
    const char *p = R->text, *end = R->end, *w = p;
    p = fast_label_word(p, end);
    if (!p || p == end)
        return FALSE;
    size_t nw = (size_t)(p - w);
    if (*p == ' ') {
        gboolean started = FALSE;
        const char *q = fast_take(p + 1, end, "requires ");
        if (!q) {
            q = fast_take(p + 1, end, "irequires ");
            started = TRUE;
        }
        const char *to = q, *e = q ? fast_label_word(q, end) : NULL;
        if (e != end || R->deps->len >= SCHEDULE_MAX_DEPS)
            return FALSE;
        GoalDep d = { .started = started, .line = R->line };
        if (!label_find(R, w, nw, &d.from)
            || !label_find(R, to, (size_t)(e - to), &d.to) || d.from == d.to)
            return FALSE;
        g_array_append_val(R->deps, d);
        return TRUE;
    }
    p = fast_take(p, end, ": ");
    if (!p || end - p < 5)
        return FALSE;
    SchedOp op = { .line = R->line <= UINT32_MAX ? (uint32_t)R->line : 0 };
    if (!memcmp(p, "send ", 5))
        op.kind = SCHED_SEND;
    else if (!memcmp(p, "recv ", 5))
        op.kind = SCHED_RECV;
    else if (!memcmp(p, "calc ", 5))
        op.kind = SCHED_CALC;
    else
        return FALSE;
    p = fast_digits(p + 5, end, &op.size);
    if (!p)
        return FALSE;
    if (op.kind == SCHED_CALC) {
        if (p != end || op.size > SCHEDULE_MAX_TIME)
            return FALSE;
    } else {
        uint64_t peer, tag;
        uint32_t most = R->nranks ? R->nranks - 1 : SCHEDULE_MAX_RANKS - 1;
        p = op.kind == SCHED_SEND ? fast_take(p, end, "b to ")
                                  : fast_take(p, end, "b from ");
        if (!p || !(p = fast_digits(p, end, &peer))
            || !(p = fast_take(p, end, " tag "))
            || fast_digits(p, end, &tag) != end || op.size > SCHEDULE_MAX_BYTES
            || peer > most || tag > SCHEDULE_MAX_TAG)
            return FALSE;
        op.peer = (uint32_t)peer;
        op.tag = (int32_t)tag;
    }
    if (R->ops->len >= SCHEDULE_MAX_OPS)
        return FALSE;
    uint32_t index = R->ops->len;
    g_array_append_val(R->ops, op);
    label_define(R, w, nw, index);
    return TRUE;
}

/* One line, without its newline. Statements follow each other on a line
 * until an operation or a dependency, which ends it. */
static void parse_line(GoalReader *R, const char *text, size_t len)
{
    if (len && text[len - 1] == '\r')
        len--;
    R->text = R->p = text;
    R->end = text + len;
    if (R->in_block && !R->in_comment && fast_line(R))
        return;
    for (;;) {
        if (R->in_comment) {
            const char *p = R->p;
            while (p + 1 < R->end && !(p[0] == '*' && p[1] == '/'))
                p++;
            if (p + 1 >= R->end)
                return;
            R->p = p + 2;
            R->in_comment = FALSE;
        }
        skip_blanks(R);
        if (R->p == R->end)
            return;
        const char *p = R->p;
        if (*p == '/' && p + 1 < R->end && p[1] == '/')
            return;
        if (*p == '/' && p + 1 < R->end && p[1] == '*') {
            R->in_comment = TRUE;
            R->comment_line = R->line;
            R->p += 2;
            continue;
        }
        if (*p == '}') {
            R->p++;
            if (!R->in_block) {
                problem(R, R->line, "'}' without an open rank block");
                return;
            }
            close_block(R);
            continue;
        }
        size_t n = take_word(R);
        if (!n) {
            expected(R, "a label, 'send', 'recv', 'calc', 'rank', "
                     "'num_ranks', '}' or a comment");
            return;
        }
        if (!statement(R, p, n))
            return;
    }
}

/* Up to N bytes of SRC into BUF: how many (0 at the end), or -1 and
 * errno. */
static gssize source_read(GoalSource *src, char *buf, size_t n)
{
    if (src->fd < 0) {
        size_t k = MIN(n, src->len - src->at);
        if (k)
            memcpy(buf, src->data + src->at, k);
        src->at += k;
        return (gssize)k;
    }
    for (;;) {
        gssize k = read(src->fd, buf, n);
        if (k >= 0 || errno != EINTR)
            return k;
    }
}

/* The end of the file: what is still open, what is missing. */
static void finish(GoalReader *R, guint64 bytes)
{
    guint64 last = R->line;
    if (bytes == 0) {
        problem(R, 0, "empty file (a GOAL schedule opens with 'num_ranks N')");
        return;
    }
    if (R->in_comment)
        problem(R, R->comment_line, "'/*' is never closed (the file ends at "
                "line %" G_GUINT64_FORMAT ")", last);
    if (R->in_block)
        problem(R, R->block_line, "%s is never closed: '}' is missing (the "
                "file ends at line %" G_GUINT64_FORMAT ")", R->block_name,
                last);
    if (!R->nranks_said)
        problem(R, 0, "no 'num_ranks N' (a GOAL schedule opens with it)");
    else if (R->nranks && R->next_rank < R->nranks && !R->in_comment) {
        if (R->next_rank + 1 == R->nranks)
            problem(R, 0, "no block for rank %u (num_ranks is %u)",
                    R->next_rank, R->nranks);
        else
            problem(R, 0, "no blocks for ranks %u to %u (num_ranks is %u)",
                    R->next_rank, R->nranks - 1, R->nranks);
    }
}

/* The next line, LEN bytes without its newline: read, or refused when it
 * is longer than GOAL_MAX_LINE. */
static void line(GoalReader *R, const char *text, size_t len)
{
    R->line++;
    if (len <= GOAL_MAX_LINE) {
        parse_line(R, text, len);
        return;
    }
    R->text = R->p = text;
    R->end = text + len;
    bad(R, "line longer than %zu characters", GOAL_MAX_LINE);
}

static void reader_free(GoalReader *R)
{
    for (guint r = 0; r < R->ranks->len; r++) {
        g_free(g_array_index(R->ranks, SchedRank, r).ops);
        g_free(g_array_index(R->ranks, SchedRank, r).deps);
    }
    g_array_free(R->ranks, TRUE);
    g_array_free(R->block_lines, TRUE);
    g_hash_table_destroy(R->late);
    g_array_free(R->ops, TRUE);
    g_array_free(R->deps, TRUE);
    g_array_free(R->pending, TRUE);
    g_free(R->fast);
    g_hash_table_destroy(R->labels);
    g_string_chunk_free(R->strings);
    g_string_free(R->key, TRUE);
    for (guint i = 0; i < R->problems->len; i++)
        g_string_free(g_array_index(R->problems, GoalProblem, i).text, TRUE);
    g_array_free(R->problems, TRUE);
}

static Schedule *goal_parse(const char *name, GoalSource *src, GError **error)
{
    GoalReader R = {
        .name = name,
        .problems = g_array_new(FALSE, FALSE, sizeof(GoalProblem)),
        .storing = TRUE,
        .block_lines = g_array_new(FALSE, FALSE, sizeof(guint64)),
        .late = g_hash_table_new_full(NULL, NULL, NULL, g_free),
        .ranks = g_array_new(FALSE, FALSE, sizeof(SchedRank)),
        .ops = g_array_new(FALSE, FALSE, sizeof(SchedOp)),
        .deps = g_array_new(FALSE, FALSE, sizeof(GoalDep)),
        .pending = g_array_new(FALSE, FALSE, sizeof(GoalPending)),
        .labels = g_hash_table_new(g_str_hash, g_str_equal),
        .strings = g_string_chunk_new(4096),
        .key = g_string_new(NULL),
    };
    /* Text in memory shorter than a buffer needs only its own length (and
     * a byte, so that a read finds the end rather than no room). */
    size_t size = src->fd < 0 ? MIN(GOAL_BUFFER, src->len + 1) : GOAL_BUFFER;
    char *buf = g_malloc(size);
    size_t have = 0;              /* bytes in buf: the start of a line */
    guint64 bytes = 0;
    /* In a line too long to read, which was counted and refused when
     * found: the rest of it is skipped. */
    gboolean long_line = FALSE;
    gboolean eof = FALSE;
    while (!R.stop && !eof) {
        gssize n = source_read(src, buf + have, size - have);
        if (n < 0) {
            problem(&R, 0, "cannot read: %s", g_strerror(errno));
            R.stop = TRUE;
            break;
        }
        if (n > 0 && memchr(buf + have, '\0', (size_t)n)) {
            problem(&R, 0, "not a text file (it holds NUL bytes; a GOAL "
                    "schedule is text)");
            R.stop = TRUE;
            break;
        }
        eof = n == 0;
        bytes += (guint64)n;
        have += (size_t)n;
        const char *p = buf, *e = buf + have, *nl;
        while (!R.stop && (nl = memchr(p, '\n', (size_t)(e - p)))) {
            if (long_line)
                long_line = FALSE;
            else
                line(&R, p, (size_t)(nl - p));
            p = nl + 1;
        }
        size_t rest = (size_t)(e - p);
        if (R.stop)
            break;
        if (!long_line && (eof ? rest > 0 : rest > GOAL_MAX_LINE)) {
            line(&R, p, rest);      /* the last, with no newline; or one
                                     * already too long, refused */
            long_line = !eof;
        }
        if (eof || long_line)
            rest = 0;
        memmove(buf, p, rest);
        have = rest;
    }
    g_free(buf);
    if (!R.stop)
        finish(&R, bytes);
    if (R.count) {
        char *text = problems_text(&R);
        g_set_error_literal(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT, text);
        g_free(text);
        reader_free(&R);
        return NULL;
    }
    Schedule *s = schedule_new(name, R.nranks);
    memcpy(s->ranks, R.ranks->data, (size_t)R.nranks * sizeof(SchedRank));
    g_array_set_size(R.ranks, 0);
    reader_free(&R);
    if (!schedule_check(s, error)) {
        schedule_free(s);
        return NULL;
    }
    return s;
}

Schedule *goal_read_data(const char *name, const char *text, size_t len,
                         GError **error)
{
    g_return_val_if_fail(name != NULL && (text != NULL || len == 0), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    GoalSource src = { .fd = -1, .data = text, .len = len };
    return goal_parse(name, &src, error);
}

static Schedule *goal_read(const char *path, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                    "%s: cannot read: %s", path, g_strerror(e));
        return NULL;
    }
    GoalSource src = { .fd = fd };
    Schedule *s = goal_parse(path, &src, error);
    close(fd);
    return s;
}

/* ------------------------------------------------------------- writing */

/* What goal_write hands output_write_file: the schedule and scratch for
 * its largest rank. */
typedef struct {
    const Schedule *s;
    uint32_t *count;              /* nops + 1: how many operations' lines of
                                   * dependencies follow each line, then
                                   * where each line's run of them ends */
    uint32_t *order;              /* 2 nops: the line each operation's
                                   * dependencies follow, then the
                                   * operations sorted by it */
} GoalWrite;

/* The longest line written: "lI: send Sb to P tag T cpu C nic N". */
#define GOAL_LINE_MAX 160

/* Appends X in decimal at P; returns the end. (fprintf's formatting
 * would take most of a large schedule's writing time.) */
static char *put_u64(char *p, uint64_t x)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (n)
        *p++ = digits[--n];
    return p;
}

static char *put_str(char *p, const char *text)
{
    size_t n = strlen(text);
    memcpy(p, text, n);
    return p + n;
}

/* Operation I's line, as Schedgen writes it: "lI+1: ...". */
static void write_op(FILE *out, const SchedOp *o, uint32_t i)
{
    char line[GOAL_LINE_MAX], *p = line;
    *p++ = 'l';
    p = put_u64(p, (uint64_t)i + 1);
    if (o->kind == SCHED_CALC) {
        p = put_str(p, ": calc ");
        p = put_u64(p, o->size);
    } else {
        gboolean send = o->kind == SCHED_SEND;
        p = put_str(p, send ? ": send " : ": recv ");
        p = put_u64(p, o->size);
        p = put_str(p, send ? "b to " : "b from ");
        p = put_u64(p, o->peer);
        p = put_str(p, " tag ");
        p = put_u64(p, (uint64_t)o->tag);
    }
    if (o->cpu) {
        p = put_str(p, " cpu ");
        p = put_u64(p, o->cpu);
    }
    if (o->nic) {               /* never a calc's: goal_write refuses it */
        p = put_str(p, " nic ");
        p = put_u64(p, o->nic);
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), out);
}

/* "lI+1 requires lJ+1" (or irequires). */
static void write_dep(FILE *out, uint32_t i, SchedDep d)
{
    char line[GOAL_LINE_MAX], *p = line;
    *p++ = 'l';
    p = put_u64(p, (uint64_t)i + 1);
    p = put_str(p, d.started ? " irequires l" : " requires l");
    p = put_u64(p, (uint64_t)d.op + 1);
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), out);
}

/* A rank's block. A dependency line names two labels, which txt2bin
 * needs defined before it: an operation's dependencies are written, in
 * their order, after the line of the last operation they name (its own,
 * as Schedgen writes them, when they name earlier ones). */
static void write_rank(FILE *out, GoalWrite *w, uint32_t r)
{
    const SchedRank *k = &w->s->ranks[r];
    fprintf(out, "\nrank %u {\n", r);
    uint32_t *at = w->count;      /* at[i]: where op i's dependencies go */
    memset(at, 0, ((size_t)k->nops + 1) * sizeof *at);
    for (uint32_t i = 0; i < k->nops; i++) {
        uint32_t last = i;
        for (uint32_t d = 0; d < k->ops[i].ndeps; d++)
            last = MAX(last, k->deps[k->ops[i].dep_first + d].op);
        w->order[i] = last;
        at[last + 1]++;
    }
    for (uint32_t i = 0; i < k->nops; i++)
        at[i + 1] += at[i];
    /* order: the operations sorted by where, stably; at[i] becomes the
     * end of place i's run. */
    uint32_t *sorted = w->order + k->nops;
    for (uint32_t i = 0; i < k->nops; i++)
        sorted[at[w->order[i]]++] = i;
    uint32_t j = 0;
    for (uint32_t i = 0; i < k->nops; i++) {
        write_op(out, &k->ops[i], i);
        for (; j < at[i]; j++) {
            const SchedOp *o = &k->ops[sorted[j]];
            for (uint32_t d = 0; d < o->ndeps; d++)
                write_dep(out, sorted[j], k->deps[o->dep_first + d]);
        }
    }
    fputs("}\n", out);
}

static gboolean write_goal(FILE *out, const char *path, void *data,
                           GError **error)
{
    (void)path;
    (void)error;
    GoalWrite *w = data;
    schedule_write_comment(w->s, out, "//");
    fprintf(out, "num_ranks %u\n", w->s->nranks);
    for (uint32_t r = 0; r < w->s->nranks && !ferror(out); r++)
        write_rank(out, w, r);
    return TRUE;
}

/* Whether S can be written as GOAL (NAME in messages): it holds the
 * invariants, and no calc is on a nic, which GOAL's calc cannot say. The
 * writer's scratch, sized for S, in *w. */
static gboolean writable(const Schedule *s, const char *name, GoalWrite *w,
                         GError **error)
{
    if (!schedule_check(s, error))
        return FALSE;
    uint32_t most = 0;
    for (uint32_t r = 0; r < s->nranks; r++) {
        const SchedRank *k = &s->ranks[r];
        for (uint32_t i = 0; i < k->nops; i++)
            if (k->ops[i].kind == SCHED_CALC && k->ops[i].nic) {
                g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                            "%s: rank %u, operation %u: a calc on nic %u "
                            "cannot be written as GOAL (its calc has no "
                            "nic)", name, r, i, k->ops[i].nic);
                return FALSE;
            }
        most = MAX(most, k->nops);
    }
    *w = (GoalWrite){ .s = s, .count = g_new(uint32_t, (size_t)most + 1),
                      .order = g_new(uint32_t, 2 * (size_t)most + 1) };
    return TRUE;
}

static gboolean goal_write(const Schedule *s, const char *path,
                           GError **error)
{
    g_return_val_if_fail(s != NULL && path != NULL, FALSE);
    g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
    GoalWrite w;
    if (!writable(s, path, &w, error))
        return FALSE;
    gboolean ok = output_write_file(path, write_goal, &w, error);
    g_free(w.count);
    g_free(w.order);
    return ok;
}

gboolean goal_write_stream(const Schedule *s, FILE *out, const char *name,
                           GError **error)
{
    g_return_val_if_fail(s != NULL && out != NULL && name != NULL, FALSE);
    g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
    GoalWrite w;
    if (!writable(s, name, &w, error))
        return FALSE;
    write_goal(out, name, &w, NULL);
    g_free(w.count);
    g_free(w.order);
    return TRUE;
}

const ScheduleFormat schedule_format_goal = {
    .name = "goal",
    .extension = ".goal",
    .summary = "LogGOPSim's GOAL text, as its Schedgen writes and its "
               "txt2bin reads it",
    .read = goal_read,
    .write = goal_write,
};
