// The analytical model's memory of compute costs (mapper/model/tile_cost_cache.h): what it returns is
// what compute_cost says for the chiplet in use, also after a hardware knob changed between
// two estimates (co-design), and a changed knob is never mistaken for the same chiplet.
#include "hw/compute/compute_cost.h"
#include "mapper/model/tile_cost_cache.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_compute_tile_cost_cache {

ChipletConfig chip() {
    ChipletConfig c;
    c.pes = 4;
    c.array_kind = ArrayKind::Vector;
    c.array_rows = 8;
    c.array_cols = 4;
    c.macs_per_pe = 32;
    c.global_buffer_bytes = 1 << 22;
    return c;
}

PlanOp conv_tile() {
    PlanOp op;
    op.shape = TileShape{1, 16, 32, 14, 14, 3, 3, 1};
    op.macs = op.shape.macs();
    op.sram_bytes = 4096;
    op.vector_ops = 100;
    return op;
}

/// The cost priced directly: cycles at the chiplet's clock, energies as compute_cost gives them.
void expect_priced_as_compute_cost(const TileCost& got, const ChipletConfig& c, const PlanOp& op) {
    const ComputeCost want = compute_cost(c, op.work());
    EXPECT_EQ(got.ns, static_cast<double>(cycles_to_ps(c, want.cycles)) / 1000.0);
    EXPECT_EQ(got.compute_pj, want.compute_energy_pj());
    EXPECT_EQ(got.sram_pj, want.sram_energy_pj);
}

TEST(TileCostCache, ReturnsComputeCostOfTheChipletInUse) {
    TileCostCache cache;
    const ChipletConfig c = chip();
    cache.use(c);
    expect_priced_as_compute_cost(cache.cost(conv_tile()), c, conv_tile());
    PlanOp other = conv_tile();
    other.shape.k = 8;
    other.macs = other.shape.macs();
    expect_priced_as_compute_cost(cache.cost(other), c, other);
    expect_priced_as_compute_cost(cache.cost(conv_tile()), c, conv_tile());  // from the table now
}

TEST(TileCostCache, ForgetsCostsWhenAKnobChanges) {
    TileCostCache cache;
    const ChipletConfig slow = chip();
    cache.use(slow);
    const double slow_ns = cache.cost(conv_tile()).ns;
    ChipletConfig fast = slow;
    fast.clock_ghz = 2 * slow.clock_ghz;
    cache.use(fast);
    expect_priced_as_compute_cost(cache.cost(conv_tile()), fast, conv_tile());
    // Twice the clock, the same cycles: half the time (up to the ps rounding of cycles_to_ps).
    EXPECT_NEAR(cache.cost(conv_tile()).ns, slow_ns / 2, 1e-3);
    ChipletConfig bigger = fast;
    bigger.pes = 2 * fast.pes;
    cache.use(bigger);
    expect_priced_as_compute_cost(cache.cost(conv_tile()), bigger, conv_tile());
}

TEST(TileCostCache, SameChipletComparesEveryKnob) {
    const ChipletConfig c = chip();
    EXPECT_TRUE(same_chiplet(c, c));
    std::vector<ChipletConfig> changed(8, c);
    changed[0].mac_energy_pj *= 2;
    changed[1].array_rows = 16;
    changed[2].dataflow = Dataflow::OutputStationary;
    changed[3].input_buffer.bytes *= 2;
    changed[4].accumulation_buffer.banks = 2;
    changed[5].sram_energy_table.push_back(SramEnergyPoint{1024, 0.5});
    changed[6].vector_lanes = 32;
    changed[7].global_buffer_access_energy_pj = 3;
    for (const ChipletConfig& d : changed) EXPECT_FALSE(same_chiplet(c, d));
}

}  // namespace test_compute_tile_cost_cache
}  // namespace mcmsim
