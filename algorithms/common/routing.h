/* routing.h -- paths on the Boolean cube, shared by node programs.
 *
 * A path is a sequence of dimensions for cube_send. Dimension-ordered
 * (e-cube) routing corrects the differing address bits one at a time in a
 * fixed order, so it is minimal and deadlock-free; ascending order is the
 * classic e-cube, descending the mirror image.
 */
#ifndef CUBE_ROUTING_H
#define CUBE_ROUTING_H

#include <stdint.h>
#include "cube.h"

typedef enum { ROUTE_ASCENDING, ROUTE_DESCENDING } RouteOrder;

/* Write the e-cube path from `from` to `to` on an n-cube into path
 * (room for n dimensions); return its length (0 when from == to). */
static inline int route_ecube(uint32_t from, uint32_t to, int n,
                              RouteOrder order, int *path)
{
    uint32_t diff = from ^ to;
    int hops = 0;
    for (int i = 0; i < n; i++) {
        int d = order == ROUTE_ASCENDING ? i : n - 1 - i;
        if ((diff >> d) & 1)
            path[hops++] = d;
    }
    return hops;
}

#endif
