// The "vc" router model behind the full system's PackageNetwork API: a VC package network
// from the factory, driven by a thread as chiplets drive it. Zero-load latency and energy
// follow the VC model's formulas; random traffic arrives exactly once, in flit order.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "noc/package_network.h"
#include "noc/vc/vc_package_network.h"
#include "tests/support/in_child.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include <algorithm>
#include <memory>
#include <random>
#include <systemc>
#include <vector>

namespace mcmsim {
namespace test_vc_package_network {

ArchConfig vc_arch(int rows, int cols) {
    ArchConfig a;
    a.name = "noc-vc-test";
    a.package.rows = rows;
    a.package.cols = cols;
    a.package.link.bandwidth_gbps = 32;  // 32-byte flits at 1 GHz: one cycle per flit
    a.package.link.latency_ns = 5;       // 5 cycles
    a.package.link.energy_pj_per_bit = 0.5;
    a.package.router.model = RouterModel::Vc;
    a.package.router.clock_ghz = 1;
    a.package.router.pipeline_cycles = 4;
    a.package.router.flit_bytes = 32;
    a.package.router.energy_pj_per_flit = 2;
    a.package.router.vcs = 4;
    a.chiplet.ni_bandwidth_gbps = 32;  // NIs of one flit per cycle, like the links
    MemoryConfig m;
    m.name = "hbm";
    m.phy_bandwidth_gbps = m.dram.bandwidth_gbps();
    a.memories = {m};
    return a;
}

struct Got {
    int node;
    std::int64_t tag;
    Tick when;
};
class LogSink : public NetworkEndpoint {
public:
    LogSink(PackageNetwork& n, int node, std::vector<Got>& log) : net_(n), node_(node), log_(log) {}
    void arrive(Packet* p, Tick when) override {
        log_.push_back({node_, p->tag, when});
        net_.delivered(p);
    }

private:
    PackageNetwork& net_;
    int node_;
    std::vector<Got>& log_;
};

/// Injects (tick, src, dst, bytes) from a thread, as chiplets do.
class Sender : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Sender);
    struct Item {
        Tick at;
        int src, dst;
        std::int64_t bytes;
    };
    Sender(sc_core::sc_module_name n, PackageNetwork& net, std::vector<Item> items)
        : sc_core::sc_module(n), net_(net), items_(std::move(items)) {
        SC_THREAD(run);
    }

private:
    void run() {
        std::int64_t tag = 0;
        for (const Item& i : items_) {
            if (i.at > now_ticks()) sc_core::wait(to_sc_time(i.at - now_ticks()));
            Packet* p = net_.new_packet();
            p->payload_bytes = p->wire_bytes = i.bytes;
            p->tag = tag++;
            net_.inject(net_.chiplet_node(i.src), net_.chiplet_node(i.dst), p, now_ticks());
        }
    }
    PackageNetwork& net_;
    std::vector<Item> items_;
};

struct VcBench {
    ArchConfig arch;
    EnergyLedger ledger;
    std::unique_ptr<PackageNetwork> network;  ///< from the factory, as the system builds it
    PackageNetwork& net;
    std::vector<Got> log;
    std::vector<std::unique_ptr<LogSink>> sinks;
    Sender sender;
    VcBench(int rows, int cols, std::vector<Sender::Item> items) : VcBench(vc_arch(rows, cols), std::move(items)) {}
    VcBench(ArchConfig a, std::vector<Sender::Item> items)
        : arch(std::move(a)), network(make_package_network("network", arch, ledger)), net(*network),
          sender("sender", net, std::move(items)) {
        init_time_resolution();
        for (int c = 0; c < arch.chiplet_count(); ++c) {
            sinks.push_back(std::make_unique<LogSink>(net, net.chiplet_node(c), log));
            net.attach(net.chiplet_node(c), sinks.back().get());
        }
    }
};

// One 5-flit packet over 3 package hops: NI + 4 routers x 4 cycles + 3 links x 5 cycles + NI
// + 4 cycles of serialisation; router and link energy booked per flit.
TEST(NocVcSystem, PacketThroughVcModelMatchesZeroLoad) {
    init_time_resolution();
    VcBench b(3, 3, {{0, 0, 5, 150}});  // (0,0) -> (1,2): 3 hops, ceil(150/32) = 5 flits
    ASSERT_NE(dynamic_cast<VcPackageNetwork*>(&b.net), nullptr) << "router model vc builds the VC package network";
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 1u);
    const int hops = 3, flits = 5;
    const Tick cycles = 1 + 4 * (hops + 1) + hops * 5 + 1 + (flits - 1);
    EXPECT_EQ(b.log[0].when, cycles * 1000);
    EXPECT_EQ(b.net.flit_hops(), hops * flits);
    EXPECT_NEAR(b.ledger.category_pj(EnergyCategory::Noc), (hops + 1) * flits * 2.0, 1e-9);
    EXPECT_NEAR(b.ledger.category_pj(EnergyCategory::D2d), hops * flits * 32 * 8 * 0.5, 1e-9);
    EXPECT_TRUE(b.net.busy_routers().empty());
}

// Random traffic from a thread at arbitrary ticks: every packet arrives exactly once.
TEST(NocVcSystem, RandomTrafficThroughVcModelArrivesOnce) {
    init_time_resolution();
    std::mt19937 rng(5);
    std::vector<Sender::Item> items;
    for (int i = 0; i < 300; ++i)
        items.push_back({static_cast<Tick>(rng() % 200000), static_cast<int>(rng() % 9), static_cast<int>(rng() % 9),
                         1 + static_cast<std::int64_t>(rng() % 300)});
    std::stable_sort(items.begin(), items.end(), [](auto& x, auto& y) { return x.at < y.at; });
    VcBench b(3, 3, items);
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), items.size());
    std::vector<int> seen(items.size(), 0);
    for (const Got& g : b.log) {
        ++seen[static_cast<std::size_t>(g.tag)];
        EXPECT_EQ(g.node, items[static_cast<std::size_t>(g.tag)].dst);
        EXPECT_GT(g.when, items[static_cast<std::size_t>(g.tag)].at);
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    EXPECT_EQ(b.net.packets_injected(), b.net.packets_delivered());
    EXPECT_EQ(dynamic_cast<const VcPackageNetwork&>(b.net).vc().order_violations(), 0);
}

// Stepping every router in every cycle, as a clocked model would, delivers every packet at the
// same tick as the event-driven schedule. The traffic comes in bursts, so that packets queue
// at busy NIs and start in later cycles, mixes one-flit packets with 1 KiB ones, and the
// links are slower than the NIs, so that the NIs' VCs fill up.
struct Arrivals {
    std::size_t count, hash;
};

Arrivals arrivals(bool exhaustive, int threads = 1) {
    return test_support::in_child<Arrivals>([&] {
        init_time_resolution();
        std::mt19937 rng(11);
        std::vector<Sender::Item> items;
        for (int i = 0; i < 400; ++i)
            items.push_back({static_cast<Tick>(rng() % 40) * 1000, static_cast<int>(rng() % 9), static_cast<int>(rng() % 9),
                             rng() % 2 ? 16 : 1024});
        std::stable_sort(items.begin(), items.end(), [](auto& x, auto& y) { return x.at < y.at; });
        ArchConfig a = vc_arch(3, 3);
        a.package.link.bandwidth_gbps = 7;  // 4.6 cycles per flit: the links, not the NIs, hold traffic back
        a.package.router.buffer_depth = 2;
        VcBench b(a, items);
        b.net.set_threads(threads);
        dynamic_cast<VcPackageNetwork&>(b.net).vc().set_exhaustive_stepping(exhaustive);
        sc_core::sc_start();
        std::size_t h = 0;
        for (const Got& g : b.log)
            h = h * 1000003u ^ std::hash<std::string>{}(std::to_string(g.tag) + "@" + std::to_string(g.when));
        h = h * 1000003u ^ std::hash<std::string>{}(b.ledger.components_json().dump());  // per router and link
        return Arrivals{b.log.size(), h};
    });
}

TEST(NocVcSystem, SteppingEveryRouterEveryCycleChangesNoArrival) {
    const Arrivals events = arrivals(false), clocked = arrivals(true);
    EXPECT_EQ(events.count, 400u);
    EXPECT_EQ(events.count, clocked.count);
    EXPECT_EQ(events.hash, clocked.hash);
}

// Routers stepped by three threads (one row each, every link between rows posted) book their
// energy into their own accounts and deliver every packet at the tick one thread does.
TEST(NocVcSystem, ThreadsChangeNoArrivalNorEnergy) {
    const Arrivals one = arrivals(false, 1), three = arrivals(false, 3);
    EXPECT_EQ(one.count, 400u);
    EXPECT_EQ(one.count, three.count);
    EXPECT_EQ(one.hash, three.hash);
}

// A Simba-clocked 1x2 package (1.96 GHz, 32-byte flits, 4-stage routers) joined by the link
// preset `link`, with NIs fast enough that only the link (or the router port) limits a transfer.
ArchConfig two_chiplets_over(const std::string& link, RouterModel model, std::int64_t port_flits,
                             PacketBuffers buffers = PacketBuffers::Unbounded) {
    const std::string path = ::testing::TempDir() + "/two_chiplets_" + link + ".json";
    std::ofstream(path) << R"({"name": "two", "chiplet": "simba", "package": {"rows": 1, "cols": 2, "link": ")" << link
                        << R"(", "router": {"clock_ghz": 1.96, "pipeline_cycles": 4, "flit_bytes": 32}},
        "memories": [{"name": "m", "dram": "hbm2", "attach": {"row": 0, "col": 0}}]})";
    ArchConfig a = load_arch_config(path);
    a.chiplet.ni_bandwidth_gbps = 4096;
    a.package.router.model = model;
    a.package.router.packet_buffers = buffers;
    a.package.router.port_flits = port_flits;
    return a;
}

// 64 KiB from one chiplet to its neighbour, cut into 1 KiB packets as a chiplet cuts a
// message, over every shipped link preset and in both network models (the packet model with either buffers): the transfer takes
// the head's zero-load latency plus 64 KiB at what the hop carries (d2d_hop_gbps), within 5 %, and never less than 64 KiB at that
// rate. In the VC model that needs the link layer's buffers to cover the credit round trip and serialisation not rounded to whole
// cycles. A UCIe-advanced link behind a port narrowed to 2 flits per cycle runs at the port's 125.44 GB/s in both. Zero-load
// head: two routers' pipelines, the PHY latency in whole cycles, and a flit's NI and serialisation cycles (at most 4 cycles in
// all).
TEST(NocVcSystem, LoneTransferRunsAtLinkBandwidth) {
    init_time_resolution();
    struct Case {
        const char* preset;
        std::int64_t port_flits;
    };
    const Case cases[] = {
        {"grs-organic", 0}, {"ucie-standard", 0}, {"ucie-advanced", 0}, {"interposer-parallel", 0}, {"ucie-advanced", 2}};
    const std::pair<RouterModel, PacketBuffers> models[] = {{RouterModel::Vc, PacketBuffers::Unbounded},
                                                            {RouterModel::Packet, PacketBuffers::Unbounded},
                                                            {RouterModel::Packet, PacketBuffers::Vc}};
    for (const auto& [model, buffers] : models) {
        for (const Case& c : cases) {
            const ArchConfig arch = two_chiplets_over(c.preset, model, c.port_flits, buffers);
            const std::int64_t bytes = 64 * 1024, packet = arch.package.max_packet_bytes;
            const double period_ns = 1.0 / arch.package.router.clock_ghz, gbps = d2d_hop_gbps(arch.package);
            const double head_ns = (2.0 * arch.package.router.pipeline_cycles +
                                    std::ceil(arch.package.link.latency_ns * arch.package.router.clock_ghz) + 4) *
                                   period_ns;
            const double stream_ns = static_cast<double>(bytes) / gbps;
            const int pid = ::fork();  // SystemC elaborates once per process: one package per child
            if (pid == 0) {
                EnergyLedger ledger;
                std::unique_ptr<PackageNetwork> net = make_package_network("network", arch, ledger);
                std::vector<Got> log;
                LogSink sink(*net, net->chiplet_node(1), log);
                net->attach(net->chiplet_node(1), &sink);
                std::vector<Sender::Item> items(static_cast<std::size_t>(bytes / packet), Sender::Item{0, 0, 1, packet});
                Sender sender("sender", *net, items);
                sc_core::sc_start();
                const double last_ns = log.empty() ? 0 : ticks_to_ns(log.back().when);
                std::printf("%s (buffers %s) %s port %lld: 64 KiB in %.1f ns, ideal %.1f ns (%.1f %% of %.2f GB/s)\n",
                            to_string(model), to_string(buffers), c.preset, static_cast<long long>(c.port_flits), last_ns,
                            head_ns + stream_ns, 100.0 * stream_ns / (last_ns - head_ns), gbps);
                std::fflush(stdout);
                const bool ok = log.size() == items.size() && last_ns <= head_ns + stream_ns / 0.95 && last_ns >= stream_ns;
                ::_exit(ok ? 0 : 1);
            }
            int status = 0;
            ::waitpid(pid, &status, 0);
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
                << to_string(model) << " " << to_string(buffers) << " " << c.preset << " " << c.port_flits;
        }
    }
}

/// What a child process saw: the last arrival at the destination, the packets that
/// arrived, and the energy ledger.
struct Delivery {
    double last_ns = 0;
    std::size_t packets = 0;
    EnergyLedger* ledger = nullptr;
};

/// Injects `items` into a fresh package network of `arch` in a child process (SystemC
/// elaborates once per process), logs what reaches chiplet `dst`, and returns whether
/// `check` held for it there; `label` names the case in the child's printed line.
bool delivered_in_child(const ArchConfig& arch, int dst, const std::vector<Sender::Item>& items, const std::string& label,
                        const std::function<bool(const Delivery&)>& check) {
    const int pid = ::fork();
    if (pid == 0) {
        EnergyLedger ledger;
        std::unique_ptr<PackageNetwork> net = make_package_network("network", arch, ledger);
        std::vector<Got> log;
        LogSink sink(*net, net->chiplet_node(dst), log);
        net->attach(net->chiplet_node(dst), &sink);
        Sender sender("sender", *net, items);
        sc_core::sc_start();
        const Delivery d{log.empty() ? 0 : ticks_to_ns(log.back().when), log.size(), &ledger};
        std::printf("%s: last packet at %.1f ns\n", label.c_str(), d.last_ns);
        std::fflush(stdout);
        ::_exit(check(d) ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Chiplets 0 and 2 of a 1x3 row each stream 64 KiB to chiplet 1 at once, over the two links
// into its router (ucie-standard, 64 GB/s each, 2-flit ports), into an NI of 100 GB/s. Each
// link alone would deliver its 64 KiB in 1024 ns; the NI takes the 128 KiB in 1310.7 ns, as
// the flit-level network interleaves the two streams' flits into it. Every network model
// delivers the last packet within 5 % of that after the zero-load head, and never sooner;
// a model holding the NI for each packet at its link's rate would need 2048 ns.
TEST(NocVcSystem, TwoStreamsIntoOneNiShareItsBandwidth) {
    init_time_resolution();
    const std::pair<RouterModel, PacketBuffers> models[] = {{RouterModel::Vc, PacketBuffers::Unbounded},
                                                            {RouterModel::Packet, PacketBuffers::Unbounded},
                                                            {RouterModel::Packet, PacketBuffers::Vc}};
    for (const auto& [model, buffers] : models) {
        const std::string path = ::testing::TempDir() + "/three_chiplets.json";
        std::ofstream(path) << R"({"name": "three", "chiplet": "simba", "package": {"rows": 1, "cols": 3,
            "link": "ucie-standard", "router": {"clock_ghz": 1.96, "pipeline_cycles": 4, "flit_bytes": 32}},
            "memories": [{"name": "m", "dram": "hbm2", "attach": {"row": 0, "col": 0}}]})";
        ArchConfig arch = load_arch_config(path);
        arch.chiplet.ni_bandwidth_gbps = 100;
        arch.package.router.model = model;
        arch.package.router.packet_buffers = buffers;
        const std::int64_t bytes = 64 * 1024, packet = arch.package.max_packet_bytes;
        const double period_ns = 1.0 / arch.package.router.clock_ghz;
        const double head_ns = (2.0 * arch.package.router.pipeline_cycles +
                                std::ceil(arch.package.link.latency_ns * arch.package.router.clock_ghz) + 4) *
                               period_ns;
        const double ni_ns = 2.0 * static_cast<double>(bytes) / 100;
        std::vector<Sender::Item> items;
        for (std::int64_t k = 0; k < bytes / packet; ++k) {
            items.push_back(Sender::Item{0, 0, 1, packet});
            items.push_back(Sender::Item{0, 2, 1, packet});
        }
        const std::string label = std::string(to_string(model)) + " (buffers " + to_string(buffers) + ")";
        EXPECT_TRUE(delivered_in_child(arch, 1, items, label,
                                       [&](const Delivery& d) {
                                           return d.packets == items.size() && d.last_ns <= head_ns + ni_ns / 0.95 &&
                                                  d.last_ns >= ni_ns;
                                       }))
            << label << ": NI-bound " << head_ns + ni_ns << " ns";
    }
}

// Link classes: on a 2x2 package whose rows are ucie-advanced (256 GB/s, 0.3 pJ/b, 8-flit
// ports) and columns ucie-standard (64 GB/s, 0.6 pJ/b, 2-flit ports), 64 KiB from chiplet 0
// along its row (to 1) and, in another run, down its column (to 2) take the zero-load head
// plus 64 KiB at that class's rate, within 5 %, in every network model, and book
// 64 KiB x 8 x the class's pJ/b on the link they cross.
TEST(NocVcSystem, LinkClassesSetEachDirectionsRateAndEnergy) {
    init_time_resolution();
    const std::pair<RouterModel, PacketBuffers> models[] = {{RouterModel::Vc, PacketBuffers::Unbounded},
                                                            {RouterModel::Packet, PacketBuffers::Unbounded},
                                                            {RouterModel::Packet, PacketBuffers::Vc}};
    const std::string path = ::testing::TempDir() + "/two_classes.json";
    std::ofstream(path) << R"({"name": "classes", "chiplet": "simba", "package": {"rows": 2, "cols": 2,
        "link": "ucie-standard", "links": {"row": "ucie-advanced"},
        "router": {"clock_ghz": 1.96, "pipeline_cycles": 4, "flit_bytes": 32}},
        "memories": [{"name": "m", "dram": "hbm2", "attach": {"row": 0, "col": 0}}]})";
    for (const auto& [model, buffers] : models) {
        for (const LinkClass c : {LinkClass::Row, LinkClass::Column}) {
            ArchConfig arch = load_arch_config(path);
            arch.chiplet.ni_bandwidth_gbps = 4096;
            arch.package.router.model = model;
            arch.package.router.packet_buffers = buffers;
            const int dst = c == LinkClass::Row ? 1 : 2;
            const char* account = c == LinkClass::Row ? "link.r0_0.E" : "link.r0_0.S";
            const std::int64_t bytes = 64 * 1024, packet = arch.package.max_packet_bytes;
            const LinkConfig& link = arch.package.link_of(c);
            const double period_ns = 1.0 / arch.package.router.clock_ghz, gbps = d2d_hop_gbps(arch.package, c);
            const double head_ns =
                (2.0 * arch.package.router.pipeline_cycles + std::ceil(link.latency_ns * arch.package.router.clock_ghz) + 4) *
                period_ns;
            const double stream_ns = static_cast<double>(bytes) / gbps;
            const double pj = static_cast<double>(bytes) * 8 * link.energy_pj_per_bit;
            const std::vector<Sender::Item> items(static_cast<std::size_t>(bytes / packet), Sender::Item{0, 0, dst, packet});
            const std::string label = std::string(to_string(model)) + " (buffers " + to_string(buffers) + ") " + to_string(c);
            EXPECT_TRUE(delivered_in_child(arch, dst, items, label,
                                           [&](const Delivery& d) {
                                               const double booked = d.ledger->account(account).total();
                                               return d.packets == items.size() && d.last_ns <= head_ns + stream_ns / 0.95 &&
                                                      d.last_ns >= stream_ns && std::abs(booked - pj) < 1e-6 * pj;
                                           }))
                << label << ": ideal " << head_ns + stream_ns << " ns, " << pj << " pJ on " << account;
        }
    }
}

// The packet model with the VC router's buffers, where credits and not the link limit a
// stream: one VC of 40 flits behind a 64 GB/s link of 20 ns, 1 KiB (32-flit) packets. A packet
// needs room for all its flits (virtual cut-through), so one packet is in flight at a time and
// the next leaves one credit round trip after it: its head crosses the link (20 ns + one
// flit's 0.5 ns), the next router's pipeline (4 cycles at 1.96 GHz), and the credit comes back
// over the link (20 ns). The last of 64 packets then arrives 63 round trips after the first
// left, plus its own way: link latency, the router pipeline and its serialisation, 16 ns.
TEST(NocVcSystem, PacketBuffersLimitAStreamToOnePacketPerCreditRoundTrip) {
    init_time_resolution();
    ArchConfig arch = two_chiplets_over("ucie-standard", RouterModel::Packet, 0, PacketBuffers::Vc);
    arch.package.link.latency_ns = 20;
    arch.package.router.vcs = 1;
    arch.package.router.d2d_buffer_flits = 40;
    const double pipeline_ns = 4 / 1.96, round_trip_ns = 2 * 20.0 + 32.0 / 64 + pipeline_ns;
    const double first_leaves_ns = pipeline_ns;  // its NI takes 1 KiB in 0.25 ns
    const double expected_ns = first_leaves_ns + 63 * round_trip_ns + 20 + 1024.0 / 64 + pipeline_ns;
    const int pid = ::fork();
    if (pid == 0) {
        EnergyLedger ledger;
        std::unique_ptr<PackageNetwork> net = make_package_network("network", arch, ledger);
        std::vector<Got> log;
        LogSink sink(*net, net->chiplet_node(1), log);
        net->attach(net->chiplet_node(1), &sink);
        Sender sender("sender", *net, std::vector<Sender::Item>(64, Sender::Item{0, 0, 1, 1024}));
        sc_core::sc_start();
        const double last_ns = log.empty() ? 0 : ticks_to_ns(log.back().when);
        std::printf("64 packets in %.1f ns, expected %.1f ns\n", last_ns, expected_ns);
        std::fflush(stdout);
        ::_exit(log.size() == 64 && std::abs(last_ns - expected_ns) <= 0.02 * expected_ns ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace test_vc_package_network
}  // namespace mcmsim
