/* suggest.c -- the closest name to a misspelt one (suggest.h). */
#include "suggest.h"

#include <string.h>

static char fold(char c)
{
    return c == '-' ? '_' : g_ascii_tolower(c);
}

size_t suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    /* Three rows of the dynamic programme: the swap looks two rows back. */
    g_autofree size_t *rows = g_new(size_t, 3 * (m + 1));
    size_t *two = rows, *one = rows + (m + 1), *cur = rows + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        one[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
            size_t d = MIN(one[j] + 1, cur[j - 1] + 1);
            d = MIN(d, one[j - 1] + cost);
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2])
                && fold(a[i - 2]) == fold(b[j - 1]))
                d = MIN(d, two[j - 2] + 1);
            cur[j] = d;
        }
        size_t *t = two;
        two = one;
        one = cur;
        cur = t;
    }
    return one[m];
}

const char *suggest_closest(const char *word, const char *const *candidates)
{
    size_t len = strlen(word);
    size_t limit = len <= 5 ? 1 : len <= 11 ? 2 : 3;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (const char *const *c = candidates; c && *c; c++) {
        if (!strcmp(*c, word))
            return NULL;
        size_t d = suggest_distance(word, *c);
        if (d < best_d) {
            best = *c;
            best_d = d;
        }
    }
    return best;
}

char *suggest_text(const char *word, const char *const *candidates)
{
    const char *s = suggest_closest(word, candidates);
    return s ? g_strdup_printf("; did you mean '%s'?", s) : g_strdup("");
}
