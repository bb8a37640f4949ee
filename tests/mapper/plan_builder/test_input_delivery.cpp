// Input multicast (LayerMapping::input_multicast): chiplets that need exactly the same region
// of the network input from the same memory share one DRAM read, forwarded over the package,
// instead of each reading its own copy. Expected byte counts are worked out by hand in the
// comments.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/support/one_conv_2x2.h"
#include "tests/support/plan_bytes.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

using namespace mcmsim;

namespace test_input_delivery {

// The package, the conv and the plan readers of tests/support/one_conv_2x2.h.
using test_support::arch_2x2;
using test_support::dram_read_bytes;
using test_support::one_conv;
using test_support::received;
using test_support::split;

constexpr std::int64_t kInputBytes = 4 * 8 * 8;

Plan plan_of(const Partition& p, bool multicast, Collective c = Collective::Direct) {
    Mapping m = uniform_mapping(one_conv(), p);
    for (auto& l : m.layers) l.input_multicast = multicast, l.collective = c;
    return build_plan(arch_2x2(), one_conv(), m);
}

std::map<std::pair<int, int>, std::int64_t> sent(const Plan& plan) {
    std::map<std::pair<int, int>, std::int64_t> s;
    for (const PlanOp& op : plan.layers[0].ops)
        if (op.kind == OpKind::Send)
            for (std::size_t t = 0; t < op.transfer_count(); ++t) s[{op.chiplet, op.transfer(t).peer}] += op.transfer(t).bytes;
    return s;
}

/// DramReads per chiplet: how many and their bytes (weights and inputs together).
std::map<int, std::pair<int, std::int64_t>> reads(const Plan& plan) {
    std::map<int, std::pair<int, std::int64_t>> r;
    for (const PlanOp& op : plan.layers[0].ops)
        if (op.kind == OpKind::DramRead) ++r[op.chiplet].first, r[op.chiplet].second += op.bytes;
    return r;
}

TEST(InputMulticast, KSplitReadsTheInputOnceAndSendsItToTheOthers) {
    // K over the 4 chiplets: every chiplet needs the whole 256-byte input, all from the one
    // memory. Unicast reads it 4 times; multicast once, on chiplet 0 (0 hops from the
    // memory), which sends 256 bytes to each of 1, 2 and 3 (direct: point to point).
    const Plan uni = plan_of(split(Dim::K, Dim::K), false), multi = plan_of(split(Dim::K, Dim::K), true);
    EXPECT_EQ(dram_read_bytes(uni) - dram_read_bytes(multi), 3 * kInputBytes);
    ASSERT_TRUE(multi.layers[0].mapping.has_value());
    EXPECT_EQ(multi.layers[0].mapping->input_multicasts, 1);
    EXPECT_EQ(multi.layers[0].mapping->input_dram_bytes_saved, 3 * kInputBytes);
    EXPECT_EQ(multi.layers[0].mapping->weight_multicasts, 0);
    EXPECT_EQ(uni.layers[0].mapping->input_multicasts, 0);
    EXPECT_EQ(uni.layers[0].mapping->package_bytes, 0);  // K split from DRAM: nothing between chiplets
    EXPECT_EQ(multi.layers[0].mapping->package_bytes, 3 * kInputBytes);
    // Each chiplet reads its own 8/4 x 4 x 3 x 3 = 72-byte filter slice; chiplet 0 also the input.
    const auto r = reads(multi);
    EXPECT_EQ(r.at(0), std::make_pair(2, kInputBytes + 72));
    for (int c : {1, 2, 3}) EXPECT_EQ(r.at(c), std::make_pair(1, std::int64_t{72})) << "chiplet " << c;
    const std::map<std::pair<int, int>, std::int64_t> want{{{0, 1}, kInputBytes}, {{0, 2}, kInputBytes}, {{0, 3}, kInputBytes}};
    EXPECT_EQ(sent(multi), want);
    const auto got = received(multi);
    EXPECT_EQ(got.count(0), 0u);
    for (int c : {1, 2, 3}) EXPECT_EQ(got.at(c), kInputBytes) << "chiplet " << c;
    // Every compute waits for its input: on 1..3 for a recv, on 0 for the read.
    for (const PlanOp& op : multi.layers[0].ops) {
        if (op.kind != OpKind::Compute) continue;
        bool waits = false;
        for (std::int64_t d : op.deps)
            for (const PlanOp& o : multi.layers[0].ops)
                if (o.id == d && o.kind == (op.chiplet == 0 ? OpKind::DramRead : OpKind::Recv)) waits = true;
        EXPECT_TRUE(waits) << "compute on chiplet " << op.chiplet;
    }
}

TEST(InputMulticast, ARelayedCollectiveStillDeliversOneCopyToEach) {
    // A ring relays the input chiplet to chiplet: each of 1..3 still ends up with one copy,
    // and the saving is the same 3 x 256 bytes.
    const Plan ring = plan_of(split(Dim::K, Dim::K), true, Collective::Ring);
    EXPECT_EQ(ring.layers[0].mapping->input_dram_bytes_saved, 3 * kInputBytes);
    EXPECT_EQ(ring.layers[0].mapping->multicasts, 1);
    const auto got = received(ring);
    for (int c : {1, 2, 3}) EXPECT_EQ(got.at(c), kInputBytes) << "chiplet " << c;
}

TEST(InputMulticast, PByKSplitSharesWithinEachRowBand) {
    // P along grid rows, K along grid columns: chiplets 0 and 1 compute output rows 0..4 and
    // need input rows 0..5 (halo 1, clipped at the top), chiplets 2 and 3 output rows 4..8,
    // input rows 3..8: 5 rows x 8 columns x 4 channels = 160 bytes per band. Readers: the
    // member nearer the memory, 0 (0 hops, vs 1) and 2 (1 hop, vs 2 for 3); each band's other
    // member gets its copy point to point.
    const std::int64_t band = 5 * 8 * 4;
    const Plan uni = plan_of(split(Dim::P, Dim::K), false), multi = plan_of(split(Dim::P, Dim::K), true);
    EXPECT_EQ(multi.layers[0].mapping->input_multicasts, 2);
    EXPECT_EQ(multi.layers[0].mapping->input_dram_bytes_saved, 2 * band);
    EXPECT_EQ(dram_read_bytes(uni) - dram_read_bytes(multi), 2 * band);
    const std::map<std::pair<int, int>, std::int64_t> want{{{0, 1}, band}, {{2, 3}, band}};
    EXPECT_EQ(sent(multi), want);
}

TEST(InputMulticast, NothingChangesWhenEveryChipletNeedsDifferentRows) {
    // P over the 4 chiplets: output rows 0..2, 2..4, 4..6, 6..8 need input rows 0..3, 1..5,
    // 3..7, 5..8 — overlapping but never the same region, so every chiplet reads its own.
    const Plan uni = plan_of(split(Dim::P, Dim::P), false), multi = plan_of(split(Dim::P, Dim::P), true);
    EXPECT_EQ(multi.layers[0].mapping->input_multicasts, 0);
    EXPECT_EQ(multi.layers[0].mapping->input_dram_bytes_saved, 0);
    ASSERT_EQ(uni.layers[0].ops.size(), multi.layers[0].ops.size());
    for (std::size_t i = 0; i < uni.layers[0].ops.size(); ++i) {
        const PlanOp &a = uni.layers[0].ops[i], &b = multi.layers[0].ops[i];
        EXPECT_EQ(a.kind, b.kind) << "op " << i;
        EXPECT_EQ(a.chiplet, b.chiplet) << "op " << i;
        EXPECT_EQ(a.bytes, b.bytes) << "op " << i;
        EXPECT_EQ(a.deps, b.deps) << "op " << i;
    }
}

TEST(InputMulticast, AMatMulSharesOnlyTheOperandEveryChipletNeedsWhole) {
    // out[M][N] = A[M][K] . B[K][N], M = 4, K = 8, N = 8, both operands from DRAM: A is
    // 4 x 8 = 32 bytes, B 8 x 8 = 64. Split over N (k) on the 4 chiplets: each needs all of A
    // (shared: read once by chiplet 0, forwarded to 1..3) and its own 2 columns of B
    // (8 x 2 = 16 bytes, different per chiplet: each reads its own).
    Workload w;
    w.name = "one-matmul";
    Layer L;
    L.name = "mm";
    L.kind = LayerKind::MatMul;
    L.h = L.p = 4, L.c = 8, L.k = 8, L.w = L.q = 1, L.r = L.s = 1;
    w.layers = {L};
    auto plan = [&](bool multicast) {
        Mapping m = uniform_mapping(w, split(Dim::K, Dim::K));
        for (auto& l : m.layers) l.input_multicast = multicast;
        return build_plan(arch_2x2(), w, m);
    };
    const Plan uni = plan(false), multi = plan(true);
    EXPECT_EQ(multi.layers[0].mapping->input_multicasts, 1);
    EXPECT_EQ(multi.layers[0].mapping->input_dram_bytes_saved, 3 * 32);
    EXPECT_EQ(dram_read_bytes(uni), 4 * 32 + 64);
    EXPECT_EQ(dram_read_bytes(multi), 32 + 64);
    const std::map<std::pair<int, int>, std::int64_t> want{{{0, 1}, 32}, {{0, 2}, 32}, {{0, 3}, 32}};
    EXPECT_EQ(sent(multi), want);
}

TEST(InputMulticast, TheModelPricesFewerDramBytes) {
    // 3 x 256 fewer DRAM bytes read must lower the layer's DRAM energy.
    const ArchConfig a = arch_2x2();
    const Estimate uni = estimate_plan(a, plan_of(split(Dim::K, Dim::K), false));
    const Estimate multi = estimate_plan(a, plan_of(split(Dim::K, Dim::K), true));
    auto cat = [](const Estimate& e, EnergyCategory c) { return e.ledger.layer_accounts()[0]->pj[static_cast<int>(c)]; };
    EXPECT_LT(cat(multi, EnergyCategory::Dram), cat(uni, EnergyCategory::Dram));
}

TEST(InputMulticast, TheCountsSurviveThePlanFile) {
    // Written only when inputs were multicast, read back as written; a unicast plan has no key.
    const Plan multi = plan_of(split(Dim::K, Dim::K), true);
    const Plan back = plan_from_json(plan_to_json(multi), "test");
    EXPECT_EQ(back.layers[0].mapping->input_multicasts, 1);
    EXPECT_EQ(back.layers[0].mapping->input_dram_bytes_saved, 3 * kInputBytes);
    const auto uni = plan_to_json(plan_of(split(Dim::K, Dim::K), false));
    EXPECT_EQ(uni.dump().find("input_multicasts"), std::string::npos);
}

TEST(InputMulticast, RingForwardedInputSimulatesWithConservation) {
    // The SystemC run serves exactly the plan's DRAM bytes (the input once, the filter slices)
    // and delivers every forwarded copy.
    const ArchConfig arch = arch_2x2();
    const Plan plan = plan_of(split(Dim::K, Dim::K), true, Collective::Ring);
    SimResult sim = simulate_plan(arch, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
    EXPECT_FALSE(sim.checks["deadlock"].get<bool>());
    EXPECT_EQ(sim.checks["dram_bytes_served"].get<std::int64_t>(), test_support::plan_dram_bytes(plan));
    // The input once, the whole filter (8 x 4 x 3 x 3) in slices, and the network's output
    // written back (K x P x Q = 8 x 8 x 8).
    EXPECT_EQ(test_support::plan_dram_bytes(plan), kInputBytes + 8 * 4 * 3 * 3 + 8 * 8 * 8);
}

}  // namespace test_input_delivery
