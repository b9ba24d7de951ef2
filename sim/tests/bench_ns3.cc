// bench_ns3.cc - the bench's fat tree in ns-3, the packet-level simulator Debian ships
// (libns3-dev), so that `make bench-sim-ns3` can put lfc-sim's cost per packet-hop beside a
// packet-level simulator's, measured in the same minutes (docs/sim.md "Beside ns-3").
//
//   bench_ns3 K US SEED
//
// A k-ary fat tree (k^3/4 hosts, k^2/2 edge and aggregation, k^2/4 core switches), every link
// 100 Gb/s with 10 ns of delay (2 m of cable, as the bench's lfc-sim scenario), each host
// sending one flow of 4 KB packets at line rate to its partner of a random permutation with no
// fixed point, for US microseconds. Built from ns-3's stock parts as a user of ns-3 would for
// a fabric study: point-to-point devices with drop-tail queues (100 packets, ns-3's default),
// the default scheduler, no IP stack, and a switch that forwards from a header by arithmetic
// (D-mod-k: up by the destination, down by its address). Unlike lfc-sim it has no flow control
// (stock ns-3 has no PFC; its RDMA forks add it to the device) and no line time, and a
// congested queue drops, so it does less work a packet-hop: the comparison favours it.
//
// Prints one JSON object: the run's packets (sent, delivered, dropped at a queue and of those
// at a host's own, delivered to the wrong host: none unless the routing is wrong), its
// packet-hops (each delivered packet counts the switches on its path: 1, 3 or 5), the packets
// that reached a switch and those it sent on (also packets dropped further on) and the CPU
// seconds of the set-up and of Simulator::Run. Exit 2 on bad arguments.
#include <ns3/core-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

using namespace ns3;

namespace {

const char *const kRate = "100Gbps";
const double kRateBitsPerPs = 0.1;  // the same 100 Gb/s
const int kDelayNs = 10;           // 2 m of cable at 5 ns/m
const uint32_t kPayloadBytes = 4096;
const uint16_t kProtocol = 0x0800; // a protocol number the PPP device knows (IPv4's)
const uint32_t kMtuBytes = 9000;   // above a packet's bytes: no fragmentation to think of
const uint32_t kHeaderBytes = 8;   // BenchHeader: source and destination
const uint32_t kPppBytes = 2;      // the point-to-point device's own header
const uint32_t kStartSpreadNs = 64; // host h starts at h mod this: not all in one instant
const int kExitBad = 2;

// What a switch forwards by: the source and destination host.
class BenchHeader : public Header {
public:
  uint32_t src = 0, dst = 0;
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("lfc::BenchHeader").SetParent<Header>().AddConstructor<BenchHeader>();
    return tid;
  }
  TypeId GetInstanceTypeId() const override { return GetTypeId(); }
  uint32_t GetSerializedSize() const override { return kHeaderBytes; }
  void Serialize(Buffer::Iterator i) const override {
    i.WriteHtonU32(src);
    i.WriteHtonU32(dst);
  }
  uint32_t Deserialize(Buffer::Iterator i) override {
    src = i.ReadNtohU32();
    dst = i.ReadNtohU32();
    return kHeaderBytes;
  }
  void Print(std::ostream &os) const override { os << src << "->" << dst; }
};

struct Counts {
  uint64_t sent = 0, delivered = 0, misrouted = 0, hops = 0;
  uint64_t forwarded = 0, dropped_at_switch = 0, dropped_at_host = 0;
};
Counts counts;
uint32_t K, HALF;

// The switches on the path between two hosts of the fat tree.
uint32_t path_switches(uint32_t a, uint32_t b) {
  if (a / HALF == b / HALF) return 1;          // one edge switch
  if (a / (HALF * HALF) == b / (HALF * HALF)) return 3; // one pod
  return 5;
}

// A switch: level 0 edge, 1 aggregation, 2 core; ports 0..HALF-1 down, HALF..K-1 up (the core's
// K ports are all down, one a pod).
struct Switch {
  int level;
  uint32_t index; // edge and aggregation: pod * HALF + position; core: its number
  std::vector<Ptr<NetDevice>> port;
  Address to; // where a packet goes on a point-to-point link: anywhere (the peer)

  uint32_t out_port(uint32_t dst) const {
    uint32_t pod = dst / (HALF * HALF), edge = dst / HALF;
    switch (level) {
    case 0: return edge == index ? dst % HALF : HALF + (dst / HALF) % HALF;
    case 1: return pod == index / HALF ? edge % HALF : HALF + (dst / (HALF * HALF)) % HALF;
    default: return pod;
    }
  }
  void receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address &, const Address &,
               NetDevice::PacketType) {
    BenchHeader h;
    p->PeekHeader(h);
    Ptr<NetDevice> out = port[out_port(h.dst)];
    if (out->Send(p->Copy(), to, kProtocol))
      counts.forwarded++;
    else
      counts.dropped_at_switch++;
  }
};

struct Host {
  uint32_t id, dst;
  Ptr<NetDevice> dev;
  Address to;
  Time gap;
  void send() {
    Ptr<Packet> p = Create<Packet>(kPayloadBytes);
    BenchHeader h;
    h.src = id;
    h.dst = dst;
    p->AddHeader(h);
    counts.sent++;
    if (!dev->Send(p, to, kProtocol)) counts.dropped_at_host++;
    Simulator::Schedule(gap, &Host::send, this);
  }
  void receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address &, const Address &,
               NetDevice::PacketType) {
    BenchHeader h;
    p->PeekHeader(h);
    if (h.dst != id) {
      counts.misrouted++;
      return;
    }
    counts.delivered++;
    counts.hops += path_switches(h.src, h.dst);
  }
};

double cpu_seconds() { return (double)std::clock() / CLOCKS_PER_SEC; }

bool parse(const char *s, unsigned long lo, unsigned long hi, unsigned long *v) {
  char *end;
  *v = std::strtoul(s, &end, 10);
  return *s != '\0' && *end == '\0' && *v >= lo && *v <= hi;
}

} // namespace

int main(int argc, char **argv) {
  unsigned long k, us, seed;
  if (argc != 4 || !parse(argv[1], 4, 64, &k) || k % 2 != 0 || !parse(argv[2], 1, 1000000, &us) ||
      !parse(argv[3], 0, 0xffffffffu, &seed)) {
    std::fprintf(stderr, "usage: bench_ns3 K US SEED (K even, 4..64; US 1..1000000 microseconds)\n");
    return kExitBad;
  }
  K = (uint32_t)k;
  HALF = K / 2;
  const uint32_t nhost = K * K * K / 4, nedge = K * K / 2, ncore = K * K / 4;

  PointToPointHelper link;
  link.SetDeviceAttribute("DataRate", StringValue(kRate));
  link.SetDeviceAttribute("Mtu", UintegerValue(kMtuBytes));
  link.SetChannelAttribute("Delay", TimeValue(NanoSeconds(kDelayNs)));

  std::vector<Host> host(nhost);
  std::vector<Switch> sw(2 * nedge + ncore);
  NodeContainer hn, sn;
  hn.Create(nhost);
  sn.Create((uint32_t)sw.size());
  for (uint32_t s = 0; s < sw.size(); s++) {
    sw[s].level = s < nedge ? 0 : s < 2 * nedge ? 1 : 2;
    sw[s].index = s < nedge ? s : s < 2 * nedge ? s - nedge : s - 2 * nedge;
    sw[s].port.resize(K);
  }
  auto agg_of = [&](uint32_t a) { return nedge + a; }; // switches: edges, aggregations, cores
  // hosts to edges
  for (uint32_t h = 0; h < nhost; h++) {
    NetDeviceContainer d = link.Install(hn.Get(h), sn.Get(h / HALF));
    host[h].id = h;
    host[h].dev = d.Get(0);
    sw[h / HALF].port[h % HALF] = d.Get(1);
  }
  // edges to aggregations of their pod: edge position i's up port HALF + j to aggregation j,
  // whose down port i it is
  for (uint32_t pod = 0; pod < K; pod++)
    for (uint32_t i = 0; i < HALF; i++)
      for (uint32_t j = 0; j < HALF; j++) {
        uint32_t e = pod * HALF + i, a = agg_of(pod * HALF + j);
        NetDeviceContainer d = link.Install(sn.Get(e), sn.Get(a));
        sw[e].port[HALF + j] = d.Get(0);
        sw[a].port[i] = d.Get(1);
      }
  // aggregation position j's up port HALF + c to core j * HALF + c, whose port `pod` it is
  for (uint32_t pod = 0; pod < K; pod++)
    for (uint32_t j = 0; j < HALF; j++)
      for (uint32_t c = 0; c < HALF; c++) {
        uint32_t a = agg_of(pod * HALF + j), core = 2 * nedge + j * HALF + c;
        NetDeviceContainer d = link.Install(sn.Get(a), sn.Get(core));
        sw[a].port[HALF + c] = d.Get(0);
        sw[core].port[pod] = d.Get(1);
      }
  // A point-to-point device's broadcast address, once: GetBroadcast parses it from a string on
  // each call, which would be this program's cost, not ns-3's.
  const Address anywhere = host[0].dev->GetBroadcast();
  for (uint32_t s = 0; s < sw.size(); s++) sw[s].to = anywhere;
  for (uint32_t s = 0; s < sw.size(); s++)
    for (uint32_t p = 0; p < K; p++)
      sn.Get(s)->RegisterProtocolHandler(MakeCallback(&Switch::receive, &sw[s]), kProtocol,
                                         sw[s].port[p], false);

  // a random permutation with no fixed point (Sattolo's algorithm: one cycle)
  std::vector<uint32_t> partner(nhost);
  for (uint32_t h = 0; h < nhost; h++) partner[h] = h;
  std::mt19937 rng((uint32_t)seed);
  for (uint32_t i = nhost - 1; i > 0; i--)
    std::swap(partner[i], partner[std::uniform_int_distribution<uint32_t>(0, i - 1)(rng)]);

  // line rate: the packet's bytes on the wire (payload, header, the device's 2-byte PPP header)
  const double bits = 8.0 * (kPayloadBytes + kHeaderBytes + kPppBytes);
  const Time gap = PicoSeconds((uint64_t)(bits / kRateBitsPerPs + 0.5));
  for (uint32_t h = 0; h < nhost; h++) {
    host[h].dst = partner[h];
    host[h].gap = gap;
    host[h].to = anywhere;
    hn.Get(h)->RegisterProtocolHandler(MakeCallback(&Host::receive, &host[h]), kProtocol,
                                       host[h].dev, false);
    Simulator::Schedule(NanoSeconds(h % kStartSpreadNs), &Host::send, &host[h]);
  }
  Simulator::Stop(MicroSeconds(us));

  double setup = cpu_seconds();
  Simulator::Run();
  double run = cpu_seconds() - setup;
  std::printf("{\"k\": %u, \"hosts\": %u, \"switches\": %zu, \"sim_us\": %lu", K, nhost,
              sw.size(), us);
  const std::pair<const char *, uint64_t> field[] = {
      {"sent_packets", counts.sent},         {"delivered_packets", counts.delivered},
      {"dropped_packets", counts.dropped_at_switch + counts.dropped_at_host},
      {"dropped_at_hosts", counts.dropped_at_host},
      {"misrouted_packets", counts.misrouted},
      {"packet_hops", counts.hops},
      {"switch_forwards", counts.forwarded},
      {"switch_arrivals", counts.forwarded + counts.dropped_at_switch}};
  for (const auto &f : field) std::printf(", \"%s\": %" PRIu64, f.first, f.second);
  std::printf(", \"cpu_seconds_setup\": %.3f, \"cpu_seconds_run\": %.3f}\n", setup, run);
  Simulator::Destroy();
  return 0;
}
