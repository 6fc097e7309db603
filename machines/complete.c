/* complete.c -- the fully connected machine (the SMP of Al Na'mneh, Pan &
 * Yoo): P processors, a directed channel for every ordered pair. Link j is
 * the channel to node j (absent at node j itself); the default route is
 * that one link, so every message is a neighbour message and the machine
 * prices one class. The engine keeps state only for channels in use, so a
 * large P costs nothing per pair: with a port limit the ports are the
 * contended resource.
 */
#include "topology.h"

#include <stdio.h>

static uint32_t complete_neighbour(const Topology *t, uint32_t node, int link)
{
    (void)t;
    return (uint32_t)link == node ? TOPOLOGY_NONE : (uint32_t)link;
}

static void complete_link_name(const Topology *t, int link, char *buf,
                               size_t size)
{
    (void)t;
    snprintf(buf, size, "to %d", link);
}

static int complete_direction(const Topology *t, uint32_t node, int link)
{
    (void)t;
    return (uint32_t)link > node ? 1 : -1;
}

static int complete_route(const Topology *t, uint32_t from, uint32_t to,
                          int *links)
{
    (void)t;
    if (from == to)
        return 0;
    links[0] = (int)to;
    return 1;
}

const TopologyOps topology_complete_ops = {
    .name = "complete",
    .kind = TOPOLOGY_COMPLETE,
    .summary = "fully connected (processors = P): a channel for every ordered "
               "pair, link j is the channel to node j",
    .classes = 1u << CLASS_NEIGHBOUR,
    .neighbour = complete_neighbour,
    .link_name = complete_link_name,
    .direction = complete_direction,
    .route = complete_route,
};

gboolean topology_complete_init(Topology *t, uint32_t processors, char **why)
{
    if (processors < 2 || processors > TOPOLOGY_MAX_NODES) {
        *why = g_strdup_printf("%u is out of range (valid: 2..%u)", processors,
                               TOPOLOGY_MAX_NODES);
        return FALSE;
    }
    *t = (Topology){ .ops = &topology_complete_ops };
    t->nodes = processors;
    t->links = (int)processors;
    t->diameter = 1;
    return TRUE;
}
