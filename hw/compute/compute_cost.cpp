#include "hw/compute/compute_cost.h"

#include "hw/common/integer_math.h"

#include <cmath>

namespace mcmsim {

namespace {

/// Cycles, MAC and vector energy common to both paths.
void finish(const ChipletConfig& chip, ComputeCost& c) {
    c.vector_cycles = ceil_div(c.vector_ops, chip.vector_lanes);
    c.cycles = c.array_cycles + c.vector_cycles;
    c.mac_energy_pj = static_cast<double>(c.macs) * chip.mac_energy_pj;
    c.vector_energy_pj = static_cast<double>(c.vector_ops) * chip.vector_op_energy_pj;
    c.utilization = c.array_cycles > 0 ? static_cast<double>(c.macs) /
                                             (static_cast<double>(c.array_cycles) * static_cast<double>(chip.macs_per_cycle()))
                                       : 0.0;
}

ComputeCost unshaped(const ChipletConfig& chip, std::int64_t macs, std::int64_t vector_ops) {
    ComputeCost c;
    c.macs = macs;
    c.vector_ops = vector_ops;
    c.array_cycles = ceil_div(macs, chip.macs_per_cycle());
    finish(chip, c);
    return c;
}

}  // namespace

ComputeCost compute_cost(const ChipletConfig& chip, const TileShape& shape, std::int64_t vector_ops) {
    if (shape.empty()) return unshaped(chip, 0, vector_ops);
    ComputeCost c;
    c.shaped = true;
    c.macs = shape.macs();
    c.vector_ops = vector_ops;
    c.mapping = map_to_array(chip, shape);
    c.array_cycles = c.mapping.cycles;
    c.dram = tile_for_dram(chip, shape);
    c.dram_refetch_bytes = c.dram.refetch_bytes();
    c.buffers = buffer_traffic(chip, shape, c.mapping, c.dram);
    for (const BufferTraffic& b : c.buffers) c.sram_energy_pj += b.energy_pj();
    finish(chip, c);
    return c;
}

ComputeCost compute_cost(const ChipletConfig& chip, const ComputeWork& work) {
    if (!work.shape.empty()) return compute_cost(chip, work.shape, work.vector_ops);
    ComputeCost c = unshaped(chip, work.macs, work.vector_ops);
    c.sram_energy_pj = static_cast<double>(work.sram_bytes) * chip.sram_energy_pj_per_byte;
    return c;
}

std::int64_t cycles_to_ps(const ChipletConfig& chip, std::int64_t cycles) {
    return std::llround(static_cast<double>(cycles) * 1000.0 / chip.clock_ghz);
}

}  // namespace mcmsim
