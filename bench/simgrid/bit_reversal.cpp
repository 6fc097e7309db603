/* bit_reversal.cpp -- a SimGrid (S4U, 3.32) baseline for a routed, contending permutation: the bit reversal of
 * N = 2^n K elements on the Boolean n-cube, run the way cubemu's bmmc method `naive` runs it on the `cube` preset
 * (algorithms/bmmc/program.c, docs/machine-model.md), so that SimGrid's simulated makespan is cubemu's `cycles`.
 *
 * What is simulated:
 *   - node k holds the elements x = k K + o, o = 0 .. K-1 (processor-major layout); element x goes to index
 *     y = reverse(x) over log2 N bits, that is to node y / K;
 *   - at tick 0 every node posts one message per element, in offset order, nodes in address order: that posting
 *     order is each message's priority, and it is x itself. A message is two words, the index and the element,
 *     and a channel carries one word a tick: a word is what cubemu's model calls an element;
 *   - a message to its own node is a local copy (no time, no channel); any other follows its e-cube route,
 *     dimensions ascending (or descending with --routing=descending), word by word: a word that crossed a
 *     channel during [t, t+1) may leave the next node at t+1 (element-level pipelining);
 *   - every directed channel carries at most one word a tick; of the words waiting at a channel at tick t, the
 *     one of the oldest message goes (and of one message, the earlier word). With that order cubemu's reservation
 *     at posting time and this tick-by-tick service give the same schedule: a word only ever waits for words of
 *     older messages, which never wait for it;
 *   - the makespan is the tick at which the last word reaches its destination.
 *
 * How SimGrid simulates it:
 *   - platform: the n-cube of cube_platform.hpp, one simplex SimGrid link per directed channel, latency 0;
 *   - one actor per node, and one mailbox per node whose permanent receiver it is (words sent to it flow at
 *     once, without waiting for its get). At each tick t the actor takes every word that reached it, queues each
 *     on its next channel (or, at the destination, checks and delivers it), then sends on every channel the
 *     oldest word queued there: a SimGrid comm of one word to the neighbour's mailbox, over that channel's
 *     link, which it waits for at its next tick (SimGrid would remove a detached comm from a list of all the
 *     detached comms in flight by a linear search);
 *   - a tick has two halves: the word crosses the link in the first (the link's bandwidth is two words a tick),
 *     and the channel stays the sender's in the second, since the actor sends on it at most once a tick. So
 *     every word that crossed a channel in tick t is in its mailbox before any actor chooses at t+1, whatever
 *     order SimGrid runs the actors of one date in;
 *   - network model CM02 without crosstraffic (cube_platform.hpp): a lone comm of S bytes over a link of
 *     bandwidth B and latency 0 takes exactly S/B, and no link ever carries two comms at once. Times are halves
 *     of integers, exact in doubles.
 *
 * Every word carries its message's index x. The program checks that each message's two words reach node
 * reverse(x) / K, once each, that every index y is filled exactly once, that every arrival was handled at a
 * whole tick, and exits non-zero otherwise. --schedule=FILE writes every word crossing (tick, node, dimension,
 * message, word), which same_schedule.py compares with a cubemu trace: equal makespans alone would not show
 * equal arbitration.
 */
#include "cube_platform.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

XBT_LOG_NEW_DEFAULT_CATEGORY(bit_reversal, "routed bit reversal on the Boolean cube");
namespace sg4 = simgrid::s4u;
using cube_platform::kWordBytes;

namespace {

constexpr int kMaxIndexBits        = 40;   /* a word key, 2x + w, fits 64 bits with room to spare */
constexpr long kMaxPerNode         = 1L << kMaxIndexBits; /* K's own bound; n + log2 K is checked after */
constexpr int kWordsPerMessage     = 2;    /* cubemu's naive message: the index, then the element */
constexpr double kLinkBytesPerTick = 2.0 * kWordBytes; /* a word crosses its link in half a tick */

/* One simulation's state; the actors share it through a pointer. */
struct Run {
  int n            = 4;     /* cube dimensions */
  int k_bits       = 6;     /* K = 2^k_bits elements per node */
  int index_bits   = 10;    /* log2 N = n + k_bits */
  bool descending  = false; /* e-cube order of the dimensions */
  uint32_t nodes   = 0;
  std::vector<sg4::Mailbox*> mailbox;          /* mailbox[k]: node k's arrivals */
  std::vector<std::vector<uint64_t>> queue;    /* queue[k * n + d]: min-heap of the word keys waiting there */
  std::vector<std::vector<sg4::CommPtr>> sent; /* sent[k]: node k's comms of its last tick */
  std::vector<uint64_t> channel_words;         /* words carried by each channel */
  std::vector<uint8_t> words_arrived;          /* per message x */
  std::vector<uint8_t> placed;                 /* per destination index y: times filled */
  uint64_t messages = 0, remote_messages = 0, delivered = 0, word_hops = 0, bad = 0, off_tick = 0;
  double last_arrival       = 0.0;
  sg4::SemaphorePtr all_delivered;
  cube_platform::ScheduleFile schedule; /* --schedule: one line per word crossing a channel */
};

uint64_t reverse_bits(uint64_t x, int bits)
{
  uint64_t y = 0;
  for (int b = 0; b < bits; b++)
    y |= ((x >> b) & 1) << (bits - 1 - b);
  return y;
}

/* The node that element x goes to. */
uint32_t destination(const Run* r, uint64_t x)
{
  return static_cast<uint32_t>(reverse_bits(x, r->index_bits) >> r->k_bits);
}

/* The next dimension of the e-cube route from node `at` to node `to` (at != to). */
int next_dimension(const Run* r, uint32_t at, uint32_t to)
{
  uint32_t diff = at ^ to;
  return r->descending ? 31 - __builtin_clz(diff) : __builtin_ctz(diff);
}

/* A word's key is its priority: the message's posting order x, then the word within it. Offset by one because
 * SimGrid refuses a null payload. */
void* payload(uint64_t key) { return reinterpret_cast<void*>(static_cast<uintptr_t>(key + 1)); }
uint64_t key_of(void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)) - 1; }

void enqueue(Run* r, uint32_t at, int d, uint64_t key)
{
  std::vector<uint64_t>& q = r->queue[size_t{at} * r->n + d];
  q.push_back(key);
  std::push_heap(q.begin(), q.end(), std::greater<>());
}

/* Message x is complete at node `at`, tick t: it must be the node of reverse(x), and fill reverse(x) once. */
void deliver(Run* r, uint32_t at, uint64_t x, double t)
{
  uint64_t y = reverse_bits(x, r->index_bits);
  if ((y >> r->k_bits) != at || r->placed[y]++ != 0)
    r->bad++;
  r->last_arrival = std::max(r->last_arrival, t);
  if (++r->delivered == r->messages)
    r->all_delivered->release();
}

/* Word `key` is at node `at` at tick t: forward it, or count it in at its destination. */
void arrive(Run* r, uint32_t at, uint64_t key, double t)
{
  uint64_t x  = key / kWordsPerMessage;
  uint32_t to = destination(r, x);
  if (to != at) {
    enqueue(r, at, next_dimension(r, at, to), key);
    return;
  }
  if (++r->words_arrived[x] > kWordsPerMessage)
    r->bad++;
  if (r->words_arrived[x] == kWordsPerMessage)
    deliver(r, at, x, t);
}

/* Tick 0: post one message per element, in offset order. */
void post(Run* r, uint32_t k)
{
  const uint64_t per_node = uint64_t{1} << r->k_bits;
  for (uint64_t o = 0; o < per_node; o++) {
    uint64_t x  = (uint64_t{k} << r->k_bits) | o;
    uint32_t to = destination(r, x);
    if (to == k) { /* a local copy: no channel, no time */
      r->words_arrived[x] = kWordsPerMessage;
      deliver(r, k, x, 0.0);
      continue;
    }
    for (int w = 0; w < kWordsPerMessage; w++)
      enqueue(r, k, next_dimension(r, k, to), x * kWordsPerMessage + w);
  }
}

/* Every word that reached node k by tick t (each crossed its last link in the first half of an earlier tick). */
void take_arrivals(Run* r, uint32_t k, double t)
{
  sg4::Mailbox* in = r->mailbox[k];
  while (in->ready())
    arrive(r, k, key_of(in->get<void>()), t);
}

/* Tick t: on every channel of node k, send the oldest word queued there. Returns whether words still wait. */
bool send_oldest(Run* r, uint32_t k, double t)
{
  bool waiting = false;
  for (int d = 0; d < r->n; d++) {
    size_t c               = size_t{k} * r->n + d;
    std::vector<uint64_t>& q = r->queue[c];
    if (q.empty())
      continue;
    std::pop_heap(q.begin(), q.end(), std::greater<>());
    uint64_t key = q.back();
    q.pop_back();
    r->sent[k].push_back(r->mailbox[k ^ (1u << d)]->put_async(payload(key), kWordBytes));
    r->channel_words[c]++;
    r->word_hops++;
    if (r->schedule.active())
      r->schedule.line("%.0f %u %d %" PRIu64 " %" PRIu64 "\n", t, k, d, key / kWordsPerMessage,
                       key % kWordsPerMessage);
    waiting |= not q.empty();
  }
  return waiting;
}

void note_tick(Run* r, double t)
{
  if (sg4::Engine::get_clock() != t || t != std::floor(t))
    r->off_tick++;
}

void node_actor(Run* r, uint32_t k)
{
  sg4::Actor::self()->daemonize(); /* the run ends when the last message is delivered, not when nodes idle */
  r->mailbox[k]->set_receiver(sg4::Actor::self());
  post(r, k);
  double t = 0.0;
  for (;;) {
    /* Done half a tick ago. Waiting for them, rather than detaching them, keeps SimGrid's lists of activities
     * short: it removes a finished detached comm from one list of all detached comms in flight. */
    sg4::Comm::wait_all(r->sent[k]);
    r->sent[k].clear();
    take_arrivals(r, k, t);
    if (send_oldest(r, k, t)) {
      t += 1.0;
      sg4::this_actor::sleep_until(t);
      note_tick(r, t);
      continue;
    }
    /* Nothing queued: wait for the next word (it lands mid-tick) and take it at the next whole tick. */
    void* word = r->mailbox[k]->get<void>();
    t          = std::floor(sg4::Engine::get_clock()) + 1.0;
    sg4::this_actor::sleep_until(t);
    note_tick(r, t);
    arrive(r, k, key_of(word), t);
  }
}

void usage(const char* prog)
{
  std::fprintf(stderr,
               "usage: %s [-n DIMENSIONS] [-K ELEMENTS_PER_NODE] [--routing=ascending|descending]\n"
               "          [--schedule=FILE] [--cfg=...]\n"
               "defaults: -n 4 -K 64 --routing=ascending; K a power of two. --schedule writes a line\n"
               "'tick node dimension message word' for every word crossing a channel\n",
               prog);
}

bool parse_args(const char* prog, int argc, char** argv, Run* r, std::string* schedule)
{
  long dims = 4, per_node = 64;
  for (int a = 1; a < argc; a++) {
    std::string s = argv[a];
    if (s == "-n" && a + 1 < argc) {
      if (!cube_platform::parse_number(prog, "-n", argv[++a], 1, cube_platform::kMaxDimensions, &dims))
        return false;
    } else if (s == "-K" && a + 1 < argc) {
      if (!cube_platform::parse_number(prog, "-K", argv[++a], 1, kMaxPerNode, &per_node))
        return false;
    } else if (s == "--routing=ascending")
      r->descending = false;
    else if (s == "--routing=descending")
      r->descending = true;
    else if (s.rfind("--schedule=", 0) == 0 && s.size() > 11)
      *schedule = s.substr(11);
    else
      return cube_platform::refuse_argument(prog, argv[a]);
  }
  if (per_node & (per_node - 1)) {
    std::fprintf(stderr, "%s: -K: expects a power of two, got %ld\n", prog, per_node);
    return false;
  }
  r->n          = static_cast<int>(dims);
  r->k_bits     = __builtin_ctzl(static_cast<unsigned long>(per_node));
  r->index_bits = r->n + r->k_bits;
  return r->index_bits <= kMaxIndexBits;
}

} // namespace

int main(int argc, char** argv)
{
  cube_platform::WallClock wall;
  cube_platform::EngineArgs args(argc, argv);
  sg4::Engine e(&args.argc, args.argv()); /* removes the --cfg and --log options it took */
  Run r;
  std::string schedule;
  if (!parse_args(argv[0], args.argc, args.argv(), &r, &schedule)) {
    usage(argv[0]);
    return 2;
  }
  if (!schedule.empty() && !r.schedule.open(argv[0], schedule))
    return 2;
  r.nodes = uint32_t{1} << r.n;
  const uint64_t total = uint64_t{1} << r.index_bits;
  r.messages           = total;
  r.mailbox.resize(r.nodes);
  r.queue.resize(size_t{r.nodes} * r.n);
  r.sent.resize(r.nodes);
  r.channel_words.assign(size_t{r.nodes} * r.n, 0);
  r.words_arrived.assign(total, 0);
  r.placed.assign(total, 0);
  for (uint64_t x = 0; x < total; x++)
    r.remote_messages += destination(&r, x) != (x >> r.k_bits);
  r.all_delivered = sg4::Semaphore::create(0);

  std::vector<sg4::Host*> hosts =
      cube_platform::build_cube(r.n, kLinkBytesPerTick, 0.0, cube_platform::Links::per_channel);
  for (uint32_t k = 0; k < r.nodes; k++)
    r.mailbox[k] = sg4::Mailbox::by_name("node" + std::to_string(k));
  for (uint32_t k = 0; k < r.nodes; k++)
    sg4::Actor::create("node" + std::to_string(k), hosts[k], node_actor, &r, k);
  double end = -1.0;
  sg4::Actor::create("end", hosts[0], [&r, &end]() {
    r.all_delivered->acquire();
    end = sg4::Engine::get_clock();
  });
  wall.set_up();
  e.run();
  wall.ran();

  const bool schedule_written = r.schedule.close(argv[0]);
  uint64_t words_short = 0, unplaced = 0, max_channel = 0;
  for (uint64_t x = 0; x < total; x++) {
    words_short += r.words_arrived[x] != kWordsPerMessage;
    unplaced += r.placed[x] != 1;
  }
  for (uint64_t w : r.channel_words)
    max_channel = std::max(max_channel, w);
  const bool ok = r.bad == 0 && schedule_written && r.off_tick == 0 && words_short == 0 && unplaced == 0 &&
                  r.delivered == total && end == r.last_arrival;
  std::printf("n=%d nodes=%u K=%u N=%" PRIu64 " routing=%s\n", r.n, r.nodes, 1u << r.k_bits, total,
              r.descending ? "descending" : "ascending");
  std::printf("sim_time=%.9g cycles=%.0f messages=%" PRIu64 " remote=%" PRIu64 " element_transfers=%" PRIu64
              " max_channel_elements=%" PRIu64 " bad=%" PRIu64 " off_tick=%" PRIu64 " incomplete=%" PRIu64
              " unplaced=%" PRIu64 " setup_wall=%.3f run_wall=%.3f data_correct=%s\n",
              end, r.last_arrival, total, r.remote_messages, r.word_hops, max_channel, r.bad, r.off_tick,
              words_short, unplaced, wall.setup_seconds(), wall.run_seconds(), ok ? "true" : "false");
  return ok ? 0 : 1;
}
