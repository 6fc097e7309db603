/* scenario.c -- scenario files: (group, key) -> value entries that remember
 * where each value came from.
 *
 * Invariant of a Scenario:
 *  - s->groups holds every Group once, in the order first given; the hash
 *    s->group_index maps each group name to that same Group (borrowed), and
 *    holds nothing else. Group names are unique.
 *  - Likewise g->entries holds every Entry of a group once, in the order
 *    first given, and g->index maps each key to that same Entry (borrowed).
 *    Replacing a value keeps the entry's position.
 *  - Every string is owned by exactly one Scenario/Group/Entry and freed with
 *    it; the arrays own their elements (free functions set), the indexes own
 *    nothing (their keys are the names inside the elements).
 *  - s->missing_where is "scenario NAME", computed once so that scenario_where
 *    and scenario_group_where can return it for absent entries with the
 *    Scenario's lifetime.
 *
 * The file parser is a hand-written line parser (it knows line numbers,
 * GKeyFile's errors do not). It collects every problem of a file, then
 * fails once with all of them.
 */
#include "scenario.h"
#include "keyvalue.h"
#include "suggest.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A line longer than this is not a hand-written scenario line: it is binary
 * junk or a wrong file, and echoing it in a message would flood the
 * terminal. */
#define SCENARIO_MAX_LINE 4096

/* Scenario files are a few dozen lines. Reading stops beyond this size so a
 * wrong path (a log, /dev/zero) fails quickly instead of eating memory. */
#define SCENARIO_MAX_FILE (1024 * 1024)

/* An over-long line is echoed only this far (in bytes, cut at a character
 * boundary) so that its message stays readable. */
#define SCENARIO_ECHO_MAX 60

G_DEFINE_QUARK(scenario-error-quark, scenario_error)

typedef struct {
    char *key;
    char *value;
    char *where;      /* "file:line", "--set a.b=c", or given to _put */
    int line;         /* line in the file being loaded; 0 when not a file */
} Entry;

typedef struct {
    char *name;
    char *where;      /* where the group was first given */
    GPtrArray *entries;     /* Entry*, owned, in order first given */
    GHashTable *index;      /* key -> Entry* (borrowed) */
} Group;

struct Scenario {
    char *name;
    char *dir;              /* the file's folder (scenario_load_file) */
    char *missing_where;    /* "scenario NAME" */
    GPtrArray *groups;      /* Group*, owned, in order first given */
    GHashTable *group_index;/* name -> Group* (borrowed) */
};

/* ---------------------------------------------------------------- storage */

static void entry_free(gpointer p) {
    Entry *e = p;
    if (e == NULL) return;
    g_free(e->key);
    g_free(e->value);
    g_free(e->where);
    g_free(e);
}

static void group_free(gpointer p) {
    Group *g = p;
    if (g == NULL) return;
    g_hash_table_destroy(g->index);
    g_ptr_array_free(g->entries, TRUE);
    g_free(g->name);
    g_free(g->where);
    g_free(g);
}

Scenario *scenario_new(const char *name) {
    Scenario *s = g_new0(Scenario, 1);
    s->name = g_strdup(name != NULL ? name : "default");
    s->missing_where = g_strdup_printf("scenario %s", s->name);
    s->groups = g_ptr_array_new_with_free_func(group_free);
    s->group_index = g_hash_table_new(g_str_hash, g_str_equal);
    return s;
}

void scenario_free(Scenario *s) {
    if (s == NULL) return;
    g_hash_table_destroy(s->group_index);
    g_ptr_array_free(s->groups, TRUE);
    g_free(s->name);
    g_free(s->dir);
    g_free(s->missing_where);
    g_free(s);
}

const char *scenario_name(const Scenario *s) {
    g_return_val_if_fail(s != NULL, NULL);
    return s->name;
}

static Group *group_find(const Scenario *s, const char *name) {
    return g_hash_table_lookup(s->group_index, name);
}

static Entry *entry_find(const Scenario *s, const char *group,
                         const char *key) {
    Group *g = group_find(s, group);
    return g != NULL ? g_hash_table_lookup(g->index, key) : NULL;
}

/* The group `name`, created (located at `where`) when absent. */
static Group *group_obtain(Scenario *s, const char *name, const char *where) {
    Group *g = group_find(s, name);
    if (g != NULL) return g;
    g = g_new0(Group, 1);
    g->name = g_strdup(name);
    g->where = g_strdup(where);
    g->entries = g_ptr_array_new_with_free_func(entry_free);
    g->index = g_hash_table_new(g_str_hash, g_str_equal);
    g_ptr_array_add(s->groups, g);
    g_hash_table_insert(s->group_index, g->name, g);
    return g;
}

static void entry_put(Scenario *s, const char *group, const char *key,
                      const char *value, const char *where, int line) {
    Group *g = group_obtain(s, group, where);
    Entry *e = g_hash_table_lookup(g->index, key);
    if (e == NULL) {
        e = g_new0(Entry, 1);
        e->key = g_strdup(key);
        g_ptr_array_add(g->entries, e);
        g_hash_table_insert(g->index, e->key, e);
    }
    g_free(e->value);
    g_free(e->where);
    e->value = g_strdup(value);
    e->where = g_strdup(where);
    e->line = line;
}

void scenario_put(Scenario *s, const char *group, const char *key,
                  const char *value, const char *where) {
    g_return_if_fail(s != NULL && group != NULL && key != NULL);
    g_return_if_fail(value != NULL && where != NULL);
    entry_put(s, group, key, value, where, 0);
}

const char *scenario_get(const Scenario *s, const char *group,
                         const char *key) {
    g_return_val_if_fail(s != NULL && group != NULL && key != NULL, NULL);
    Entry *e = entry_find(s, group, key);
    return e != NULL ? e->value : NULL;
}

const char *scenario_where(const Scenario *s, const char *group,
                           const char *key) {
    g_return_val_if_fail(s != NULL && group != NULL && key != NULL, NULL);
    Entry *e = entry_find(s, group, key);
    return e != NULL ? e->where : s->missing_where;
}

char *scenario_path(const Scenario *s, const char *group, const char *key) {
    g_return_val_if_fail(s != NULL && group != NULL && key != NULL, NULL);
    Entry *e = entry_find(s, group, key);
    if (e == NULL)
        return NULL;
    if (e->line > 0 && s->dir != NULL && !g_path_is_absolute(e->value)) {
        /* A file in the current folder: "./x.so" as given, not "././x.so"
         * in the messages that show the path. */
        if (!strcmp(s->dir, ".") && g_str_has_prefix(e->value, "./"))
            return g_strdup(e->value);
        return g_build_filename(s->dir, e->value, NULL);
    }
    return g_strdup(e->value);
}

gboolean scenario_has_group(const Scenario *s, const char *group) {
    g_return_val_if_fail(s != NULL && group != NULL, FALSE);
    return group_find(s, group) != NULL;
}

char **scenario_keys(const Scenario *s, const char *group) {
    g_return_val_if_fail(s != NULL && group != NULL, NULL);
    Group *g = group_find(s, group);
    guint n = g != NULL ? g->entries->len : 0;
    char **keys = g_new0(char *, n + 1);
    for (guint i = 0; i < n; i++)
        keys[i] = g_strdup(((Entry *)g_ptr_array_index(g->entries, i))->key);
    return keys;
}

char **scenario_groups(const Scenario *s) {
    g_return_val_if_fail(s != NULL, NULL);
    char **names = g_new0(char *, s->groups->len + 1);
    for (guint i = 0; i < s->groups->len; i++)
        names[i] = g_strdup(((Group *)g_ptr_array_index(s->groups, i))->name);
    return names;
}

const char *scenario_group_where(const Scenario *s, const char *group) {
    g_return_val_if_fail(s != NULL && group != NULL, NULL);
    Group *g = group_find(s, group);
    return g != NULL ? g->where : s->missing_where;
}

void scenario_remove_key(Scenario *s, const char *group, const char *key) {
    g_return_if_fail(s != NULL && group != NULL && key != NULL);
    Group *g = group_find(s, group);
    if (g == NULL) return;
    Entry *e = g_hash_table_lookup(g->index, key);
    if (e == NULL) return;
    g_hash_table_remove(g->index, key);
    g_ptr_array_remove(g->entries, e);          /* frees e, keeps order */
}

void scenario_remove_group(Scenario *s, const char *group) {
    g_return_if_fail(s != NULL && group != NULL);
    Group *g = group_find(s, group);
    if (g == NULL) return;
    g_hash_table_remove(s->group_index, group);
    g_ptr_array_remove(s->groups, g);           /* frees g, keeps order */
}

/* ------------------------------------------------------------ file syntax */

static gboolean is_name_char(char c) {
    return g_ascii_isalnum(c) || c == '-' || c == '_' || c == '.';
}

/* Non-empty and made of name characters only (group and key names). */
static gboolean is_name(const char *p, size_t len) {
    if (len == 0) return FALSE;
    for (size_t i = 0; i < len; i++)
        if (!is_name_char(p[i])) return FALSE;
    return TRUE;
}

static gboolean is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Cut an inline comment: a '#' or ';' that follows white space. */
static void cut_inline_comment(char *line) {
    for (char *p = line + 1; *p != '\0'; p++) {
        if ((*p == '#' || *p == ';') && is_blank(p[-1])) {
            *p = '\0';
            return;
        }
    }
}

/* State of one load: the scenario being filled and the problems found. */
typedef struct {
    Scenario *s;
    const char *name;
    GString *problems;      /* "name:line: ..." lines joined with '\n' */
    char *group;            /* current group, NULL before the first header */
    int count;              /* problems found, listed or not */
} Loader;

/* A file of another kind, or a scenario gone badly wrong, would print a
 * line for each of its lines: the first ones are enough to act on. */
#define SCENARIO_MAX_PROBLEMS 20

static void G_GNUC_PRINTF(3, 4)
problem(Loader *ld, int line, const char *fmt, ...) {
    va_list ap;
    if (++ld->count > SCENARIO_MAX_PROBLEMS)
        return;
    if (ld->problems->len > 0) g_string_append_c(ld->problems, '\n');
    g_string_append_printf(ld->problems, "%s:%d: ", ld->name, line);
    va_start(ap, fmt);
    g_string_append_vprintf(ld->problems, fmt, ap);
    va_end(ap);
}

/* Report `reason` for a line, echoing the line (trimmed). */
static void bad_line(Loader *ld, int line, const char *text,
                     const char *reason) {
    problem(ld, line, "%s: '%s'", reason, text);
}

static void parse_header(Loader *ld, int lineno, const char *echo, char *t) {
    char *close = strchr(t, ']');
    if (close == NULL) {
        bad_line(ld, lineno, echo, "unterminated group header");
        return;
    }
    const char *name = t + 1;
    size_t len = (size_t)(close - name);
    const char *rest = close + 1;
    while (is_blank(*rest)) rest++;
    if (*rest != '\0')
        bad_line(ld, lineno, echo, "text after group header");
    else if (len == 0)
        bad_line(ld, lineno, echo, "empty group name");
    else if (!is_name(name, len))
        bad_line(ld, lineno, echo,
                 "bad group name (use letters, digits, '-', '_', '.')");
    else {
        g_free(ld->group);
        ld->group = g_strndup(name, len);
        g_autofree char *where = g_strdup_printf("%s:%d", ld->name, lineno);
        group_obtain(ld->s, ld->group, where);
    }
}

static void parse_entry(Loader *ld, int lineno, const char *echo, char *t,
                        char *eq) {
    *eq = '\0';
    char *key = g_strstrip(t);
    char *value = g_strstrip(eq + 1);
    if (*key == '\0') {
        bad_line(ld, lineno, echo, "empty key");
        return;
    }
    if (!is_name(key, strlen(key))) {
        bad_line(ld, lineno, echo,
                 "bad key name (use letters, digits, '-', '_', '.')");
        return;
    }
    if (*value == '\0') {
        bad_line(ld, lineno, echo, "empty value");
        return;
    }
    if (ld->group == NULL) {
        bad_line(ld, lineno, echo, "key before any [group] header");
        return;
    }
    Entry *old = entry_find(ld->s, ld->group, key);
    if (old != NULL) {
        problem(ld, lineno, "key '%s' in [%s] given twice (first at line %d)",
                key, ld->group, old->line);
        return;
    }
    g_autofree char *where = g_strdup_printf("%s:%d", ld->name, lineno);
    entry_put(ld->s, ld->group, key, value, where, lineno);
}

/* One line, without its '\n'. */
static void parse_line(Loader *ld, int lineno, const char *line, size_t len) {
    if (len > SCENARIO_MAX_LINE) {
        const char *cut = line + SCENARIO_ECHO_MAX;
        /* back up to the start of a UTF-8 character */
        while (cut > line && ((unsigned char)*cut & 0xC0) == 0x80) cut--;
        g_autofree char *head = g_strndup(line, (gsize)(cut - line));
        problem(ld, lineno, "line longer than %d characters: '%s...'",
                SCENARIO_MAX_LINE, g_strchug(head));
        return;
    }
    g_autofree char *copy = g_strndup(line, len);
    g_autofree char *echo = g_strstrip(g_strdup(copy));
    char *t = g_strchug(copy);
    if (*t == '\0' || *t == '#' || *t == ';') return;
    cut_inline_comment(t);
    g_strchomp(t);
    if (*t == '[') {
        parse_header(ld, lineno, echo, t);
        return;
    }
    char *eq = strchr(t, '=');
    if (eq == NULL) {
        bad_line(ld, lineno, echo,
                 "expected '[group]', 'key = value' or a comment");
        return;
    }
    parse_entry(ld, lineno, echo, t, eq);
}

/* What a file that is not a scenario is, from its first bytes: one line
 * that says what to do with it, rather than a problem for each line. */
static const char *other_kind(const char *text, size_t len) {
    static const char trace_magic[] = "\211CUBETR";
    if (len >= sizeof trace_magic - 1
        && !memcmp(text, trace_magic, sizeof trace_magic - 1))
        return "a cubemu trace, not a scenario (cubemu view, cubemu trace "
               "info and cubemu trace export read it)";
    if (len >= 9 && !memcmp(text, "%EventDef", 9))
        return "a Paje trace, not a scenario (ViTE and pj_dump read it)";
    size_t i = 0;
    while (i < len && g_ascii_isspace(text[i])) i++;
    if (i < len && (text[i] == '{' || text[i] == '['))
        if (i + 1 < len && (text[i + 1] == '"' || text[i + 1] == '{'
                            || g_ascii_isspace(text[i + 1])))
            return "JSON (a report or an export?), not a scenario (a "
                   "scenario is INI text: [machine], [algorithm], [expect])";
    return NULL;
}

/* Parse `len` bytes of `text`; consumes nothing. */
static Scenario *load_text(const char *name, const char *text, size_t len,
                           GError **error) {
    const char *kind = other_kind(text, len);
    if (kind) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s: this is %s", name, kind);
        return NULL;
    }
    const char *bad = NULL;
    if (!g_utf8_validate_len(text, len, &bad)) {
        int lineno = 1;
        for (const char *p = text; p < bad; p++)
            if (*p == '\n') lineno++;
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s:%d: not UTF-8 text", name, lineno);
        return NULL;
    }
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {  /* BOM */
        text += 3;
        len -= 3;
    }

    Loader ld = { scenario_new(name), name, g_string_new(NULL), NULL, 0 };
    const char *end = text + len;
    int lineno = 0;
    for (const char *p = text; p < end; ) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl != NULL ? nl : end;
        size_t n = (size_t)(stop - p);
        if (n > 0 && p[n - 1] == '\r') n--;     /* CRLF files */
        parse_line(&ld, ++lineno, p, n);
        p = nl != NULL ? nl + 1 : end;
    }
    g_free(ld.group);
    if (ld.count > SCENARIO_MAX_PROBLEMS)
        g_string_append_printf(ld.problems, "\n%s: %d more problems not "
                               "listed", name, ld.count - SCENARIO_MAX_PROBLEMS);

    if (ld.problems->len > 0) {
        g_set_error_literal(error, SCENARIO_ERROR,
                            SCENARIO_ERROR_INPUT, ld.problems->str);
        g_string_free(ld.problems, TRUE);
        scenario_free(ld.s);
        return NULL;
    }
    g_string_free(ld.problems, TRUE);
    return ld.s;
}

Scenario *scenario_load_data(const char *name, const char *text,
                             GError **error) {
    g_return_val_if_fail(name != NULL && text != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    return load_text(name, text, strlen(text), error);
}

Scenario *scenario_load_file(const char *path, GError **error) {
    g_return_val_if_fail(path != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        int e = errno;
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s: cannot read: %s", path, g_strerror(e));
        return NULL;
    }
    GString *buf = g_string_new(NULL);
    char chunk[8192];
    size_t n;
    int e = 0;
    gboolean too_big = FALSE;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        g_string_append_len(buf, chunk, (gssize)n);
        if (buf->len > SCENARIO_MAX_FILE) {
            too_big = TRUE;
            break;
        }
    }
    if (!too_big && ferror(f)) e = errno != 0 ? errno : EIO;
    fclose(f);

    Scenario *s = NULL;
    if (e != 0)
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s: cannot read: %s", path, g_strerror(e));
    else if (too_big)
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "%s: cannot read: larger than %d bytes", path,
                    SCENARIO_MAX_FILE);
    else
        s = load_text(path, buf->str, buf->len, error);
    g_string_free(buf, TRUE);
    if (s)
        s->dir = g_path_get_dirname(path);
    return s;
}

/* ------------------------------------------------------------------ --set */

char *scenario_echo(const char *text) {
    g_return_val_if_fail(text != NULL, NULL);
    GString *out = g_string_new(NULL);
    const char *p = text, *end = text + strlen(text);
    const char *bad;
    while (!g_utf8_validate_len(p, (gsize)(end - p), &bad)) {
        g_string_append_len(out, p, bad - p);
        g_string_append_printf(out, "\\x%02X", (unsigned)(unsigned char)*bad);
        p = bad + 1;
    }
    g_string_append_len(out, p, end - p);
    return g_string_free(out, FALSE);
}

gboolean scenario_apply_set(Scenario *s, const char *assignment,
                            GError **error) {
    return scenario_apply_flag(s, "--set", assignment, error);
}

gboolean scenario_apply_flag(Scenario *s, const char *flag,
                             const char *assignment, GError **error) {
    g_return_val_if_fail(s != NULL && flag != NULL && assignment != NULL,
                         FALSE);
    g_autofree char *copy = g_strdup(assignment);
    g_autofree char *echo = scenario_echo(assignment);
    char *dot = strchr(copy, '.');
    char *eq = strchr(copy, '=');
    if (dot != NULL && eq != NULL && dot < eq) {
        *dot = '\0';
        *eq = '\0';
        char *section = g_strstrip(copy);
        char *key = g_strstrip(dot + 1);
        char *value = g_strstrip(eq + 1);
        if (is_name(section, strlen(section)) && is_name(key, strlen(key))
            && *value != '\0') {
            /* A file must be UTF-8 (load_text); a value given on the
             * command line is held to the same rule. */
            if (!g_utf8_validate(value, -1, NULL)) {
                g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                            "%s %s: %s: not UTF-8 text", flag, echo, key);
                return FALSE;
            }
            g_autofree char *where = g_strdup_printf("%s %s", flag, assignment);
            entry_put(s, section, key, value, where, 0);
            return TRUE;
        }
    }
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "%s '%s': expected SECTION.KEY=VALUE, "
                "e.g. %s machine.dimensions=7", flag, echo, flag);
    return FALSE;
}

/* ------------------------------------------------------------ expectations */

static const struct {
    const char *text;
    ExpectOp op;
} expect_ops[] = {      /* two-character operators first */
    { "==", EXPECT_EQ }, { "<=", EXPECT_LE }, { ">=", EXPECT_GE },
    { "<", EXPECT_LT }, { ">", EXPECT_GT },
};

const char *expect_op_text(ExpectOp op) {
    for (size_t i = 0; i < G_N_ELEMENTS(expect_ops); i++)
        if (expect_ops[i].op == op) return expect_ops[i].text;
    return "?";
}

gboolean expect_op_holds(ExpectOp op, double measured, double expected) {
    switch (op) {
    case EXPECT_EQ: return measured == expected;
    case EXPECT_LE: return measured <= expected;
    case EXPECT_GE: return measured >= expected;
    case EXPECT_LT: return measured < expected;
    case EXPECT_GT: return measured > expected;
    }
    return FALSE;
}

void expectation_free(Expectation *e) {
    if (e == NULL) return;
    g_free(e->field);
    g_free(e->text);
    g_free(e->where);
    g_free(e);
}

/* "OP NUMBER" or "NUMBER" -> op, value. */
static gboolean parse_comparison(const char *text, ExpectOp *op,
                                 double *value) {
    g_autofree char *copy = g_strstrip(g_strdup(text));
    const char *p = copy;
    *op = EXPECT_EQ;
    for (size_t i = 0; i < G_N_ELEMENTS(expect_ops); i++) {
        size_t n = strlen(expect_ops[i].text);
        if (strncmp(p, expect_ops[i].text, n) == 0) {
            *op = expect_ops[i].op;
            p += n;
            break;
        }
    }
    while (is_blank(*p)) p++;
    if (*p == '\0') return FALSE;
    char *end = NULL;
    errno = 0;
    double v = g_ascii_strtod(p, &end);
    if (end == p || *end != '\0' || !isfinite(v)) return FALSE;
    *value = v;
    return TRUE;
}

GPtrArray *scenario_expectations(const Scenario *s, GError **error) {
    g_return_val_if_fail(s != NULL, NULL);
    GPtrArray *out =
        g_ptr_array_new_with_free_func((GDestroyNotify)expectation_free);
    Group *g = group_find(s, "expect");
    if (g == NULL) return out;
    g_autoptr(GString) problems = g_string_new(NULL);
    for (guint i = 0; i < g->entries->len; i++) {
        Entry *en = g_ptr_array_index(g->entries, i);
        Expectation *x = g_new0(Expectation, 1);
        x->field = g_strdup(en->key);
        x->text = g_strdup(en->value);
        x->where = g_strdup(en->where);
        x->op = EXPECT_EQ;
        g_autofree char *reason = NULL;
        if (strcmp(en->key, "data") == 0) {
            x->kind = EXPECT_DATA_CORRECT;
            if (strcmp(en->value, "correct") != 0)
                reason = g_strdup_printf("unknown value '%s' (valid: correct)",
                                         en->value);
        } else if (strcmp(en->key, "bounds") == 0) {
            x->kind = EXPECT_BOUNDS_HOLD;
            if (strcmp(en->value, "hold") != 0)
                reason = g_strdup_printf("unknown value '%s' (valid: hold)",
                                         en->value);
        } else {
            x->kind = EXPECT_NUMERIC;
            if (!parse_comparison(en->value, &x->op, &x->value))
                reason = g_strdup_printf("'%s' is not a comparison (valid: "
                                         "NUMBER, or OP NUMBER with OP one "
                                         "of ==, <=, >=, <, >)", en->value);
        }
        if (reason == NULL) {
            g_ptr_array_add(out, x);
            continue;
        }
        if (problems->len > 0) g_string_append_c(problems, '\n');
        g_string_append_printf(problems, "%s: expect %s: %s", en->where,
                               en->key, reason);
        expectation_free(x);
    }
    if (problems->len > 0) {
        g_set_error_literal(error, SCENARIO_ERROR,
                            SCENARIO_ERROR_INPUT, problems->str);
        g_ptr_array_free(out, TRUE);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------ typed values */

/* The readers are util/keyvalue.c's; a scenario's errors are
 * SCENARIO_ERROR_INPUT. */
static gboolean keyvalue_error(char *why, GError **error) {
    g_set_error_literal(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, why);
    g_free(why);
    return FALSE;
}

gboolean scenario_parse_int(const char *text, const char *where,
                            const char *key, long long min, long long max,
                            long long *out, GError **error) {
    char *why = NULL;
    return keyvalue_parse_int(text, where, key, min, max, out, &why)
           || keyvalue_error(why, error);
}

gboolean scenario_parse_choice(const char *text, const char *where,
                               const char *key, const char *const *choices,
                               int *out, GError **error) {
    char *why = NULL;
    return keyvalue_parse_choice(text, where, key, choices, out, &why)
           || keyvalue_error(why, error);
}
