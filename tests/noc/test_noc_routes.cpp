// Source routes (Packet::route) and diagonal packages (package.topology "mesh_diagonal") in
// both network models. Expected latencies come from the zero-load formulas of each model,
// expected link loads from the route geometry; nothing is copied from a run.
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "hw/config/presets.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "hw/topology/mesh_topology.h"
#include "noc/package_network.h"
#include "noc/vc/vc_package_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <vector>

namespace mcmsim {
namespace test_noc_routes {

// Round numbers: at 1 GHz a 32-byte flit crosses a 32 GB/s link in one cycle; 5 ns = 5 cycles.
constexpr double kLinkGbps = 32, kLinkLatencyNs = 5, kLinkPjPerBit = 0.5, kNiGbps = 64;
constexpr std::int64_t kPipeline = 4, kFlitBytes = 32;

std::int64_t flits_of(std::int64_t bytes) { return (bytes + kFlitBytes - 1) / kFlitBytes; }

ArchConfig route_arch(int rows, int cols, RouterModel model, PackageTopology topology = PackageTopology::Mesh) {
    ArchConfig a;
    a.name = "noc-routes-test";
    a.package.rows = rows;
    a.package.cols = cols;
    a.package.topology = topology;
    a.package.routing = Routing::XY;
    a.package.link.bandwidth_gbps = kLinkGbps;
    a.package.link.latency_ns = kLinkLatencyNs;
    a.package.link.energy_pj_per_bit = kLinkPjPerBit;
    a.package.router.model = model;
    a.package.router.clock_ghz = 1;
    a.package.router.pipeline_cycles = kPipeline;
    a.package.router.flit_bytes = kFlitBytes;
    a.package.router.energy_pj_per_flit = 2;
    a.package.router.vcs = 4;
    a.chiplet.ni_bandwidth_gbps = kNiGbps;
    MemoryConfig m;  // the network needs one; no traffic goes to it here
    m.name = "hbm";
    m.phy_bandwidth_gbps = m.dram.bandwidth_gbps();
    a.memories = {m};
    return a;
}

/// Zero-load tail arrival (ps) of a packet over `hops` package links, per model.
/// packet: NI link, `hops` links, NI link, each latency + one flit time, (hops+1) pipelines,
///         plus the largest serialisation lag (the 32 GB/s links: flits - 1 flit times).
/// vc:     NI 1 cycle + (hops+1) routers x 4 + hops x 5 + NI 1 + (flits - 1) serialisation,
///         less what the NI's width saves at the last router. The head reaches SA there 2
///         cycles after it arrives (RC, VA); body flit k arrives k cycles after the head and,
///         with the NI taking 2 flits a cycle (64 GB/s), takes SA slot k of those starting
///         with the head's: cycle max(k, 2 + floor(k / 2)). The tail (k = flits - 1) thus
///         leaves min(2, ceil((flits - 1) / 2)) cycles sooner than at one flit a cycle.
double zero_load_ps(RouterModel model, int hops, std::int64_t bytes) {
    const std::int64_t flits = flits_of(bytes);
    if (model == RouterModel::Vc) {
        const std::int64_t saved = std::min<std::int64_t>(2, (flits - 1 + 1) / 2);
        return 1000.0 * static_cast<double>(1 + kPipeline * (hops + 1) + hops * 5 + 1 + (flits - 1) - saved);
    }
    const double ni_flit = kFlitBytes * 1000.0 / kNiGbps, link_flit = kFlitBytes * 1000.0 / kLinkGbps;
    const double links = 2 * ni_flit + hops * (kLinkLatencyNs * 1000.0 + link_flit);
    const double lag = static_cast<double>(flits - 1) * (hops > 0 ? link_flit : ni_flit);
    return links + (hops + 1) * kPipeline * 1000.0 + lag;
}

struct Got {
    std::int64_t tag;
    int node, hops;
    Tick when;
};

class LogSink : public NetworkEndpoint {
public:
    LogSink(PackageNetwork& n, int node, std::vector<Got>& log) : net_(n), node_(node), log_(log) {}
    void arrive(Packet* p, Tick when) override {
        log_.push_back({p->tag, node_, p->hops, when});
        net_.delivered(p);
    }

private:
    PackageNetwork& net_;
    int node_;
    std::vector<Got>& log_;
};

struct Send {
    Tick at;
    int src, dst;
    std::int64_t bytes;
    const std::vector<int>* route;  ///< null: the package routing
};

/// Injects the sends from a thread, as chiplets do.
class Sender : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Sender);
    Sender(sc_core::sc_module_name n, PackageNetwork& net, std::vector<Send> sends)
        : sc_core::sc_module(n), net_(net), sends_(std::move(sends)) {
        SC_THREAD(run);
    }

private:
    void run() {
        std::int64_t tag = 0;
        for (const Send& s : sends_) {
            if (s.at > now_ticks()) sc_core::wait(to_sc_time(s.at - now_ticks()));
            Packet* p = net_.new_packet();
            p->payload_bytes = p->wire_bytes = s.bytes;
            p->tag = tag++;
            p->route = s.route;
            net_.inject(net_.chiplet_node(s.src), net_.chiplet_node(s.dst), p, now_ticks());
        }
    }
    PackageNetwork& net_;
    std::vector<Send> sends_;
};

struct RouteBench {
    ArchConfig arch;
    EnergyLedger ledger;
    std::unique_ptr<PackageNetwork> network;  ///< the implementation arch.package.router.model asks for
    PackageNetwork& net;
    std::vector<Got> log;
    std::vector<std::unique_ptr<LogSink>> sinks;
    Sender sender;
    RouteBench(ArchConfig a, std::vector<Send> sends)
        : arch(std::move(a)), network(make_package_network("network", arch, ledger)), net(*network),
          sender("sender", net, std::move(sends)) {
        init_time_resolution();
        for (int c = 0; c < arch.chiplet_count(); ++c) {
            sinks.push_back(std::make_unique<LogSink>(net, net.chiplet_node(c), log));
            net.attach(net.chiplet_node(c), sinks.back().get());
        }
    }
    /// D2D energy booked on package link "r<row>_<col>.<port>" (0 when unused).
    double link_pj(const std::string& link) const {
        nlohmann::json comp = ledger.components_json();
        const std::string name = "link." + link;
        return comp.contains(name) ? comp[name]["d2d"].get<double>() : 0.0;
    }
};

double link_pj_for(std::int64_t bytes) { return static_cast<double>(flits_of(bytes) * kFlitBytes) * 8 * kLinkPjPerBit; }

class NocRoutes : public ::testing::TestWithParam<RouterModel> {};

// 3x3 XY mesh, (0,0) -> (1,2). The route given is the YX path (0,0) S (1,0) E (1,1) E (1,2):
// its links carry the packet, the XY links stay idle, and it arrives after the zero-load
// latency of its 3 hops, as the XY path would.
TEST_P(NocRoutes, YxRouteOnXyMeshLoadsTheYxLinks) {
    const RouterModel model = GetParam();
    const std::vector<int> yx{0, 3, 4, 5};
    const std::int64_t bytes = 150;  // 5 flits
    RouteBench b(route_arch(3, 3, model), {{0, 0, 5, bytes, &yx}});
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 1u);
    EXPECT_EQ(b.log[0].node, 5);
    EXPECT_EQ(b.log[0].hops, 3);
    EXPECT_NEAR(static_cast<double>(b.log[0].when), zero_load_ps(model, 3, bytes), 4.0);
    for (const char* l : {"r0_0.S", "r1_0.E", "r1_1.E"}) EXPECT_DOUBLE_EQ(b.link_pj(l), link_pj_for(bytes)) << l;
    for (const char* l : {"r0_0.E", "r0_1.E", "r0_2.S"}) EXPECT_EQ(b.link_pj(l), 0.0) << l;
    EXPECT_EQ(b.net.flit_hops(), flits_of(bytes) * (model == RouterModel::Vc ? 3 : 4));  // vc: links; packet: routers
}

// Without a route the same packet takes the XY links (the control for the test above).
TEST_P(NocRoutes, WithoutRouteThePackageRoutingDecides) {
    const RouterModel model = GetParam();
    const std::int64_t bytes = 150;
    RouteBench b(route_arch(3, 3, model), {{0, 0, 5, bytes, nullptr}});
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 1u);
    for (const char* l : {"r0_0.E", "r0_1.E", "r0_2.S"}) EXPECT_DOUBLE_EQ(b.link_pj(l), link_pj_for(bytes)) << l;
    EXPECT_EQ(b.link_pj("r0_0.S"), 0.0);
}

// A non-minimal route from (0,0) to its east neighbour (0,1) around a square: S, E, N. It
// takes 3 hops instead of 1 and its latency is the 3-hop zero-load latency.
TEST_P(NocRoutes, NonMinimalRouteTakesTheLongerPath) {
    const RouterModel model = GetParam();
    const std::vector<int> detour{0, 3, 4, 1};
    const std::int64_t bytes = 64;  // 2 flits
    RouteBench b(route_arch(3, 3, model), {{0, 0, 1, bytes, &detour}});
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 1u);
    EXPECT_EQ(b.log[0].node, 1);
    EXPECT_EQ(b.log[0].hops, 3);
    EXPECT_NEAR(static_cast<double>(b.log[0].when), zero_load_ps(model, 3, bytes), 4.0);
    EXPECT_GT(b.log[0].when, zero_load_ps(model, 1, bytes) + 1000);
    for (const char* l : {"r0_0.S", "r1_0.E", "r1_1.N"}) EXPECT_DOUBLE_EQ(b.link_pj(l), link_pj_for(bytes)) << l;
    EXPECT_EQ(b.link_pj("r0_0.E"), 0.0);
}

// Routes that do not start at the source's router, end at the destination's router or step
// between neighbours are rejected at injection, naming the route.
TEST_P(NocRoutes, InvalidRoutesAreRejectedNamingTheRoute) {
    const RouterModel model = GetParam();
    init_time_resolution();
    EnergyLedger ledger;
    ArchConfig a = route_arch(3, 3, model);
    std::unique_ptr<PackageNetwork> network = make_package_network("network", a, ledger);
    PackageNetwork& net = *network;
    struct Bad {
        std::vector<int> route;
        int dst;
        const char* named;
    };
    const std::vector<Bad> bad{{{0, 4, 5}, 5, "[0 4 5]"},    // (0,0) -> (1,1) is a diagonal: no link
                               {{1, 2, 5}, 5, "[1 2 5]"},    // starts elsewhere
                               {{0, 1, 2}, 5, "[0 1 2]"},    // ends elsewhere
                               {{0, 1, 11}, 5, "[0 1 11]"},  // no such router
                               {{}, 5, "[]"}};
    for (const Bad& x : bad) {
        Packet* p = net.new_packet();
        p->payload_bytes = p->wire_bytes = 32;
        p->route = &x.route;
        try {
            net.inject(net.chiplet_node(0), net.chiplet_node(x.dst), p, 0);
            ADD_FAILURE() << "accepted " << x.named;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(x.named), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(net.packets_injected(), 0);
}

// Diagonal package, (0,0) -> (2,2) and (0,0) -> (1,2): diagonal hops first, then straight;
// 2 hops each (Chebyshev), zero-load latency of 2 hops, the diagonal links carry the bytes.
TEST_P(NocRoutes, DiagonalPackageRoutesDiagonalFirst) {
    const RouterModel model = GetParam();
    const std::int64_t bytes = 96;  // 3 flits
    RouteBench b(route_arch(3, 3, model, PackageTopology::MeshDiagonal),
                 {{0, 0, 8, bytes, nullptr}, {200000, 0, 5, bytes, nullptr}});
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 2u);
    EXPECT_EQ(b.log[0].hops, 2);
    EXPECT_EQ(b.log[1].hops, 2);
    EXPECT_NEAR(static_cast<double>(b.log[0].when), zero_load_ps(model, 2, bytes), 4.0);
    EXPECT_NEAR(static_cast<double>(b.log[1].when - 200000), zero_load_ps(model, 2, bytes), 4.0);
    EXPECT_DOUBLE_EQ(b.link_pj("r0_0.SE"), 2 * link_pj_for(bytes));  // both packets start SE
    EXPECT_DOUBLE_EQ(b.link_pj("r1_1.SE"), link_pj_for(bytes));
    EXPECT_DOUBLE_EQ(b.link_pj("r1_1.E"), link_pj_for(bytes));
    EXPECT_EQ(b.link_pj("r0_0.E"), 0.0);
}

// A source route may use diagonal links of a diagonal package: (0,0) E (0,1) SE (1,2).
TEST_P(NocRoutes, SourceRouteOverADiagonalLink) {
    const RouterModel model = GetParam();
    const std::vector<int> route{0, 1, 5};
    const std::int64_t bytes = 32;
    RouteBench b(route_arch(3, 3, model, PackageTopology::MeshDiagonal), {{0, 0, 5, bytes, &route}});
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), 1u);
    EXPECT_EQ(b.log[0].hops, 2);
    EXPECT_DOUBLE_EQ(b.link_pj("r0_0.E"), link_pj_for(bytes));
    EXPECT_DOUBLE_EQ(b.link_pj("r0_1.SE"), link_pj_for(bytes));
    EXPECT_EQ(b.link_pj("r0_0.SE"), 0.0);
}

/// A random minimal route from a to b: a random interleaving of the X and Y steps.
std::vector<int> random_staircase(const MeshTopology& t, int a, int b, std::mt19937& rng) {
    int dr = t.row_of(b) - t.row_of(a), dc = t.col_of(b) - t.col_of(a);
    std::vector<int> route{a};
    int at = a;
    while (dr || dc) {
        const bool x = dc && (!dr || rng() % 2);
        const int r = t.row_of(at) + (x ? 0 : (dr > 0 ? 1 : -1)), c = t.col_of(at) + (x ? (dc > 0 ? 1 : -1) : 0);
        if (x) dc -= dc > 0 ? 1 : -1;
        else dr -= dr > 0 ? 1 : -1;
        at = t.id(r, c);
        route.push_back(at);
    }
    return route;
}

// The VC model with 2 VCs of 2 flits, flooded with long packets on random minimal routes
// (XY, YX and every staircase in between) mixed with routed ones: the east/west VC classes
// keep it deadlock-free, so every packet arrives, in order, exactly once.
TEST(NocRoutesVc, MixedMinimalRoutesUnderLoadDoNotDeadlock) {
    ArchConfig a = route_arch(6, 6, RouterModel::Vc);
    a.package.router.vcs = 2;
    a.package.router.buffer_depth = 2;
    const MeshTopology t = MeshTopology::of_package(a.package);
    const int n = 4000, nodes = t.routers();
    std::mt19937 rng(11);
    std::vector<std::vector<int>> routes;
    routes.reserve(n);
    std::vector<Send> sends;
    for (int i = 0; i < n; ++i) {
        const int s = static_cast<int>(rng() % nodes), d = static_cast<int>(rng() % nodes);
        const bool routed = rng() % 4 != 0;
        if (routed) routes.push_back(random_staircase(t, s, d, rng));
        sends.push_back({static_cast<Tick>(i) * 100, s, d, 512, routed ? &routes.back() : nullptr});
    }
    RouteBench b(a, sends);
    sc_core::sc_start();
    ASSERT_EQ(b.log.size(), sends.size()) << "stuck: " << ::testing::PrintToString(b.net.busy_routers());
    std::vector<int> seen(sends.size(), 0);
    for (const Got& g : b.log) {
        ++seen[static_cast<std::size_t>(g.tag)];
        const Send& s = sends[static_cast<std::size_t>(g.tag)];
        EXPECT_EQ(g.node, s.dst);
        EXPECT_EQ(g.hops, t.hops(s.src, s.dst)) << "minimal routes";
    }
    for (int n : seen) EXPECT_EQ(n, 1);
    EXPECT_EQ(dynamic_cast<const VcPackageNetwork&>(b.net).vc().order_violations(), 0);
}

INSTANTIATE_TEST_SUITE_P(Models, NocRoutes, ::testing::Values(RouterModel::Packet, RouterModel::Vc),
                         [](const ::testing::TestParamInfo<RouterModel>& i) { return std::string(to_string(i.param)); });

// ---- Diagonal package geometry (MeshTopology with diagonals) ---------------------------------

// On a k x k mesh with diagonals, every routed path has max(|dr|, |dc|) hops (Chebyshev),
// steps between neighbours along existing links, and the uniform average (self pairs
// included) equals the Chebyshev average computed here, which is below the Manhattan one.
TEST(NocDiagonalTopology, UniformHopsAreChebyshev) {
    for (int k : {3, 4, 8}) {
        MeshTopology t(k, k, Routing::XY, true);
        std::int64_t cheb = 0, manhattan = 0, routed = 0;
        for (int s = 0; s < t.routers(); ++s)
            for (int d = 0; d < t.routers(); ++d) {
                const int dr = std::abs(t.row_of(s) - t.row_of(d)), dc = std::abs(t.col_of(s) - t.col_of(d));
                cheb += std::max(dr, dc);
                manhattan += dr + dc;
                const std::vector<int> path = t.path(s, d);
                const std::vector<int> links = t.path_links(s, d);
                ASSERT_EQ(path.front(), s);
                ASSERT_EQ(path.back(), d);
                ASSERT_EQ(links.size() + 1, path.size());
                for (std::size_t h = 0; h < links.size(); ++h) {
                    ASSERT_EQ(links[h] / kMeshPorts, path[h]);
                    ASSERT_EQ(t.neighbor(path[h], static_cast<Port>(links[h] % kMeshPorts)), path[h + 1]);
                }
                ASSERT_EQ(t.hops(s, d), static_cast<int>(links.size()));
                routed += static_cast<std::int64_t>(links.size());
            }
        EXPECT_EQ(routed, cheb) << "k=" << k;
        EXPECT_LT(cheb, manhattan) << "k=" << k;
        // Closed form check of the Chebyshev sum on a k x k grid: sum over offset pairs of
        // max(|dr|, |dc|) weighted by (k - |dr|)(k - |dc|) ordered pairs each.
        std::int64_t closed = 0;
        for (int dr = -(k - 1); dr < k; ++dr)
            for (int dc = -(k - 1); dc < k; ++dc)
                closed +=
                    static_cast<std::int64_t>(std::max(std::abs(dr), std::abs(dc))) * (k - std::abs(dr)) * (k - std::abs(dc));
        EXPECT_EQ(cheb, closed) << "k=" << k;
    }
}

// Diagonal links exist only on mesh_diagonal packages, and diagonal-first paths use them.
TEST(NocDiagonalTopology, DiagonalPortsOnlyWithDiagonals) {
    MeshTopology plain(3, 3, Routing::XY), diag(3, 3, Routing::XY, true);
    EXPECT_EQ(plain.neighbor(4, Port::NorthEast), -1);
    EXPECT_EQ(diag.neighbor(4, Port::NorthEast), diag.id(0, 2));
    EXPECT_EQ(diag.neighbor(4, Port::SouthWest), diag.id(2, 0));
    EXPECT_EQ(diag.neighbor(0, Port::NorthWest), -1);  // edge
    EXPECT_EQ(diag.next_port(0, 8), Port::SouthEast);
    EXPECT_EQ(diag.link_name(MeshTopology::link_id(4, Port::NorthEast)), "r1_1.NE");
    EXPECT_EQ(plain.port_to(0, 4), Port::Local);
    EXPECT_EQ(diag.port_to(0, 4), Port::SouthEast);
}

// The arch config accepts "mesh_diagonal" and rejects unknown topologies with an InputError
// naming the file and the field.
TEST(NocDiagonalTopology, ArchConfigTopologyField) {
    const ArchConfig d = load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge-diagonal.json");
    EXPECT_EQ(d.package.topology, PackageTopology::MeshDiagonal);
    EXPECT_TRUE(MeshTopology::of_package(d.package).diagonals());
    const ArchConfig m = load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge.json");
    EXPECT_FALSE(MeshTopology::of_package(m.package).diagonals());

    std::ifstream in(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge-diagonal.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string key = "\"mesh_diagonal\"";
    text.replace(text.find(key), key.size(), "\"hypercube\"");
    const std::string path = "noc_routes_bad_topology_test.json";  // presets resolve from the shipped dir
    {
        std::ofstream out(path);
        out << text;
    }
    try {
        load_arch_config(path);
        ADD_FAILURE() << "hypercube accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("noc_routes_bad_topology_test.json"), std::string::npos) << m;
        EXPECT_NE(m.find("topology"), std::string::npos) << m;
    }
    std::remove(path.c_str());
}

}  // namespace test_noc_routes
}  // namespace mcmsim
