/* cube_platform.hpp -- what the SimGrid baselines of bench/simgrid/ share (bit_reversal.cpp, cube_exchange.cpp):
 * the Boolean n-cube as a SimGrid platform, the engine started on the network model under which SimGrid's times
 * are cubemu's, the command line's numbers, the file of the schedule each writes for same_schedule.py, and the
 * wall clock of the set-up and of the run. Header-only: each baseline is one translation unit (SimGrid 3.32, S4U).
 *
 * The platform is built in code: 2^n hosts node0 .. node(2^n - 1) and a link of its own for every directed
 * channel (i -> i ^ 2^d), so that the two directions of a cube edge never share a capacity: either a simplex link
 * per channel, or a split-duplex link per edge, SimGrid's full-duplex cable, whose two directions are the edge's
 * two channels. Both simulate the same times; they cost SimGrid different time and memory, and each baseline
 * keeps the kind its recorded figures were taken with (bench/simgrid/README.md). The routing zone is a small one
 * of its own that knows only neighbour routes: one link each, found in O(1). SimGrid's stock Full zone would hold
 * a 2^n x 2^n table of routes. The zone subclasses kernel::routing::NetZoneImpl, which is not stable S4U API and
 * may not build against another SimGrid version.
 */
#ifndef CUBE_PLATFORM_HPP
#define CUBE_PLATFORM_HPP

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cube_platform {

namespace sg4 = simgrid::s4u;

constexpr int kMaxDimensions = 24;  /* node numbers fit 32 bits; 2^24 actors outgrow any host's memory anyway */
constexpr uint64_t kWordBytes = 8;  /* one of cubemu's elements, a 64-bit word */

/* Routes between cube neighbours only: i -> i ^ 2^d is the simplex link of channel (i, d). */
class CubeChannels : public simgrid::kernel::routing::NetZoneImpl {
  int n_;
  double latency_; /* every link's */
  std::vector<simgrid::kernel::resource::StandardLinkImpl*> link_; /* link_[i * n + d] */

public:
  CubeChannels(const std::string& name, int n, double latency)
      : NetZoneImpl(name), n_(n), latency_(latency), link_((size_t{1} << n) * n, nullptr)
  {
  }
  void set_channel(uint32_t node, int d, sg4::Link* link) { link_[size_t{node} * n_ + d] = link->get_impl(); }
  void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* into, double* latency) override
  {
    unsigned long diff = src->id() ^ dst->id();
    xbt_assert(diff != 0 && (diff & (diff - 1)) == 0, "%s and %s are not cube neighbours", src->get_cname(),
               dst->get_cname());
    into->link_list_.push_back(link_[src->id() * n_ + __builtin_ctzl(diff)]);
    if (latency)
      *latency += latency_;
  }
};

/* What carries the cube's channels: a simplex link each (named c<node>_<d>), or the two directions of a
 * split-duplex link per edge (e<lower node>_<d>). */
enum class Links { per_channel, per_edge };

/* The n-cube: hosts[k] is node k (its netpoint's id is k, which the zone's routes rely on), and channel (k, d) a
 * link of `bytes_per_tick` and `latency` ticks. The zone becomes the root zone, which the engine owns. */
inline std::vector<sg4::Host*> build_cube(int n, double bytes_per_tick, double latency, Links links)
{
  const uint32_t nodes = uint32_t{1} << n;
  auto* zone           = new CubeChannels("cube", n, latency);
  sg4::NetZone* iface  = zone->get_iface();
  std::vector<sg4::Host*> hosts(nodes);
  for (uint32_t k = 0; k < nodes; k++) {
    hosts[k] = iface->create_host("node" + std::to_string(k), 1e9);
    xbt_assert(hosts[k]->get_netpoint()->id() == k, "host %u got netpoint %lu", k, hosts[k]->get_netpoint()->id());
  }
  for (uint32_t k = 0; k < nodes; k++)
    for (int d = 0; d < n; d++) {
      const std::string name = std::to_string(k) + "_" + std::to_string(d);
      const uint32_t peer    = k ^ (uint32_t{1} << d);
      if (links == Links::per_channel) {
        sg4::Link* link = iface->create_link("c" + name, bytes_per_tick);
        link->set_latency(latency)->seal();
        zone->set_channel(k, d, link);
      } else if (k < peer) {
        sg4::SplitDuplexLink* link = iface->create_split_duplex_link("e" + name, bytes_per_tick);
        link->set_latency(latency)->seal();
        zone->set_channel(k, d, link->get_link_up());
        zone->set_channel(peer, d, link->get_link_down());
      }
    }
  iface->seal();
  return hosts;
}

/* The command line SimGrid's engine is given: the program's own, after the network model CM02 without
 * crosstraffic, so that a --cfg given on the command line, parsed later, still wins. Under that model a lone comm
 * of S bytes over one link of bandwidth B and latency L takes exactly L + S/B. */
class EngineArgs {
  std::vector<char*> args_;

public:
  int argc = 0;
  EngineArgs(int argc_in, char** argv)
  {
    static char cfg_model[] = "--cfg=network/model:CM02";
    static char cfg_cross[] = "--cfg=network/crosstraffic:0";
    args_ = {argv[0], cfg_model, cfg_cross};
    args_.insert(args_.end(), argv + 1, argv + argc_in);
    argc = static_cast<int>(args_.size());
    args_.push_back(nullptr);
  }
  char** argv() { return args_.data(); }
};

/* A whole number for FLAG in [lo, hi]; otherwise a message naming the flag, and false. */
inline bool parse_number(const char* prog, const char* flag, const char* text, long lo, long hi, long* out)
{
  char* end;
  errno  = 0;
  long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "%s: %s: expects a whole number from %ld to %ld, got '%s'\n", prog, flag, lo, hi, text);
    return false;
  }
  *out = v;
  return true;
}

/* An argument the program does not take (or a flag given without its value): a message naming it, and false. */
inline bool refuse_argument(const char* prog, const char* arg)
{
  std::fprintf(stderr, "%s: %s: not an option, or missing its value\n", prog, arg);
  return false;
}

/* The schedule a baseline writes (--schedule=FILE), one line an event, for same_schedule.py. Every write is
 * checked: a schedule cut short must not pass for a whole one. */
class ScheduleFile {
  FILE* file_ = nullptr;
  std::string path_;
  bool failed_ = false;

public:
  bool open(const char* prog, const std::string& path)
  {
    path_ = path;
    if (!(file_ = std::fopen(path.c_str(), "w"))) {
      std::fprintf(stderr, "%s: %s: %s\n", prog, path.c_str(), std::strerror(errno));
      return false;
    }
    return true;
  }
  bool active() const { return file_ != nullptr; }
  __attribute__((format(printf, 2, 3))) void line(const char* format, ...)
  {
    va_list ap;
    va_start(ap, format);
    if (std::vfprintf(file_, format, ap) < 0)
      failed_ = true;
    va_end(ap);
  }
  /* Closes the file; whether every line reached it (true when there was none to write). */
  bool close(const char* prog)
  {
    if (file_ && std::fclose(file_) != 0)
      failed_ = true;
    file_ = nullptr;
    if (failed_)
      std::fprintf(stderr, "%s: %s: cannot write the schedule\n", prog, path_.c_str());
    return !failed_;
  }
};

/* The wall clock of a baseline's two parts: the set-up (engine, platform, actors) and the simulation. */
class WallClock {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now(), set_up_ = start_, ran_ = start_;

public:
  void set_up() { set_up_ = Clock::now(); }
  void ran() { ran_ = Clock::now(); }
  double setup_seconds() const { return std::chrono::duration<double>(set_up_ - start_).count(); }
  double run_seconds() const { return std::chrono::duration<double>(ran_ - set_up_).count(); }
};

} // namespace cube_platform

#endif
