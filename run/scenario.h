/* scenario.h -- scenario files: GKeyFile (INI) text with a memory of where
 * every key came from, so that errors found long after parsing still point
 * at "file:line" (or at the --set flag that supplied the value).
 *
 * A scenario is a set of (group, key) -> value entries, each carrying a
 * location string. Groups and keys keep the order in which they were first
 * given. Values are kept as text; typed parsing happens where the meaning is
 * known (machine.c, run.c, the algorithms), always through the location.
 *
 * Accepted syntax, a superset of GKeyFile's: blank lines; comment lines
 * starting with '#' or ';'; inline comments after a '#' or ';' that follows
 * white space; "[group]" headers; "key = value" entries. Every malformed line
 * in a file is reported (all of them, not just the first) as
 * "FILE:LINE: reason: 'the line'".
 */
#ifndef CUBE_SCENARIO_H
#define CUBE_SCENARIO_H

#include <glib.h>

typedef struct Scenario Scenario;

#define SCENARIO_ERROR (scenario_error_quark())
GQuark scenario_error_quark(void);
enum { SCENARIO_ERROR_INPUT = 1 };   /* any bad input: exit status 2 */

/* An empty scenario named `name` ("default", or a path). */
Scenario *scenario_new(const char *name);
/* Parse a file, or text held in memory (`name` is used in messages). NULL
 * and *error set (all problems, one "name:line: ..." line each) on failure;
 * a missing or unreadable file is "PATH: cannot read: reason". Keys given
 * twice in one group are an error naming both lines. */
Scenario *scenario_load_file(const char *path, GError **error);
Scenario *scenario_load_data(const char *name, const char *text, GError **error);
void scenario_free(Scenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Scenario, scenario_free)

/* The path given to scenario_load_file, or the name given to _new/_data. */
const char *scenario_name(const Scenario *s);

/* Apply "--set SECTION.KEY=VALUE": replace or add the entry; its location
 * becomes "--set SECTION.KEY=VALUE". A malformed assignment fails with a
 * message that names the flag and shows the expected form; a value that is
 * not UTF-8 (what a scenario file must be) fails with the flag and the
 * key. */
gboolean scenario_apply_set(Scenario *s, const char *assignment, GError **error);
/* scenario_apply_set for another flag that takes the same assignments
 * (`cubemu run --compare`): FLAG names it in the entry's location and in
 * the messages. */
gboolean scenario_apply_flag(Scenario *s, const char *flag,
                             const char *assignment, GError **error);

/* `text` fit to quote in a message: valid UTF-8 as it is, each byte that
 * is not part of a valid sequence as \xNN, so that a message about bytes
 * that are not UTF-8 is itself UTF-8. Free with g_free. */
char *scenario_echo(const char *text);

/* Low-level access. scenario_put replaces or adds with the given location. */
void scenario_put(Scenario *s, const char *group, const char *key,
                  const char *value, const char *where);
const char *scenario_get(const Scenario *s, const char *group, const char *key);
/* "file:line", "--set a.b=c", or "scenario NAME" for a key never given. */
const char *scenario_where(const Scenario *s, const char *group, const char *key);
/* The value of a key that names a file, as a path to open: a relative
 * value given in a scenario file is taken from that file's folder; one
 * given by --set (or by an embedded scenario) from the current directory.
 * NULL when the key is absent; free with g_free. */
char *scenario_path(const Scenario *s, const char *group, const char *key);
gboolean scenario_has_group(const Scenario *s, const char *group);
/* Keys of a group in order given; NULL-terminated, free with g_strfreev. */
char **scenario_keys(const Scenario *s, const char *group);
/* Groups in order given; NULL-terminated, free with g_strfreev. */
char **scenario_groups(const Scenario *s);
/* Where the group header stands ("file:line"), or the scenario name. */
const char *scenario_group_where(const Scenario *s, const char *group);
void scenario_remove_key(Scenario *s, const char *group, const char *key);
void scenario_remove_group(Scenario *s, const char *group);

/* [expect] entries, parsed. */
typedef enum {
    EXPECT_EQ, EXPECT_LE, EXPECT_GE, EXPECT_LT, EXPECT_GT
} ExpectOp;

typedef enum {
    EXPECT_NUMERIC,        /* field op number */
    EXPECT_DATA_CORRECT,   /* data = correct */
    EXPECT_BOUNDS_HOLD     /* bounds = hold */
} ExpectKind;

typedef struct {
    ExpectKind kind;
    char *field;           /* the key as written, e.g. "cycles", "details.D" */
    ExpectOp op;
    double value;
    char *text;            /* the value as written, e.g. "<= 64" */
    char *where;           /* location of the key */
} Expectation;

/* Parse every [expect] entry. "data" accepts only "correct", "bounds" only
 * "hold"; any other key is numeric: "OP NUMBER" with OP one of == <= >= < >
 * (a bare number means ==). Collects every bad entry into one error. An
 * empty array when there is no [expect]. Element free: expectation_free. */
GPtrArray *scenario_expectations(const Scenario *s, GError **error);
void expectation_free(Expectation *e);
const char *expect_op_text(ExpectOp op);
gboolean expect_op_holds(ExpectOp op, double measured, double expected);

/* keyvalue_parse_int and keyvalue_parse_choice (util/keyvalue.h: the
 * syntax, the ranges and the wording are theirs) with the reason as a
 * SCENARIO_ERROR_INPUT error, "WHERE: KEY: reason (valid: ...)", and FALSE.
 * A scenario's problems are collected with keyvalue_problem. */
gboolean scenario_parse_int(const char *text, const char *where,
                            const char *key, long long min, long long max,
                            long long *out, GError **error);
gboolean scenario_parse_choice(const char *text, const char *where,
                               const char *key, const char *const *choices,
                               int *out, GError **error);

#endif
