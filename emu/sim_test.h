/* sim_test.h -- the engine's hooks for its tests (tests/check_engine.c):
 * switches that force a rarely taken path of the engine (sim*.c), and
 * counters of what those paths did. A run is the same with or without
 * them; nothing but a test includes this header (run/, algorithms/ and
 * the backends see sim.h only).
 */
#ifndef CUBE_SIM_TEST_H
#define CUBE_SIM_TEST_H

#include <glib.h>
#include <stdint.h>
#include "sim.h"

/* For tests, before sim_run: dense channels count elements in 32 bits
 * and move a count to a 64-bit table when it would reach `limit`
 * (normally UINT32_MAX - 1); a small limit makes every channel take that
 * path. */
void sim_set_count_limit(Sim *sim, uint32_t limit);

/* For tests, before sim_run: put an exchange's deliveries off
 * (sim_pending.c) when its partner's message was posted at least
 * `messages` messages before, for exchanges of regions and of whole
 * memories alike (normally 2048 for regions, 0 for whole memories); 0
 * puts off every one it can, UINT64_MAX none. The final memory is the
 * same either way. */
void sim_set_pending_far(Sim *sim, uint64_t messages);

/* For tests, before sim_run: keep a node's first waiting receive and
 * first early (lazy) message in its own state (sim.c, recv_wait and
 * msg_keep; the default, TRUE) or always in its key's list (FALSE). The
 * run is the same either way. */
void sim_set_keep(Sim *sim, gboolean keep);

/* For tests, before sim_run: a dense link without an array keeps the
 * channels it uses in a table until they pay for one (sim_channels.c;
 * the default, TRUE), or takes an array at its first hop (FALSE). The
 * run is the same either way. */
void sim_set_link_tables(Sim *sim, gboolean tables);

/* A link's table gives way to an array once it holds nodes /
 * SIM_LINK_TABLE_SHARE channels (none on machines of fewer nodes). An
 * array costs the kernel's mapping and zeroing of 32 bytes a node, a
 * table a hash insertion an entry: the share keeps what a link that does
 * take an array spent on its table a small part of the array's own cost,
 * and a link that never fills its table (the shift ring on the cube uses
 * link l at 1 node in 2^(l+1)) maps no array at all. */
#define SIM_LINK_TABLE_SHARE 32

/* For tests, before sim_run: read routes ahead from the program's peek
 * (node.h, NodePeekFn; sim.c, sim_prefetch_route) on a machine of any
 * size (TRUE), not only where a link's array is large enough to fall out
 * of the caches (FALSE, the default). The run is the same either way. */
void sim_set_peek_always(Sim *sim, gboolean always);

/* For tests: the peek's answers the read ahead asked for, and those it
 * followed (a node of the machine, at most NODE_PEEK_HOPS links). */
typedef struct {
    uint64_t asked, followed;
} SimPeekCounts;
SimPeekCounts sim_peek_counts(const Sim *sim);

/* For tests: deliveries put off so far, those of them that became swaps,
 * those carried out before their batch because something else was about
 * to read or write their regions, and the swaps of two whole memories,
 * carried out by swapping which block of memory each node owns. */
typedef struct {
    uint64_t noted, swapped, settled, relabelled;
} SimPendingCounts;
SimPendingCounts sim_pending_counts(const Sim *sim);

/* For tests: link arrays a link took back parked, its counts unfolded,
 * and parked arrays settled (folded into their link's counts) for another
 * link to take; arrays mapped fresh, and links that moved from their
 * table of channels in use to an array (sim_channels.c). */
typedef struct {
    uint64_t taken_back, settled;
    uint64_t mapped, densified;
} SimLinkCounts;
SimLinkCounts sim_link_counts(const Sim *sim);

/* The engine's time: the tick of the event running now (a test's program
 * reads it to say when it was called; node.h gives programs no clock). */
Tick sim_test_now(const Sim *sim);

#endif
