// The package network interface and its factory: both implementations, built from the same
// arch config, describe the same mesh (routers, links, their names) and route the same paths
// as MeshTopology, the routing the plan builder and the analytical model use.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "hw/topology/mesh_topology.h"
#include "noc/package_network.h"
#include "noc/packet/packet_network.h"
#include "noc/vc/vc_package_network.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <systemc>
#include <vector>

namespace mcmsim {
namespace test_package_network {

constexpr std::int64_t kFlitBytes = 32;
constexpr double kLinkPjPerBit = 0.5, kRouterPjPerFlit = 2;

struct MeshCase {
    const char* name;
    PackageTopology topology;
    Routing routing;
    std::vector<PackageEdge> edges = {};  ///< graph packages
};
void PrintTo(const MeshCase& m, std::ostream* os) { *os << m.name; }

/// A 3 x 4 package (not square: rows and columns cannot be confused) with a memory on an
/// inner router, so that memory nodes map to a router other than their number.
ArchConfig package_arch(const MeshCase& m, RouterModel model) {
    ArchConfig a;
    a.name = "package-network-test";
    a.package.rows = 3;
    a.package.cols = 4;
    a.package.topology = m.topology;
    a.package.routing = m.routing;
    a.package.edges = m.edges;
    a.package.link.bandwidth_gbps = 32;
    a.package.link.latency_ns = 5;
    a.package.link.energy_pj_per_bit = kLinkPjPerBit;
    a.package.router.model = model;
    a.package.router.clock_ghz = 1;
    a.package.router.pipeline_cycles = 4;
    a.package.router.flit_bytes = kFlitBytes;
    a.package.router.energy_pj_per_flit = kRouterPjPerFlit;
    a.package.router.vcs = 4;
    a.chiplet.ni_bandwidth_gbps = 64;
    MemoryConfig mem;
    mem.name = "hbm";
    mem.attach_row = 1;
    mem.attach_col = 2;
    mem.phy_bandwidth_gbps = mem.dram.bandwidth_gbps();
    a.memories = {mem};
    return a;
}

class PackageNetworks : public ::testing::TestWithParam<MeshCase> {};

// The factory builds the implementation package.router.model names, and both number the
// endpoints alike: chiplets on their own routers, memories on the routers they attach to.
TEST_P(PackageNetworks, FactoryPicksTheModelAndBothNumberNodesAlike) {
    EnergyLedger lp, lv;
    std::unique_ptr<PackageNetwork> p = make_package_network("packet_net", package_arch(GetParam(), RouterModel::Packet), lp);
    std::unique_ptr<PackageNetwork> v = make_package_network("vc_net", package_arch(GetParam(), RouterModel::Vc), lv);
    EXPECT_NE(dynamic_cast<PacketNetwork*>(p.get()), nullptr);
    EXPECT_EQ(dynamic_cast<VcPackageNetwork*>(p.get()), nullptr);
    EXPECT_NE(dynamic_cast<VcPackageNetwork*>(v.get()), nullptr);
    ASSERT_EQ(p->nodes(), 13);
    ASSERT_EQ(v->nodes(), p->nodes());
    for (int n = 0; n < p->nodes(); ++n) EXPECT_EQ(v->router_of(n), p->router_of(n)) << "node " << n;
    EXPECT_EQ(p->router_of(p->memory_node(0)), p->topology().id(1, 2));
    EXPECT_EQ(v->topology().diagonals(), p->topology().diagonals());
    EXPECT_EQ(v->topology().routing(), p->topology().routing());
}

// The VC package network's router graph is the mesh: one channel per MeshTopology link, in
// link order, named like it, leading to the same neighbour; and its routing takes, at every
// router and for every destination, the port MeshTopology::next_port takes.
TEST_P(PackageNetworks, VcGraphAndRoutingComeFromMeshTopology) {
    EnergyLedger ledger;
    const ArchConfig arch = package_arch(GetParam(), RouterModel::Vc);
    VcPackageNetwork net("vc_net", arch, ledger);
    const MeshTopology& mesh = net.topology();
    const NocTopology& t = net.vc().topology();
    ASSERT_EQ(t.routers(), mesh.routers());
    std::vector<std::string> mesh_links;
    for (int l = 0; l < mesh.link_slots(); ++l)
        if (mesh.neighbor(l / kMeshPorts, static_cast<Port>(l % kMeshPorts)) >= 0) mesh_links.push_back(mesh.link_name(l));
    ASSERT_EQ(t.channels().size(), mesh_links.size());
    for (int c = 0; c < static_cast<int>(t.channels().size()); ++c) {
        const NocChannel& ch = t.channel(c);
        const Port p = mesh_port(ch.src_port);
        EXPECT_EQ(t.channel_name(c), mesh_links[static_cast<std::size_t>(c)]);
        EXPECT_EQ(t.channel_name(c), mesh.link_name(MeshTopology::link_id(ch.src, p)));
        EXPECT_EQ(ch.dst, mesh.neighbor(ch.src, p)) << t.channel_name(c);
        EXPECT_EQ(mesh_port(ch.dst_port), mesh.in_port(MeshTopology::link_id(ch.src, p))) << t.channel_name(c);
        EXPECT_EQ(ch.dateline, mesh.wraps(MeshTopology::link_id(ch.src, p))) << t.channel_name(c);
    }
    for (int at = 0; at < mesh.routers(); ++at)
        for (int dst = 0; dst < mesh.routers(); ++dst) {
            RouteState state;
            const RouteDecision d = net.vc().routing().route(at, dst, state, nullptr);
            EXPECT_EQ(d.port, grid_port(mesh.next_port(at, dst))) << mesh.router_name(at) << " to " << mesh.router_name(dst);
        }
}

struct Arrival {
    std::int64_t tag;
    int node, hops;
};

class LogSink : public NetworkEndpoint {
public:
    LogSink(PackageNetwork& net, int node, std::vector<Arrival>& log) : net_(net), node_(node), log_(log) {}
    void arrive(Packet* p, Tick) override {
        log_.push_back({p->tag, node_, p->hops});
        net_.delivered(p);
    }

private:
    PackageNetwork& net_;
    int node_;
    std::vector<Arrival>& log_;
};

struct Message {
    int src, dst;
    std::int64_t bytes;
};

/// Sends every message from a thread, one every 200 ns: the same traffic into each network.
class Sender : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Sender);
    Sender(sc_core::sc_module_name n, std::vector<PackageNetwork*> nets, const std::vector<Message>& msgs)
        : sc_core::sc_module(n), nets_(std::move(nets)), msgs_(msgs) {
        SC_THREAD(run);
    }

private:
    void run() {
        for (std::size_t i = 0; i < msgs_.size(); ++i) {
            for (PackageNetwork* net : nets_) {
                Packet* p = net->new_packet();
                p->payload_bytes = p->wire_bytes = msgs_[i].bytes;
                p->tag = static_cast<std::int64_t>(i);
                net->inject(msgs_[i].src, msgs_[i].dst, p, now_ticks());
            }
            sc_core::wait(to_sc_time(ns_to_ticks(200)));
        }
    }
    std::vector<PackageNetwork*> nets_;
    const std::vector<Message>& msgs_;
};

/// Router and link accounts of a ledger (memory PHYs are priced by the packet model only).
std::set<std::string> mesh_accounts(const nlohmann::json& components) {
    std::set<std::string> out;
    for (auto it = components.begin(); it != components.end(); ++it)
        if (it.key().rfind("router_", 0) == 0 || it.key().rfind("link.", 0) == 0) out.insert(it.key());
    return out;
}

// The same messages (every node to every other, sizes varying) through both networks: each
// arrives with the hop count of its MeshTopology path, and both networks book the same
// router and link energy into the same accounts, which are those the mesh's paths predict.
TEST_P(PackageNetworks, SameTrafficTakesTheSamePathsInBothModels) {
    init_time_resolution();
    EnergyLedger lp, lv;
    std::unique_ptr<PackageNetwork> p = make_package_network("packet_net", package_arch(GetParam(), RouterModel::Packet), lp);
    std::unique_ptr<PackageNetwork> v = make_package_network("vc_net", package_arch(GetParam(), RouterModel::Vc), lv);
    const MeshTopology& mesh = p->topology();
    std::vector<Message> msgs;
    for (int s = 0; s < p->nodes(); ++s)
        for (int d = 0; d < p->nodes(); ++d)
            if (s != d) msgs.push_back({s, d, 1 + 37 * static_cast<std::int64_t>(msgs.size() % 9)});
    std::vector<Arrival> got_p, got_v;
    std::vector<std::unique_ptr<LogSink>> sinks;
    for (int n = 0; n < p->nodes(); ++n) {
        sinks.push_back(std::make_unique<LogSink>(*p, n, got_p));
        p->attach(n, sinks.back().get());
        sinks.push_back(std::make_unique<LogSink>(*v, n, got_v));
        v->attach(n, sinks.back().get());
    }
    Sender sender("sender", {p.get(), v.get()}, msgs);
    sc_core::sc_start();

    ASSERT_EQ(got_p.size(), msgs.size());
    ASSERT_EQ(got_v.size(), msgs.size());
    std::vector<int> hops_p(msgs.size(), -1), hops_v(msgs.size(), -1);
    for (const Arrival& a : got_p) hops_p[static_cast<std::size_t>(a.tag)] = a.hops;
    for (const Arrival& a : got_v) hops_v[static_cast<std::size_t>(a.tag)] = a.hops;
    std::map<std::string, double> link_pj, router_pj;  // what the mesh's paths predict
    for (std::size_t i = 0; i < msgs.size(); ++i) {
        const int a = p->router_of(msgs[i].src), b = p->router_of(msgs[i].dst);
        EXPECT_EQ(hops_p[i], mesh.hops(a, b)) << "message " << i;
        EXPECT_EQ(hops_v[i], mesh.hops(a, b)) << "message " << i;
        const auto flits = static_cast<double>((msgs[i].bytes + kFlitBytes - 1) / kFlitBytes);
        for (int l : mesh.path_links(a, b)) link_pj["link." + mesh.link_name(l)] += flits * kFlitBytes * 8 * kLinkPjPerBit;
        for (int r : mesh.path(a, b))
            router_pj["router_" + std::to_string(mesh.row_of(r)) + "_" + std::to_string(mesh.col_of(r))] +=
                flits * kRouterPjPerFlit;
    }
    const nlohmann::json cp = lp.components_json(), cv = lv.components_json();
    // The packet model opens an account per link and router up front, the VC model per link:
    // compare the accounts that booked energy.
    std::set<std::string> used_p, used_v;
    for (const std::string& k : mesh_accounts(cp))
        if (cp[k].value("noc", 0.0) + cp[k].value("d2d", 0.0) > 0) used_p.insert(k);
    for (const std::string& k : mesh_accounts(cv))
        if (cv[k].value("noc", 0.0) + cv[k].value("d2d", 0.0) > 0) used_v.insert(k);
    EXPECT_EQ(used_p, used_v);
    EXPECT_EQ(used_p.size(), link_pj.size() + router_pj.size());
    for (const auto& [name, pj] : link_pj) {
        ASSERT_TRUE(cp.contains(name) && cv.contains(name)) << name;
        EXPECT_NEAR(cp[name]["d2d"].get<double>(), pj, 1e-9 * pj) << name;
        EXPECT_NEAR(cv[name]["d2d"].get<double>(), pj, 1e-9 * pj) << name;
    }
    for (const auto& [name, pj] : router_pj) {
        ASSERT_TRUE(cp.contains(name) && cv.contains(name)) << name;
        EXPECT_NEAR(cp[name]["noc"].get<double>(), pj, 1e-9 * pj) << name;
        EXPECT_NEAR(cv[name]["noc"].get<double>(), pj, 1e-9 * pj) << name;
    }
    EXPECT_TRUE(p->busy_routers().empty());
    EXPECT_TRUE(v->busy_routers().empty());
    EXPECT_EQ(p->packets_delivered(), static_cast<std::int64_t>(msgs.size()));
    EXPECT_EQ(v->bytes_delivered(), p->bytes_delivered());
}

/// An irregular graph on the 3 x 4 grid: gaps in the rows, an express link down a column
/// (1 -> 9), a diagonal (5 -> 10).
std::vector<PackageEdge> irregular_edges() {
    return {{0, 1, LinkClass::Row},    {1, 2, LinkClass::Row},    {2, 3, LinkClass::Row},      {4, 5, LinkClass::Row},
            {6, 7, LinkClass::Row},    {8, 9, LinkClass::Row},    {9, 10, LinkClass::Row},     {10, 11, LinkClass::Row},
            {0, 4, LinkClass::Column}, {4, 8, LinkClass::Column}, {3, 7, LinkClass::Column},   {7, 11, LinkClass::Column},
            {2, 6, LinkClass::Column}, {1, 9, LinkClass::Column}, {5, 10, LinkClass::Diagonal}};
}

// Every node sends a long message to every other at once, through small buffers: the VC
// network and the packet model with the VC router's buffers deliver all of it (no deadlock:
// a torus's dateline classes, a graph's up*/down* routes), with each packet's hops those of
// its routed path.
TEST_P(PackageNetworks, AllToAllAtOnceThroughSmallBuffersCompletes) {
    init_time_resolution();
    EnergyLedger lb, lv;
    ArchConfig buffered = package_arch(GetParam(), RouterModel::Packet);
    buffered.package.router.packet_buffers = PacketBuffers::Vc;
    ArchConfig vc = package_arch(GetParam(), RouterModel::Vc);
    for (ArchConfig* a : {&buffered, &vc}) {
        a->package.router.vcs = 2;
        a->package.router.buffer_depth = 2;
        a->package.router.d2d_buffer_flits = 2;
        a->package.max_packet_bytes = 256;
    }
    std::unique_ptr<PackageNetwork> b = make_package_network("buffered_net", buffered, lb);
    std::unique_ptr<PackageNetwork> v = make_package_network("vc_net", vc, lv);
    std::vector<Arrival> got_b, got_v;
    std::vector<std::unique_ptr<LogSink>> sinks;
    for (int n = 0; n < b->nodes(); ++n) {
        sinks.push_back(std::make_unique<LogSink>(*b, n, got_b));
        b->attach(n, sinks.back().get());
        sinks.push_back(std::make_unique<LogSink>(*v, n, got_v));
        v->attach(n, sinks.back().get());
    }
    std::int64_t sent = 0;
    for (PackageNetwork* net : {b.get(), v.get()})
        for (int rep = 0; rep < 8; ++rep)
            for (int s = 0; s < net->nodes(); ++s)
                for (int d = 0; d < net->nodes(); ++d) {
                    if (s == d) continue;
                    Packet* p = net->new_packet();
                    p->payload_bytes = p->wire_bytes = 256;
                    p->tag = s * 100 + d;
                    net->inject(s, d, p, 0);
                    if (net == b.get()) ++sent;
                }
    sc_core::sc_start();
    EXPECT_EQ(static_cast<std::int64_t>(got_b.size()), sent);
    EXPECT_EQ(static_cast<std::int64_t>(got_v.size()), sent);
    EXPECT_TRUE(b->busy_routers().empty());
    EXPECT_TRUE(v->busy_routers().empty());
    const MeshTopology& mesh = b->topology();
    for (const auto* got : {&got_b, &got_v})
        for (const Arrival& a : *got) {
            const int s = static_cast<int>(a.tag / 100), d = static_cast<int>(a.tag % 100);
            ASSERT_EQ(a.node, d);
            ASSERT_EQ(a.hops, mesh.hops(b->router_of(s), b->router_of(d))) << s << " to " << d;
        }
}

INSTANTIATE_TEST_SUITE_P(Meshes, PackageNetworks,
                         ::testing::Values(MeshCase{"mesh_xy", PackageTopology::Mesh, Routing::XY},
                                           MeshCase{"mesh_yx", PackageTopology::Mesh, Routing::YX},
                                           MeshCase{"diagonal_xy", PackageTopology::MeshDiagonal, Routing::XY},
                                           MeshCase{"diagonal_yx", PackageTopology::MeshDiagonal, Routing::YX},
                                           MeshCase{"torus_xy", PackageTopology::Torus, Routing::XY},
                                           MeshCase{"torus_yx", PackageTopology::Torus, Routing::YX},
                                           MeshCase{"graph", PackageTopology::Graph, Routing::XY, irregular_edges()}),
                         [](const ::testing::TestParamInfo<MeshCase>& i) { return std::string(i.param.name); });

}  // namespace test_package_network
}  // namespace mcmsim
