/* number.h -- a number as people read it in a table or on an axis: whole
 * numbers in full while they are short enough, anything else to a few
 * significant digits.
 */
#ifndef CUBE_NUMBER_H
#define CUBE_NUMBER_H

#include <stddef.h>

/* v into buf (size bytes) and returns buf: "%.0f" when v is a whole number
 * of magnitude below `whole_below`, else "%.*g" with `digits` significant
 * digits (NaN and infinities as %g writes them). */
const char *number_text(char *buf, size_t size, double v, int digits,
                        double whole_below);

#endif
