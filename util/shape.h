/* shape.h -- "AxBxC": extents joined by x, the one parser of the shapes
 * cubemu reads (a mesh's sides, a matrix product's PxQxR, an array's axis
 * lengths, a processor array's RxC).
 *
 * An extent is decimal digits, nothing else (no sign, no blank); extents
 * are joined by 'x' (or 'X'). The text must hold between min_extents and
 * max_extents of them, each within [min, max]; an empty text holds none.
 * Extents come back in text order: a caller that writes axis 0 last
 * reverses them. What an extent means (a power of two, a side that fits
 * the machine) is the caller's to check.
 *
 * A refusal has one style: "'TEXT' is not FORM" when the text is not
 * extents joined by x, or has too few or too many, and "'TEXT': extent E
 * is out of range (valid: MIN..MAX)". A caller whose messages say more
 * (which axis, in its own words) builds them from the ShapeFailure, which
 * names the fault and the extent.
 */
#ifndef CUBE_SHAPE_H
#define CUBE_SHAPE_H

#include <glib.h>
#include <stdint.h>

typedef struct ShapeSpec {
    /* What a valid text is, for "'TEXT' is not FORM": "PxQxR (say
     * 256x256x256)". */
    const char *form;
    int min_extents;
    int max_extents;            /* also the room in the caller's array */
    uint64_t min;               /* every extent in min..max */
    uint64_t max;
} ShapeSpec;

typedef enum ShapeFault {
    SHAPE_OK,
    SHAPE_COUNT,                /* fewer than min_extents or more than max */
    SHAPE_SYNTAX,               /* an extent that is not decimal digits */
    SHAPE_RANGE,                /* an extent outside min..max */
} ShapeFault;

/* Why a text was refused: the first fault of the first kind found, in
 * the order count, syntax (first bad extent in text order), range (the
 * same). */
typedef struct ShapeFailure {
    ShapeFault fault;
    int extents;                /* how many the text holds */
    int index;                  /* SYNTAX, RANGE: that extent, 0 = first */
    const char *at;             /* its text, len bytes inside the text */
    int len;
} ShapeFailure;

/* Parses text (NULL reads as empty) into v[0..*n-1]. On a refusal returns
 * FALSE with *why (g_free it; may be NULL) in the style above and *failure
 * (may be NULL) saying which; on SHAPE_RANGE v holds every extent, and
 * *n their count, G_MAXUINT64 standing for one beyond 64 bits. */
gboolean shape_parse(const char *text, const ShapeSpec *spec, uint64_t *v,
                     int *n, ShapeFailure *failure, char **why);

#endif
