/* number.c -- a number as people read it (number.h). */
#include "number.h"

#include <glib.h>
#include <math.h>

const char *number_text(char *buf, size_t size, double v, int digits,
                        double whole_below)
{
    if (v == floor(v) && fabs(v) < whole_below)
        g_snprintf(buf, size, "%.0f", v);
    else
        g_snprintf(buf, size, "%.*g", digits, v);
    return buf;
}
