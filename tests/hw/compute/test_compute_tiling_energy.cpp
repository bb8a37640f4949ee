// Re-tiling for DRAM and the energy of a tile: buffer overflow costs DRAM bytes worked out
// here, smaller weight buffers never save DRAM bytes, and a layer's energy is
// MACs x MAC energy + sum of accesses x access energy.
#include "hw/common/integer_math.h"
#include "hw/compute/compute_cost.h"
#include "hw/compute/energy_reference.h"
#include "hw/compute/sram_energy.h"
#include "hw/config/arch_config.h"
#include "hw/config/presets.h"
#include "mapper/workload/workload.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mcmsim {
namespace test_compute_tiling_energy {

ChipletConfig chip_with_buffers(std::int64_t weight_per_pe, std::int64_t global) {
    ChipletConfig c;
    c.pes = 2;
    c.array_rows = c.array_cols = 4;
    c.macs_per_pe = 16;
    c.weight_buffer.bytes = weight_per_pe;
    c.global_buffer_bytes = global;
    return c;
}

// Everything fits: one read of weights and inputs, nothing refetched.
TEST(ComputeTiling, FittingTileReadsEachOperandOnce) {
    const TileShape s{1, 16, 8, 10, 10, 3, 3, 1};
    const DramTiling t = compute_cost(chip_with_buffers(4096, 4096), s, 0).dram;
    EXPECT_EQ(t.schedule, TileSchedule::FitsOnChip);
    EXPECT_EQ(t.weight_bytes, 16 * 8 * 9);
    EXPECT_EQ(t.input_bytes, 8 * 12 * 12);  // (10-1)+3 = 12 rows and columns
    EXPECT_EQ(compute_cost(chip_with_buffers(4096, 4096), s, 0).dram_refetch_bytes, 0);
}

// Weights (1152 B) and inputs (1152 B) both overflow: weight chunks of
// kb = floor(2 x 256 / 72) = 7 filters -> 3 chunks, each re-reading the inputs, costs
// 2 x 1152 extra; keeping input row bands resident instead costs more (halo rows and weight
// re-reads), so the model picks the cheaper weights-resident schedule.
TEST(ComputeTiling, OverflowingBuffersRetileAndCostDramBytes) {
    const TileShape s{1, 16, 8, 10, 10, 3, 3, 1};
    const ChipletConfig chip = chip_with_buffers(256, 512);
    const ComputeCost c = compute_cost(chip, s, 0);
    const std::int64_t w = 16 * 72, in = 8 * 12 * 12;
    const std::int64_t kb = (2 * 256) / 72, weight_chunks = ceil_div(16, kb);
    const std::int64_t weights_resident = w + in * weight_chunks;
    // Inputs resident: a band of pb output rows needs (pb + 2) input rows of 8 x 12 B:
    // pb = 512 / 96 - 2 = 3 -> 4 bands, each with its window and a weight re-read.
    const std::int64_t bands = ceil_div(10, 3);
    const std::int64_t inputs_resident = bands * (3 + 2) * 96 + w * bands;
    ASSERT_LT(weights_resident, inputs_resident);
    EXPECT_EQ(c.dram.schedule, TileSchedule::WeightsResident);
    EXPECT_EQ(c.dram.dram_read_bytes, weights_resident);
    EXPECT_EQ(c.dram_refetch_bytes, weights_resident - w - in);
    EXPECT_GT(c.dram_refetch_bytes, 0);
}

// Huge weights with small inputs: keeping the input bands resident and streaming the weights
// once is cheaper than re-reading inputs; with inputs that fit, nothing is refetched.
TEST(ComputeTiling, FittingInputsStreamHugeWeightsOnce) {
    const TileShape s{1, 512, 512, 7, 7, 3, 3, 1};  // 2.36 MB of weights, 41 KB of inputs
    const ComputeCost c = compute_cost(chip_with_buffers(32768, 65536), s, 0);
    EXPECT_NE(c.dram.schedule, TileSchedule::FitsOnChip);
    EXPECT_EQ(c.dram.dram_read_bytes, 512 * 512 * 9 + 512 * 9 * 9);
    EXPECT_EQ(c.dram_refetch_bytes, 0);
}

std::vector<TileShape> resnet50_tiles() {
    std::vector<TileShape> tiles;
    for (const Layer& l : mac_layers_only(zoo_workload("resnet50", 1)).layers)
        tiles.push_back(TileShape{l.n, l.k, l.c / l.groups, l.p, l.q, l.r, l.s, l.stride});
    return tiles;
}

// Halving the weight buffer never reduces the DRAM bytes of a ResNet-50 layer (from 1 MB per
// PE down to 256 B, on a small and a large global buffer).
TEST(ComputeTiling, HalvingTheWeightBufferNeverReducesDramBytes) {
    const auto tiles = resnet50_tiles();
    for (std::int64_t global : {std::int64_t{65536}, std::int64_t{1} << 22}) {
        for (std::int64_t wb = std::int64_t{1} << 20; wb >= 512; wb /= 2) {
            const ChipletConfig big = chip_with_buffers(wb, global), small = chip_with_buffers(wb / 2, global);
            for (const TileShape& t : tiles) {
                const DramTiling a = compute_cost(big, t, 0).dram, b = compute_cost(small, t, 0).dram;
                EXPECT_GE(b.dram_read_bytes, a.dram_read_bytes) << "weight buffer " << wb << " k" << t.k << " c" << t.c;
                EXPECT_GE(b.refetch_bytes(), 0);
            }
        }
    }
}

// Energy of a layer = MACs x MAC energy + sum over buffers of accesses x energy per access,
// with the accesses counted here from the dataflow's formulas (weight stationary).
TEST(ComputeEnergy, LayerEnergyIsMacsPlusBufferAccesses) {
    ChipletConfig chip;
    chip.pes = 2;
    chip.array_rows = chip.array_cols = 4;
    chip.macs_per_pe = 16;
    chip.accumulator_bits = 32;
    chip.mac_energy_pj = 0.25;
    chip.weight_buffer = {65536, 1, 64, 1.5};
    chip.input_buffer = {65536, 1, 64, 0.75};
    chip.accumulation_buffer = {65536, 1, 128, 2.0};
    chip.global_buffer_bytes = 1 << 20;
    chip.global_buffer_width_bits = 128;
    chip.global_buffer_access_energy_pj = 3.0;
    const TileShape s{1, 10, 6, 5, 5, 3, 3, 1};  // RED 54, K 10, PIX 25
    const ComputeCost c = compute_cost(chip, s, 0);

    const std::int64_t red = 54, k = 10, pix = 25, out = k * pix;
    const std::int64_t row_folds = ceil_div(red, 4), col_folds = ceil_div(k, 4);
    // 14 x 3 = 42 folds, more than 2 PEs: the pixels stream in one chunk.
    ASSERT_EQ(c.mapping.chunks, 1);
    const std::int64_t w_bytes = k * red, in_bytes = 6 * 7 * 7;
    const std::int64_t weight_accesses = ceil_div(red * k, 8) + ceil_div(w_bytes, 8);  // array reads + DRAM fill
    const std::int64_t input_accesses = ceil_div(red * pix * col_folds, 8) + ceil_div(in_bytes, 8);
    const std::int64_t acc_accesses = 2 * ceil_div(out * row_folds * 4, 16);  // read-modify-write
    const std::int64_t global_accesses = ceil_div(in_bytes + out, 16) * 2;    // in and out again
    const double expected_sram = weight_accesses * 1.5 + input_accesses * 0.75 + acc_accesses * 2.0 + global_accesses * 3.0;

    EXPECT_DOUBLE_EQ(c.mac_energy_pj, static_cast<double>(s.macs()) * 0.25);
    EXPECT_NEAR(c.sram_energy_pj, expected_sram, 1e-9 * expected_sram);
    EXPECT_NEAR(c.mac_energy_pj + c.sram_energy_pj, s.macs() * 0.25 + expected_sram, 1e-9 * expected_sram);
    double by_buffer = 0;
    for (const BufferTraffic& b : c.buffers) by_buffer += static_cast<double>(b.reads + b.writes) * b.access_pj;
    EXPECT_NEAR(by_buffer, c.sram_energy_pj, 1e-12 * expected_sram);
}

// Derived access energies follow the CACTI table: a 32 KB, 64-bit buffer at 22 nm costs the
// table's 4.00 pJ; four banks make it 8 KB arrays (1.73 pJ); a 256-bit port costs 4^0.715 more.
TEST(ComputeEnergy, DerivedAccessEnergiesFollowTheCactiTable) {
    ChipletConfig chip;
    chip.technology_nm = 22;
    EXPECT_NEAR(sram_access_energy_pj(chip, SramBuffer{32768, 1, 64, 0}), 4.00, 1e-9);
    EXPECT_NEAR(sram_access_energy_pj(chip, SramBuffer{32768, 4, 64, 0}), 1.73, 1e-9);
    EXPECT_NEAR(sram_access_energy_pj(chip, SramBuffer{1 << 20, 1, 256, 0}), 21.1 * 208.0 / 77.2, 1e-9);
    chip.technology_nm = 45;
    EXPECT_NEAR(sram_access_energy_pj(chip, SramBuffer{1 << 20, 1, 64, 0}), 77.2, 1e-9);
    // An explicit table overrides CACTI; an explicit energy overrides both.
    chip.sram_energy_table = {{1024, 1.0}, {4096, 2.0}};
    EXPECT_NEAR(sram_access_energy_pj(chip, SramBuffer{2048, 1, 64, 0}), std::sqrt(2.0), 1e-9);
    EXPECT_DOUBLE_EQ(sram_access_energy_pj(chip, SramBuffer{2048, 1, 64, 7.5}), 7.5);
    // MAC energies: Horowitz's 0.3 pJ at 45 nm (docs/references.md#horowitz-isscc14) and 0.043 pJ at 16 nm for 8 bits.
    EXPECT_NEAR(energy_reference::mac_energy_pj(8, 45), 0.3, 1e-12);
    EXPECT_NEAR(energy_reference::mac_energy_pj(8, 16), 0.043, 1e-12);
    EXPECT_GT(energy_reference::mac_energy_pj(16, 16), energy_reference::mac_energy_pj(8, 16));
}

// The shipped presets load, hold the reference buffer sizes and give the array the MACs it claims.
TEST(ComputePresets, SimbaAndSystolic128Load) {
    const std::string dir = std::string(MCMSIM_CONFIG_DIR) + "/arch/";
    auto load = [&](const std::string& name) {
        json doc = parse_json_text("{\"chiplet\": \"" + name + "\"}", dir + "probe.json");
        return read_with_preset<ChipletConfig>(json_root(doc, dir + "probe.json").object().required("chiplet"),
                                               dir + "probe.json", "chiplets", read_chiplet_fields);
    };
    const ChipletConfig simba = load("simba");
    EXPECT_EQ(simba.pes * simba.rows() * simba.cols(), 1024);
    EXPECT_EQ(simba.weight_buffer.bytes, 32768);
    EXPECT_EQ(simba.input_buffer.bytes, 8192);
    EXPECT_EQ(simba.accumulation_buffer.bytes, 3072);
    EXPECT_EQ(simba.global_buffer_bytes, 65536);
    EXPECT_EQ(simba.precision_bits, 8);
    const ChipletConfig big = load("systolic-128");
    EXPECT_EQ(big.rows(), 128);
    EXPECT_EQ(big.cols(), 128);
    EXPECT_EQ(big.array_kind, ArrayKind::Systolic);
    EXPECT_GE(big.weight_buffer.bytes + big.input_buffer.bytes + big.accumulation_buffer.bytes + big.global_buffer_bytes,
              std::int64_t{4} << 20);
    const ChipletConfig small = load("small-test");
    EXPECT_EQ(small.macs_per_cycle(), 64);
}

}  // namespace test_compute_tiling_energy
}  // namespace mcmsim
