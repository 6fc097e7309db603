/* faults.c -- fault sets: parsed, drawn, checked for connectivity,
 * labelled (Lee & Hayes's unsafe nodes) and routed around (faults.h).
 *
 * Faults are few beside the machine (FAULTS_MAX), so every lookup is a
 * binary search over sorted arrays; nothing here is sized by the machine
 * except the breadth-first searches, which run at build time (the
 * connectivity check, where the topology's connectivity does not settle
 * it) and for the shortest surviving paths, whose trees are cached.
 */
#include "faults.h"
#include "bits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest-path trees kept (one per source and epoch): a routed
 * workload sends from a few sources at a time, and each tree is a
 * machine-sized array. */
#define FAULTS_TREE_CACHE 8

/* A tree is cached only on machines up to this many nodes: beyond, each
 * search allocates its own, as its arrays would dwarf the cache. */
#define FAULTS_TREE_CACHE_NODES (1u << 22)

/* One epoch: an interval of ticks over which the fault set is constant,
 * and (with the scheme) its unsafe nodes. */
typedef struct {
    Tick start;
    uint32_t *unsafe;             /* sorted */
    size_t nunsafe;
    uint32_t live_faulty_links;   /* for the connectivity shortcut */
} Epoch;

typedef struct {
    size_t epoch;
    uint32_t from;
    uint32_t *parent;             /* node the search reached it from */
    int32_t *link;                /* over this link; -1: unreached */
    uint64_t used;
} Tree;

struct Faults {
    grefcount ref;
    Topology topo;
    char *spec;
    FaultEntry *ch;               /* channels down, sorted (node, link, from) */
    size_t nch;
    uint32_t *dead;               /* dead nodes, sorted */
    size_t ndead;
    /* A bit a node: set for a node with a channel down at some tick.
     * The engine asks of every message whether its path is clear, and
     * almost every node has nothing down: one bit answers for it. */
    uint64_t *touched;
    FaultCounts counts;
    Epoch *epoch;
    size_t nepoch;
    gboolean scheme;
    GMutex lock;                  /* the tree cache */
    Tree tree[FAULTS_TREE_CACHE];
    uint64_t tree_clock;
};

/* ---- lookups --------------------------------------------------------- */

static int entry_cmp(const void *a, const void *b)
{
    const FaultEntry *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->link != y->link)
        return x->link < y->link ? -1 : 1;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->until != y->until)
        return x->until < y->until ? -1 : 1;
    return 0;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static gboolean sorted_has(const uint32_t *v, size_t n, uint32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == x;
}

gboolean faults_node_dead(const Faults *f, uint32_t node)
{
    return f && sorted_has(f->dead, f->ndead, node);
}

gboolean faults_has_dead_nodes(const Faults *f)
{
    return f && f->ndead > 0;
}

uint32_t faults_live_nodes(const Faults *f)
{
    return f->topo.nodes - (uint32_t)f->ndead;
}

uint32_t faults_live_node(const Faults *f, uint32_t i)
{
    /* The i-th live node: i plus the dead nodes at or below it. */
    uint32_t x = i;
    size_t k = 0;
    while (k < f->ndead && f->dead[k] <= x) {
        x++;
        k++;
    }
    return x;
}

static inline gboolean touched(const Faults *f, uint32_t x)
{
    return faults_bit(f->touched, x);
}

gboolean faults_channel_down(const Faults *f, uint32_t node, int link, Tick t)
{
    if (!f || !f->nch || !touched(f, node))
        return FALSE;
    size_t lo = 0, hi = f->nch;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const FaultEntry *e = &f->ch[mid];
        if (e->node < node || (e->node == node && e->link < link))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < f->nch && f->ch[i].node == node
                        && f->ch[i].link == link; i++)
        if (f->ch[i].from <= t && t < f->ch[i].until)
            return TRUE;
    return FALSE;
}

/* Can a message at x cross `link` at tick t: the link exists, its channel
 * is up and its far end is alive? The far end, or TOPOLOGY_NONE. */
static uint32_t usable(const Faults *f, uint32_t x, int link, Tick t)
{
    uint32_t y = topology_neighbour(&f->topo, x, link);
    if (y == TOPOLOGY_NONE || faults_channel_down(f, x, link, t)
        || faults_node_dead(f, y))
        return TOPOLOGY_NONE;
    return y;
}

const uint64_t *faults_hop_bits(const Faults *f)
{
    return f->ndead ? NULL : f->touched;
}

int faults_blocked_hop(const Faults *f, uint32_t from, const int *path,
                       int hops, Tick t, uint32_t *at)
{
    /* the common case: one hop from a node with nothing down, on a
     * machine whose nodes all live */
    if (hops == 1 && !f->ndead && !touched(f, from))
        return -1;
    uint32_t x = from;
    for (int h = 0; h < hops; h++) {
        uint32_t y = usable(f, x, path[h], t);
        if (y == TOPOLOGY_NONE) {
            *at = x;
            return h;
        }
        x = y;
    }
    return -1;
}

static size_t epoch_of(const Faults *f, Tick t)
{
    size_t lo = 0, hi = f->nepoch;      /* epoch[0].start == 0 */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->epoch[mid].start <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

gboolean faults_unsafe(const Faults *f, uint32_t node, Tick t)
{
    if (!f->scheme)
        return FALSE;
    const Epoch *e = &f->epoch[epoch_of(f, t)];
    return sorted_has(e->unsafe, e->nunsafe, node);
}

gboolean faults_scheme_holds(const Faults *f, Tick t)
{
    if (!f->scheme)
        return FALSE;
    const Epoch *e = &f->epoch[epoch_of(f, t)];
    return e->nunsafe < faults_live_nodes(f);
}

gboolean faults_have_scheme(const Faults *f)
{
    return f->scheme;
}

const char *faults_spec(const Faults *f)
{
    return f->spec;
}

FaultCounts faults_counts(const Faults *f)
{
    return f->counts;
}

/* Dead nodes and channels merged in node order, a node before its
 * channels. */
void faults_entries(const Faults *f, GArray *out)
{
    size_t a = 0, b = 0;
    while (a < f->ndead || b < f->nch) {
        if (a < f->ndead && (b >= f->nch || f->dead[a] <= f->ch[b].node)) {
            FaultEntry e = { f->dead[a++], -1, 0, FAULTS_FOREVER };
            g_array_append_val(out, e);
        } else {
            g_array_append_val(out, f->ch[b]);
            b++;
        }
    }
}

/* ---- breadth-first search -------------------------------------------- */

/* The search from `from` at tick t: parent[] and link[] (link -1 for a
 * node not reached), and how many live nodes it reached. Links are tried
 * in ascending order from nodes in the order reached, so the tree, and
 * every path read from it, is deterministic. */
static uint32_t bfs(const Faults *f, uint32_t from, Tick t, uint32_t *parent,
                    int32_t *link)
{
    uint32_t n = f->topo.nodes;
    for (uint32_t i = 0; i < n; i++)
        link[i] = -1;
    uint32_t *queue = g_new(uint32_t, n);
    size_t head = 0, tail = 0;
    queue[tail++] = from;
    link[from] = INT32_MAX;           /* the root: reached, no parent */
    parent[from] = from;
    while (head < tail) {
        uint32_t x = queue[head++];
        for (int l = 0; l < f->topo.links; l++) {
            uint32_t y = usable(f, x, l, t);
            if (y == TOPOLOGY_NONE || link[y] != -1)
                continue;
            link[y] = l;
            parent[y] = x;
            queue[tail++] = y;
        }
    }
    g_free(queue);
    return (uint32_t)tail;
}

/* Breadth-first searches backwards: who reaches `to`. Only for the
 * connectivity check, so it asks every node's every link (no reverse
 * link is known in general). */
static uint32_t bfs_into(const Faults *f, uint32_t to, Tick t, uint8_t *seen)
{
    uint32_t n = f->topo.nodes;
    memset(seen, 0, n);
    seen[to] = 1;
    uint32_t reached = 1;
    gboolean grew = TRUE;
    while (grew) {
        grew = FALSE;
        for (uint32_t x = 0; x < n; x++) {
            if (seen[x] || faults_node_dead(f, x))
                continue;
            for (int l = 0; l < f->topo.links; l++) {
                uint32_t y = usable(f, x, l, t);
                if (y != TOPOLOGY_NONE && seen[y]) {
                    seen[x] = 1;
                    reached++;
                    grew = TRUE;
                    break;
                }
            }
        }
    }
    return reached;
}

/* The cached tree from `from` in epoch e, or a new one; hold f->lock. */
static Tree *tree_get(Faults *f, size_t e, uint32_t from, Tree *own)
{
    uint32_t n = f->topo.nodes;
    if (n > FAULTS_TREE_CACHE_NODES) {
        own->parent = g_new(uint32_t, n);
        own->link = g_new(int32_t, n);
        bfs(f, from, f->epoch[e].start, own->parent, own->link);
        return own;
    }
    Tree *oldest = &f->tree[0];
    for (int i = 0; i < FAULTS_TREE_CACHE; i++) {
        Tree *c = &f->tree[i];
        if (c->parent && c->epoch == e && c->from == from) {
            c->used = ++f->tree_clock;
            return c;
        }
        if (!c->parent || c->used < oldest->used)
            oldest = c;
    }
    if (!oldest->parent) {
        oldest->parent = g_new(uint32_t, n);
        oldest->link = g_new(int32_t, n);
    }
    oldest->epoch = e;
    oldest->from = from;
    oldest->used = ++f->tree_clock;
    bfs(f, from, f->epoch[e].start, oldest->parent, oldest->link);
    return oldest;
}

static void grow(int **links, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    *links = g_renew(int, *links, c);
    *cap = c;
}

static int shortest_route(const Faults *f, uint32_t from, uint32_t to,
                          Tick t, int **links, size_t *cap)
{
    Faults *mf = (Faults *)f;   /* the cache alone changes */
    Tree own = { 0 };
    g_mutex_lock(&mf->lock);
    Tree *tr = tree_get(mf, epoch_of(f, t), from, &own);
    int hops = 0;
    for (uint32_t x = to; x != from; x = tr->parent[x])
        hops++;
    grow(links, cap, (size_t)hops);
    int h = hops;
    for (uint32_t x = to; x != from; x = tr->parent[x])
        (*links)[--h] = tr->link[x];
    g_mutex_unlock(&mf->lock);
    g_free(own.parent);
    g_free(own.link);
    return hops;
}

uint32_t faults_distance(const Faults *f, uint32_t from, uint32_t to, Tick t)
{
    uint32_t n = f->topo.nodes;
    g_autofree uint32_t *parent = g_new(uint32_t, n);
    g_autofree int32_t *link = g_new(int32_t, n);
    bfs(f, from, f->epoch[epoch_of(f, t)].start, parent, link);
    if (link[to] == -1)
        return UINT32_MAX;
    uint32_t d = 0;
    for (uint32_t x = to; x != from; x = parent[x])
        d++;
    return d;
}

/* ---- Lee & Hayes's scheme -------------------------------------------- */

/* The search behind a scheme route: its destination, its bound, the
 * path so far, and the states (node, links taken) known to lead nowhere
 * within the bound. */
typedef struct {
    const Faults *f;
    const Epoch *e;
    uint32_t to;
    int limit;
    Tick t;
    int *links;
    GHashTable *dead_end;
} Search;

static gpointer state_key(uint32_t x, int hops)
{
    return GSIZE_TO_POINTER(((gsize)x << 6 | (gsize)hops) + 1);
}

/* Candidates at x in the order of preference: rounds of dimensions, the
 * lowest first in each. */
enum {
    ROUND_DIFFERS_SAFE,           /* it still differs there, a safe node */
    ROUND_SPARE_BACK_SAFE,        /* correcting a spare, a safe node */
    ROUND_SPARE_SAFE,             /* a spare dimension, a safe node */
    ROUND_DIFFERS_UNSAFE,         /* it still differs there, an unsafe node */
    ROUND_SPARE_UNSAFE,           /* a spare dimension, an unsafe node */
    ROUNDS
};

static int round_of(uint32_t diff, uint32_t spare, uint32_t bit,
                    gboolean unsafe)
{
    if (diff & bit) {
        if (unsafe)
            return ROUND_DIFFERS_UNSAFE;
        return (spare & bit) ? ROUND_SPARE_BACK_SAFE : ROUND_DIFFERS_SAFE;
    }
    return unsafe ? ROUND_SPARE_UNSAFE : ROUND_SPARE_SAFE;
}

static gboolean search(Search *s, uint32_t x, int hops, uint32_t spare)
{
    if (x == s->to)
        return TRUE;
    uint32_t diff = x ^ s->to;
    int need = __builtin_popcount(diff);
    if (hops + need > s->limit)
        return FALSE;
    if (s->dead_end && g_hash_table_contains(s->dead_end,
                                             state_key(x, hops)))
        return FALSE;
    const Faults *f = s->f;
    int n = f->topo.axes;
    for (int round = 0; round < ROUNDS; round++) {
        /* a spare costs two links: one out, one back */
        if ((round == ROUND_SPARE_SAFE || round == ROUND_SPARE_UNSAFE)
            && hops + need + 2 > s->limit)
            continue;
        for (int d = 0; d < n; d++) {
            uint32_t bit = (uint32_t)1 << d;
            uint32_t y = usable(f, x, d, s->t);
            if (y == TOPOLOGY_NONE)
                continue;
            gboolean unsafe = y != s->to
                              && sorted_has(s->e->unsafe, s->e->nunsafe, y);
            if (round_of(diff, spare, bit, unsafe) != round)
                continue;
            s->links[hops] = d;
            if (search(s, y, hops + 1, (diff & bit) ? spare : spare | bit))
                return TRUE;
        }
    }
    if (!s->dead_end)
        s->dead_end = g_hash_table_new(NULL, NULL);
    g_hash_table_add(s->dead_end, state_key(x, hops));
    return FALSE;
}

/* The scheme's route: Lee & Hayes's order of preference (the dimensions
 * in which the message still differs, to safe nodes; a spare dimension,
 * corrected later, to a safe node; unsafe nodes last), searched depth
 * first with backtracking as in Chen & Shin's scheme (M.-S. Chen and
 * K. G. Shin, "Adaptive fault-tolerant routing in hypercube
 * multicomputers", IEEE Transactions on Computers 39(12), 1990), within
 * popcount(from ^ to) + 2 links. The first path found in that order, or
 * -1 when none that short survives. */
static int scheme_route(const Faults *f, uint32_t from, uint32_t to, Tick t,
                        int **links, size_t *cap)
{
    int limit = __builtin_popcount(from ^ to) + 2;
    grow(links, cap, (size_t)limit);
    Search s = { f, &f->epoch[epoch_of(f, t)], to, limit, t, *links, NULL };
    gboolean found = search(&s, from, 0, 0);
    int hops = -1;
    if (found) {
        /* The path the search took, less any loop in it (a spare taken
         * and undone where nothing better was left): the nodes visited,
         * then each stretch between two visits of a node cut. */
        uint32_t node[TOPOLOGY_CUBE_MAX_DIMENSIONS + 3];
        int len = 0;
        node[0] = from;
        while (node[len] != to) {
            node[len + 1] = node[len] ^ ((uint32_t)1 << (*links)[len]);
            len++;
        }
        hops = 0;
        for (int i = 0; i < len;) {
            int j = len;
            while (node[j] != node[i])
                j--;
            if (j > i) {
                i = j;
                continue;
            }
            (*links)[hops++] = __builtin_ctz(node[i] ^ node[i + 1]);
            i++;
        }
    }
    if (s.dead_end)
        g_hash_table_destroy(s.dead_end);
    return hops;
}

int faults_route(const Faults *f, uint32_t from, uint32_t to, Tick t,
                 int **links, size_t *cap, FaultRouteKind *kind)
{
    if (f->scheme) {
        int hops = scheme_route(f, from, to, t, links, cap);
        if (hops >= 0) {
            *kind = FAULT_ROUTE_SCHEME;
            return hops;
        }
    } else {
        grow(links, cap, (size_t)topology_max_route(&f->topo) + 1);
        int hops = topology_route(&f->topo, from, to, *links);
        uint32_t at;
        if (faults_blocked_hop(f, from, *links, hops, t, &at) < 0) {
            *kind = FAULT_ROUTE_DEFAULT;
            return hops;
        }
    }
    *kind = FAULT_ROUTE_SHORTEST;
    return shortest_route(f, from, to, t, links, cap);
}

/* Label epoch e's unsafe nodes: the least fixed point of Lee & Hayes's
 * definition, a live node being unsafe if it has at least two faulty
 * neighbours or at least three neighbours faulty or unsafe. A neighbour
 * across a link with a channel down either way counts as faulty (the
 * paper's faults are nodes; a node cannot use a broken link to its
 * neighbour, nor be used by it). Only nodes next to faults or to unsafe
 * nodes can become unsafe, so the search starts at the faults. */
static void label(Faults *f, Epoch *e)
{
    int n = f->topo.axes;
    Tick t = e->start;
    GHashTable *unsafe = g_hash_table_new(NULL, NULL);
    GArray *work = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (size_t i = 0; i < f->ndead; i++)
        for (int d = 0; d < n; d++) {
            uint32_t y = f->dead[i] ^ ((uint32_t)1 << d);
            g_array_append_val(work, y);
        }
    for (size_t i = 0; i < f->nch; i++)
        if (f->ch[i].from <= t && t < f->ch[i].until) {
            uint32_t a = f->ch[i].node;
            uint32_t b = a ^ ((uint32_t)1 << f->ch[i].link);
            g_array_append_val(work, a);
            g_array_append_val(work, b);
        }
    while (work->len) {
        uint32_t x = g_array_index(work, uint32_t, work->len - 1);
        g_array_set_size(work, work->len - 1);
        if (faults_node_dead(f, x)
            || g_hash_table_contains(unsafe, GUINT_TO_POINTER(x + 1)))
            continue;
        int faulty = 0, bad = 0;
        for (int d = 0; d < n; d++) {
            uint32_t y = x ^ ((uint32_t)1 << d);
            if (faults_node_dead(f, y) || faults_channel_down(f, x, d, t)
                || faults_channel_down(f, y, d, t))
                faulty++;
            else if (g_hash_table_contains(unsafe, GUINT_TO_POINTER(y + 1)))
                bad++;
        }
        if (faulty >= 2 || faulty + bad >= 3) {
            g_hash_table_add(unsafe, GUINT_TO_POINTER(x + 1));
            for (int d = 0; d < n; d++) {
                uint32_t y = x ^ ((uint32_t)1 << d);
                g_array_append_val(work, y);
            }
        }
    }
    e->nunsafe = g_hash_table_size(unsafe);
    e->unsafe = g_new(uint32_t, e->nunsafe ? e->nunsafe : 1);
    GHashTableIter it;
    gpointer key;
    size_t k = 0;
    g_hash_table_iter_init(&it, unsafe);
    while (g_hash_table_iter_next(&it, &key, NULL))
        e->unsafe[k++] = GPOINTER_TO_UINT(key) - 1;
    qsort(e->unsafe, e->nunsafe, sizeof *e->unsafe, u32_cmp);
    g_hash_table_destroy(unsafe);
    g_array_free(work, TRUE);
}

/* ---- parsing --------------------------------------------------------- */

typedef struct {
    const Topology *t;
    const char *where;
    GArray *ch;                   /* FaultEntry */
    GArray *dead;                 /* uint32_t */
    uint32_t timed;
    char *why;
} Parse;

static gboolean fail(Parse *p, const char *item, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

const FaultsSyntax faults_syntax[] = {
    { "U-V", "both channels of the link between nodes U and V" },
    { "U>V", "the one channel from U to V" },
    { "U-V@T1..T2", "a link item down from tick T1 up to T2, not including "
      "T2 (@T1.. from T1 on)" },
    { "node:U", "node U: it runs no program and forwards nothing" },
    { "random:K:SEED", "K links, both channels, drawn reproducibly" },
    { "random-nodes:K:SEED", "K nodes, likewise" },
    { "none", "no faults" },
    { NULL, NULL }
};

static gboolean fail(Parse *p, const char *item, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* The forms that name faults ("none" names none). */
    g_autoptr(GString) forms = g_string_new(NULL);
    for (const FaultsSyntax *x = faults_syntax; x->form; x++)
        if (strcmp(x->form, "none"))
            g_string_append_printf(forms, "%s%s", forms->len ? ", " : "",
                                   x->form);
    p->why = g_strdup_printf("%s: faults: '%s': %s (syntax: %s; "
                             "docs/faults.md)", p->where, item, msg,
                             forms->str);
    return FALSE;
}

/* A number: decimal, 0x hexadecimal or 0b binary, all of s. */
static gboolean parse_number(const char *s, uint64_t max, uint64_t *out)
{
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    }
    if (!*s)
        return FALSE;
    uint64_t v = 0;
    for (; *s; s++) {
        int digit;
        if (*s >= '0' && *s <= '9')
            digit = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            digit = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F')
            digit = *s - 'A' + 10;
        else
            return FALSE;
        if (digit >= base || v > (max - (uint64_t)digit) / (uint64_t)base)
            return FALSE;
        v = v * (uint64_t)base + (uint64_t)digit;
    }
    *out = v;
    return TRUE;
}

static gboolean parse_node(Parse *p, const char *item, const char *s,
                           uint32_t *out)
{
    uint64_t v;
    if (!parse_number(s, UINT32_MAX, &v))
        return fail(p, item, "'%s' is not a node number", s);
    if (v >= p->t->nodes)
        return fail(p, item, "node %" PRIu64 " is not in this machine "
                    "(nodes 0..%" PRIu32 ")", v, p->t->nodes - 1);
    *out = (uint32_t)v;
    return TRUE;
}

/* The link from u to v, or -1. */
static int link_between(const Topology *t, uint32_t u, uint32_t v)
{
    for (int l = 0; l < t->links; l++)
        if (topology_neighbour(t, u, l) == v)
            return l;
    return -1;
}

static void add_channel(Parse *p, uint32_t u, int l, Tick from, Tick until)
{
    FaultEntry e = { u, l, from, until };
    g_array_append_val(p->ch, e);
}

static void add_link(Parse *p, uint32_t u, uint32_t v, int l, Tick from,
                     Tick until)
{
    add_channel(p, u, l, from, until);
    add_channel(p, v, link_between(p->t, v, u), from, until);
}

static gboolean parse_link(Parse *p, const char *item)
{
    g_autofree char *text = g_strdup(item);
    Tick from = 0, until = FAULTS_FOREVER;
    char *at = strchr(text, '@');
    if (at) {
        *at++ = '\0';
        char *dots = strstr(at, "..");
        if (!dots)
            return fail(p, item, "a time is T1..T2 or T1.. (ticks)");
        *dots = '\0';
        uint64_t a, b = (uint64_t)FAULTS_FOREVER;
        if (!parse_number(at, (uint64_t)FAULTS_FOREVER - 1, &a))
            return fail(p, item, "'%s' is not a tick", at);
        if (dots[2] && !parse_number(dots + 2, (uint64_t)FAULTS_FOREVER - 1,
                                     &b))
            return fail(p, item, "'%s' is not a tick", dots + 2);
        if (b <= a)
            return fail(p, item, "the link is down over no tick (%" PRIu64
                        "..%" PRIu64 ")", a, b);
        from = (Tick)a;
        until = (Tick)b;
        p->timed++;
        if (p->timed > FAULTS_MAX_TIMED)
            return fail(p, item, "more than %d timed faults",
                        FAULTS_MAX_TIMED);
    }
    char *sep = strpbrk(text, "->");
    if (!sep || sep == text || !sep[1])
        return fail(p, item, "a link is U-V (both ways) or U>V (one way)");
    gboolean one_way = *sep == '>';
    *sep = '\0';
    uint32_t u, v;
    if (!parse_node(p, item, text, &u) || !parse_node(p, item, sep + 1, &v))
        return FALSE;
    int l = link_between(p->t, u, v);
    if (l < 0)
        return fail(p, item, "nodes %" PRIu32 " and %" PRIu32 " are not "
                    "joined by a link of this machine", u, v);
    if (one_way)
        add_channel(p, u, l, from, until);
    else
        add_link(p, u, v, l, from, until);
    return TRUE;
}

static gboolean parse_random(Parse *p, const char *item, gboolean nodes)
{
    g_auto(GStrv) part = g_strsplit(item, ":", -1);
    uint64_t k, seed;
    if (g_strv_length(part) != 3 || !parse_number(part[1], FAULTS_MAX, &k)
        || !parse_number(part[2], UINT64_MAX, &seed))
        return fail(p, item, "random faults are %s:K:SEED, K at most %d",
                    part[0], FAULTS_MAX);
    const Topology *t = p->t;
    uint64_t state = seed;
    if (nodes) {
        if (k >= t->nodes)
            return fail(p, item, "%" PRIu64 " dead nodes leave none of "
                        "%" PRIu32 " alive", k, t->nodes);
        g_autoptr(GHashTable) picked = g_hash_table_new(NULL, NULL);
        while (g_hash_table_size(picked) < k) {
            uint32_t x = (uint32_t)(bits_splitmix64_next(&state) % t->nodes);
            if (g_hash_table_add(picked, GUINT_TO_POINTER(x + 1)))
                g_array_append_val(p->dead, x);
        }
        return TRUE;
    }
    uint64_t edges = topology_links_channels(t, 0, t->links) / 2;
    if (k > edges)
        return fail(p, item, "this machine has %" PRIu64 " link%s", edges,
                    edges == 1 ? "" : "s");
    g_autoptr(GHashTable) picked = g_hash_table_new(g_int64_hash,
                                                    g_int64_equal);
    g_autoptr(GArray) keys = g_array_sized_new(FALSE, FALSE, sizeof(gint64),
                                               (guint)k);
    g_array_set_size(keys, (guint)k);
    uint64_t have = 0;
    /* Draws are rejected when they name no link or one already drawn; a
     * draw of most of the links would take long, so then the links are
     * listed and shuffled instead. */
    if (2 * k <= edges) {
        while (have < k) {
            uint32_t u = (uint32_t)(bits_splitmix64_next(&state) % t->nodes);
            int l = (int)(bits_splitmix64_next(&state) % (uint64_t)t->links);
            uint32_t v = topology_neighbour(t, u, l);
            if (v == TOPOLOGY_NONE)
                continue;
            uint32_t a = MIN(u, v), b = MAX(u, v);
            gint64 *key = &g_array_index(keys, gint64, have);
            *key = (gint64)(((uint64_t)a << 32) | b);
            if (!g_hash_table_contains(picked, key)) {
                g_hash_table_add(picked, key);
                add_link(p, a, b, link_between(t, a, b), 0, FAULTS_FOREVER);
                have++;
            }
        }
        return TRUE;
    }
    g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (uint32_t u = 0; u < t->nodes; u++)
        for (int l = 0; l < t->links; l++) {
            uint32_t v = topology_neighbour(t, u, l);
            if (v != TOPOLOGY_NONE && u < v) {
                uint64_t e = ((uint64_t)u << 32) | v;
                g_array_append_val(all, e);
            }
        }
    for (uint64_t i = 0; i < k; i++) {
        uint64_t j = i + bits_splitmix64_next(&state) % (all->len - i);
        uint64_t *v = (uint64_t *)all->data;
        uint64_t tmp = v[i];
        v[i] = v[j];
        v[j] = tmp;
        uint32_t a = (uint32_t)(v[i] >> 32), b = (uint32_t)v[i];
        add_link(p, a, b, link_between(t, a, b), 0, FAULTS_FOREVER);
    }
    return TRUE;
}

static gboolean parse_item(Parse *p, const char *item)
{
    if (g_str_has_prefix(item, "node:")) {
        uint32_t x;
        if (!parse_node(p, item, item + 5, &x))
            return FALSE;
        g_array_append_val(p->dead, x);
        return TRUE;
    }
    if (g_str_has_prefix(item, "random-nodes:"))
        return parse_random(p, item, TRUE);
    if (g_str_has_prefix(item, "random:"))
        return parse_random(p, item, FALSE);
    return parse_link(p, item);
}

/* Drop repeated entries of a sorted array. */
static size_t dedupe(void *base, size_t n, size_t size)
{
    char *v = base;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || memcmp(v + (k - 1) * size, v + i * size, size) != 0)
            memmove(v + (k++) * size, v + i * size, size);
    return k;
}

/* Is (node, link) down over exactly [from, until)? */
static gboolean has_entry(const Faults *f, uint32_t node, int link, Tick from,
                          Tick until)
{
    FaultEntry key = { node, link, from, until };
    return f->nch > 0
           && bsearch(&key, f->ch, f->nch, sizeof key, entry_cmp) != NULL;
}

/* Is e one of the two channels of a link item (its reverse is down over
 * the same ticks)? *v: its far end. */
static gboolean paired(const Faults *f, const FaultEntry *e, uint32_t *v)
{
    *v = topology_neighbour(&f->topo, e->node, e->link);
    return has_entry(f, *v, link_between(&f->topo, *v, e->node), e->from,
                     e->until);
}

static void count(Faults *f)
{
    FaultCounts c = { 0 };
    for (size_t i = 0; i < f->nch; i++) {
        const FaultEntry *e = &f->ch[i];
        if (e->from > 0 || e->until != FAULTS_FOREVER)
            c.timed++;
        uint32_t v;
        if (!paired(f, e, &v))
            c.channels++;
        else if (e->node < v)
            c.links++;
        else if (e->from > 0 || e->until != FAULTS_FOREVER)
            c.timed--;                  /* a timed link is one item */
    }
    c.nodes = (uint32_t)f->ndead;
    f->counts = c;
}

/* The fault set's epochs: tick 0 and every tick at which a timed fault
 * starts or ends. */
static void epochs(Faults *f)
{
    g_autoptr(GArray) start = g_array_new(FALSE, FALSE, sizeof(Tick));
    Tick zero = 0;
    g_array_append_val(start, zero);
    for (size_t i = 0; i < f->nch; i++) {
        if (f->ch[i].from > 0)
            g_array_append_val(start, f->ch[i].from);
        if (f->ch[i].until != FAULTS_FOREVER)
            g_array_append_val(start, f->ch[i].until);
    }
    Tick *s = (Tick *)start->data;
    for (guint i = 1; i < start->len; i++)      /* insertion: a few */
        for (guint j = i; j > 0 && s[j - 1] > s[j]; j--) {
            Tick tmp = s[j];
            s[j] = s[j - 1];
            s[j - 1] = tmp;
        }
    size_t n = dedupe(s, start->len, sizeof(Tick));
    f->nepoch = n;
    f->epoch = g_new0(Epoch, n);
    for (size_t i = 0; i < n; i++)
        f->epoch[i].start = s[i];
}

/* Whether the live nodes reach each other in every epoch; else *why. The
 * cube (n-connected) and the complete graph (P-1-connected) stay so with
 * fewer faulty links and nodes than that, which spares the search. */
static gboolean connected(Faults *f, const char *where, char **why)
{
    const Topology *t = &f->topo;
    uint32_t connectivity = 0;
    if (topology_has(t, TOPOLOGY_DIMENSIONS) && t->links == t->axes)
        connectivity = (uint32_t)t->axes;
    else if (topology_has(t, TOPOLOGY_DIRECT))
        connectivity = t->nodes - 1;
    uint32_t n = t->nodes;
    for (size_t e = 0; e < f->nepoch; e++) {
        Tick at = f->epoch[e].start;
        /* links with a channel down, counted once a pair */
        uint32_t faulty = (uint32_t)f->ndead;
        for (size_t i = 0; i < f->nch; i++) {
            const FaultEntry *c = &f->ch[i];
            if (c->from > at || at >= c->until)
                continue;
            uint32_t v = topology_neighbour(t, c->node, c->link);
            int back = link_between(t, v, c->node);
            if (c->node < v || !faults_channel_down(f, v, back, at))
                faulty++;
        }
        if (faulty < connectivity)
            continue;
        uint32_t root = faults_live_node(f, 0);
        g_autofree uint32_t *parent = g_new(uint32_t, n);
        g_autofree int32_t *link = g_new(int32_t, n);
        uint32_t reached = bfs(f, root, at, parent, link);
        uint32_t live = faults_live_nodes(f);
        const char *when = "";
        g_autofree char *when_text = at ? g_strdup_printf(" from tick %" PRIu64,
                                                          (uint64_t)at) : NULL;
        if (when_text)
            when = when_text;
        if (reached < live) {
            for (uint32_t x = 0; x < n; x++)
                if (link[x] == -1 && !faults_node_dead(f, x)) {
                    *why = g_strdup_printf("%s: faults: node %" PRIu32
                                           " cannot reach node %" PRIu32
                                           "%s: the faults disconnect the "
                                           "machine", where, root, x, when);
                    return FALSE;
                }
        }
        g_autofree uint8_t *seen = g_new(uint8_t, n);
        if (bfs_into(f, root, at, seen) < live)
            for (uint32_t x = 0; x < n; x++)
                if (!seen[x] && !faults_node_dead(f, x)) {
                    *why = g_strdup_printf("%s: faults: node %" PRIu32
                                           " cannot reach node %" PRIu32
                                           "%s: the faults disconnect the "
                                           "machine", where, x, root, when);
                    return FALSE;
                }
    }
    return TRUE;
}

gboolean faults_parse(const char *spec, const char *where, const Topology *t,
                      Faults **out, char **why)
{
    *out = NULL;
    g_autofree char *trimmed = g_strstrip(g_strdup(spec ? spec : ""));
    if (!*trimmed || !strcmp(trimmed, "none"))
        return TRUE;
    Parse p = { t, where, g_array_new(FALSE, FALSE, sizeof(FaultEntry)),
                g_array_new(FALSE, FALSE, sizeof(uint32_t)), 0, NULL };
    g_auto(GStrv) items = g_strsplit(trimmed, ",", -1);
    gboolean ok = TRUE;
    for (char **it = items; *it && ok; it++) {
        g_strstrip(*it);
        if (!**it) {
            ok = fail(&p, trimmed, "an empty item");
            break;
        }
        if (!strcmp(*it, "none")) {
            ok = fail(&p, *it, "'none' stands alone");
            break;
        }
        ok = parse_item(&p, *it);
        if (ok && p.ch->len + p.dead->len > 2 * (guint)FAULTS_MAX)
            ok = fail(&p, *it, "more than %d faults", FAULTS_MAX);
    }
    if (!ok) {
        *why = p.why;
        g_array_free(p.ch, TRUE);
        g_array_free(p.dead, TRUE);
        return FALSE;
    }
    if (p.ch->len == 0 && p.dead->len == 0) {
        /* random:0:SEED, a sweep's first value: no faults at all */
        g_array_free(p.ch, TRUE);
        g_array_free(p.dead, TRUE);
        return TRUE;
    }
    Faults *f = g_new0(Faults, 1);
    g_ref_count_init(&f->ref);
    g_mutex_init(&f->lock);
    f->topo = *t;
    f->spec = g_strdup(trimmed);
    f->nch = p.ch->len;
    f->ch = (FaultEntry *)g_array_free(p.ch, FALSE);
    if (f->nch > 1)     /* g_array_free gives NULL for none: no qsort */
        qsort(f->ch, f->nch, sizeof *f->ch, entry_cmp);
    f->nch = dedupe(f->ch, f->nch, sizeof *f->ch);
    f->ndead = p.dead->len;
    f->dead = (uint32_t *)g_array_free(p.dead, FALSE);
    if (f->ndead > 1)
        qsort(f->dead, f->ndead, sizeof *f->dead, u32_cmp);
    f->ndead = dedupe(f->dead, f->ndead, sizeof *f->dead);
    f->touched = g_new0(uint64_t, (t->nodes + 63) / 64);
    for (size_t i = 0; i < f->nch; i++)
        f->touched[f->ch[i].node >> 6] |= (uint64_t)1 << (f->ch[i].node & 63);
    if (f->ndead >= t->nodes) {
        *why = g_strdup_printf("%s: faults: every node is dead", where);
        faults_unref(f);
        return FALSE;
    }
    count(f);
    epochs(f);
    if (!connected(f, where, why)) {
        faults_unref(f);
        return FALSE;
    }
    f->scheme = topology_has(t, TOPOLOGY_DIMENSIONS) && t->links == t->axes;
    if (f->scheme)
        for (size_t e = 0; e < f->nepoch; e++)
            label(f, &f->epoch[e]);
    *out = f;
    return TRUE;
}

Faults *faults_ref(Faults *f)
{
    if (f)
        g_ref_count_inc(&f->ref);
    return f;
}

void faults_unref(Faults *f)
{
    if (!f || !g_ref_count_dec(&f->ref))
        return;
    for (size_t e = 0; e < f->nepoch; e++)
        g_free(f->epoch[e].unsafe);
    for (int i = 0; i < FAULTS_TREE_CACHE; i++) {
        g_free(f->tree[i].parent);
        g_free(f->tree[i].link);
    }
    g_mutex_clear(&f->lock);
    g_free(f->epoch);
    g_free(f->ch);
    g_free(f->touched);
    g_free(f->dead);
    g_free(f->spec);
    g_free(f);
}

static void append_node(GString *s, uint32_t x)
{
    g_string_append_printf(s, "%" PRIu32, x);
}

static void append_time(GString *s, const FaultEntry *e)
{
    if (e->from == 0 && e->until == FAULTS_FOREVER)
        return;
    g_string_append_printf(s, "@%" PRIu64 "..", (uint64_t)e->from);
    if (e->until != FAULTS_FOREVER)
        g_string_append_printf(s, "%" PRIu64, (uint64_t)e->until);
}

char *faults_text(const Faults *f)
{
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < f->ndead; i++) {
        g_string_append_printf(s, "%snode:", s->len ? ", " : "");
        append_node(s, f->dead[i]);
    }
    for (size_t i = 0; i < f->nch; i++) {
        const FaultEntry *e = &f->ch[i];
        uint32_t v;
        gboolean pair = paired(f, e, &v);
        if (pair && e->node > v)
            continue;                   /* written with its lower end */
        g_string_append(s, s->len ? ", " : "");
        append_node(s, e->node);
        g_string_append_c(s, pair ? '-' : '>');
        append_node(s, v);
        append_time(s, e);
    }
    return g_string_free(s, FALSE);
}
