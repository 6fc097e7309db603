/* suggest.h -- "did you mean" for every name a user types: keys, groups,
 * algorithms, methods, presets, output fields, commands, formats.
 *
 * Names compare without regard to case and with '-' and '_' alike (a
 * scenario key is "elements-per-node", the JSON field "elements_per_node"),
 * by optimal string alignment distance: insertions, deletions,
 * substitutions and swaps of two neighbouring characters each cost one.
 */
#ifndef CUBE_SUGGEST_H
#define CUBE_SUGGEST_H

#include <glib.h>

/* The edit distance of A and B as described above. */
size_t suggest_distance(const char *a, const char *b);

/* The candidate closest to WORD, if it is close enough to be a slip of the
 * keyboard rather than another name: at most one edit for a word of up to
 * five characters, two up to eleven, three beyond. Ties go to the earlier
 * candidate; WORD itself (an exact match) is never suggested. NULL when
 * nothing is close. CANDIDATES is NULL-terminated. */
const char *suggest_closest(const char *word, const char *const *candidates);

/* "; did you mean 'NAME'?" for suggest_closest's answer, or "" (always
 * free with g_free), to put straight after "unknown ... 'WORD'". */
char *suggest_text(const char *word, const char *const *candidates);

#endif
