// The mapping record each plan layer carries: partition, collective, fallbacks, bytes
// between chiplets and on chip, and its JSON round trip.
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/mapper/plan_builder/collective_plans.h"
#include "tests/support/hand_arch.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

namespace mcmsim {
namespace test_layer_record {

using namespace collective_test;

// ---- the mapping record ---------------------------------------------------------------------
// K split -> K split on n chiplets: every chiplet needs fc1's whole output (A = k1 bytes), so
// the gathered activation is n x A; each chiplet already holds its own A / n, hence on-chip
// bytes = n x A / n = A (1/n of the gathered bytes) and package bytes the other (n - 1) x A.
// Relays in ring and tree are themselves consumers, so their package bytes are the same.
// DRAM: fc2's weights (16 x k1 bytes) and its outputs (16 bytes, the network's output).
TEST(LayerMappingRecord, KSplitPairOnChipIsOneNthOfTheGatheredActivation) {
    const std::int64_t A = 4096;
    Workload w = two_fc(A);
    for (auto [arch, n] : std::vector<std::pair<ArchConfig, std::int64_t>>{{arch_2x2(), 4}, {arch_4x4(), 16}})
        for (Collective alg : {Collective::Direct, Collective::Ring, Collective::Tree}) {
            Plan p = build_plan(arch, w, with(w, alg));
            ASSERT_TRUE(p.layers[1].mapping.has_value());
            const PlanLayerMapping& m = *p.layers[1].mapping;
            const std::int64_t gathered = n * A;
            EXPECT_EQ(m.onchip_bytes, gathered / n) << arch.name << " " << to_string(alg);
            EXPECT_EQ(m.package_bytes, gathered - gathered / n) << arch.name << " " << to_string(alg);
            EXPECT_EQ(m.dram_bytes, 16 * A + 16) << arch.name;
            EXPECT_EQ(m.partition, "K uniform");
            EXPECT_EQ(m.route, "xy");
            EXPECT_TRUE(m.shares.empty());
            // fc1 reads its input from DRAM: nothing moves between chiplets, nothing falls back.
            const PlanLayerMapping& first = *p.layers[0].mapping;
            EXPECT_EQ(first.package_bytes, 0);
            EXPECT_EQ(first.onchip_bytes, 0);
            EXPECT_TRUE(first.fallback.empty());
        }
}

// A halo exchange (P split -> P split) has no part that two chiplets need: ring falls back to
// direct, says so, and the plan is the direct one.
TEST(LayerMappingRecord, HaloExchangeFallsBackToDirectAndSaysSo) {
    Workload w;
    w.name = "two-conv";
    Layer a;
    a.name = "conv1";
    a.kind = LayerKind::Conv;
    a.c = a.k = 8;
    a.h = a.w = a.p = a.q = 16;
    a.r = a.s = 3;
    a.pad = 1;
    Layer b = a;
    b.name = "conv2";
    b.inputs = {0};
    w.layers = {a, b};
    Partition p_split;
    p_split.rows_dim = p_split.cols_dim = Dim::P;
    Mapping ring = uniform_mapping(w, p_split), direct = ring;
    for (auto& l : ring.layers) l.collective = Collective::Ring;
    Plan pr = build_plan(arch_1x4(), w, ring), pd = build_plan(arch_1x4(), w, direct);
    const PlanLayerMapping& m = *pr.layers[1].mapping;
    EXPECT_EQ(m.collective, "ring");
    EXPECT_EQ(m.multicasts, 0);
    EXPECT_EQ(m.fallback, "no input part is needed by two or more other chiplets: all direct");
    EXPECT_EQ(m.partition, "P uniform");
    // 4 row bands of 4 rows; each inner boundary sends one halo row each way: 6 rows of
    // 16 x 8 bytes over the package. On-chip: each chiplet's own 4 rows.
    EXPECT_EQ(m.package_bytes, 6 * 16 * 8);
    EXPECT_EQ(m.onchip_bytes, 16 * 16 * 8);
    EXPECT_EQ(flows_of(pr.layers[1]), flows_of(pd.layers[1]));
    EXPECT_EQ(pr.op_count(), pd.op_count());
}

// K split -> C split: fc2's chiplet c needs exactly the channels fc1's chiplet c made, so the
// input stays on-chip (A bytes); the partial sums are reduce-scattered along the layer's ring,
// which is no fallback. Each chiplet keeps its own K / n slice of partial sums (4 bytes each),
// and each slice crosses the package once from each of the other n - 1 chiplets, summed on the
// way or not: on-chip 16 x 4 bytes in all, package (n - 1) x 16 x 4.
TEST(LayerMappingRecord, ReductionFollowsTheCollectiveAndIsCounted) {
    const std::int64_t A = 4096;
    Workload w = two_fc(A);
    Partition c_split;
    c_split.rows_dim = c_split.cols_dim = Dim::C;
    Plan p = build_plan(arch_2x2(), w, with(w, Collective::Ring, c_split));
    const PlanLayerMapping& m = *p.layers[1].mapping;
    EXPECT_EQ(m.partition, "C uniform");
    EXPECT_EQ(m.multicasts, 0);
    EXPECT_EQ(m.fallback, "");
    EXPECT_EQ(m.onchip_bytes, A + 16 * kPartialSumBytes);
    EXPECT_EQ(m.package_bytes, 3 * 16 * kPartialSumBytes);
}

TEST(LayerMappingRecord, RoundTripsThroughJson) {
    Workload w = two_fc(1000);
    Plan p = build_plan(arch_2x2(), w, with(w, Collective::TwoD, Partition{}, {1, 2, 3, 4}));
    Plan back = plan_from_json(plan_to_json(p), "round-trip");
    for (std::size_t l = 0; l < p.layers.size(); ++l) {
        ASSERT_TRUE(back.layers[l].mapping.has_value());
        const PlanLayerMapping &a = *p.layers[l].mapping, &b = *back.layers[l].mapping;
        EXPECT_EQ(a.partition, b.partition);
        EXPECT_EQ(a.shares, b.shares);
        EXPECT_EQ(a.route, b.route);
        EXPECT_EQ(a.collective, b.collective);
        EXPECT_EQ(a.multicasts, b.multicasts);
        EXPECT_EQ(a.fallback, b.fallback);
        EXPECT_EQ(a.package_bytes, b.package_bytes);
        EXPECT_EQ(a.package_link_bytes, b.package_link_bytes);
        EXPECT_EQ(a.max_link_bytes, b.max_link_bytes);
        EXPECT_EQ(a.onchip_bytes, b.onchip_bytes);
        EXPECT_EQ(a.dram_bytes, b.dram_bytes);
    }
    EXPECT_EQ(p.layers[0].mapping->shares, (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(p.layers[0].mapping->partition, "K non-uniform");
    EXPECT_EQ(plan_to_json(back).dump(), plan_to_json(p).dump());
    // A plan without mapping records (older files) still loads.
    nlohmann::json doc = plan_to_json(p);
    for (auto& l : doc["layers"]) l.erase("mapping");
    EXPECT_FALSE(plan_from_json(doc, "old").layers[0].mapping.has_value());
    doc["layers"][0]["mapping"] = {{"partition", "K uniform"}, {"bogus", 1}};
    EXPECT_THROW(plan_from_json(doc, "bad"), InputError);
}

// MapRequest::collective reaches the uniform optimiser's plan.
TEST(LayerMappingRecord, MapRequestChoosesTheCollective) {
    Workload w = two_fc(1024);
    MapRequest r;
    r.collective = Collective::TwoD;
    Plan p = map_workload(arch_2x2(), w, r);
    EXPECT_EQ(p.layers[1].mapping->collective, "2d");
    EXPECT_EQ(p.layers[1].mapping->multicasts, 4);
}

}  // namespace test_layer_record
}  // namespace mcmsim
