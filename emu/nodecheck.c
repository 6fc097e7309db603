/* nodecheck.c -- recording a node program's misuse (nodecheck.h), the same
 * in both backends; where the error goes is the backend's (node_fault). */
#include "nodecheck.h"

#include <stdarg.h>

gboolean node_fail(Node *node, const char *fmt, ...)
{
    NodeFault f = node_fault(node);
    if (*f.error)
        return FALSE;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(f.error, f.domain, f.code,
                "node program error at node %u, step %u: %s",
                node_address(node), f.step, what);
    return FALSE;
}
