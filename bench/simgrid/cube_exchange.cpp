/* cube_exchange.cpp -- a SimGrid (S4U, 3.32) baseline for the dimension exchange on the Boolean n-cube, run the way
 * cubemu's algorithm `exchange` runs it on the `cube` preset (algorithms/exchange/README.md,
 * docs/machine-model.md), so that SimGrid's simulated makespan is cubemu's `cycles`.
 *
 * What is simulated:
 *   - every node holds K elements. Method `sequential` (the default): for d = 0 .. n-1 in turn, every node sends
 *     all K to its neighbour across dimension d and takes the neighbour's K in their place, so that every node
 *     ends with its antipode's elements. Method `all-port`: K cut into n contiguous parts of nearly equal size
 *     (the first K mod n of them one element longer), part d sent across dimension d, all at once; a part of no
 *     element is no message;
 *   - a message of S elements posted at tick t arrives at t + Ts + S: its startup Ts delays it without holding
 *     the channel (the cube preset's startup-holds-port = no), then one element a tick crosses the channel. No
 *     channel ever carries two messages at once, so no arbitration enters, and the makespan is n (Ts + K) for
 *     `sequential` and Ts + ceil(K/n) for `all-port`.
 *
 * How SimGrid simulates it:
 *   - platform: the n-cube of cube_platform.hpp, one split-duplex link per edge (SimGrid's full-duplex cable,
 *     each direction one channel), of bandwidth one element a tick and latency Ts;
 *   - one actor per node, one mailbox per node and dimension (what the node receives across it); a message is one
 *     SimGrid comm of 8 S bytes, a flow whose elements are no events of their own, posted with put_async and
 *     taken with get. The comm starts when both ends have posted, and here both post at the same tick, so it
 *     starts when it is posted, as cubemu's buffered send does;
 *   - network model CM02 without crosstraffic (cube_platform.hpp): a lone comm of S bytes over a link of
 *     bandwidth B and latency L takes exactly L + S/B, here Ts + S ticks.
 *
 * Every message carries which node's elements it holds. The program checks that each one brings the elements
 * the neighbour holds at that step, that every node ends with the elements cubemu's run leaves there (its
 * antipode's for `sequential`, part d from its neighbour across d for `all-port`) and that every message was sent,
 * and exits 1 otherwise. --schedule=FILE writes every message (node, its posting order there, destination,
 * elements, tick posted, tick arrived), which `same_schedule.py --messages` compares with a cubemu trace: the
 * makespan alone would not show the same messages of the same sizes in the same order.
 */
#include "cube_platform.hpp"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

XBT_LOG_NEW_DEFAULT_CATEGORY(cube_exchange, "dimension exchange on the Boolean cube");
namespace sg4 = simgrid::s4u;
using cube_platform::kWordBytes;

namespace {

constexpr long kMaxPerNode         = 1L << 32; /* cubemu's own limit on elements-per-node */
constexpr long kMaxStartup         = 1L << 20; /* ticks; far beyond any preset's, and exact in a double's sums */
constexpr double kLinkBytesPerTick = kWordBytes; /* one element a tick */

/* A message as --schedule writes it. */
struct Sent {
  uint32_t node = 0, seq = 0, peer = 0;
  uint64_t elements = 0;
  double posted = 0.0, arrived = 0.0;
};

/* One simulation's state; the actors share it through a pointer. */
struct Run {
  int n           = 4;  /* cube dimensions */
  long k          = 64; /* elements per node */
  long startup    = 1;  /* Ts, ticks */
  bool all_port   = false;
  uint32_t nodes  = 0;
  std::vector<sg4::Mailbox*> mailbox; /* mailbox[node * n + d]: what the node receives across dimension d */
  std::vector<Sent> sent;             /* with --schedule only: sent[node * n + seq] */
  uint64_t messages = 0, transfers = 0, bad = 0, finished = 0;
  cube_platform::ScheduleFile schedule;
};

/* Elements of part d in the all-port method: the first K mod n parts take one more (exchange.c's part_range). */
uint64_t part_elements(const Run* r, int d)
{
  uint64_t q = static_cast<uint64_t>(r->k) / r->n, rest = static_cast<uint64_t>(r->k) % r->n;
  return q + (static_cast<uint64_t>(d) < rest ? 1 : 0);
}

/* A message's payload: the node whose elements it holds. Offset by one because SimGrid refuses a null payload. */
void* payload(uint32_t owner) { return reinterpret_cast<void*>(static_cast<uintptr_t>(owner) + 1); }
uint32_t owner_of(void* p) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p) - 1); }

/* Post `elements` of `owner`'s to node k's neighbour across d, as node k's seq-th message. */
sg4::CommPtr post(Run* r, uint32_t k, int d, uint32_t owner, uint64_t elements, uint32_t seq)
{
  const uint32_t peer = k ^ (1u << d);
  if (r->schedule.active())
    r->sent[size_t{k} * r->n + seq] = Sent{k, seq, peer, elements, sg4::Engine::get_clock(), 0.0};
  return r->mailbox[size_t{peer} * r->n + d]->put_async(payload(owner), elements * kWordBytes);
}

/* Node k's seq-th message is done: count it, and note when it arrived. */
void sent(Run* r, uint32_t k, uint32_t seq, const sg4::CommPtr& comm, uint64_t elements)
{
  r->messages++;
  r->transfers += elements;
  if (r->schedule.active())
    r->sent[size_t{k} * r->n + seq].arrived = comm->get_finish_time();
}

void sequential(Run* r, uint32_t k)
{
  const uint64_t elements = static_cast<uint64_t>(r->k);
  uint32_t held           = k; /* whose elements node k holds */
  for (int d = 0; d < r->n; d++) {
    sg4::CommPtr out = post(r, k, d, held, elements, static_cast<uint32_t>(d));
    uint32_t got     = owner_of(r->mailbox[size_t{k} * r->n + d]->get<void>());
    out->wait();
    sent(r, k, static_cast<uint32_t>(d), out, elements);
    /* the neighbour has exchanged across dimensions 0 .. d-1 as well: it holds the elements of k ^ (2^(d+1) - 1) */
    if (got != (k ^ ((uint32_t{2} << d) - 1)))
      r->bad++;
    held = got;
  }
  if (held != (k ^ (r->nodes - 1)))
    r->bad++;
  r->finished++;
}

void all_port(Run* r, uint32_t k)
{
  std::vector<sg4::CommPtr> out, in;
  std::vector<void*> got(r->n, nullptr);
  std::vector<int> dims;
  for (int d = 0; d < r->n; d++) {
    uint64_t elements = part_elements(r, d);
    if (elements == 0)
      continue;
    out.push_back(post(r, k, d, k, elements, static_cast<uint32_t>(dims.size())));
    in.push_back(r->mailbox[size_t{k} * r->n + d]->get_async<void>(&got[d]));
    dims.push_back(d);
  }
  sg4::Comm::wait_all(out);
  sg4::Comm::wait_all(in);
  for (size_t i = 0; i < dims.size(); i++) {
    sent(r, k, static_cast<uint32_t>(i), out[i], part_elements(r, dims[i]));
    if (owner_of(got[dims[i]]) != (k ^ (1u << dims[i]))) /* part d comes from the neighbour across d */
      r->bad++;
  }
  r->finished++;
}

void node_actor(Run* r, uint32_t k)
{
  if (r->all_port)
    all_port(r, k);
  else
    sequential(r, k);
}

void usage(const char* prog)
{
  std::fprintf(stderr,
               "usage: %s [-n DIMENSIONS] [-K ELEMENTS_PER_NODE] [--startup=TICKS]\n"
               "          [--method=sequential|all-port] [--schedule=FILE] [--cfg=...]\n"
               "defaults: -n 4 -K 64 --startup=1 --method=sequential. --schedule writes a line\n"
               "'node seq destination elements posted arrived' for every message\n",
               prog);
}

bool parse_args(const char* prog, int argc, char** argv, Run* r, std::string* schedule)
{
  long dims = r->n;
  for (int a = 1; a < argc; a++) {
    std::string s = argv[a];
    if (s == "-n" && a + 1 < argc) {
      if (!cube_platform::parse_number(prog, "-n", argv[++a], 1, cube_platform::kMaxDimensions, &dims))
        return false;
    } else if (s == "-K" && a + 1 < argc) {
      if (!cube_platform::parse_number(prog, "-K", argv[++a], 1, kMaxPerNode, &r->k))
        return false;
    } else if (s.rfind("--startup=", 0) == 0) {
      if (!cube_platform::parse_number(prog, "--startup", argv[a] + 10, 0, kMaxStartup, &r->startup))
        return false;
    } else if (s == "--method=sequential")
      r->all_port = false;
    else if (s == "--method=all-port")
      r->all_port = true;
    else if (s.rfind("--schedule=", 0) == 0 && s.size() > 11)
      *schedule = s.substr(11);
    else
      return cube_platform::refuse_argument(prog, argv[a]);
  }
  r->n = static_cast<int>(dims);
  return true;
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
  r.mailbox.resize(size_t{r.nodes} * r.n);
  if (r.schedule.active())
    r.sent.resize(size_t{r.nodes} * r.n);
  for (uint32_t k = 0; k < r.nodes; k++)
    for (int d = 0; d < r.n; d++)
      r.mailbox[size_t{k} * r.n + d] = sg4::Mailbox::by_name("m" + std::to_string(k) + "_" + std::to_string(d));

  std::vector<sg4::Host*> hosts = cube_platform::build_cube(r.n, kLinkBytesPerTick, static_cast<double>(r.startup),
                                                            cube_platform::Links::per_edge);
  for (uint32_t k = 0; k < r.nodes; k++)
    sg4::Actor::create("node" + std::to_string(k), hosts[k], node_actor, &r, k);
  wall.set_up();
  e.run();
  wall.ran();

  /* Every node sends one message per dimension, or per part of at least one element. */
  uint64_t per_node = 0;
  for (int d = 0; d < r.n; d++)
    per_node += r.all_port ? (part_elements(&r, d) > 0) : 1;
  for (uint32_t k = 0; k < r.nodes && r.schedule.active(); k++)
    for (uint64_t i = 0; i < per_node; i++) {
      const Sent& m = r.sent[size_t{k} * r.n + i];
      r.schedule.line("%u %u %u %" PRIu64 " %.17g %.17g\n", m.node, m.seq, m.peer, m.elements, m.posted, m.arrived);
    }
  const bool schedule_written = r.schedule.close(argv[0]);

  const long longest = r.all_port ? (r.k + r.n - 1) / r.n : r.k;
  const long bound   = r.all_port ? r.startup + longest : r.n * (r.startup + r.k);
  const bool ok      = r.bad == 0 && schedule_written && r.finished == r.nodes && r.messages == per_node * r.nodes;
  std::printf("n=%d nodes=%u K=%ld startup=%ld method=%s\n", r.n, r.nodes, r.k, r.startup,
              r.all_port ? "all-port" : "sequential");
  std::printf("sim_time=%.17g bound=%ld messages=%" PRIu64 " element_transfers=%" PRIu64 " bad=%" PRIu64
              " setup_wall=%.3f run_wall=%.3f data_correct=%s\n",
              sg4::Engine::get_clock(), bound, r.messages, r.transfers, r.bad, wall.setup_seconds(),
              wall.run_seconds(), ok ? "true" : "false");
  return ok ? 0 : 1;
}
