/* shape.c -- "AxBxC" shapes (shape.h). */
#include "shape.h"

/* The form said when a caller names none. */
#define SHAPE_FORM_DEFAULT "a shape (extents joined by x, e.g. 8x4)"

static gboolean is_joint(char c)
{
    return c == 'x' || c == 'X';
}

static gboolean is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The extent at *p, up to the next joint or the end: [*at, *at + *len)
 * of the text, its value in *x; *p moves past it and its joint. SYNTAX if
 * it is anything but digits, RANGE if it is beyond 64 bits (*x is then
 * G_MAXUINT64). */
static ShapeFault next_extent(const char **p, const char **at, int *len,
                              uint64_t *x)
{
    const char *s = *p, *e = s;
    uint64_t v = 0;
    gboolean beyond = FALSE;
    while (is_digit(*e)) {
        unsigned d = (unsigned)(*e - '0');
        beyond = beyond || v > (G_MAXUINT64 - d) / 10;
        v = beyond ? G_MAXUINT64 : v * 10 + d;
        e++;
    }
    const char *digits_end = e;
    while (*e && !is_joint(*e))
        e++;
    *at = s;
    *len = (int)(e - s);
    *x = v;
    *p = *e ? e + 1 : e;
    if (digits_end == s || digits_end != e)
        return SHAPE_SYNTAX;
    return beyond ? SHAPE_RANGE : SHAPE_OK;
}

gboolean shape_parse(const char *text, const ShapeSpec *spec, uint64_t *v,
                     int *n, ShapeFailure *failure, char **why)
{
    const char *s = text ? text : "";
    int extents = *s ? 1 : 0;
    for (const char *p = s; *p; p++)
        extents += is_joint(*p);
    ShapeFailure f = { SHAPE_OK, extents, -1, NULL, 0 };
    if (extents < spec->min_extents || extents > spec->max_extents) {
        f.fault = SHAPE_COUNT;
    } else {
        /* A syntax fault anywhere outranks a range fault before it. */
        const char *p = s;
        for (int i = 0; i < extents; i++) {
            const char *at;
            int len;
            ShapeFault got = next_extent(&p, &at, &len, &v[i]);
            if (got == SHAPE_SYNTAX) {
                f = (ShapeFailure){ SHAPE_SYNTAX, extents, i, at, len };
                break;
            }
            if (f.fault == SHAPE_OK
                && (got == SHAPE_RANGE || v[i] < spec->min || v[i] > spec->max))
                f = (ShapeFailure){ SHAPE_RANGE, extents, i, at, len };
        }
    }
    if (n && f.fault != SHAPE_COUNT && f.fault != SHAPE_SYNTAX)
        *n = extents;
    if (failure)
        *failure = f;
    if (f.fault == SHAPE_OK)
        return TRUE;
    if (why && f.fault == SHAPE_RANGE)
        *why = g_strdup_printf("'%s': extent %.*s is out of range (valid: "
                               "%" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ")",
                               s, f.len, f.at, spec->min, spec->max);
    else if (why)
        *why = g_strdup_printf("'%s' is not %s", s,
                               spec->form ? spec->form : SHAPE_FORM_DEFAULT);
    return FALSE;
}
