/* topology.c -- the table of topologies and what they share: link names,
 * directions, coordinates and the shape syntax. One line per topology in
 * topology_registry; the behaviour of each is in its own file.
 */
#include "topology.h"
#include "shape.h"
#include "json_writer.h"

#include <string.h>

/* The table: X(name) for the TopologyOps topology_<name>_ops defined in
 * machines/<name>.c. Adding a topology is that file and one line here;
 * the order is the one `cubemu list` shows. */
#define TOPOLOGIES(X) \
    X(cube)           \
    X(mesh)           \
    X(complete)       \
    X(ccc)            \
    /* the end of the table: a new line goes above */

#define TOPOLOGY_DECLARE(name) extern const TopologyOps topology_##name##_ops;
#define TOPOLOGY_ENTRY(name) &topology_##name##_ops,
TOPOLOGIES(TOPOLOGY_DECLARE)

const TopologyOps *const topology_registry[] = {
    TOPOLOGIES(TOPOLOGY_ENTRY)
    NULL
};

const TopologyOps *topology_find(const char *name)
{
    for (const TopologyOps *const *t = topology_registry; *t; t++)
        if (!strcmp((*t)->name, name))
            return *t;
    return NULL;
}

char *topology_names(void)
{
    GString *s = g_string_new(NULL);
    for (const TopologyOps *const *t = topology_registry; *t; t++)
        g_string_append_printf(s, "%s%s", s->len ? ", " : "", (*t)->name);
    return g_string_free(s, FALSE);
}

void topology_link_name(const Topology *t, int link, char *buf, size_t size)
{
    t->ops->link_name(t, link, buf, size);
}

uint32_t topology_walk(const Topology *t, uint32_t from, const int *path,
                       int hops, int *bad, uint32_t *at)
{
    uint32_t node = from;
    for (int h = 0; h < hops; h++) {
        uint32_t next = path[h] < 0 || path[h] >= t->links ? TOPOLOGY_NONE
                        : topology_neighbour(t, node, path[h]);
        if (next == TOPOLOGY_NONE) {
            *bad = h;
            *at = node;
            return TOPOLOGY_NONE;
        }
        node = next;
    }
    return node;
}

uint32_t topology_link_channels(const Topology *t, int link)
{
    return (uint32_t)t->ops->channels(t, link, link + 1);
}

uint64_t topology_links_channels(const Topology *t, int link0, int link1)
{
    return t->ops->channels(t, link0, link1);
}

const TopologyOps *topology_find_trace_code(unsigned code)
{
    for (const TopologyOps *const *t = topology_registry; *t; t++)
        if ((*t)->trace_code == code)
            return *t;
    return NULL;
}

gboolean topology_has_class(const TopologyOps *ops, MessageClass c)
{
    return (ops->classes >> c) & 1;
}

const char *message_class_name(MessageClass c)
{
    return c == CLASS_NEIGHBOUR ? "neighbour" : "router";
}

void topology_coords(const Topology *t, uint32_t node, uint32_t *c)
{
    for (int i = 0; i < t->axes; i++)
        c[i] = node / t->stride[i] % t->side[i];
}

uint32_t topology_address(const Topology *t, const uint32_t *c)
{
    uint32_t a = 0;
    for (int i = 0; i < t->axes; i++)
        a += c[i] * t->stride[i];
    return a;
}

gboolean topology_parse_shape(const char *text, int *axes, uint32_t *side,
                              char **why)
{
    static const ShapeSpec spec = {
        .min_extents = 1, .max_extents = TOPOLOGY_MAX_AXES,
        .min = 2, .max = TOPOLOGY_MAX_NODES,
    };
    uint64_t v[TOPOLOGY_MAX_AXES];
    int k = 0;
    ShapeFailure f;
    if (shape_parse(text, &spec, v, &k, &f, NULL)) {
        for (int i = 0; i < k; i++)
            side[i] = (uint32_t)v[k - 1 - i];     /* axis 0 is written last */
        *axes = k;
        return TRUE;
    }
    if (f.fault == SHAPE_COUNT)
        *why = g_strdup_printf("'%s' is not a shape (valid: sides separated "
                               "by x, highest axis first, at most %d axes, "
                               "e.g. 16x16x16)", text, TOPOLOGY_MAX_AXES);
    else if (f.fault == SHAPE_SYNTAX)
        *why = g_strdup_printf("'%s' is not a shape: '%.*s' is not a side "
                               "(valid: sides separated by x, e.g. 8x4)",
                               text, f.len, f.at);
    else
        *why = g_strdup_printf("'%s': side %.*s of axis %d is out of range "
                               "(valid: 2..%u)", text, f.len, f.at,
                               f.extents - 1 - f.index, TOPOLOGY_MAX_NODES);
    return FALSE;
}

char *topology_shape_text(const Topology *t)
{
    GString *s = g_string_new(NULL);
    for (int i = t->axes - 1; i >= 0; i--)
        g_string_append_printf(s, "%u%s", t->side[i], i ? "x" : "");
    return g_string_free(s, FALSE);
}

void topology_dimensions_json(const Topology *t, JsonWriter *w)
{
    json_writer_key(w, "dimensions");
    json_writer_int(w, t->axes);
}

void topology_dimensions_text(const Topology *t, GString *line)
{
    g_string_append_printf(line, ", n = %d", t->axes);
}

gboolean topology_dimensions_number(const Topology *t, int i,
                                    const char **name, double *value)
{
    if (i > 0)
        return FALSE;
    *name = "dimensions";
    *value = t->axes;
    return TRUE;
}
