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
 * link to take (sim_channels.c). */
typedef struct {
    uint64_t taken_back, settled;
} SimLinkCounts;
SimLinkCounts sim_link_counts(const Sim *sim);

#endif
