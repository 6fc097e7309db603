/* model.c -- H(N, P) of every transpose method (Al Na'mneh, Pan & Yoo 2006,
 * eqs. 1, 2 and 5-17), with the corrections docs/papers.md gives:
 *  - Bruck's last sub-phase sends P - r^(w-1) blocks, w = ceil(log_r P)
 *    (eqs. 10, 11 print r^ceil(log_r P); the floor form that repairs
 *    P = 8 is wrong again when P is a power of r);
 *  - eq. 16's Tw term is (P - 1) N/P^2.
 * Rather than the two-sub-phase closed forms (eqs. 9-13, which assume
 * r^2 >= P), Bruck's cost is summed step by step over the exact number of
 * blocks each step sends, which gives eqs. 12, 13 and 16 (corrected) where
 * they apply and any r and P otherwise.
 */
#include "model.h"

#include "bits.h"

unsigned tp_bruck_subphases(uint32_t p, uint32_t r)
{
    unsigned w = 0;
    for (uint64_t span = 1; span < p; span *= r)
        w++;
    return w;
}

/* Of the integers 0..P-1, full periods of r^(x+1) each hold r^x with digit
 * x equal to z; the last, partial period holds what is left of the run
 * [z r^x, (z + 1) r^x). */
uint64_t tp_bruck_digit_count(uint32_t p, uint32_t r, unsigned x, uint32_t z)
{
    uint64_t low = 1;
    for (unsigned i = 0; i < x; i++)
        low *= r;
    uint64_t period = low * r;
    uint64_t count = (uint64_t)p / period * low;
    uint64_t rest = (uint64_t)p % period, start = (uint64_t)z * low;
    if (rest > start)
        count += rest - start < low ? rest - start : low;
    return count;
}

TpShape tp_shape(TpMethod method, uint32_t p, uint32_t radix)
{
    TpShape s = { 0, 0, 0, 0 };
    uint64_t pp = p;
    switch (method) {
    case TP_MPICH:                      /* Section 3.1, Table 1 */
        s.steps = p - 1;
        s.max_message_blocks = 1;
        s.sent_blocks = pp - 1;
        s.buffer_blocks = 2 * pp;       /* send and receive buffers, N/P each */
        break;
    case TP_PAIRWISE:                   /* Section 3.3, Table 1 */
        s.steps = p - 1;
        s.max_message_blocks = 1;
        s.sent_blocks = pp - 1;
        s.buffer_blocks = 2;            /* two buffers of N/P^2 */
        break;
    case TP_BUTTERFLY:                  /* Section 4.1, eq. 2, Table 1 */
        s.steps = bits_log2_floor(p);
        s.max_message_blocks = pp / 2;
        s.sent_blocks = pp / 2 * s.steps;
        s.buffer_blocks = pp;           /* two buffers of N/(2P) */
        break;
    case TP_BRUCK:
    case TP_ADAPTIVE: {                 /* Section 5, eqs. 5-11 */
        unsigned w = tp_bruck_subphases(p, radix);
        uint64_t span = 1;
        for (unsigned x = 0; x < w; x++, span *= radix)
            for (uint32_t z = 1; z < radix && z * span < pp; z++) {
                uint64_t c = tp_bruck_digit_count(p, radix, x, z);
                s.steps++;
                s.sent_blocks += c;
                if (c > s.max_message_blocks)
                    s.max_message_blocks = c;
            }
        /* The rotation buffer N/P and send and receive buffers of the
         * largest message: N/P + 2 N/P^2 for r = P, as Table 1 says. */
        s.buffer_blocks = pp + 2 * s.max_message_blocks;
        break;
    }
    }
    return s;
}

double tp_model(TpMethod method, double n, uint32_t p, uint32_t radix,
                double ts, double tw)
{
    double block = n / ((double)p * p);
    TpShape s = tp_shape(method, p, radix);
    if (method == TP_BUTTERFLY && !bits_is_pow2(p))
        return 0;
    /* Every method's messages go one after another, each with its own
     * startup: steps Ts + (blocks sent) N/P^2 Tw (eqs. 1, 2, 6-16). */
    return s.steps * ts + (double)s.sent_blocks * block * tw;
}

uint32_t tp_adaptive_radix(double n, uint32_t p, double ts, double tw,
                           uint32_t *runner_up, double *runner_up_cost)
{
    uint32_t best = 0, second = 0;
    double best_cost = 0, second_cost = 0;
    for (uint32_t r = 2; r <= p; r++) {
        double c = tp_model(TP_BRUCK, n, p, r, ts, tw);
        if (!best || c <= best_cost) {          /* ties: the larger radix */
            if (best) {
                second = best;
                second_cost = best_cost;
            }
            best = r;
            best_cost = c;
        } else if (!second || c <= second_cost) {
            second = r;
            second_cost = c;
        }
    }
    if (runner_up)
        *runner_up = second;
    if (runner_up_cost)
        *runner_up_cost = second_cost;
    return best;
}
