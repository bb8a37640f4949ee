// End-to-end: ResNet-50, mapped uniformly onto the 2x2 test package, simulated in SystemC.
// Expectations come from the workload's formulas and from the independent analytical model.
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/support/in_child.h"
#include "traces/report/layer_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace mcmsim;

namespace test_system {

struct ResNetRun {
    ArchConfig arch = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json");
    Workload w = zoo_workload("resnet50", 1);
    Plan plan = map_uniform(arch, w, 1);
    SimResult sim = simulate_plan(arch, plan);
};

// Every op runs, every packet arrives, and the bytes the plan moves are the bytes moved.
TEST(System, ResNet50RunsToCompletionAndConserves) {
    ResNetRun r;
    EXPECT_TRUE(r.sim.completed);
    EXPECT_TRUE(r.sim.conservation_ok);
    EXPECT_EQ(r.sim.checks["ops_executed"], r.sim.checks["ops_total"]);
    EXPECT_EQ(r.sim.checks["packets_injected"], r.sim.checks["packets_delivered"]);
    EXPECT_FALSE(r.sim.checks["deadlock"].get<bool>());
    // DRAM traffic of the uniform mapping, from the workload: all weights once, the network
    // input once per chiplet, the network output once — plus what re-tiling fetches again on
    // chiplets whose buffers are too small for a tile (the compute model says how much).
    const Layer& first = r.w.layers.front();
    const Layer& last = r.w.layers.back();
    std::int64_t refetch = 0;
    for (const auto& l : r.plan.layers)
        for (const auto& op : l.ops)
            if (op.kind == OpKind::Compute && !op.shape.empty())
                refetch += compute_cost(r.arch.chiplet, op.shape, 0).dram_refetch_bytes;
    std::int64_t expected = r.w.total_weight_bytes() + 4 * first.input_bytes() + last.output_bytes() + refetch;
    // Spills (mapper/plan_builder/output_spill.h): a layer with consumers whose K quarter of the output
    // exceeds a chiplet's global buffer writes it to DRAM once; every layer reading such an
    // output needs, on each of the 4 chiplets alike (a K split), all the input rows and
    // columns ((p - 1) x stride - pad + r of them, at most h) of all its channels: each
    // owner's part is the same for all 4, so it is read once and forwarded to the others.
    const std::int64_t buffer = r.arch.chiplet.global_buffer_bytes;
    std::vector<bool> spilled(r.w.layers.size(), false);
    for (std::size_t l = 0; l + 1 < r.w.layers.size(); ++l) {  // the last layer has no consumers
        const Layer& L = r.w.layers[l];
        spilled[l] = L.output_bytes() / 4 > buffer;
        if (spilled[l]) expected += L.output_bytes();
    }
    for (const Layer& L : r.w.layers) {
        bool reads_spill = false;
        for (int p : L.inputs) reads_spill = reads_spill || spilled[static_cast<std::size_t>(p)];
        if (!reads_spill) continue;
        const std::int64_t rows = std::min(L.h, (L.p - 1) * L.stride - L.pad + L.r);
        const std::int64_t cols = std::min(L.w, (L.q - 1) * L.stride - L.pad + L.s);
        expected += L.n * L.c * rows * cols * L.bytes_per_element;
    }
    EXPECT_EQ(r.sim.checks["dram_bytes_served"].get<std::int64_t>(), expected);
}

// Compute energy is MACs x energy per MAC: nothing more, nothing less.
TEST(System, ComputeEnergyIsMacsTimesMacEnergy) {
    ResNetRun r;
    EXPECT_NEAR(r.sim.ledger.category_pj(EnergyCategory::Compute), 4089184256.0 * r.arch.chiplet.mac_energy_pj,
                1e-6 * 4089184256.0 * r.arch.chiplet.mac_energy_pj);
}

// The simulation can never beat the compute bound: total MACs over the package's peak rate.
TEST(System, LatencyIsAtLeastTheComputeBound) {
    ResNetRun r;
    double bound_ns = 4089184256.0 / (r.arch.chiplet.peak_macs_per_ns() * r.arch.chiplet_count());
    EXPECT_GE(r.sim.simulated_ns, bound_ns);
}

// The analytical model books the same packets, flits, bytes and compute costs, so energy of
// those categories agrees to rounding. DRAM energy depends on row hits and on how long banks
// stay open, which the model only approximates (a stream opens each row once; background is
// active for the share of the run the transfers take): within 5 %. Latency within 10 % on
// this compute-bound package.
TEST(System, AgreesWithTheAnalyticalModel) {
    ResNetRun r;
    Estimate e = estimate_plan(r.arch, r.plan);
    for (auto cat : {EnergyCategory::Compute, EnergyCategory::Sram, EnergyCategory::Noc, EnergyCategory::D2d}) {
        EXPECT_NEAR(r.sim.ledger.category_pj(cat), e.ledger.category_pj(cat), 1e-6 * e.ledger.total_pj()) << to_string(cat);
    }
    EXPECT_NEAR(r.sim.ledger.category_pj(EnergyCategory::Dram), e.ledger.category_pj(EnergyCategory::Dram),
                0.05 * e.ledger.category_pj(EnergyCategory::Dram));
    EXPECT_NEAR(r.sim.ledger.total_pj(), e.ledger.total_pj(), 0.05 * e.ledger.total_pj());
    EXPECT_NEAR(r.sim.simulated_ns, e.latency_ns, 0.10 * e.latency_ns);
}

// Layer latencies are a partition of the run: they add up to the total latency.
TEST(System, LayerLatenciesAddUpToTheTotal) {
    ResNetRun r;
    PlanIndex idx(r.plan);
    auto layers = summarize_layers(r.plan, idx, r.sim.ops);
    ASSERT_EQ(layers.size(), 54u);
    double sum = 0;
    for (const auto& l : layers) sum += l.latency_ns;
    EXPECT_NEAR(sum, r.sim.simulated_ns, 1e-6 * r.sim.simulated_ns);
}

}  // namespace test_system

namespace test_system_vc {

// A few layers big enough to load every link of the 4x4 package for a while, small enough
// to simulate in moments.
Workload three_convs() {
    Workload w;
    w.name = "three-convs";
    auto conv = [](const char* name, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t stride) {
        Layer L;
        L.name = name;
        L.kind = LayerKind::Conv;
        L.c = c, L.h = hw, L.w = hw, L.k = k, L.r = 3, L.s = 3, L.stride = stride, L.pad = 1;
        L.p = L.q = (hw + 2 - 3) / stride + 1;
        return L;
    };
    w.layers = {conv("conv1", 16, 56, 64, 1), conv("conv2", 64, 56, 128, 2), conv("conv3", 128, 28, 128, 1)};
    for (std::size_t l = 1; l < w.layers.size(); ++l) w.layers[l].inputs = {static_cast<int>(l) - 1};
    return w;
}

ArchConfig organic_4x4(RouterModel model) {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json");
    a.package.router.model = model;
    for (MemoryConfig& m : a.memories) m.phy_energy_pj_per_bit = 0.25;  // so that the PHYs' share shows
    return a;
}

// What a run produced, down to the last bit of every op time and energy, as a fingerprint.
struct Fingerprint {
    std::uint64_t hash;
    std::size_t ops;
    bool ok;
    double noc_pj, d2d_pj;
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 1099511628211ull; }
std::uint64_t bits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

Fingerprint run(const ArchConfig& arch, const Plan& plan, int threads) {
    return test_support::in_child<Fingerprint>([&] {
        SimOptions opt;
        opt.threads = threads;
        const SimResult r = simulate_plan(arch, plan, opt);
        std::uint64_t h = 14695981039346656037ull;
        for (const OpTimes& t : r.ops) h = mix(mix(h, bits(t.start_ns)), bits(t.end_ns));
        for (const auto& layer : r.ledger.layer_accounts())
            for (double pj : layer->pj) h = mix(h, bits(pj));
        h = mix(h, std::hash<std::string>{}(r.ledger.components_json().dump()));  // every router's, link's, PHY's
        return Fingerprint{h, r.ops.size(), r.completed && r.conservation_ok, r.ledger.category_pj(EnergyCategory::Noc),
                           r.ledger.category_pj(EnergyCategory::D2d)};
    });
}

// The flit-level network stepped by two threads (bands of rows, flits and credits posted
// between them) gives the run one thread gives, bit for bit: op times, every layer's energy
// and every component's.
TEST(SystemVc, TwoThreadsGiveTheRunOneGives) {
    const ArchConfig arch = organic_4x4(RouterModel::Vc);
    const Plan plan = map_uniform(arch, three_convs(), 1);
    const Fingerprint one = run(arch, plan, 1), two = run(arch, plan, 2);
    ASSERT_TRUE(one.ok);
    ASSERT_TRUE(two.ok);
    EXPECT_EQ(one.ops, plan.op_count());
    EXPECT_EQ(one.hash, two.hash);
}

// Both network models book a flit's energy at every router it crosses, over every package
// link and through a memory PHY at either end, for the same flits: on the same plan, network
// and die-to-die energy agree to rounding, however differently the flits were timed.
TEST(SystemVc, NetworkEnergyIsTheSameInBothModels) {
    const Plan plan = map_uniform(organic_4x4(RouterModel::Packet), three_convs(), 1);
    const Fingerprint packet = run(organic_4x4(RouterModel::Packet), plan, 1);
    const Fingerprint vc = run(organic_4x4(RouterModel::Vc), plan, 1);
    ASSERT_TRUE(packet.ok);
    ASSERT_TRUE(vc.ok);
    EXPECT_GT(packet.d2d_pj, 0);
    EXPECT_NEAR(vc.noc_pj, packet.noc_pj, 1e-9 * packet.noc_pj);
    EXPECT_NEAR(vc.d2d_pj, packet.d2d_pj, 1e-9 * packet.d2d_pj);
}

}  // namespace test_system_vc
