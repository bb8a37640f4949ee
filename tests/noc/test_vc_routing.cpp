// Routing in the flit-level VC network: dateline VCs on a torus, west-first, diagonal meshes
// and up*/down* tables on any graph; deadlocks named by the watchdog.
#include "hw/common/input_error.h"
#include "hw/config/presets.h"
#include "hw/energy/energy_ledger.h"
#include "noc/noc_config.h"
#include "noc/synthetic/synthetic_traffic.h"
#include "noc/synthetic/zero_load_model.h"
#include "noc/vc/vc_network.h"
#include "tests/noc/vc_configs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <systemc>
#include <vector>

namespace mcmsim {
namespace test_vc_routing {

using namespace vc_test;

TEST(NocVcTorus, RingWithoutDatelineDeadlocksAndWatchdogNamesRouters) {
    RingRun r = run_ring(false, 20);
    ASSERT_TRUE(r.deadlocked);
    ASSERT_FALSE(r.stuck.empty());
    for (const std::string& s : r.stuck) EXPECT_NE(s.find("network.r0_"), std::string::npos) << s;
    EXPECT_LT(r.ejected, 160);
}

TEST(NocVcTorus, RingWithDatelineCompletes) {
    RingRun r = run_ring(true, 20);
    EXPECT_FALSE(r.deadlocked);
    EXPECT_TRUE(r.stuck.empty());
    EXPECT_EQ(r.ejected, 160);
}

// Stepped by two threads (routers 0-3 and 4-7, worms crossing between them both ways), the
// ring still deadlocks without the dateline, the watchdog still names routers, and with the
// dateline all 160 packets arrive.
TEST(NocVcTorus, TwoThreadsDeadlockAndCompleteAlike) {
    RingRun stuck = run_ring(false, 20, 2);
    ASSERT_TRUE(stuck.deadlocked);
    ASSERT_FALSE(stuck.stuck.empty());
    for (const std::string& s : stuck.stuck) EXPECT_NE(s.find("network.r0_"), std::string::npos) << s;
    EXPECT_LT(stuck.ejected, 160);
}

TEST(NocVcTorus, TwoThreadsWithDatelineComplete) {
    RingRun r = run_ring(true, 20, 2);
    EXPECT_FALSE(r.deadlocked);
    EXPECT_EQ(r.ejected, 160);
}

// West-first (adaptive) under long saturating random traffic: no deadlock, all drained.
TEST(NocVcAdaptive, WestFirstNeverDeadlocks) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 6, 6, NocRouting::WestFirst);
    c.router.vcs = 2;
    c.router.buffer_depth = 2;
    SyntheticOptions o;
    o.packet_flits = 4;
    o.rates = {0.8};
    o.warmup = 500;
    o.measure = 6000;
    o.seed = 7;
    SyntheticRun run = run_synthetic(c, o);
    EXPECT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 1u);
    EXPECT_TRUE(run.points[0].drained);
    EXPECT_EQ(run.flits_injected, run.flits_ejected);
    EXPECT_EQ(run.order_violations, 0);
}

// Diagonal links: routes are Chebyshev-minimal, so the mean hop count under uniform traffic
// is the mean of max(|dr|, |dc|) instead of |dr| + |dc|; the simulation samples it.
TEST(NocVcDiagonal, DiagonalLinksShortenHopsAsGeometryPredicts) {
    const int k = 8;
    NocConfig c = grid_config(NocTopologyKind::DiagonalMesh, k, k, NocRouting::Diagonal);
    NocTopology t = build_topology(c);
    auto r = make_routing(c, t);
    double cheb = 0, manhattan = 0, routed = 0;
    for (int s = 0; s < k * k; ++s)
        for (int d = 0; d < k * k; ++d) {
            int dr = std::abs(t.row_of(s) - t.row_of(d)), dc = std::abs(t.col_of(s) - t.col_of(d));
            cheb += std::max(dr, dc);
            manhattan += dr + dc;
            routed += zero_load_path(c, t, *r, s, d, 1).hops;
        }
    EXPECT_DOUBLE_EQ(routed, cheb);
    EXPECT_LT(cheb, manhattan);
    SyntheticOptions o;
    o.rates = {0.1};
    o.warmup = 200;
    o.measure = 3000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    ASSERT_TRUE(run.points[0].avg_hops);
    EXPECT_NEAR(*run.points[0].avg_hops, cheb / (k * k * k * k), 0.06);
}

// Up*/down* table routing on a torus without dateline VCs (its rings would deadlock under
// DOR): long saturating random traffic completes, every flit once, in order.
TEST(NocVcTable, UpDownOnTorusNeverDeadlocks) {
    NocConfig c = grid_config(NocTopologyKind::Torus, 6, 6, NocRouting::Table);
    c.dateline = false;
    c.router.vcs = 2;
    c.router.buffer_depth = 2;
    SyntheticOptions o;
    o.packet_flits = 6;
    o.rates = {0.8};
    o.warmup = 500;
    o.measure = 6000;
    o.seed = 11;
    SyntheticRun run = run_synthetic(c, o);
    EXPECT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 1u);
    EXPECT_TRUE(run.points[0].drained);
    EXPECT_EQ(run.flits_injected, run.flits_ejected);
    EXPECT_EQ(run.order_violations, 0);
}

// Up*/down* routes are legal (never an up link after a down link) and reach every router.
TEST(NocVcTable, RoutesAreLegalAndComplete) {
    NocConfig c = load_noc_config(default_config_dir() + "/noc/custom_graph.json");
    NocTopology t = build_topology(c);
    ASSERT_EQ(t.routers(), 6);
    ASSERT_EQ(t.channels().size(), 16u);
    auto r = make_routing(c, t);
    for (int s = 0; s < t.routers(); ++s)
        for (int d = 0; d < t.routers(); ++d) {
            RouteState st;
            int hops = 0;
            for (int at = s; hops <= t.routers();) {
                RouteDecision dec = r->route(at, d, st, nullptr);
                if (dec.port == kLocalPort) break;
                at = t.channel(t.out_channel(at, dec.port)).dst;
                ++hops;
            }
            EXPECT_LE(hops, t.routers()) << s << "->" << d;
            EXPECT_GE(hops, t.min_hops(s, d));
        }
}

// The custom graph with mixed D2D classes under long random traffic: no deadlock.
TEST(NocVcTable, CustomGraphRandomTrafficCompletes) {
    NocConfig c = load_noc_config(default_config_dir() + "/noc/custom_graph.json");
    SyntheticOptions o;
    o.packet_flits = 4;
    o.rates = {0.6};
    o.warmup = 500;
    o.measure = 8000;
    SyntheticRun run = run_synthetic(c, o);
    EXPECT_FALSE(run.deadlocked);
    EXPECT_TRUE(run.points.at(0).drained);
    EXPECT_EQ(run.flits_injected, run.flits_ejected);
    EXPECT_EQ(run.order_violations, 0);
}

TEST(NocVcTable, LinkToMissingNodeIsAnInputError) {
    std::string m = config_error(R"({"topology": {"type": "graph", "nodes": ["a", "b"],
        "links": [{"from": "a", "to": "b"}, {"from": "a", "to": "c"}]}})");
    EXPECT_NE(m.find("/topology/links/1/to"), std::string::npos) << m;
    EXPECT_NE(m.find("\"c\""), std::string::npos) << m;
    m = config_error(R"({"topology": {"type": "graph", "nodes": ["a", "b"], "links": [{"from": "a", "to": "b"}]},
        "routing": "xy"})");
    EXPECT_NE(m.find("/routing"), std::string::npos) << m;
}

}  // namespace test_vc_routing
}  // namespace mcmsim
