/* check_heap.c -- util/heap.h: the binary min-heap pops its elements in
 * their order, for words with repeats (heap_u32) and for a struct ordered
 * by two fields (as the LogGP model's events are), when pushes and pops
 * interleave, down to one element and back from none.
 */
#include "heap.h"

#include <check.h>
#include <glib.h>
#include "check_main.h"

/* Elements a test pushes: a heap some levels deep, with repeats. */
#define HEAP_ELEMENTS 3000
/* Values below this: HEAP_ELEMENTS of them repeat. */
#define HEAP_VALUES 500

typedef struct {
    uint64_t time, order;
    uint32_t payload;
} Timed;

static gboolean timed_before(const Timed *a, const Timed *b)
{
    return a->time < b->time || (a->time == b->time && a->order < b->order);
}

HEAP_DEFINE(timed, Timed, timed_before)

static int u32_compare(gconstpointer a, gconstpointer b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Every value pushed, then every one popped: the values sorted. */
START_TEST(heap_u32_pops_sorted)
{
    GRand *rng = g_rand_new_with_seed(11);
    uint32_t *h = g_new(uint32_t, HEAP_ELEMENTS);
    uint32_t *want = g_new(uint32_t, HEAP_ELEMENTS);
    size_t n = 0;
    for (int i = 0; i < HEAP_ELEMENTS; i++) {
        uint32_t v = (uint32_t)g_rand_int_range(rng, 0, HEAP_VALUES);
        want[i] = v;
        heap_u32_push(h, n++, &v);
    }
    qsort(want, HEAP_ELEMENTS, sizeof *want, u32_compare);
    CkTally t = CK_TALLY_INIT;
    for (int i = 0; i < HEAP_ELEMENTS; i++)
        ck_tally_uint(&t, want[i], heap_u32_pop(h, n--), "pop %d", i);
    ck_tally_assert(&t, "%d words with repeats", HEAP_ELEMENTS);
    ck_assert_uint_eq(n, 0);
    uint32_t one = 7;                   /* from none, one, and none again */
    heap_u32_push(h, n++, &one);
    ck_assert_uint_eq(heap_u32_pop(h, n--), 7);
    ck_assert_uint_eq(n, 0);
    g_free(want);
    g_free(h);
    g_rand_free(rng);
}
END_TEST

/* Pushes and pops interleaved: each pop the least of what is in the heap
 * then, as a count of each value kept beside it says. */
START_TEST(heap_u32_interleaved)
{
    GRand *rng = g_rand_new_with_seed(12);
    uint32_t *h = g_new(uint32_t, HEAP_ELEMENTS);
    uint32_t *count = g_new0(uint32_t, HEAP_VALUES);
    size_t n = 0;
    int pops = 0;
    CkTally t = CK_TALLY_INIT;
    for (int i = 0; i < HEAP_ELEMENTS; i++) {
        uint32_t v = (uint32_t)g_rand_int_range(rng, 0, HEAP_VALUES);
        heap_u32_push(h, n++, &v);
        count[v]++;
        while (n > 0 && g_rand_int_range(rng, 0, 3) == 0) {
            uint32_t least = 0;
            while (count[least] == 0)
                least++;
            ck_tally_uint(&t, least, heap_u32_pop(h, n--), "pop %d", pops);
            count[least]--;
            pops++;
        }
    }
    ck_tally_assert(&t, "%d pops among %d pushes", pops, HEAP_ELEMENTS);
    ck_assert_int_gt(pops, HEAP_ELEMENTS / 4);
    g_free(count);
    g_free(h);
    g_rand_free(rng);
}
END_TEST

/* A struct by (time, order), times repeating: popped in exactly that
 * order, each element whole. */
START_TEST(heap_struct_by_two_fields)
{
    GRand *rng = g_rand_new_with_seed(13);
    Timed *h = g_new(Timed, HEAP_ELEMENTS);
    Timed *want = g_new(Timed, HEAP_ELEMENTS);
    size_t n = 0;
    for (int i = 0; i < HEAP_ELEMENTS; i++) {
        Timed e = { (uint64_t)g_rand_int_range(rng, 0, HEAP_VALUES),
                    (uint64_t)(HEAP_ELEMENTS - i), (uint32_t)i * 3 };
        heap_timed_push(h, n++, &e);
        want[i] = e;
    }
    /* the wanted order: by time, then order, found by a selection over
     * what is left (quadratic, and independent of the heap) */
    gboolean *taken = g_new0(gboolean, HEAP_ELEMENTS);
    CkTally t = CK_TALLY_INIT;
    for (int k = 0; k < HEAP_ELEMENTS; k++) {
        int best = -1;
        for (int i = 0; i < HEAP_ELEMENTS; i++)
            if (!taken[i] && (best < 0 || timed_before(&want[i], &want[best])))
                best = i;
        taken[best] = TRUE;
        Timed got = heap_timed_pop(h, n--);
        ck_tally_uint(&t, want[best].time, got.time, "pop %d: time", k);
        ck_tally_uint(&t, want[best].order, got.order, "pop %d: order", k);
        ck_tally_uint(&t, want[best].payload, got.payload, "pop %d: payload",
                      k);
    }
    ck_tally_assert(&t, "%d elements by (time, order)", HEAP_ELEMENTS);
    ck_assert_uint_eq(n, 0);
    g_free(taken);
    g_free(want);
    g_free(h);
    g_rand_free(rng);
}
END_TEST

static Suite *heap_suite(void)
{
    Suite *s = suite_create("heap");
    TCase *t = ck_tcase(s, "heap", 0);
    tcase_add_test(t, heap_u32_pops_sorted);
    tcase_add_test(t, heap_u32_interleaved);
    tcase_add_test(t, heap_struct_by_two_fields);
    return s;
}

CUBE_CHECK_MAIN(heap_suite)
