/* keyvalue.c -- typed values from text with its location (keyvalue.h). */
#include "keyvalue.h"
#include "suggest.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void keyvalue_problem_v(GString *problems, const char *fmt, va_list ap)
{
    if (problems->len)
        g_string_append_c(problems, '\n');
    g_string_append_vprintf(problems, fmt, ap);
}

void keyvalue_problem(GString *problems, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    keyvalue_problem_v(problems, fmt, ap);
    va_end(ap);
}

/* "WHERE: KEY: " (just "KEY: " without a location). */
static char *prefix(const char *where, const char *key) {
    return where != NULL ? g_strdup_printf("%s: %s: ", where, key)
                         : g_strdup_printf("%s: ", key);
}

gboolean keyvalue_parse_int(const char *text, const char *where,
                            const char *key, long long min, long long max,
                            long long *out, char **why) {
    g_return_val_if_fail(key != NULL && out != NULL, FALSE);
    g_autofree char *pre = prefix(where, key);
    if (text == NULL) text = "";
    /* Syntax first: [+-] then digits, or 0x and hex digits. strtoll alone
     * would also take leading blanks and (base 0) octal. */
    const char *p = text;
    if (*p == '+' || *p == '-') p++;
    guint base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    gboolean ok = *p != '\0';
    for (; *p != '\0'; p++)
        if (base == 16 ? !g_ascii_isxdigit(*p) : !g_ascii_isdigit(*p))
            ok = FALSE;
    char *end = NULL;
    errno = 0;
    long long v = ok ? g_ascii_strtoll(text, &end, base) : 0;
    if (!ok || end == text || *end != '\0') {
        *why = g_strdup_printf("%s'%s' is not an integer", pre, text);
        return FALSE;
    }
    if (errno == ERANGE || v < min || v > max) {
        *why = g_strdup_printf("%s%s is out of range (valid: %lld..%lld)",
                               pre, text, min, max);
        return FALSE;
    }
    *out = v;
    return TRUE;
}

gboolean keyvalue_parse_choice(const char *text, const char *where,
                               const char *key, const char *const *choices,
                               int *out, char **why) {
    g_return_val_if_fail(key != NULL && choices != NULL && out != NULL, FALSE);
    for (int i = 0; choices[i] != NULL; i++) {
        if (text != NULL && strcmp(text, choices[i]) == 0) {
            *out = i;
            return TRUE;
        }
    }
    g_autofree char *pre = prefix(where, key);
    g_autofree char *valid = g_strjoinv(", ", (char **)choices);
    g_autofree char *hint = suggest_text(text ? text : "", choices);
    *why = g_strdup_printf("%sunknown value '%s'%s (valid: %s)", pre,
                           text != NULL ? text : "", hint, valid);
    return FALSE;
}
