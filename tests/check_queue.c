/* check_queue.c -- emu/queue.c: the event queue pops in (time, insertion
 * order), ties in push order, also when pushes and pops interleave,
 * queue_peek_run shows the rest of the tick that queue_pop is in, and
 * queue_unpop gives a tick's first item back.
 */
#include "queue.h"

#include <check.h>
#include <glib.h>
#include "check_main.h"

static void check_queue_order(const Tick *times, int n)
{
    EventQueue *q = queue_new();
    for (int i = 0; i < n; i++)
        queue_push(q, times[i], (QueueItem){ (uint32_t)i, NULL });
    ck_assert_uint_eq(queue_length(q), (size_t)n);
    Tick prev_t = -1;
    int prev_i = -1;
    Tick t;
    QueueItem item;
    CkTally tl = CK_TALLY_INIT;
    for (int k = 0; k < n; k++) {
        /* no item popped: nothing to read, and nothing more to pop */
        gboolean popped = queue_pop(q, &t, &item);
        ck_tally_true(&tl, popped, "pop %d of %d returned an item", k, n);
        if (!popped)
            break;
        ck_tally_int(&tl, times[item.node], t, "pop %d (item %u): time", k,
                     item.node);
        ck_tally_true(&tl, t > prev_t || (t == prev_t && (int)item.node > prev_i),
                      "pop %d (item %u, time %lld) after item %d, time %lld",
                      k, item.node, (long long)t, prev_i, (long long)prev_t);
        prev_t = t;
        prev_i = (int)item.node;
    }
    ck_tally_assert(&tl, "queue of %d items in (time, insertion) order", n);
    ck_assert(!queue_pop(q, &t, &item));
    queue_free(q);
}

START_TEST(queue_ties_in_insertion_order)
{
    const Tick up[] = { 1, 1, 2, 2, 3, 3, 3 };
    const Tick down[] = { 3, 3, 3, 2, 2, 1, 1 };
    const Tick mixed[] = { 5, 0, 5, 0, 7, 5, 0, 7 };
    check_queue_order(up, G_N_ELEMENTS(up));
    check_queue_order(down, G_N_ELEMENTS(down));
    check_queue_order(mixed, G_N_ELEMENTS(mixed));
    GRand *rng = g_rand_new_with_seed(7);
    Tick many[5000];
    for (int i = 0; i < 5000; i++)
        many[i] = g_rand_int_range(rng, 0, 50);
    check_queue_order(many, 5000);
    g_rand_free(rng);
}
END_TEST

/* queue_peek_run: what queue_pop returns next at the time it returned
 * last, in order, and nothing once that time is done (sim_run reads ahead
 * in it). */
START_TEST(queue_peek_run_is_the_rest_of_the_tick)
{
    EventQueue *q = queue_new();
    size_t n;
    Tick t;
    QueueItem item;
    ck_assert_ptr_null(queue_peek_run(q, &n));
    ck_assert_uint_eq(n, 0);
    for (uint32_t i = 0; i < 5; i++)
        queue_push(q, 3, (QueueItem){ i, NULL });
    queue_push(q, 9, (QueueItem){ 99, NULL });
    ck_assert(queue_pop(q, &t, &item));
    const QueueItem *run = queue_peek_run(q, &n);
    ck_assert_uint_eq(n, 4);            /* before run[0..3] is read */
    CkTally tl = CK_TALLY_INIT;
    for (uint32_t i = 0; i < 4; i++)
        ck_tally_uint(&tl, i + 1, run[i].node, "run item %u: node", i);
    ck_tally_assert(&tl, "the rest of tick 3");
    queue_push(q, 3, (QueueItem){ 5, NULL });       /* joins the run */
    run = queue_peek_run(q, &n);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(run[4].node, 5);
    CkTally pops = CK_TALLY_INIT;
    for (int i = 0; i < 5; i++)
        ck_tally_true(&pops, queue_pop(q, &t, &item), "pop %d of tick 3", i);
    ck_tally_assert(&pops, "tick 3's pops");
    ck_assert_int_eq(t, 3);
    ck_assert_ptr_null(queue_peek_run(q, &n));      /* tick 3 done */
    ck_assert_uint_eq(n, 0);
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_uint_eq(item.node, 99);
    queue_free(q);
}
END_TEST

START_TEST(queue_interleaved_push_pop)
{
    EventQueue *q = queue_new();
    Tick t;
    QueueItem item;
    queue_push(q, 10, (QueueItem){ 1, NULL });
    queue_push(q, 10, (QueueItem){ 2, NULL });
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_uint_eq(item.node, 1);
    queue_push(q, 10, (QueueItem){ 3, NULL });     /* same time, later push */
    queue_push(q, 4, (QueueItem){ 4, NULL });      /* earlier time */
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_uint_eq(item.node, 4);
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_uint_eq(item.node, 2);
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_uint_eq(item.node, 3);
    ck_assert_int_eq(t, 10);
    ck_assert(!queue_pop(q, &t, &item));
    queue_free(q);
}
END_TEST

/* queue_unpop: the first item of a tick given back comes out again, and
 * if the queue sorts by node from then on, its tick comes out in node
 * order; a tick's only item, whose bucket its pop emptied, too. */
START_TEST(queue_unpop_gives_the_tick_back)
{
    EventQueue *q = queue_new();
    Tick t;
    QueueItem item;
    static const uint32_t pushed[] = { 7, 2, 9, 0, 5 };
    for (size_t i = 0; i < G_N_ELEMENTS(pushed); i++)
        queue_push(q, 4, (QueueItem){ pushed[i], NULL });
    queue_push(q, 6, (QueueItem){ 3, NULL });
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_uint_eq(item.node, 7);
    queue_unpop(q, t, item);
    ck_assert_uint_eq(queue_length(q), G_N_ELEMENTS(pushed) + 1);
    queue_set_by_node(q, TRUE, 16);
    static const uint32_t sorted[] = { 0, 2, 5, 7, 9 };
    CkTally tl = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(sorted); i++) {
        ck_tally_true(&tl, queue_pop(q, &t, &item), "pop %zu", i);
        ck_tally_int(&tl, 4, t, "pop %zu: time", i);
        ck_tally_uint(&tl, sorted[i], item.node, "pop %zu: node", i);
    }
    ck_tally_assert(&tl, "tick 4 again, by node");
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_int_eq(t, 6);
    queue_unpop(q, t, item);                    /* its bucket is gone */
    queue_push(q, 8, (QueueItem){ 1, NULL });
    ck_assert_uint_eq(queue_length(q), 2);
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_int_eq(t, 6);
    ck_assert_uint_eq(item.node, 3);
    ck_assert(queue_pop(q, &t, &item));
    ck_assert_int_eq(t, 8);
    ck_assert(!queue_pop(q, &t, &item));
    queue_free(q);
}
END_TEST

static Suite *queue_suite(void)
{
    Suite *s = suite_create("queue");
    TCase *t = ck_tcase(s, "queue", 0);
    tcase_add_test(t, queue_ties_in_insertion_order);
    tcase_add_test(t, queue_interleaved_push_pop);
    tcase_add_test(t, queue_peek_run_is_the_rest_of_the_tick);
    tcase_add_test(t, queue_unpop_gives_the_tick_back);
    return s;
}

CUBE_CHECK_MAIN(queue_suite)
