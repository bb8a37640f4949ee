// The plan builder's data movement: flows grouped into one send per source and one recv per
// destination, and the per-layer route policies written into the plan as source routes.
#include "hw/config/arch_config.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mcmsim;

namespace test_route_policy {

ArchConfig arch_2x2() { return load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json"); }

// fc1 (K = 8, 2 outputs per chiplet under a K split) feeds fc2 (C = 8): every chiplet needs
// every other chiplet's 2 bytes (1 byte per element): an all-gather of 4 x 3 flows of 2 B.
Workload two_fc() {
    Workload w;
    w.name = "two-fc";
    Layer a;
    a.name = "fc1";
    a.kind = LayerKind::FullyConnected;
    a.c = 16;
    a.k = 8;
    Layer b = a;
    b.name = "fc2";
    b.c = 8;
    b.k = 4;
    b.inputs = {0};
    w.layers = {a, b};
    return w;
}

Mapping k_split(RoutePolicy fc2_route) {
    Mapping m = uniform_mapping(two_fc(), Partition{});
    m.layers[1].route = fc2_route;
    return m;
}

struct Flow {
    int from, to;
    std::int64_t bytes;
    std::vector<int> route;
};

/// The flows of a layer, read from its send ops.
std::vector<Flow> flows_of(const PlanLayer& l) {
    std::vector<Flow> out;
    for (const PlanOp& op : l.ops)
        if (op.kind == OpKind::Send)
            for (std::size_t t = 0; t < op.transfer_count(); ++t) {
                TransferRef x = op.transfer(t);
                out.push_back(Flow{op.chiplet, x.peer, x.bytes, x.route ? *x.route : std::vector<int>{}});
            }
    return out;
}

// The all-gather is 12 flows but only 4 send ops (one per source, 3 transfers each) and 4
// recv ops (one per destination, 3 flows each); each transfer carries its source's 2 bytes.
TEST(PlanBuilderFlows, AllGatherIsOneSendAndOneRecvPerChiplet) {
    Plan p = build_plan(arch_2x2(), two_fc(), k_split(RoutePolicy::XY));
    validate_plan(p, "built");
    int sends = 0, recvs = 0;
    std::set<std::int64_t> flows;
    for (const PlanOp& op : p.layers[1].ops) {
        if (op.kind != OpKind::Send && op.kind != OpKind::Recv) continue;
        (op.kind == OpKind::Send ? sends : recvs) += 1;
        ASSERT_EQ(op.transfer_count(), 3u);
        EXPECT_EQ(op.bytes, 3 * 2);
        for (const Transfer& t : op.transfers) {
            EXPECT_EQ(t.bytes, 2);
            EXPECT_TRUE(t.route.empty());  // XY on an XY package: the package routes
            if (op.kind == OpKind::Send) flows.insert(t.flow);
        }
    }
    EXPECT_EQ(sends, 4);
    EXPECT_EQ(recvs, 4);
    EXPECT_EQ(flows.size(), 12u);
}

// YX: the diagonal pairs (0 <-> 3, 1 <-> 2 on the 2x2 grid) get the rows-first path as a
// source route; pairs in one row or column have a single path and get none.
TEST(PlanBuilderRoutes, YxWritesRowsFirstRoutesForDiagonalPairs) {
    Plan p = build_plan(arch_2x2(), two_fc(), k_split(RoutePolicy::YX));
    const std::map<std::pair<int, int>, std::vector<int>> yx = {
        {{0, 3}, {0, 2, 3}}, {{3, 0}, {3, 1, 0}}, {{1, 2}, {1, 3, 2}}, {{2, 1}, {2, 0, 1}}};
    for (const Flow& f : flows_of(p.layers[1])) {
        auto it = yx.find({f.from, f.to});
        if (it == yx.end()) EXPECT_TRUE(f.route.empty()) << f.from << "->" << f.to;
        else EXPECT_EQ(f.route, it->second) << f.from << "->" << f.to;
    }
    EXPECT_TRUE(flows_of(p.layers[0]).empty());  // fc1 reads the network input from DRAM
}

// On a package that routes YX itself, YX needs no routes and XY writes the columns-first ones.
TEST(PlanBuilderRoutes, RoutesOnlyWhereThePolicyDiffersFromThePackage) {
    ArchConfig a = arch_2x2();
    a.package.routing = Routing::YX;
    for (const Flow& f : flows_of(build_plan(a, two_fc(), k_split(RoutePolicy::YX)).layers[1])) EXPECT_TRUE(f.route.empty());
    int routed = 0;
    for (const Flow& f : flows_of(build_plan(a, two_fc(), k_split(RoutePolicy::XY)).layers[1]))
        if (!f.route.empty()) {
            ++routed;
            if (f.from == 0 && f.to == 3) {
                EXPECT_EQ(f.route, (std::vector<int>{0, 1, 3}));
            }
        }
    EXPECT_EQ(routed, 4);
}

// Split: each diagonal flow of 2 B becomes two flows of 1 B, one on the XY path (the
// package's: no route) and one on the YX path; straight pairs keep one 2-B flow.
TEST(PlanBuilderRoutes, SplitHalvesDiagonalFlowsOverBothPaths) {
    Plan p = build_plan(arch_2x2(), two_fc(), k_split(RoutePolicy::Split));
    validate_plan(p, "built");
    std::map<std::pair<int, int>, std::vector<Flow>> by_pair;
    for (const Flow& f : flows_of(p.layers[1])) by_pair[{f.from, f.to}].push_back(f);
    EXPECT_EQ(by_pair.size(), 12u);
    for (const auto& [pair, fl] : by_pair) {
        const bool diagonal = pair.first + pair.second == 3;
        ASSERT_EQ(fl.size(), diagonal ? 2u : 1u);
        if (!diagonal) {
            EXPECT_EQ(fl[0].bytes, 2);
            EXPECT_TRUE(fl[0].route.empty());
            continue;
        }
        EXPECT_EQ(fl[0].bytes + fl[1].bytes, 2);
        EXPECT_EQ(fl[0].bytes, 1);
        EXPECT_TRUE(fl[0].route.empty());
        ASSERT_EQ(fl[1].route.size(), 3u);  // rows first: the middle router shares the source's column
        EXPECT_EQ(fl[1].route[1] % 2, pair.first % 2);
    }
}

// On a package with diagonal links (mesh_diagonal) the package itself routes diagonal-first:
// the diagonal policy needs no routes, while XY spells out the columns-first mesh path for
// the four diagonal pairs. On a plain mesh the diagonal policy is the package's routing.
TEST(PlanBuilderRoutes, DiagonalPolicyFollowsThePackagesDiagonals) {
    ArchConfig a = arch_2x2();
    a.package.topology = PackageTopology::MeshDiagonal;
    for (const Flow& f : flows_of(build_plan(a, two_fc(), k_split(RoutePolicy::Diagonal)).layers[1]))
        EXPECT_TRUE(f.route.empty());
    int routed = 0;
    for (const Flow& f : flows_of(build_plan(a, two_fc(), k_split(RoutePolicy::XY)).layers[1]))
        if (!f.route.empty()) {
            ++routed;
            EXPECT_EQ(f.route.size(), 3u);  // two mesh hops instead of one diagonal hop
        }
    EXPECT_EQ(routed, 4);
    for (const Flow& f : flows_of(build_plan(arch_2x2(), two_fc(), k_split(RoutePolicy::Diagonal)).layers[1]))
        EXPECT_TRUE(f.route.empty());
}

TEST(PlanBuilderRoutes, PolicyNames) {
    for (RoutePolicy r : {RoutePolicy::XY, RoutePolicy::YX, RoutePolicy::Split, RoutePolicy::Diagonal})
        EXPECT_EQ(parse_choice<RoutePolicy>(to_string(r)), r);
    EXPECT_EQ(choice_names<RoutePolicy>(), (std::vector<std::string>{"xy", "yx", "split", "diagonal", "package"}));
    EXPECT_FALSE(parse_choice<RoutePolicy>("zigzag").has_value());
}

}  // namespace test_route_policy
