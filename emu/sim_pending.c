/* sim_pending.c -- exchanges' deliveries, put off.
 *
 * A unit of its own because it is an optimisation that the results must
 * not see, kept apart from matching (sim.c), which only asks, per
 * delivery and inline (sim_internal.h), whether one can be put off
 * (sim_pending_can, sim_pending_note) and whether a receive completes a
 * note (sim_pending_swap). Here: carrying notes out, one at a time or in
 * a sorted batch when time moves on.
 */
#include "sim_internal.h"
#include "oom.h"

/* Why deliveries are put off.
 *
 * In a dimension exchange the two nodes of a pair run 2^l events apart in
 * cube dimension l (nodes run in the order their previous steps completed,
 * which arbitration fixes), so on a big machine the second one's step
 * found both regions long gone from the cache and copied them one cache
 * miss after another. Its deliveries are put off instead: when node b's
 * exchange message reaches node a, whose own message to b still lies lazy
 * in the very region that receives (see Msg), the engine notes that a's
 * region is to take b's; when b then takes a's message into the region it
 * sent, the note becomes a swap. The notes are carried out when time moves
 * on, in the order of the nodes' addresses, so that memory is read and
 * written in streams; or at once, when anything else is about to read or
 * write one of their regions: the node runs, or a delivery lands in its
 * memory. Nothing else reads a noted region: a's lazy message is b's
 * alone, and b sent its region in an exchange, which the program leaves
 * alone until the step ends (node.h). The final memory is that of
 * carrying every delivery out when it happens, which the tests compare
 * element by element. */

/* Notes carried out in a batch, from this many on, are sorted first. */
#define PENDING_SORT_MIN 64
#define PENDING_RADIX_BITS 11

static void swap_words(Word *x, Word *y, size_t words)
{
    Word t[64];
    while (words > 0) {
        size_t k = MIN(words, G_N_ELEMENTS(t));
        memcpy(t, x, k * sizeof(Word));
        memcpy(x, y, k * sizeof(Word));
        memcpy(y, t, k * sizeof(Word));
        x += k;
        y += k;
        words -= k;
    }
}

/* Where a note's two regions lie: a's receives, b's was sent. */
static const PendingShape *pending_regions(Sim *sim, const Pending *p,
                                           Word **x, Word **y)
{
    const PendingShape *sh = &sim->shapes[p->shape];
    *x = sim_memory_at(sim, &sim->node[p->a], sh->a_offset);
    *y = sim_memory_at(sim, &sim->node[p->b], sh->b_offset);
    return sh;
}

/* A swap of the two nodes' whole memories: carried out by swapping which
 * block each owns (Node.block), two words, not 2 x K elements, and at
 * once, when the note becomes a swap (node_match_posted), not in the
 * batch. In a dimension exchange every note is one, and every pair is
 * noted (PENDING_FAR_WHOLE): the payload does not move at all.
 * Nothing holds an address in either memory here: a's lazy message is
 * the one b took (sim_pending_swap), b has none over its region (or it
 * would not be a swap), and a new one needs a step, which settles the
 * note first; a delivery into either settles it too. */
static void pending_relabel(Sim *sim, Pending *p)
{
    Node *a = &sim->node[p->a], *b = &sim->node[p->b];
#ifdef SIM_CHECK_EXCHANGE
    size_t ao = 0, ac = 0, bo = 0, bc = 0;
    if (a->lazy)
        sim_lazy_region(a, &ao, &ac);
    if (b->lazy)
        sim_lazy_region(b, &bo, &bc);
    g_assert(ac == 0 && bc == 0);
#endif
    uint32_t t = a->block;
    a->block = b->block;
    b->block = t;
    sim->pend_counts.relabelled++;
}

/* Carry a note out. */
void sim_pending_run(Sim *sim, Pending *p)
{
    sim->pend_open--;
    p->done = 1;
    if (sim_pending_relabels(sim, p)) {
        pending_relabel(sim, p);
        return;
    }
    size_t w = sim->element_words;
    Word *x, *y;
    const PendingShape *sh = pending_regions(sim, p, &x, &y);
    if (p->swap) {
        swap_words(x, y, sh->count * w);
    } else {
        Node *a = &sim->node[p->a];
        if (a->lazy)                    /* b has not taken it yet */
            sim_lazy_protect(sim, a, sh->a_offset, sh->count);
        memcpy(x, y, sh->count * w * sizeof(Word));
    }
}

/* Node x's memory is about to be read or written otherwise. */
void sim_pending_settle_noted(Sim *sim, Node *x)
{
    Pending *p = sim_pending_of(sim, x);
    if (p) {
        sim_pending_run(sim, p);
        sim->pend_counts.settled++;
    }
}

/* The notes in the order of the lower address of each pair (an LSD radix
 * sort, into pending_tmp and back): pairs are disjoint, so any order gives
 * the same memory, and this one streams. */
static Pending *pending_sorted(Sim *sim)
{
    size_t n = sim->npending;
    Pending *src = sim->pending, *dst = sim->pending_tmp;
    const unsigned radix = 1u << PENDING_RADIX_BITS;
    for (unsigned shift = 0; shift < 32 && ((sim->nodes - 1) >> shift) != 0;
         shift += PENDING_RADIX_BITS) {
        size_t start[(1u << PENDING_RADIX_BITS) + 1] = { 0 };
        for (size_t i = 0; i < n; i++)
            start[((MIN(src[i].a, src[i].b) >> shift) & (radix - 1)) + 1]++;
        for (unsigned d = 0; d < radix; d++)
            start[d + 1] += start[d];
        for (size_t i = 0; i < n; i++)
            dst[start[(MIN(src[i].a, src[i].b) >> shift) & (radix - 1)]++]
                = src[i];
        Pending *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

/* The batch reads ahead the two regions of the note this many places on
 * (the first AHEAD_BYTES of each). Sorted, the notes' regions form two
 * streams a dimension (the pairs' lower and upper nodes), but in a big
 * cube they come from memory, and reading them ahead shortens the batch;
 * unsorted notes read ahead gain less than sorted ones do. */
#define PENDING_AHEAD 12

static void pending_prefetch(Sim *sim, const Pending *p)
{
    if (p->done)                /* settled, or a swap of whole memories */
        return;
    Word *x, *y;
    const PendingShape *sh = pending_regions(sim, p, &x, &y);
    size_t bytes = sh->count * sim->element_words * sizeof(Word);
    sim_prefetch_bytes(x, bytes);
    sim_prefetch_bytes(y, bytes);
}

/* Time moves on (or the run ends): carry out every note not yet done. */
void sim_pending_flush(Sim *sim)
{
    size_t n = sim->npending;
    if (n == 0)
        return;
    if (sim->pend_open > 0) {
        Pending *p = n >= PENDING_SORT_MIN ? pending_sorted(sim)
                                           : sim->pending;
        for (size_t i = 0; i < n && sim->pend_open > 0; i++) {
            if (i + PENDING_AHEAD < n)
                pending_prefetch(sim, &p[i + PENDING_AHEAD]);
            if (!p[i].done)
                sim_pending_run(sim, &p[i]);
        }
    }
    sim->pend_base += n;
    sim->npending = 0;
    sim->nshapes = 0;
}

void sim_set_pending_far(Sim *sim, uint64_t messages)
{
    sim->pend_far = sim->pend_far_whole = messages;
}

SimPendingCounts sim_pending_counts(const Sim *sim)
{
    return sim->pend_counts;
}
