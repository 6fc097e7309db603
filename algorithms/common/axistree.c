/* axistree.c -- spread and reduce along an axis of a processor array:
 * all-port rotated binomial trees on a cube, one binomial tree on a torus
 * (axistree.h). */
#include "axistree.h"
#include "bits.h"

/* A cube node's coordinate along axis: the axis's Gray-code bits of its
 * address (the torus's is the grid index itself, l or m). */
static uint32_t cube_coord(const AxisTree *c, uint32_t addr, ProcGridAxis axis)
{
    return axis == PROCGRID_ROWS ? addr >> c->cbits
                                 : addr & ((1u << c->cbits) - 1);
}

/* On the torus, the node (l, m) whose coordinate along axis is
 * coord ^ 2^b. */
static uint32_t torus_partner(const AxisTree *c, uint32_t l, uint32_t m,
                              ProcGridAxis axis, uint32_t coord, unsigned b)
{
    uint32_t to = coord ^ (1u << b);
    return axis == PROCGRID_ROWS ? procgrid_node(c->grid, to, m)
                                 : procgrid_node(c->grid, l, to);
}

/* On the torus, send memory[off, off+count) to torus_partner: one hop
 * for b = 0, routed beyond. */
static void torus_send(Node *node, const AxisTree *c, uint32_t l, uint32_t m,
                       ProcGridAxis axis, uint32_t coord, unsigned b,
                       size_t off, size_t count, int tag)
{
    if (b == 0) {
        int dir = (coord ^ 1u) > coord ? 1 : -1;
        int link = procgrid_link(c->grid, l, m, axis, dir);
        node_send(node, &link, 1, off, count, tag);
        return;
    }
    node_send_to(node, torus_partner(c, l, m, axis, coord, b), off, count,
                 tag);
}

static void add_into(const AxisTree *c, Node *node, size_t to, size_t from,
                     size_t count)
{
    double *mem = (double *)(void *)node_memory(node);
    size_t words = count * c->words;
    for (size_t i = 0; i < words; i++)
        mem[to * c->words + i] += mem[from * c->words + i];
    node_compute(node, words);
}

/* ---- all-port trees on the cube --------------------------------------- */

/* Spread and reduce along an axis of S = 2^k nodes of the cube use the k
 * rotated spanning binomial trees of Johnsson & Ho (1989, the paper's ref.
 * [14]): the segment of count elements is cut into p = min(k, count)
 * parts, part i = [count i / p, count (i + 1) / p), and part i follows the
 * binomial tree rooted at coordinate 0 whose step j (j = 0 .. k - 1)
 * crosses the axis's address bit d_j = (i + j) mod k. Coordinates are the
 * axis's bits of the address (the Gray code of the index), so the root is
 * index 0 of the axis.
 *
 * The rule. Let level_i(x) be the position j in part i's order of the
 * highest-ordered set bit of x (the largest j with bit d_j of x set), and
 * -1 for x = 0. In step j of the spread, a node x with level_i(x) < j sends
 * part i across d_j; the node with level_i(x) == j receives it across d_j;
 * nodes above level j do nothing for part i.
 *
 * Proof that every node ends with every part. Claim: after step j exactly
 * the nodes of level <= j hold part i, i.e. the x whose set bits all lie
 * in {d_0, .., d_j}. Before step 0 only the root (level -1) holds it. In
 * step j each holder x (level < j, so bit d_j of x is clear) sends to
 * x + 2^d_j, whose level is exactly j; conversely a node y of level j has
 * bit d_j set, and y - 2^d_j has level < j: the senders and the level-j
 * nodes are in one-to-one correspondence, each level-j node receives part
 * i exactly once, from a node that already holds it (it received it in an
 * earlier step or is the root), and nobody else receives it. After step
 * k - 1 every x has level <= k - 1: every node holds part i. A node that
 * receives part i in step j = level_i(x) forwards it in every later step
 * j' > j (its level is below j').
 *
 * Edge-disjointness. In step j part i uses only dimension (i + j) mod k;
 * the p <= k parts have different i, so they use different dimensions, and
 * on a dimension the message goes from the node with that bit clear to
 * the node with it set. So in every step a node sends at most one message
 * per link and receives at most one per link: all parts move at once on
 * different channels (all ports), and the spread takes k steps of
 * ceil(count / p) elements, about count element times (plus k startups)
 * instead of the single tree's k count.
 *
 * The reduce (the sum over the axis into coordinate 0) runs the same trees
 * backwards: step j from k - 1 down to 0, a node of level j sends its
 * partial sum of part i across d_j to its parent, a node of level < j
 * receives its child's partial sum into a buffer and adds it at the start
 * of the next step (real additions, node_compute). A node of level l
 * receives from its children in steps k - 1 .. l + 1 and has added them
 * all by the time it sends in step l, so the root ends with the full sum.
 * k = 0 (S = 1) has no steps; k = 1 is the plain one-hop tree. */

unsigned axistree_parts(unsigned bits, size_t count)
{
    return bits == 0 ? 0 : (unsigned)MIN((size_t)bits, count);
}

static size_t part_lo(size_t count, unsigned parts, unsigned i)
{
    return (size_t)((uint64_t)count * i / parts);
}

/* The position of the highest-ordered set bit of x in the order
 * d_j = (i + j) mod bits, or -1 for x = 0: rotating x's `bits` bits right
 * by i puts bit d_j at bit j, so the level is that word's highest set
 * bit. Every node evaluates it for every part in every step, so it is a
 * rotation and a count, not a pass over the bits. */
static int tree_level(uint32_t x, unsigned i, unsigned bits)
{
    uint32_t mask = bits >= 32 ? UINT32_MAX : (1u << bits) - 1;
    unsigned s = i % bits;
    x &= mask;
    if (s)
        x = ((x >> s) | (x << (bits - s))) & mask;
    return x ? (int)bits_log2_floor(x) : -1;
}

static int cube_link(const AxisTree *c, ProcGridAxis axis, unsigned d)
{
    return (int)(axis == PROCGRID_ROWS ? c->cbits + d : d);
}

/* Spread step j of `bits` on the cube: every part crosses its d_j. */
static void cube_spread_step(Node *node, const AxisTree *c, ProcGridAxis axis,
                             unsigned bits, unsigned j, size_t off,
                             size_t count, int tag)
{
    uint32_t addr = node_address(node);
    uint32_t coord = cube_coord(c, addr, axis);     /* no grid decode */
    unsigned parts = axistree_parts(bits, count);
    for (unsigned i = 0; i < parts; i++) {
        int level = tree_level(coord, i, bits);
        if (level > (int)j)             /* not reached by part i yet */
            continue;
        size_t lo = part_lo(count, parts, i);
        size_t n = part_lo(count, parts, i + 1) - lo;
        int link = cube_link(c, axis, (i + j) % bits);
        if (level < (int)j)
            node_send(node, &link, 1, off + lo, n, tag);
        else if (level == (int)j)
            node_recv(node, addr ^ (1u << link), tag, off + lo, n);
    }
}

/* Reduce step r of `bits` on the cube, tree step j = bits - 1 - r: first
 * add the parts step j + 1 received (r > 0: the parts for which this node
 * is below level j + 1); r == bits only adds. */
static void cube_reduce_step(Node *node, const AxisTree *c, ProcGridAxis axis,
                             unsigned bits, unsigned r, size_t off, size_t buf,
                             size_t count, int tag)
{
    uint32_t addr = node_address(node);
    uint32_t coord = cube_coord(c, addr, axis);
    unsigned parts = axistree_parts(bits, count);
    int j = (int)bits - 1 - (int)r;
    for (unsigned i = 0; i < parts; i++) {
        int level = tree_level(coord, i, bits);
        if (level > j)                  /* done with part i already */
            continue;
        size_t lo = part_lo(count, parts, i);
        size_t n = part_lo(count, parts, i + 1) - lo;
        if (r > 0 && level < j + 1)
            add_into(c, node, off + lo, buf + lo, n);
        if (j < 0)
            continue;
        int link = cube_link(c, axis, (i + (unsigned)j) % bits);
        if (level == j)
            node_send(node, &link, 1, off + lo, n, tag);
        else if (level < j)
            node_recv(node, addr ^ (1u << link), tag, buf + lo, n);
    }
}

/* Spread step k of `bits` from coordinate 0: on the cube the all-port
 * trees above, on the torus one binomial tree (bits from the highest
 * down). */
void axistree_spread(Node *node, const AxisTree *c, ProcGridAxis axis,
                     unsigned bits, unsigned k, size_t off, size_t count,
                     int tag)
{
    if (c->cube) {
        cube_spread_step(node, c, axis, bits, k, off, count, tag);
        return;
    }
    uint32_t l, m;
    procgrid_coords(c->grid, node_address(node), &l, &m);
    uint32_t coord = axis == PROCGRID_ROWS ? l : m;
    unsigned b = bits - 1 - k;
    uint32_t low = coord & ((2u << b) - 1);
    if (low == 0)
        torus_send(node, c, l, m, axis, coord, b, off, count, tag);
    else if (low == 1u << b)
        node_recv(node, torus_partner(c, l, m, axis, coord, b), tag, off,
                  count);
}

/* Reduce step k of `bits` into coordinate 0: on the cube the all-port
 * trees backwards; on the torus one tree, bits from the lowest up:
 * first add what step k - 1 received; k == bits only adds. */
void axistree_reduce(Node *node, const AxisTree *c, ProcGridAxis axis,
                     unsigned bits, unsigned k, size_t off, size_t buf,
                     size_t count, int tag)
{
    if (c->cube) {
        cube_reduce_step(node, c, axis, bits, k, off, buf, count, tag);
        return;
    }
    uint32_t l, m;
    procgrid_coords(c->grid, node_address(node), &l, &m);
    uint32_t coord = axis == PROCGRID_ROWS ? l : m;
    if (k > 0 && (coord & ((2u << (k - 1)) - 1)) == 0)
        add_into(c, node, off, buf, count);
    if (k == bits)
        return;
    uint32_t low = coord & ((2u << k) - 1);
    if (low == 1u << k)
        torus_send(node, c, l, m, axis, coord, k, off, count, tag);
    else if (low == 0)
        node_recv(node, torus_partner(c, l, m, axis, coord, k), tag, buf,
                  count);
}


/* Cube: every node but the root receives (spread) or sends (reduce) each
 * of the min(bits, count) parts once, one hop: parts (2^bits - 1)
 * messages and count (2^bits - 1) elements per line. Torus: one tree of
 * messages of count, 2^bits - 1 per line, only step b = 0's one hop. */
void axistree_count(const AxisTree *t, unsigned bits, uint32_t lines,
                    size_t count, uint64_t msgs[CLASS_COUNT],
                    uint64_t elems[CLASS_COUNT])
{
    if (t->cube) {
        uint64_t others = ((uint64_t)1 << bits) - 1;
        msgs[CLASS_NEIGHBOUR] += (uint64_t)lines * others
                                 * axistree_parts(bits, count);
        elems[CLASS_NEIGHBOUR] += (uint64_t)lines * others * count;
        return;
    }
    for (unsigned b = 0; b < bits; b++) {
        uint64_t senders = (uint64_t)lines << (bits - 1 - b);
        MessageClass cl = b == 0 ? CLASS_NEIGHBOUR : CLASS_ROUTER;
        msgs[cl] += senders;
        elems[cl] += senders * count;
    }
}
