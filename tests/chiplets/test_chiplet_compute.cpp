// The SystemC chiplet running shaped compute ops on its PE array: one convolution layer on
// one chiplet lasts the array formula's cycles, books MAC energy as Compute and buffer
// accesses as Sram, and leakage x run length once the run is over.
#include "chiplets/chiplet.h"
#include "hw/common/integer_math.h"
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "noc/package_network.h"
#include "sim/system/system.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_chiplet_compute {

constexpr double kClockGhz = 1.25;  // 800 ps per cycle
constexpr std::int64_t kPes = 4, kRows = 8, kCols = 4, kPipeline = 3;
constexpr double kMacPj = 0.25, kLeakageMw = 40;

/// 1x1 package, one memory; the chiplet: 4 PEs of 8 lanes x 4 vector MACs, weight stationary,
/// buffers large and wide enough never to spill or stall, round access energies.
ArchConfig make_arch() {
    ArchConfig a;
    a.name = "chiplet-compute-test";
    ChipletConfig& c = a.chiplet;
    c.clock_ghz = kClockGhz;
    c.pes = kPes;
    c.array_kind = ArrayKind::Vector;
    c.array_rows = kRows;
    c.array_cols = kCols;
    c.macs_per_pe = kRows * kCols;
    c.pipeline_cycles = kPipeline;
    c.dataflow = Dataflow::WeightStationary;
    c.accumulator_bits = 32;
    c.mac_energy_pj = kMacPj;
    c.vector_lanes = 16;
    c.vector_op_energy_pj = 0.5;
    c.weight_buffer = {1 << 20, 1, 0, 1.0};
    c.input_buffer = {1 << 20, 1, 0, 0.5};
    c.accumulation_buffer = {1 << 20, 1, 0, 2.0};
    c.global_buffer_bytes = 1 << 22;
    c.global_buffer_access_energy_pj = 4.0;
    c.leakage_mw = kLeakageMw;
    a.package.rows = a.package.cols = 1;
    MemoryConfig m;
    m.name = "hbm";
    m.dram.capacity_bytes = 1 << 20;
    a.memories = {m};
    return a;
}

Plan one_layer(const TileShape& shape, std::int64_t vector_ops = 0) {
    PlanOp op;
    op.id = 1;
    op.chiplet = 0;
    op.kind = OpKind::Compute;
    op.shape = shape;
    op.macs = shape.macs();
    op.vector_ops = vector_ops;
    Plan p;
    p.arch = "chiplet-compute-test";
    p.workload = p.optimizer = "hand";
    p.chiplets = 1;
    p.memories = 1;
    PlanLayer layer;
    layer.name = "conv";
    layer.macs = op.macs;
    layer.ops = {op};
    p.layers = {layer};
    return p;
}

/// Weight-stationary cycles of a conv tile: C·R·S on the 8 lanes, K on the 4 vector MACs,
/// the output pixels streamed; folds spread over the PEs, each pass pays the pipeline.
std::int64_t ws_cycles(const TileShape& s) {
    const std::int64_t folds = ceil_div(s.c * s.r * s.s, kRows) * ceil_div(s.k, kCols);
    const std::int64_t pixels = s.n * s.p * s.q;
    const std::int64_t chunks = std::max<std::int64_t>(1, std::min(pixels, kPes / folds));
    return ceil_div(folds * chunks, kPes) * (kPipeline + ceil_div(pixels, chunks));
}

double cycles_ns(std::int64_t cycles) { return static_cast<double>(cycles) / kClockGhz; }

constexpr double kPs = 1e-3;

// A layer whose shape divides the array (C·R·S = 8 x 9, K = 32) and one that does not
// (C·R·S = 3 x 49, K = 10, stride 2): the op lasts the array formula's cycles at the clock.
TEST(ChipletPeArray, ConvLayerLastsTheArrayFormula) {
    init_time_resolution();
    for (const TileShape& s : {TileShape{1, 32, 8, 14, 14, 3, 3, 1}, TileShape{1, 10, 3, 28, 28, 7, 7, 2}}) {
        const ChipletConfig chip = make_arch().chiplet;
        EXPECT_EQ(compute_cost(chip, s, 0).cycles, ws_cycles(s)) << "k" << s.k;
    }
}

// Through the simulator (one SystemC run per process), on the shape that does not divide.
TEST(ChipletPeArray, SimulatedDurationIsTheArrayFormula) {
    init_time_resolution();
    const TileShape s{1, 10, 3, 28, 28, 7, 7, 2};  // does not divide the array
    SimResult r = simulate_plan(make_arch(), one_layer(s, 100));
    ASSERT_TRUE(r.completed);
    const std::int64_t cycles = ws_cycles(s) + ceil_div(100, 16);  // + vector ops on 16 lanes
    EXPECT_NEAR(r.ops[0].end_ns - r.ops[0].start_ns, cycles_ns(cycles), kPs / 2);
    // Utilisation the chiplet reports: MACs over peak x time.
    const auto& stats = r.stats["chiplets"][0];
    EXPECT_EQ(stats["macs"].get<std::int64_t>(), s.macs());
    EXPECT_NEAR(stats["mac_utilization"].get<double>(),
                static_cast<double>(s.macs()) / (kPes * kRows * kCols * kClockGhz * cycles_ns(cycles)), 1e-3);
}

// Compute energy = MACs x MAC energy + vector ops x their energy; SRAM energy = the buffer
// accesses x access energy that the compute model counts (checked against hand formulas in
// test_compute_tiling_energy.cpp); both in the chiplet's and the layer's accounts.
TEST(ChipletPeArray, EnergyIsMacsAndBufferAccesses) {
    init_time_resolution();
    const TileShape s{1, 32, 8, 14, 14, 3, 3, 1};
    const ArchConfig arch = make_arch();
    SimResult r = simulate_plan(arch, one_layer(s, 64));
    ASSERT_TRUE(r.completed);
    const double compute = static_cast<double>(s.macs()) * kMacPj + 64 * 0.5;
    EXPECT_DOUBLE_EQ(r.ledger.category_pj(EnergyCategory::Compute), compute);
    const ComputeCost cost = compute_cost(arch.chiplet, s, 64);
    double sram = 0;
    for (const BufferTraffic& b : cost.buffers) sram += static_cast<double>(b.reads + b.writes) * b.access_pj;
    EXPECT_GT(sram, 0);
    EXPECT_NEAR(r.ledger.category_pj(EnergyCategory::Sram), sram, 1e-9 * sram);
    const auto& layer = *r.ledger.layer_accounts().at(0);
    EXPECT_NEAR(layer.pj[static_cast<int>(EnergyCategory::Sram)], sram, 1e-9 * sram);
    EXPECT_DOUBLE_EQ(layer.pj[static_cast<int>(EnergyCategory::Compute)], compute);
}

// Leakage is booked once the run's length is known: leakage_mw x ns (1 mW for 1 ns = 1 pJ).
TEST(ChipletPeArray, LeakageIsPowerTimesRunLength) {
    init_time_resolution();
    const ArchConfig arch = make_arch();
    const Plan plan = one_layer(TileShape{1, 32, 8, 14, 14, 3, 3, 1});
    const PlanIndex index(plan);
    std::vector<OpTiming> timing(index.size());
    EnergyLedger ledger;
    std::unique_ptr<PackageNetwork> net = make_package_network("network", arch, ledger);
    Chiplet chiplet("chiplet_0", 0, arch.chiplet, arch.package.packet_format(), *net, ledger, index, timing);
    sc_core::sc_start();
    ASSERT_EQ(chiplet.ops_done(), 1u);
    const Tick end = timing[0].end;
    const double before = ledger.category_pj(EnergyCategory::Leakage);
    const double pj = chiplet.book_leakage(end);
    EXPECT_DOUBLE_EQ(pj, kLeakageMw * ticks_to_ns(end));
    EXPECT_DOUBLE_EQ(ledger.category_pj(EnergyCategory::Leakage) - before, pj);
    EXPECT_THROW(chiplet.book_leakage(end), std::logic_error);
}

}  // namespace test_chiplet_compute
}  // namespace mcmsim
