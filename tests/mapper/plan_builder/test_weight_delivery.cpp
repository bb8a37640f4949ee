// Weight multicast (LayerMapping::weight_multicast): chiplets that hold the same weight slice
// get it from one DRAM read forwarded over the package instead of each reading its own copy.
// Expected byte counts are worked out by hand in the comments.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/support/one_conv_2x2.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <map>

using namespace mcmsim;

namespace test_weight_delivery {

// The package, the conv and the plan readers of tests/support/one_conv_2x2.h.
using test_support::arch_2x2;
using test_support::dram_read_bytes;
using test_support::one_conv;
using test_support::received;
using test_support::split;

constexpr std::int64_t kFilterBytes = 8 * 4 * 3 * 3;

Plan plan_of(const Partition& p, bool multicast, Collective c = Collective::Direct) {
    Mapping m = uniform_mapping(one_conv(), p);
    for (auto& l : m.layers) l.weight_multicast = multicast, l.collective = c;
    return build_plan(arch_2x2(), one_conv(), m);
}

TEST(WeightMulticast, PSplitReadsTheFilterOnceAndSendsItToTheOthers) {
    // P over the 4 chiplets: every chiplet computes 2 output rows with all of K and C, so all
    // four need the whole 288-byte filter. Unicast reads it 4 times; multicast once, on
    // chiplet 0 (0 hops from the memory), then sends 288 bytes to each of 1, 2 and 3.
    const Plan uni = plan_of(split(Dim::P, Dim::P), false), multi = plan_of(split(Dim::P, Dim::P), true);
    EXPECT_EQ(dram_read_bytes(uni) - dram_read_bytes(multi), 3 * kFilterBytes);
    ASSERT_TRUE(multi.layers[0].mapping.has_value());
    EXPECT_EQ(multi.layers[0].mapping->weight_multicasts, 1);
    EXPECT_EQ(multi.layers[0].mapping->weight_dram_bytes_saved, 3 * kFilterBytes);
    EXPECT_EQ(multi.layers[0].mapping->package_bytes, 3 * kFilterBytes);
    EXPECT_EQ(uni.layers[0].mapping->package_bytes, 0);  // input from DRAM: nothing between chiplets
    const auto r = received(multi);
    EXPECT_EQ(r.count(0), 0u);
    for (int c : {1, 2, 3}) EXPECT_EQ(r.at(c), kFilterBytes) << "chiplet " << c;
    // Every compute waits for its weights: on 1..3 for the recv, on 0 for the read.
    for (const PlanOp& op : multi.layers[0].ops) {
        if (op.kind != OpKind::Compute) continue;
        bool waits = false;
        for (std::int64_t d : op.deps)
            for (const PlanOp& o : multi.layers[0].ops)
                if (o.id == d && (o.kind == (op.chiplet == 0 ? OpKind::DramRead : OpKind::Recv))) waits = true;
        EXPECT_TRUE(waits) << "compute on chiplet " << op.chiplet;
    }
}

TEST(WeightMulticast, ARelayedCollectiveStillDeliversOneCopyToEach) {
    // A ring relays the filter chiplet to chiplet: each of 1..3 still ends up with exactly
    // one copy (its recv), and the DRAM saving is the same 3 x 288 bytes.
    const Plan ring = plan_of(split(Dim::P, Dim::P), true, Collective::Ring);
    EXPECT_EQ(ring.layers[0].mapping->weight_dram_bytes_saved, 3 * kFilterBytes);
    const auto r = received(ring);
    for (int c : {1, 2, 3}) EXPECT_EQ(r.at(c), kFilterBytes) << "chiplet " << c;
}

TEST(WeightMulticast, TwoDimensionalSplitSharesAlongColumns) {
    // P along grid rows, K along grid columns: chiplets 0 and 2 hold K 0..4, chiplets 1 and 3
    // K 4..8 — two slices of 4 x 4 x 3 x 3 = 144 bytes, each shared by a column. Leaders: the
    // member nearer the memory at chiplet 0, i.e. 0 (0 hops) and 1 (1 hop, vs 2 for 3).
    const Plan multi = plan_of(split(Dim::P, Dim::K), true);
    EXPECT_EQ(multi.layers[0].mapping->weight_multicasts, 2);
    EXPECT_EQ(multi.layers[0].mapping->weight_dram_bytes_saved, 2 * (kFilterBytes / 2));
    std::map<std::pair<int, int>, std::int64_t> sent;
    for (const PlanOp& op : multi.layers[0].ops)
        if (op.kind == OpKind::Send)
            for (std::size_t t = 0; t < op.transfer_count(); ++t) sent[{op.chiplet, op.transfer(t).peer}] += op.transfer(t).bytes;
    const std::map<std::pair<int, int>, std::int64_t> want{{{0, 2}, kFilterBytes / 2}, {{1, 3}, kFilterBytes / 2}};
    EXPECT_EQ(sent, want);
}

TEST(WeightMulticast, NothingChangesWithoutReplicatedWeights) {
    // A K split gives every chiplet its own filter slice: multicast has nothing to share.
    const Plan uni = plan_of(split(Dim::K, Dim::K), false), multi = plan_of(split(Dim::K, Dim::K), true);
    EXPECT_EQ(multi.layers[0].mapping->weight_multicasts, 0);
    EXPECT_EQ(dram_read_bytes(uni), dram_read_bytes(multi));
    EXPECT_EQ(uni.layers[0].ops.size(), multi.layers[0].ops.size());
}

TEST(WeightMulticast, TheModelPricesFewerDramBytes) {
    // The analytical model books DRAM energy per byte: 3 x 288 fewer bytes read must lower
    // the layer's DRAM energy. The forwarded copies cross the same links the unicast reads'
    // data crossed from the memory's router (chiplet 0 -> 1, 2, 3 on XY paths), and the
    // unicast reads also sent their requests: D2D energy cannot grow.
    const ArchConfig a = arch_2x2();
    const Estimate uni = estimate_plan(a, plan_of(split(Dim::P, Dim::P), false));
    const Estimate multi = estimate_plan(a, plan_of(split(Dim::P, Dim::P), true));
    auto cat = [](const Estimate& e, EnergyCategory c) { return e.ledger.layer_accounts()[0]->pj[static_cast<int>(c)]; };
    EXPECT_LT(cat(multi, EnergyCategory::Dram), cat(uni, EnergyCategory::Dram));
    EXPECT_LE(cat(multi, EnergyCategory::D2d), cat(uni, EnergyCategory::D2d));
}

}  // namespace test_weight_delivery
