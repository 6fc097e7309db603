/* types.h -- the two quantities every layer counts in, at the bottom of
 * the tree so that the machine description (machine.h) and the
 * node-program API (emu/node.h) name them alike without either seeing
 * the other's: a word of an element's payload, and a time in ticks.
 */
#ifndef CUBE_TYPES_H
#define CUBE_TYPES_H

#include <stdint.h>

typedef uint64_t Word;         /* one 64-bit word of an element's payload */
typedef int64_t Tick;          /* time in ticks (the papers' cycles) */

#endif
