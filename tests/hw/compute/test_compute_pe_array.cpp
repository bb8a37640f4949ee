// The PE-array model: cycles of a convolution tile against the array formula worked out here,
// for shapes that divide the array and shapes that do not; more PEs never slow a layer.
#include "hw/common/integer_math.h"
#include "hw/compute/compute_cost.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace mcmsim {
namespace test_compute_pe_array {

/// A vector-MAC chiplet with round numbers and buffers too wide and large to stall or spill.
ChipletConfig vector_chip(Dataflow df) {
    ChipletConfig c;
    c.pes = 4;
    c.array_kind = ArrayKind::Vector;
    c.array_rows = 8;
    c.array_cols = 4;
    c.macs_per_pe = 32;
    c.pipeline_cycles = 3;
    c.dataflow = df;
    c.accumulator_bits = 32;
    c.weight_buffer = {1 << 20, 1, 0, 1.0};
    c.input_buffer = {1 << 20, 1, 0, 1.0};
    c.accumulation_buffer = {1 << 20, 1, 0, 1.0};
    c.global_buffer_bytes = 1 << 24;
    return c;
}

ChipletConfig systolic_chip(std::int64_t rows, std::int64_t cols) {
    ChipletConfig c = vector_chip(Dataflow::WeightStationary);
    c.pes = 1;
    c.array_kind = ArrayKind::Systolic;
    c.array_rows = rows;
    c.array_cols = cols;
    c.macs_per_pe = rows * cols;
    return c;
}

TileShape conv(std::int64_t k, std::int64_t c, std::int64_t p, std::int64_t r, std::int64_t stride = 1) {
    return TileShape{1, k, c, p, p, r, r, stride};
}

/// Expected cycles, written out per dataflow: which loop goes to rows, columns and time.
std::int64_t expected_cycles(const ChipletConfig& chip, const TileShape& s) {
    const std::int64_t red = s.c * s.r * s.s, pix = s.n * s.p * s.q;
    std::int64_t rows_dim = red, cols_dim = s.k, streamed = pix;  // weight stationary
    if (chip.dataflow == Dataflow::OutputStationary) rows_dim = pix, cols_dim = s.k, streamed = red;
    if (chip.dataflow == Dataflow::InputStationary) rows_dim = red, cols_dim = pix, streamed = s.k;
    const std::int64_t folds = ceil_div(rows_dim, chip.array_rows) * ceil_div(cols_dim, chip.array_cols);
    // The accumulators hold acc_bytes / (cols x 4 B) partial sums per column (WS, IS).
    std::int64_t chunks = 1;
    if (chip.dataflow != Dataflow::OutputStationary)
        chunks = ceil_div(streamed, chip.accumulation_buffer.bytes / (chip.array_cols * 4));
    chunks = std::max(chunks, std::min(streamed, chip.pes / folds));  // idle PEs take a share
    // Systolic: the skewed wavefront reaches the last PE R - 1 + C - 1 cycles after the first;
    // WS and IS first shift their stationary operand in, one row per cycle (R more); OS drains
    // its outputs while the next pass fills.
    const std::int64_t skew = chip.array_rows + chip.array_cols - 2;
    const std::int64_t fill = chip.array_kind != ArrayKind::Systolic        ? chip.pipeline_cycles
                              : chip.dataflow == Dataflow::OutputStationary ? skew
                                                                            : chip.array_rows + skew;
    return ceil_div(folds * chunks, chip.pes) * (fill + ceil_div(streamed, chunks));
}

// Shapes that fill every row and column of an 8x4 PE.
TEST(ComputePeArray, DividingShapeMatchesTheArrayFormula) {
    for (Dataflow df : {Dataflow::WeightStationary, Dataflow::OutputStationary, Dataflow::InputStationary}) {
        const ChipletConfig chip = vector_chip(df);
        const TileShape s = conv(16, 8, 8, 1);  // RED 8, K 16, PIX 64
        const ComputeCost c = compute_cost(chip, s, 0);
        EXPECT_EQ(c.cycles, expected_cycles(chip, s)) << to_string(df);
        EXPECT_EQ(c.macs, 16 * 8 * 64);
    }
    // Weight stationary by hand: 1 row fold x 4 column folds over 4 PEs, one round of
    // 3 + 64 cycles; utilisation = 8192 MACs / (67 cycles x 128 MACs).
    const ComputeCost ws = compute_cost(vector_chip(Dataflow::WeightStationary), conv(16, 8, 8, 1), 0);
    EXPECT_EQ(ws.cycles, 3 + 64);
    EXPECT_DOUBLE_EQ(ws.utilization, 8192.0 / (67.0 * 128.0));
}

// Partial folds cost whole passes: utilisation drops below what the MAC count alone says.
TEST(ComputePeArray, NonDividingShapeMatchesTheArrayFormulaAndLosesUtilisation) {
    for (Dataflow df : {Dataflow::WeightStationary, Dataflow::OutputStationary, Dataflow::InputStationary}) {
        const ChipletConfig chip = vector_chip(df);
        for (const TileShape& s : {conv(5, 3, 7, 3), conv(17, 9, 13, 1), conv(64, 3, 55, 7, 2)}) {
            const ComputeCost c = compute_cost(chip, s, 0);
            EXPECT_EQ(c.cycles, expected_cycles(chip, s)) << to_string(df) << " k" << s.k;
            EXPECT_GT(c.cycles, ceil_div(s.macs(), chip.macs_per_cycle()));
            EXPECT_LT(c.utilization, 1.0);
        }
    }
    // By hand, weight stationary, K 5, C·R·S 27, 7x7 pixels: 4 row folds (27/8) x 2 column
    // folds (5/4) = 8 passes over 4 PEs = 2 rounds of 3 + 49 cycles.
    EXPECT_EQ(compute_cost(vector_chip(Dataflow::WeightStationary), conv(5, 3, 7, 3), 0).cycles, 2 * (3 + 49));
}

// A systolic grid pays 2R + C - 2 cycles to fill and drain every pass (SCALE-Sim).
TEST(ComputePeArray, SystolicPassPaysFillAndDrain) {
    const ChipletConfig chip = systolic_chip(16, 8);
    const TileShape s = conv(20, 16, 10, 1);  // RED 16 -> 1 row fold; K 20 -> 3 column folds
    EXPECT_EQ(compute_cost(chip, s, 0).cycles, 3 * (2 * 16 + 8 - 2 + 100));
    EXPECT_EQ(compute_cost(chip, s, 0).cycles, expected_cycles(chip, s));
}

// Per dataflow on a 16x8 systolic grid, for a shape that divides it and one that does not.
// Dividing: RED 16 (C 16, 1x1), K 16, PIX 64 (8x8).
//   WS: rows RED 16/16 = 1, cols K 16/8 = 2 folds, 64 pixels streamed: 2 x (2·16 + 8 - 2 + 64)
//   OS: rows PIX 64/16 = 4, cols K 16/8 = 2 folds, 16 reduction steps: 8 x (16 + 8 - 2 + 16)
//   IS: rows RED 16/16 = 1, cols PIX 64/8 = 8 folds, 16 filters streamed: 8 x (2·16 + 8 - 2 + 16)
// Not dividing: RED 27 (C 3, 3x3), K 5, PIX 49 (7x7).
//   WS: 2 row folds x 1 col fold, 49 streamed: 2 x (38 + 49)
//   OS: 4 row folds (49/16) x 1, 27 streamed: 4 x (22 + 27)
//   IS: 2 row folds x 7 col folds (49/8), 5 streamed: 14 x (38 + 5)
TEST(ComputePeArray, SystolicFillAndDrainPerDataflow) {
    ChipletConfig chip = systolic_chip(16, 8);
    const std::pair<Dataflow, std::pair<std::int64_t, std::int64_t>> cases[] = {
        {Dataflow::WeightStationary, {2 * (38 + 64), 2 * (38 + 49)}},
        {Dataflow::OutputStationary, {8 * (22 + 16), 4 * (22 + 27)}},
        {Dataflow::InputStationary, {8 * (38 + 16), 14 * (38 + 5)}}};
    for (const auto& [df, expected] : cases) {
        chip.dataflow = df;
        EXPECT_EQ(compute_cost(chip, conv(16, 16, 8, 1), 0).cycles, expected.first) << to_string(df);
        EXPECT_EQ(compute_cost(chip, conv(5, 3, 7, 3), 0).cycles, expected.second) << to_string(df);
        EXPECT_EQ(compute_cost(chip, conv(5, 3, 7, 3), 0).cycles, expected_cycles(chip, conv(5, 3, 7, 3)));
    }
}

// A small accumulation buffer cuts the streamed pixels into chunks: more passes, more fills.
TEST(ComputePeArray, AccumulatorCapacityChunksTheStream) {
    ChipletConfig chip = systolic_chip(8, 8);
    chip.accumulation_buffer.bytes = 8 * 4 * 25;  // 25 partial sums per column
    const TileShape s = conv(8, 8, 10, 1);        // one fold, 100 pixels -> 4 chunks of 25
    const ComputeCost c = compute_cost(chip, s, 0);
    EXPECT_EQ(c.mapping.chunks, 4);
    EXPECT_EQ(c.cycles, 4 * (2 * 8 + 8 - 2 + 25));
}

// A port narrower than the array's appetite stretches every streamed step.
TEST(ComputePeArray, NarrowInputPortStalls) {
    ChipletConfig chip = vector_chip(Dataflow::WeightStationary);
    chip.input_buffer.width_bits = 32;  // 4 B per cycle for 8 rows x 1 B per step: 2x
    const TileShape s = conv(4, 8, 8, 1);
    EXPECT_DOUBLE_EQ(compute_cost(chip, s, 0).mapping.stall, 2.0);
    // 1 fold; 4 PEs share the 64 pixels as 4 chunks of 16 steps at 2 cycles each.
    EXPECT_EQ(compute_cost(chip, s, 0).cycles, 3 + 2 * 16);
}

// Ops that give only a MAC count keep the old rate model; vector ops add ceil(ops / lanes).
TEST(ComputePeArray, WithoutShapeFallsBackToMacRate) {
    const ChipletConfig chip = vector_chip(Dataflow::WeightStationary);
    PlanOp op;
    op.macs = 1000;
    op.vector_ops = 33;
    op.sram_bytes = 100;
    const ComputeCost c = compute_cost(chip, op.work());
    EXPECT_FALSE(c.shaped);
    EXPECT_EQ(c.cycles, ceil_div(1000, 128) + ceil_div(33, chip.vector_lanes));
    EXPECT_DOUBLE_EQ(c.sram_energy_pj, 100 * chip.sram_energy_pj_per_byte);
    EXPECT_EQ(c.dram_refetch_bytes, 0);
}

/// The ResNet-50 MAC layers as whole-layer tiles.
std::vector<TileShape> resnet50_tiles() {
    std::vector<TileShape> tiles;
    for (const Layer& l : mac_layers_only(zoo_workload("resnet50", 1)).layers)
        tiles.push_back(TileShape{l.n, l.k, l.c / l.groups, l.p, l.q, l.r, l.s, l.stride});
    return tiles;
}

ChipletConfig simba_like() {
    ChipletConfig c;
    c.pes = 16;
    c.array_rows = c.array_cols = 8;
    c.macs_per_pe = 64;
    c.pipeline_cycles = 5;
    c.weight_buffer = {32768, 1, 64, 0};
    c.input_buffer = {8192, 1, 64, 0};
    c.accumulation_buffer = {3072, 2, 192, 0};
    c.global_buffer_bytes = 65536;
    return c;
}

// Doubling the PEs never makes a layer slower, on every ResNet-50 layer, for all dataflows and
// for both a vector chiplet and a systolic one.
TEST(ComputePeArray, DoublingThePesNeverSlowsAResNet50Layer) {
    std::vector<ChipletConfig> chips;
    for (Dataflow df : {Dataflow::WeightStationary, Dataflow::OutputStationary, Dataflow::InputStationary}) {
        ChipletConfig v = simba_like();
        v.dataflow = df;
        chips.push_back(v);
        ChipletConfig s = systolic_chip(32, 32);
        s.dataflow = df;
        s.accumulation_buffer.bytes = 32 * 4 * 256;
        chips.push_back(s);
    }
    const auto tiles = resnet50_tiles();
    ASSERT_EQ(tiles.size(), 54u);
    for (ChipletConfig chip : chips) {
        for (int doubling = 0; doubling < 4; ++doubling) {
            ChipletConfig bigger = chip;
            bigger.pes *= 2;
            for (const TileShape& t : tiles)
                EXPECT_LE(compute_cost(bigger, t, 0).cycles, compute_cost(chip, t, 0).cycles)
                    << to_string(chip.dataflow) << " pes " << chip.pes << " k" << t.k << " c" << t.c << " p" << t.p;
            chip = bigger;
        }
    }
}

}  // namespace test_compute_pe_array
}  // namespace mcmsim
