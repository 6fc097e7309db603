/* check_timeline.c -- emu/timeline.c: reservations of one channel or port
 * over time. Fits and merges, counts for ports, the binary search over
 * many spans (and against a walk over them), timeline_claim's
 * whole-or-nothing reservation, the inline claim (the engine's hop)
 * against the full one on random takes, and the full one against its
 * parts, with claims anywhere and with claims near the last one (the
 * search that starts where the last claim landed); claims against a model
 * of ticks taken or free, and the edges of the bits form one by one.
 */
#include "timeline.h"

#include <check.h>
#include <glib.h>
#include <inttypes.h>
#include <string.h>
#include "check_main.h"

START_TEST(timeline_fit_and_merge)
{
    Timeline tl;
    timeline_init(&tl);
    ck_assert_int_eq(timeline_fit(&tl, 5, 1, 1), 5);
    timeline_take(&tl, 5, 10);
    timeline_take(&tl, 10, 12);          /* touching: merged */
    ck_assert_uint_eq(timeline_spans(&tl), 1);
    ck_assert_int_eq(timeline_span(&tl, 0).start, 5);
    ck_assert_int_eq(timeline_span(&tl, 0).end, 12);
    ck_assert_int_eq(timeline_fit(&tl, 3, 2, 1), 3);     /* [3,5) free */
    ck_assert_int_eq(timeline_fit(&tl, 4, 2, 1), 12);    /* [4,6) hits 5 */
    ck_assert_int_eq(timeline_fit(&tl, 7, 1, 1), 12);
    timeline_take(&tl, 20, 25);
    ck_assert_int_eq(timeline_fit(&tl, 12, 8, 1), 12);   /* exactly fits */
    ck_assert_int_eq(timeline_fit(&tl, 12, 9, 1), 25);
    ck_assert_int_eq(timeline_free_until(&tl, 12, 1), 20);
    ck_assert_int_eq(timeline_free_until(&tl, 26, 1), TIMELINE_FOREVER);
    timeline_take(&tl, 12, 20);          /* fills the gap: one span */
    ck_assert_uint_eq(timeline_spans(&tl), 1);
    ck_assert_int_eq(timeline_span(&tl, 0).end, 25);
    timeline_prune(&tl, 25);
    ck_assert_uint_eq(timeline_spans(&tl), 0);
    timeline_clear(&tl);
}
END_TEST

START_TEST(timeline_counts_for_ports)
{
    Timeline tl;
    timeline_init(&tl);
    timeline_take(&tl, 0, 10);
    timeline_take(&tl, 5, 15);           /* overlap: count 2 on [5,10) */
    ck_assert_int_eq(timeline_fit(&tl, 0, 1, 2), 0);
    ck_assert_int_eq(timeline_fit(&tl, 5, 1, 2), 10);
    ck_assert_int_eq(timeline_free_until(&tl, 0, 2), 5);
    ck_assert_int_eq(timeline_fit(&tl, 0, 1, 3), 0);
    timeline_take(&tl, 7, 8);            /* count 3 on [7,8) */
    ck_assert_int_eq(timeline_fit(&tl, 6, 2, 3), 8);
    /* Spans: [0,5)1 [5,7)2 [7,8)3 [8,10)2 [10,15)1 */
    ck_assert_uint_eq(timeline_spans(&tl), 5);
    ck_assert_uint_eq(timeline_span(&tl, 2).count, 3);
    ck_assert_int_eq(timeline_span(&tl, 4).end, 15);
    timeline_clear(&tl);
}
END_TEST

START_TEST(timeline_many_spans_binary_search)
{
    Timeline tl;
    timeline_init(&tl);
    for (int i = 0; i < 100; i++)
        timeline_take(&tl, 10 * i, 10 * i + 5);
    for (int i = 99; i >= 0; i--)        /* out of order: general path */
        timeline_take(&tl, 10 * i + 5, 10 * i + 7);
    ck_assert_uint_eq(timeline_spans(&tl), 100);
    ck_assert_int_eq(timeline_fit(&tl, 0, 3, 1), 7);
    ck_assert_int_eq(timeline_fit(&tl, 0, 4, 1), 997);  /* gaps are 3 long */
    ck_assert_int_eq(timeline_fit(&tl, 503, 1, 1), 507);
    timeline_clear(&tl);
}
END_TEST

/* The search for the first live span ending after t, at every size
 * from one span to a few hundred (the linear scan below nine, the
 * search above) and from every t across them: timeline_fit and
 * timeline_free_until against the same answers found by walking the
 * spans. Spans of random lengths and gaps (never touching, so that each
 * take adds a span of its own), and a prefix dropped by timeline_prune
 * so that the search starts past the block's head. A search one span
 * off, or wrong at either end, fails here. */
START_TEST(timeline_search_against_a_walk)
{
    GRand *rng = g_rand_new_with_seed(50);
    CkTally tl = CK_TALLY_INIT;
    for (int run = 0; run < 120; run++) {
        int want_spans = 1 + run * 3;
        Timeline a;
        timeline_init(&a);
        Tick at = g_rand_int_range(rng, 0, 5);
        for (int i = 0; i < want_spans; i++) {
            Tick len = g_rand_int_range(rng, 1, 6);
            timeline_take(&a, at, at + len);
            at += len + g_rand_int_range(rng, 1, 5);    /* never touching */
        }
        ck_tally_uint(&tl, (uint64_t)want_spans, timeline_spans(&a),
                      "run %d: spans before the prune", run);
        Tick now = g_rand_int_range(rng, 0, (gint32)(at / 3 + 1));
        timeline_prune(&a, now);
        uint32_t n = timeline_spans(&a);
        TimelineSpan *sp = g_new(TimelineSpan, n ? n : 1);
        for (uint32_t i = 0; i < n; i++)
            sp[i] = timeline_span(&a, i);
        for (Tick t = now; t <= at + 2; t++) {
            Tick dur = g_rand_int_range(rng, 1, 4);
            /* the walk: the first span ending after t, then the fit */
            uint32_t i = 0;
            while (i < n && sp[i].end <= t)
                i++;
            Tick fit = t, until = TIMELINE_FOREVER;
            for (uint32_t k = i; k < n && sp[k].start < fit + dur; k++)
                fit = sp[k].end;
            if (i < n)
                until = sp[i].start > t ? sp[i].start : t;
            ck_tally_int(&tl, fit, timeline_fit(&a, t, dur, 1),
                         "run %d (%u spans) t %lld dur %lld: fit", run, n,
                         (long long)t, (long long)dur);
            ck_tally_int(&tl, until, timeline_free_until(&a, t, 1),
                         "run %d (%u spans) t %lld: free until", run, n,
                         (long long)t);
        }
        g_free(sp);
        timeline_clear(&a);
    }
    ck_tally_assert(&tl, "the span search against a walk");
    g_rand_free(rng);
}
END_TEST

/* timeline_claim: a message of count elements, tau apart, over one
 * channel, taken whole or not at all. */
static void assert_spans(const Timeline *tl, const Tick *se, uint32_t n)
{
    /* a real assertion: timeline_span does not check its index */
    ck_assert_uint_eq(timeline_spans(tl), n);
    CkTally t = CK_TALLY_INIT;
    for (uint32_t i = 0; i < n; i++) {
        ck_tally_int(&t, se[2 * i], timeline_span(tl, i).start,
                     "span %u start", i);
        ck_tally_int(&t, se[2 * i + 1], timeline_span(tl, i).end,
                     "span %u end", i);
    }
    ck_tally_assert(&t, "spans");
}

START_TEST(timeline_claim_whole_or_nothing)
{
    Timeline tl;
    timeline_init(&tl);
    /* idle: from `ready` */
    ck_assert_int_eq(timeline_claim(&tl, 0, 5, 1, 4), 5);
    assert_spans(&tl, (Tick[]){ 5, 9 }, 1);
    /* right after: merged into one span */
    ck_assert_int_eq(timeline_claim(&tl, 0, 9, 1, 3), 9);
    assert_spans(&tl, (Tick[]){ 5, 12 }, 1);
    /* ready while busy: after the span */
    ck_assert_int_eq(timeline_claim(&tl, 0, 10, 1, 2), 12);
    assert_spans(&tl, (Tick[]){ 5, 14 }, 1);
    /* a later reservation leaves a gap of 6 ticks, three elements of 2 */
    timeline_take(&tl, 20, 25);
    ck_assert_int_eq(timeline_claim(&tl, 0, 14, 2, 4), -1);
    assert_spans(&tl, (Tick[]){ 5, 14, 20, 25 }, 2);   /* nothing taken */
    ck_assert_int_eq(timeline_claim(&tl, 0, 14, 2, 3), 14);
    assert_spans(&tl, (Tick[]){ 5, 25 }, 1);           /* gap filled */
    /* spans ended by `now` are dropped first */
    ck_assert_int_eq(timeline_claim(&tl, 25, 26, 3, 2), 26);
    assert_spans(&tl, (Tick[]){ 26, 32 }, 1);
    /* inline, a span later on: no room for 10 before it, room for 5,
     * which ends where it starts (merged) */
    timeline_clear(&tl);
    timeline_take(&tl, 40, 50);
    ck_assert_int_eq(timeline_claim(&tl, 30, 35, 1, 10), -1);
    assert_spans(&tl, (Tick[]){ 40, 50 }, 1);
    ck_assert_int_eq(timeline_claim(&tl, 30, 35, 1, 5), 35);
    assert_spans(&tl, (Tick[]){ 35, 50 }, 1);
    timeline_clear(&tl);
}
END_TEST

/* Do timelines a and b hold the same spans (step `step` of run `run`)?
 * timeline_span does not check its index: the spans are compared only
 * where both hold as many. */
static void tally_same_spans(CkTally *tl, const Timeline *a,
                             const Timeline *b, int run, int step)
{
    uint32_t spans = timeline_spans(a);
    ck_tally_uint(tl, spans, timeline_spans(b), "run %d step %d: spans", run,
                  step);
    if (spans != timeline_spans(b))
        return;
    for (uint32_t i = 0; i < spans; i++) {
        TimelineSpan sa = timeline_span(a, i), sb = timeline_span(b, i);
        ck_tally_int(tl, sa.start, sb.start, "run %d step %d span %u: start",
                     run, step, i);
        ck_tally_int(tl, sa.end, sb.end, "run %d step %d span %u: end", run,
                     step, i);
        ck_tally_uint(tl, sa.count, sb.count,
                      "run %d step %d span %u: count", run, step, i);
    }
}

/* timeline_claim (inline, the engine's hop) against timeline_claim_slow
 * (every case, out of line): two
 * timelines given the same random takes and claims, with time moving on,
 * must answer alike and hold the same spans after every step, through
 * the inline fast case (nothing live), the inline span and the heap form.
 * An inline case that took a different slot, or left a span where the
 * full claim merges, prunes or refuses, fails here. */
START_TEST(timeline_claim_inline_is_timeline_claim_slow)
{
    GRand *rng = g_rand_new_with_seed(15);
    int fast = 0;
    CkTally tl = CK_TALLY_INIT;     /* every step of every run */
    for (int run = 0; run < 200; run++) {
        Timeline a, b;
        timeline_init(&a);
        timeline_init(&b);
        Tick now = 0;
        for (int step = 0; step < 40; step++) {
            now += g_rand_int_range(rng, 0, 12);
            Tick ready = now + g_rand_int_range(rng, 0, 6);
            Tick tau = g_rand_int_range(rng, 1, 4);
            uint64_t count = (uint64_t)g_rand_int_range(rng, 1, 6);
            if (g_rand_int_range(rng, 0, 4) == 0) {
                /* another reservation, where the full fit puts it */
                timeline_prune(&a, now);
                timeline_prune(&b, now);
                Tick t = timeline_fit(&a, ready, tau, 1);
                ck_tally_int(&tl, t, timeline_fit(&b, ready, tau, 1),
                             "run %d step %d: fit", run, step);
                timeline_take(&a, t, t + tau);
                timeline_take(&b, t, t + tau);
            } else {
                gboolean idle = timeline_spans(&b) == 0
                                || timeline_span(&b, timeline_spans(&b) - 1).end
                                       <= now;
                fast += idle;
                Tick ta = timeline_claim_slow(&a, now, ready, tau, count);
                Tick tb = timeline_claim(&b, now, ready, tau, count);
                ck_tally_int(&tl, ta, tb, "run %d step %d: claim", run, step);
            }
            tally_same_spans(&tl, &a, &b, run, step);
        }
        timeline_clear(&a);
        timeline_clear(&b);
    }
    ck_tally_assert(&tl, "timeline_claim against timeline_claim_slow");
    ck_assert_int_gt(fast, 500);          /* the inline case was taken */
    g_rand_free(rng);
}
END_TEST

/* The claim by its parts: prune, fit, free_until and take in turn, as
 * the engine's general route reserves a run. */
static Tick claim_by_parts(Timeline *tl, Tick now, Tick ready, Tick tau,
                           uint64_t count)
{
    timeline_prune(tl, now);
    Tick t = timeline_fit(tl, ready, tau, 1);
    Tick until = timeline_free_until(tl, t, 1);
    if (until != TIMELINE_FOREVER && (uint64_t)((until - t) / tau) < count)
        return -1;
    timeline_take(tl, t, t + (Tick)count * tau);
    return t;
}

/* Runs of steps: now moves on by 0 or 1, a claim ready where `ready`
 * says (given now and where the last claim that took anything landed),
 * of tau 1 or 2 and count 1..3, made by its parts on one timeline and by
 * timeline_claim_slow on another; the answers and every span must agree
 * after every step. The deepest array reached and the claims refused
 * come back for the caller's assertions. */
typedef Tick (*ReadyFn)(GRand *rng, Tick now, Tick last);

static void claims_against_parts(guint32 seed, int runs, int steps,
                                 ReadyFn ready_of, const char *what,
                                 uint32_t *deepest, uint32_t *refused)
{
    GRand *rng = g_rand_new_with_seed(seed);
    CkTally tl = CK_TALLY_INIT;
    *deepest = *refused = 0;
    for (int run = 0; run < runs; run++) {
        Timeline a, b;
        timeline_init(&a);
        timeline_init(&b);
        Tick now = 0, last = 0;
        for (int step = 0; step < steps; step++) {
            now += g_rand_int_range(rng, 0, 2);
            Tick ready = ready_of(rng, now, last);
            Tick tau = g_rand_int_range(rng, 1, 3);
            uint64_t count = (uint64_t)g_rand_int_range(rng, 1, 4);
            Tick ta = claim_by_parts(&a, now, ready, tau, count);
            Tick tb = timeline_claim_slow(&b, now, ready, tau, count);
            ck_tally_int(&tl, ta, tb, "run %d step %d: claim", run, step);
            if (ta >= 0)
                last = ta;
            *refused += ta < 0;
            *deepest = MAX(*deepest, timeline_spans(&a));
            tally_same_spans(&tl, &a, &b, run, step);
        }
        timeline_clear(&a);
        timeline_clear(&b);
    }
    ck_tally_assert(&tl, "%s", what);
    g_rand_free(rng);
}

/* Ready anywhere up to 400 ticks ahead of now. */
static Tick ready_ahead(GRand *rng, Tick now, Tick last)
{
    (void)last;
    return now + g_rand_int_range(rng, 0, 400);
}

/* timeline_claim_slow on deep heap arrays against its parts: claims with
 * ready times far ahead of a slowly moving now, so that channels hold
 * dozens of spans and most claims land in a gap (joining the span before
 * it, the one after it, both, or neither) rather than at the end. A
 * claim that searched from the wrong span, refused where the parts fit,
 * or joined spans the parts keep apart, fails here. */
START_TEST(timeline_claim_is_its_parts)
{
    uint32_t deepest, refused;
    claims_against_parts(52, 100, 300, ready_ahead,
                         "timeline_claim_slow against its parts", &deepest,
                         &refused);
    ck_assert_uint_ge(deepest, 40);     /* deep arrays were reached */
    ck_assert_uint_gt(refused, 100);    /* and claims refused in them */
}
END_TEST

/* Ready near where the last claim landed, 40 ticks before it to 40 after
 * (not before now), and one claim in 16 up to 2000 ticks ahead. */
static Tick ready_near_the_last(GRand *rng, Tick now, Tick last)
{
    Tick ready = g_rand_int_range(rng, 0, 16) == 0
                     ? now + g_rand_int_range(rng, 0, 2000)
                     : last + g_rand_int_range(rng, -40, 41);
    return ready < now ? now : ready;
}

/* The same on longer arrays where, as on a contended channel, each claim
 * is ready near where the last one landed (a little before it or after
 * it), with a jump now and then and spans pruned as now moves on: the
 * search that starts from the last claim's place (timeline.c,
 * many_first_after_near) must find what a search from the start finds,
 * forwards and backwards from there, and after the array is compacted
 * or grown. */
START_TEST(timeline_claim_near_the_last_is_its_parts)
{
    uint32_t deepest, refused;
    claims_against_parts(5050, 40, 2000, ready_near_the_last,
                         "claims near the last against their parts",
                         &deepest, &refused);
    ck_assert_uint_ge(deepest, 200);    /* long arrays were reached */
    ck_assert_uint_gt(refused, 1000);   /* and claims refused in them */
}
END_TEST

/* Claims against a model that knows nothing of spans: a channel's ticks,
 * each taken or not. Before a claim at `now`, every run of taken ticks
 * that ends by now is forgotten (what pruning does: such a run can
 * matter to no later claim, and a new run touching it starts a span of
 * its own). A claim takes the first tick from `ready` on whose tau ticks
 * are free, and then count tau of them if they are all free (else
 * nothing, -1); the live spans are the runs of taken ticks left. The
 * claims are those that make and use the bits form (timeline.c): tau 1,
 * ready within 70 ticks of now, mostly short, now and then longer than
 * the 64 ticks the bits hold, now and then tau 2; now moves a few ticks a
 * claim, and now and then past everything; each timeline is claimed inline
 * (timeline_claim), as the engine's hops do. A claim or a prune of the
 * bits that took the wrong tick, refused or accepted wrongly at the
 * window's ends, or dropped or kept the wrong span, fails here. */
enum { MODEL_TICKS = 1 << 16 };

/* Forget the runs that end by now; *from: no taken tick lies before it
 * (the start of the run across now, if any). */
static void model_prune(guint8 *taken, Tick now, Tick *from)
{
    Tick u = *from;
    while (u < now) {
        if (!taken[u]) {
            u++;
            continue;
        }
        Tick end = u;
        while (taken[end])
            end++;
        if (end > now)
            break;
        memset(taken + u, 0, (size_t)(end - u));
        u = end;
    }
    *from = u;
}

static Tick model_claim(guint8 *taken, Tick ready, Tick tau, uint64_t count)
{
    Tick t = ready;
    for (;;) {
        Tick k = 0;
        while (k < tau && !taken[t + k])
            k++;
        if (k == tau)
            break;
        t++;
    }
    Tick stop = t + (Tick)count * tau;
    for (Tick u = t; u < stop; u++)
        if (taken[u])
            return -1;
    for (Tick u = t; u < stop; u++)
        taken[u] = 1;
    return t;
}

/* The model's live spans (from the run across now, if any, up to
 * `horizon`, past every taken tick) against the timeline's. */
static void tally_model_spans(CkTally *tl, const guint8 *taken, Tick now,
                              Tick horizon, const Timeline *a, int run,
                              int step)
{
    uint32_t n = 0, have = timeline_spans(a);
    Tick u = now;
    while (u > 0 && taken[u - 1])
        u--;
    for (; u < horizon; u++) {
        if (!taken[u])
            continue;
        Tick end = u;
        while (taken[end])
            end++;
        if (end > now) {
            if (n < have) {
                TimelineSpan sa = timeline_span(a, n);
                ck_tally_int(tl, u, sa.start, "run %d step %d span %u: start",
                             run, step, n);
                ck_tally_int(tl, end, sa.end, "run %d step %d span %u: end",
                             run, step, n);
            }
            n++;
        }
        u = end;
    }
    ck_tally_uint(tl, n, have, "run %d step %d: spans", run, step);
}

START_TEST(timeline_claims_against_the_ticks)
{
    GRand *rng = g_rand_new_with_seed(6464);
    CkTally tl = CK_TALLY_INIT;
    static guint8 taken[MODEL_TICKS];
    uint32_t deepest = 0, refused = 0;
    for (int run = 0; run < 40; run++) {
        memset(taken, 0, sizeof taken);
        Timeline a;
        timeline_init(&a);
        Tick now = 0, horizon = 0, from = 0;
        for (int step = 0; step < 2000; step++) {
            now += g_rand_int_range(rng, 0, 30) ? g_rand_int_range(rng, 0, 5)
                                                : g_rand_int_range(rng, 40, 100);
            model_prune(taken, now, &from);
            Tick ready = now + g_rand_int_range(rng, 0, 71);
            Tick tau = g_rand_int_range(rng, 0, 10) ? 1 : 2;
            uint64_t count = g_rand_int_range(rng, 0, 20)
                                 ? (uint64_t)g_rand_int_range(rng, 1, 6)
                                 : (uint64_t)g_rand_int_range(rng, 6, 80);
            Tick want = model_claim(taken, ready, tau, count);
            Tick got = timeline_claim(&a, now, ready, tau, count);
            ck_tally_int(&tl, want, got, "run %d step %d: claim", run, step);
            refused += want < 0;
            if (want >= 0)
                horizon = MAX(horizon, want + (Tick)count * tau + 1);
            g_assert(horizon + 256 < MODEL_TICKS);
            timeline_prune(&a, now);
            tally_model_spans(&tl, taken, now, horizon, &a, run, step);
            deepest = MAX(deepest, timeline_spans(&a));
        }
        timeline_clear(&a);
    }
    ck_tally_assert(&tl, "claims against the ticks");
    ck_assert_uint_ge(deepest, 12);     /* bits of many spans were reached */
    ck_assert_uint_gt(refused, 100);
    g_rand_free(rng);
}
END_TEST

/* The spans of tl as "[s,e) [s,e) ...", for the boundary cases below. */
static char *spans_text(const Timeline *tl)
{
    GString *g = g_string_new(NULL);
    for (uint32_t i = 0; i < timeline_spans(tl); i++) {
        TimelineSpan sp = timeline_span(tl, i);
        g_string_append_printf(g, "%s[%" PRId64 ",%" PRId64 ")", i ? " " : "",
                               (int64_t)sp.start, (int64_t)sp.end);
    }
    return g_string_free(g, FALSE);
}

static void assert_spans_are(const Timeline *tl, const char *want)
{
    g_autofree char *got = spans_text(tl);
    ck_assert_str_eq(got, want);
}

/* The bits form's edges, one by one: spans exactly 64 ticks apart end to
 * end and one tick more; a prune at exactly the 64th tick and just
 * before it; a span across now kept whole; a claim before the first span
 * that exactly fills the gap (and merges) and one a tick too long. */
START_TEST(timeline_bits_edges)
{
    Timeline tl;
    timeline_init(&tl);
    ck_assert_int_eq(timeline_claim(&tl, 0, 10, 1, 1), 10);
    ck_assert_int_eq(timeline_claim(&tl, 0, 73, 1, 1), 73);  /* 64 ticks */
    assert_spans_are(&tl, "[10,11) [73,74)");
    timeline_prune(&tl, 73);
    assert_spans_are(&tl, "[73,74)");
    timeline_prune(&tl, 74);
    assert_spans_are(&tl, "");

    timeline_init(&tl);
    ck_assert_int_eq(timeline_claim(&tl, 0, 10, 1, 1), 10);
    ck_assert_int_eq(timeline_claim(&tl, 0, 74, 1, 1), 74);  /* 65 ticks */
    assert_spans_are(&tl, "[10,11) [74,75)");
    ck_assert_int_eq(timeline_claim(&tl, 0, 12, 1, 3), 12);
    assert_spans_are(&tl, "[10,11) [12,15) [74,75)");
    timeline_clear(&tl);

    timeline_init(&tl);                 /* a prune 64 ticks on */
    ck_assert_int_eq(timeline_claim(&tl, 0, 0, 1, 2), 0);
    ck_assert_int_eq(timeline_claim(&tl, 0, 62, 1, 2), 62);
    assert_spans_are(&tl, "[0,2) [62,64)");
    timeline_prune(&tl, 63);
    assert_spans_are(&tl, "[62,64)");
    ck_assert_int_eq(timeline_claim(&tl, 63, 64, 1, 1), 64); /* joins it */
    assert_spans_are(&tl, "[62,65)");
    ck_assert_int_eq(timeline_claim(&tl, 63, 70, 1, 1), 70);
    assert_spans_are(&tl, "[62,65) [70,71)");
    timeline_prune(&tl, 126);
    assert_spans_are(&tl, "");

    timeline_init(&tl);                 /* a span across now stays whole */
    ck_assert_int_eq(timeline_claim(&tl, 0, 5, 1, 10), 5);
    ck_assert_int_eq(timeline_claim(&tl, 0, 20, 1, 1), 20);
    timeline_prune(&tl, 9);
    assert_spans_are(&tl, "[5,15) [20,21)");
    timeline_prune(&tl, 15);
    assert_spans_are(&tl, "[20,21)");

    timeline_init(&tl);                 /* before the first span */
    ck_assert_int_eq(timeline_claim(&tl, 0, 30, 1, 2), 30);
    ck_assert_int_eq(timeline_claim(&tl, 0, 40, 1, 2), 40);
    ck_assert_int_eq(timeline_claim(&tl, 0, 20, 1, 11), -1);
    assert_spans_are(&tl, "[30,32) [40,42)");
    ck_assert_int_eq(timeline_claim(&tl, 0, 20, 1, 10), 20);
    assert_spans_are(&tl, "[20,32) [40,42)");
    timeline_clear(&tl);
}
END_TEST

static Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *t = ck_tcase(s, "timeline", 0);
    tcase_add_test(t, timeline_fit_and_merge);
    tcase_add_test(t, timeline_counts_for_ports);
    tcase_add_test(t, timeline_many_spans_binary_search);
    tcase_add_test(t, timeline_search_against_a_walk);
    tcase_add_test(t, timeline_claim_whole_or_nothing);
    tcase_add_test(t, timeline_claim_inline_is_timeline_claim_slow);
    tcase_add_test(t, timeline_claim_is_its_parts);
    tcase_add_test(t, timeline_bits_edges);
    /* 80000 random claims each, every one followed by a comparison of
     * all the live spans with another timeline's or a model's ticks: on a
     * busy machine more than half of Check's default 4 seconds, the most
     * a test may take (tests/margins.sh) */
    t = ck_tcase(s, "random", 30);
    tcase_add_test(t, timeline_claim_near_the_last_is_its_parts);
    tcase_add_test(t, timeline_claims_against_the_ticks);
    return s;
}

CUBE_CHECK_MAIN(timeline_suite)
