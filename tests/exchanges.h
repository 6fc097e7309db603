/* exchanges.h -- a trace observer for the figure tests: records, for every
 * message, its tag, source and first dimension (hop 0, once), so a test can
 * replay the placements after every step and compare them with a paper's
 * figure. Header-only: each test binary is one file. */
#ifndef CUBE_TEST_EXCHANGES_H
#define CUBE_TEST_EXCHANGES_H

#include "sim.h"

/* Messages a figure test records at the most. */
#define EXCHANGES_MAX 4096

typedef struct {
    int count;
    uint64_t last_id;
    struct { int tag; uint32_t source; int dim; } x[EXCHANGES_MAX];
} Exchanges;

static inline void exchanges_record(void *data, const SimMessage *m,
                                    uint32_t node, int dim, uint64_t first,
                                    uint64_t count, Tick start)
{
    Exchanges *ex = data;
    (void)first; (void)count; (void)start;
    if (node != m->source || (ex->count > 0 && ex->last_id == m->id))
        return;
    g_assert(ex->count < EXCHANGES_MAX);
    ex->last_id = m->id;
    ex->x[ex->count].tag = m->tag;
    ex->x[ex->count].source = m->source;
    ex->x[ex->count].dim = dim;
    ex->count++;
}

static const SimObserver exchanges_observer = { .channel_busy = exchanges_record };

#endif
