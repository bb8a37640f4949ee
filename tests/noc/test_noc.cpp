// Packet-model package network: link timing, mesh routing geometry, zero-load latency, contention,
// conservation and energy. Every expected value is derived here from the model's formulas.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "hw/topology/mesh_topology.h"
#include "noc/packet/link.h"
#include "noc/packet/packet_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <systemc>
#include <vector>

namespace mcmsim {
namespace test_noc {

// Round numbers: every flit and packet time below is a whole number of picoseconds.
constexpr double kLinkGbps = 32, kLinkLatencyNs = 5, kLinkPjPerBit = 0.5;
constexpr double kNiGbps = 64;
constexpr double kRouterGhz = 1;
constexpr std::int64_t kPipelineCycles = 4, kFlitBytes = 32;
constexpr double kRouterPjPerFlit = 2;

/// Picoseconds to move `bytes` at `gbps` GB/s (bytes per ns).
double ps(double bytes, double gbps) { return bytes * 1000.0 / gbps; }
std::int64_t flits_of(std::int64_t bytes) { return (bytes + kFlitBytes - 1) / kFlitBytes; }

ArchConfig mesh_arch(int rows, int cols) {
    ArchConfig a;
    a.name = "noc-test";
    a.package.rows = rows;
    a.package.cols = cols;
    a.package.routing = Routing::XY;
    a.package.link.bandwidth_gbps = kLinkGbps;
    a.package.link.latency_ns = kLinkLatencyNs;
    a.package.link.energy_pj_per_bit = kLinkPjPerBit;
    a.package.router.clock_ghz = kRouterGhz;
    a.package.router.pipeline_cycles = kPipelineCycles;
    a.package.router.flit_bytes = kFlitBytes;
    a.package.router.energy_pj_per_flit = kRouterPjPerFlit;
    a.chiplet.ni_bandwidth_gbps = kNiGbps;
    MemoryConfig m;  // the network needs one; no traffic goes to it here
    m.name = "hbm";
    m.phy_bandwidth_gbps = m.dram.bandwidth_gbps();
    a.memories = {m};
    return a;
}

/// Closed-form zero-load latency over NI inject link, `hops` mesh links, NI eject link:
/// sum(latency + flit time) + (hops+1) router pipelines + max(serialisation - flit time).
double zero_load_ps(int hops, std::int64_t payload_bytes) {
    struct L {
        double gbps, latency_ns;
    };
    std::vector<L> links{{kNiGbps, 0}};
    for (int h = 0; h < hops; ++h) links.push_back({kLinkGbps, kLinkLatencyNs});
    links.push_back({kNiGbps, 0});
    const double wire = static_cast<double>(flits_of(payload_bytes) * kFlitBytes);
    double sum = 0, lag = 0;
    for (const L& l : links) {
        sum += l.latency_ns * 1000.0 + ps(kFlitBytes, l.gbps);
        lag = std::max(lag, ps(wire, l.gbps) - ps(kFlitBytes, l.gbps));
    }
    return sum + (hops + 1) * (kPipelineCycles / kRouterGhz * 1000.0) + lag;
}

struct Arrival {
    int node;
    std::int64_t tag;
    Tick when;
};

/// Endpoint that logs every tail arrival and hands the packet back to the network.
class Sink : public NetworkEndpoint {
public:
    Sink(PackageNetwork& net, int node, std::vector<Arrival>& log) : net_(net), node_(node), log_(log) {}
    void arrive(Packet* p, Tick when) override {
        log_.push_back({node_, p->tag, when});
        net_.delivered(p);
    }

private:
    PackageNetwork& net_;
    int node_;
    std::vector<Arrival>& log_;
};

struct Injection {
    Tick at;
    int src, dst;
    std::int64_t bytes, tag;
};

/// Injects a list of packets at their ticks from an SC_THREAD.
class Injector : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Injector);
    Injector(sc_core::sc_module_name n, PackageNetwork& net, std::vector<Injection> list)
        : sc_core::sc_module(n), net_(net), list_(std::move(list)) {
        std::stable_sort(list_.begin(), list_.end(), [](auto& a, auto& b) { return a.at < b.at; });
        SC_THREAD(run);
    }

private:
    void run() {
        for (const Injection& i : list_) {
            if (i.at > now_ticks()) sc_core::wait(to_sc_time(i.at - now_ticks()));
            Packet* p = net_.new_packet();
            p->payload_bytes = p->wire_bytes = i.bytes;
            p->tag = i.tag;
            net_.inject(net_.chiplet_node(i.src), net_.chiplet_node(i.dst), p, now_ticks());
        }
    }
    PackageNetwork& net_;
    std::vector<Injection> list_;
};

/// A network with a logging sink on every chiplet, driven by an injection list.
struct Bench {
    ArchConfig arch;
    EnergyLedger ledger;
    PacketNetwork net;
    std::vector<Arrival> log;
    std::vector<std::unique_ptr<Sink>> sinks;
    Injector injector;

    Bench(int rows, int cols, std::vector<Injection> list)
        : arch(mesh_arch(rows, cols)), net("network", arch, ledger), injector("injector", net, std::move(list)) {
        for (int c = 0; c < arch.chiplet_count(); ++c) {
            sinks.push_back(std::make_unique<Sink>(net, net.chiplet_node(c), log));
            net.attach(net.chiplet_node(c), sinks.back().get());
        }
    }
};

int first_at_distance(const MeshTopology& t, int src, int hops) {
    for (int d = 0; d < t.routers(); ++d)
        if (t.hops(src, d) == hops) return d;
    return -1;
}

// A link reserves whole flits, starts when idle, and books energy for the padded bytes.
TEST(NocLink, TimingAndEnergyFollowFormulas) {
    init_time_resolution();
    const double gbps = 10, latency_ns = 5, pj = 0.25;
    const std::int64_t flit = 32, payload = 100;
    EnergyAccount acc, layer;
    Link link("l", LinkParams{gbps, latency_ns, pj, EnergyCategory::D2d}, flit, &acc);

    const std::int64_t wire = (payload + flit - 1) / flit * flit;  // 4 flits = 128 B
    const auto serialise = static_cast<Tick>(ps(wire, gbps));
    const auto flit_time = static_cast<Tick>(ps(flit, gbps));
    const Tick ready = 1000;
    Link::Transit a = link.send(ready, payload, &layer);
    EXPECT_EQ(a.start, ready);
    EXPECT_EQ(a.end, a.start + serialise);
    EXPECT_EQ(a.head_arrival, a.start + ns_to_ticks(latency_ns) + flit_time);
    EXPECT_EQ(a.tail_lag, serialise - flit_time);
    EXPECT_EQ(link.free_at(), a.end);

    // Ready before the first packet has left: it queues behind it.
    Link::Transit b = link.send(a.start + 1, payload, nullptr);
    EXPECT_EQ(b.start, a.end);
    EXPECT_EQ(b.end, b.start + serialise);

    const double pj_per_packet = static_cast<double>(wire) * 8 * pj;
    EXPECT_DOUBLE_EQ(acc.pj[static_cast<int>(EnergyCategory::D2d)], 2 * pj_per_packet);
    EXPECT_DOUBLE_EQ(layer.pj[static_cast<int>(EnergyCategory::D2d)], pj_per_packet);
    EXPECT_EQ(link.bytes(), 2 * wire);
    EXPECT_EQ(link.packets(), 2);
    EXPECT_EQ(link.busy_ticks(), 2 * serialise);
}

// A packet whose tail trails its head by more than its own serialisation (a slower link
// upstream) holds an ordinary link until the tail has passed, but an ejection link, whose
// receiver buffers each virtual channel's packet apart, only for its own serialisation.
TEST(NocLink, EjectionHoldsOnlyForItsOwnSerialisation) {
    init_time_resolution();
    const double gbps = 100;
    const std::int64_t flit = 32, wire = 1024;
    const auto serialise = static_cast<Tick>(ps(wire, gbps));
    const auto flit_time = static_cast<Tick>(ps(flit, gbps));
    const Tick lag = 3 * serialise;  // the tail trails as behind a link a third as fast
    for (bool ejection : {false, true}) {
        LinkParams params{gbps, 0, 0, EnergyCategory::Noc};
        params.ejection = ejection;
        Link link("l", params, flit, nullptr);
        const Link::Transit a = link.send(0, wire, nullptr, lag);
        EXPECT_EQ(a.tail_lag, lag);
        EXPECT_EQ(a.end, flit_time + lag);  // the tail has passed either way
        EXPECT_EQ(link.free_at(), ejection ? serialise : flit_time + lag) << ejection;
        const Link::Transit b = link.send(0, wire, nullptr, lag);
        EXPECT_EQ(b.start, ejection ? serialise : flit_time + lag) << ejection;
    }
}

// XY routing finishes the column move (east) before the row move (south); YX the reverse.
TEST(NocMeshTopology, XyAndYxPathOrder) {
    MeshTopology xy(4, 4, Routing::XY), yx(4, 4, Routing::YX);
    const int src = xy.id(0, 0), dst = xy.id(2, 3);
    const int hops = std::abs(2 - 0) + std::abs(3 - 0);
    ASSERT_EQ(xy.hops(src, dst), hops);

    std::vector<int> p = xy.path(src, dst);
    ASSERT_EQ(p.size(), static_cast<std::size_t>(hops + 1));
    EXPECT_EQ(p.front(), src);
    EXPECT_EQ(p.back(), dst);
    std::vector<int> links = xy.path_links(src, dst);
    ASSERT_EQ(links.size(), static_cast<std::size_t>(hops));
    for (int i = 0; i < hops; ++i) {
        Port expected = i < 3 ? Port::East : Port::South;
        EXPECT_EQ(links[i] % kMeshPorts, static_cast<int>(expected)) << "hop " << i;
        EXPECT_EQ(links[i] / kMeshPorts, p[i]) << "link leaves the router it follows";
    }
    EXPECT_EQ(p[3], xy.id(0, 3));  // turned at the destination column

    std::vector<int> q = yx.path(src, dst);
    std::vector<int> qlinks = yx.path_links(src, dst);
    ASSERT_EQ(qlinks.size(), static_cast<std::size_t>(hops));
    for (int i = 0; i < hops; ++i) {
        Port expected = i < 2 ? Port::South : Port::East;
        EXPECT_EQ(qlinks[i] % kMeshPorts, static_cast<int>(expected)) << "hop " << i;
    }
    EXPECT_EQ(q[2], yx.id(2, 0));  // turned at the destination row
}

// hops() is the Manhattan distance, paths have one link per hop, and the mean distance
// over all k^4 ordered pairs (self pairs included) is 2(k^2-1)/(3k).
TEST(NocMeshTopology, HopsAndAverageDistance) {
    for (int k : {4, 8}) {
        MeshTopology t(k, k, Routing::XY);
        std::int64_t sum = 0;
        for (int s = 0; s < t.routers(); ++s)
            for (int d = 0; d < t.routers(); ++d) {
                int manhattan = std::abs(t.row_of(s) - t.row_of(d)) + std::abs(t.col_of(s) - t.col_of(d));
                ASSERT_EQ(t.hops(s, d), manhattan);
                ASSERT_EQ(t.path_links(s, d).size(), static_cast<std::size_t>(manhattan));
                ASSERT_EQ(t.path(s, d).size(), static_cast<std::size_t>(manhattan + 1));
                sum += t.hops(s, d);
            }
        // sum / k^4 == 2(k^2-1)/(3k)  <=>  3k * sum == 2(k^2-1) * k^4 (exact in integers)
        const std::int64_t k4 = static_cast<std::int64_t>(k) * k * k * k;
        EXPECT_EQ(3 * k * sum, 2 * (k * k - 1) * k4) << "k=" << k;
    }
}

struct ZeroLoadCase {
    std::int64_t payload;  ///< bytes; flits = ceil(payload / 32)
    int hops;
};

void PrintTo(const ZeroLoadCase& c, std::ostream* os) { *os << c.payload << " B over " << c.hops << " hops"; }

class NocZeroLoad : public ::testing::TestWithParam<ZeroLoadCase> {};

// An unloaded network delivers a packet exactly at the closed-form zero-load latency.
TEST_P(NocZeroLoad, ArrivalMatchesClosedForm) {
    init_time_resolution();
    const ZeroLoadCase c = GetParam();
    const int dst = first_at_distance(MeshTopology(3, 3, Routing::XY), 0, c.hops);
    ASSERT_GE(dst, 0);
    Bench b(3, 3, {{0, 0, dst, c.payload, 42}});
    sc_core::sc_start();

    ASSERT_EQ(b.log.size(), 1u);
    EXPECT_EQ(b.log[0].node, dst);
    EXPECT_EQ(b.log[0].tag, 42);
    const double links = c.hops + 2;  // allow 1 ps of rounding per link
    EXPECT_NEAR(static_cast<double>(b.log[0].when), zero_load_ps(c.hops, c.payload), links);
}

INSTANTIATE_TEST_SUITE_P(FlitsAndHops, NocZeroLoad,
                         ::testing::Values(ZeroLoadCase{20, 1}, ZeroLoadCase{20, 3},     // 1 flit
                                           ZeroLoadCase{150, 1}, ZeroLoadCase{150, 3}),  // 5 flits
                         [](const ::testing::TestParamInfo<ZeroLoadCase>& i) {
                             return std::to_string(flits_of(i.param.payload)) + "flit_" + std::to_string(i.param.hops) + "hop";
                         });

// Two packets meeting at a router for the same output link: the second one waits exactly
// one serialisation time of that link.
TEST(NocContention, SecondPacketWaitsOneSerialisation) {
    init_time_resolution();
    // 3x3, XY: (0,0)->(2,1) and (0,2)->(2,1) both reach router (0,1) at the same tick and both
    // leave it southwards on the same link.
    MeshTopology t(3, 3, Routing::XY);
    const int a = t.id(0, 0), b2 = t.id(0, 2), dst = t.id(2, 1);
    ASSERT_EQ(t.hops(a, dst), t.hops(b2, dst));
    const int hops = t.hops(a, dst);
    const std::int64_t payload = 150;
    Bench b(3, 3, {{0, a, dst, payload, 1}, {0, b2, dst, payload, 2}});
    sc_core::sc_start();

    ASSERT_EQ(b.log.size(), 2u);
    const Tick first = std::min(b.log[0].when, b.log[1].when);
    const Tick second = std::max(b.log[0].when, b.log[1].when);
    const double alone = zero_load_ps(hops, payload);
    const double serialise = ps(flits_of(payload) * kFlitBytes, kLinkGbps);
    EXPECT_NEAR(static_cast<double>(first), alone, hops + 2);
    EXPECT_NEAR(static_cast<double>(second), alone + serialise, hops + 2);
    EXPECT_DOUBLE_EQ(b.net.stats_json(second)["max_head_wait_ns"].get<double>(), serialise / 1000.0);
}

// 200 random packets: each arrives exactly once at its destination, counters balance, and
// flit_hops counts flits x routers visited (hops + 1).
TEST(NocConservation, RandomTrafficArrivesExactlyOnce) {
    init_time_resolution();
    const int rows = 3, cols = 3, n = 200;
    MeshTopology t(rows, cols, Routing::XY);
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> node(0, rows * cols - 1);
    std::uniform_int_distribution<std::int64_t> size(1, 300);
    std::uniform_int_distribution<Tick> when(0, 2'000'000);  // within 2 us
    std::vector<Injection> list;
    std::int64_t bytes = 0, flit_hops = 0;
    for (int i = 0; i < n; ++i) {
        Injection inj{when(rng), node(rng), node(rng), size(rng), i};
        bytes += inj.bytes;
        flit_hops += flits_of(inj.bytes) * (t.hops(inj.src, inj.dst) + 1);
        list.push_back(inj);
    }
    Bench b(rows, cols, list);
    sc_core::sc_start();

    std::vector<int> seen(n, 0);
    for (const Arrival& a : b.log) {
        ASSERT_GE(a.tag, 0);
        ASSERT_LT(a.tag, n);
        ++seen[a.tag];
        const Injection& inj = list[a.tag];
        EXPECT_EQ(a.node, inj.dst) << "packet " << a.tag;
        EXPECT_GE(a.when, inj.at + static_cast<Tick>(zero_load_ps(t.hops(inj.src, inj.dst), inj.bytes)) -
                              static_cast<Tick>(t.hops(inj.src, inj.dst) + 2))
            << "packet " << a.tag << " beat the zero-load latency";
    }
    for (int i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << "packet " << i;
    EXPECT_EQ(b.net.packets_injected(), n);
    EXPECT_EQ(b.net.packets_delivered(), n);
    EXPECT_EQ(b.net.bytes_injected(), bytes);
    EXPECT_EQ(b.net.bytes_delivered(), bytes);
    EXPECT_EQ(b.net.flit_hops(), flit_hops);
}

// One packet: each router on the path books flits x pj/flit; each mesh link crossed books
// wire bytes x 8 x pj/bit; the NI links (on-die) book nothing.
TEST(NocEnergy, RouterAndLinkEnergyPerPacket) {
    init_time_resolution();
    MeshTopology t(3, 3, Routing::XY);
    const int src = 0, dst = t.id(2, 1), hops = t.hops(src, dst);
    const std::int64_t payload = 150;
    const std::int64_t flits = flits_of(payload), wire = flits * kFlitBytes;
    Bench b(3, 3, {{0, src, dst, payload, 0}});
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 1u);

    const double router_pj = static_cast<double>(flits) * kRouterPjPerFlit;
    const double link_pj = static_cast<double>(wire) * 8 * kLinkPjPerBit;
    EXPECT_DOUBLE_EQ(b.ledger.category_pj(EnergyCategory::Noc), router_pj * (hops + 1));
    EXPECT_DOUBLE_EQ(b.ledger.category_pj(EnergyCategory::D2d), link_pj * hops);
    EXPECT_DOUBLE_EQ(b.ledger.total_pj(), router_pj * (hops + 1) + link_pj * hops);

    nlohmann::json comp = b.ledger.components_json();
    EXPECT_EQ(comp.size(), static_cast<std::size_t>((hops + 1) + hops)) << comp.dump();
    for (int r : t.path(src, dst)) {
        std::string name = "router_" + std::to_string(t.row_of(r)) + "_" + std::to_string(t.col_of(r));
        ASSERT_TRUE(comp.contains(name)) << name << " in " << comp.dump();
        EXPECT_DOUBLE_EQ(comp[name]["noc"].get<double>(), router_pj) << name;
    }
    for (int l : t.path_links(src, dst)) {
        std::string name = "link." + t.link_name(l);
        ASSERT_TRUE(comp.contains(name)) << name << " in " << comp.dump();
        EXPECT_DOUBLE_EQ(comp[name]["d2d"].get<double>(), link_pj) << name;
    }
}

}  // namespace test_noc
}  // namespace mcmsim
