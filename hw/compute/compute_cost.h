#pragma once
// The one cost function for compute ops: the SystemC chiplet, the analytical model and the
// mapper all call it, so simulation and model agree by construction.
//
// With a shape (TileShape, hw/compute/compute_work.h):
//   cycles     = array cycles (pe_array_model.h) + vector cycles
//   energy     = MACs x mac_energy_pj + vector_ops x vector_op_energy_pj      (Compute)
//              + sum over buffers of accesses x energy per access             (Sram)
//   dram_refetch_bytes: DRAM reads re-tiling adds beyond one read of weights and inputs
//   (tiling.h); the op's DRAM reads in the plan should grow by this much.
// Without a shape (only a MAC count known):
//   cycles = ceil(MACs / (pes x macs_per_pe)) + vector cycles; SRAM energy is the op's
//   sram_bytes x sram_energy_pj_per_byte (ComputeWork overload only).
// vector cycles = ceil(vector_ops / vector_lanes): element-wise work after the MACs on the
// same unit. Leakage is per second of the run, not per op: leakage_energy_pj().
// Pure C++.
#include "hw/compute/buffer_traffic.h"
#include "hw/compute/compute_work.h"
#include "hw/compute/pe_array_model.h"
#include "hw/compute/tiling.h"
#include "hw/config/chiplet_config.h"

#include <cstdint>

namespace mcmsim {

struct ComputeCost {
    std::int64_t cycles = 0;         ///< array_cycles + vector_cycles
    std::int64_t array_cycles = 0;   ///< MAC work on the PE array
    std::int64_t vector_cycles = 0;  ///< element-wise work
    std::int64_t macs = 0, vector_ops = 0;
    bool shaped = false;         ///< false: the MAC-count fallback
    ArrayMapping mapping;        ///< shaped only
    DramTiling dram;             ///< shaped only
    BufferTrafficSet buffers{};  ///< shaped only
    std::int64_t dram_refetch_bytes = 0;
    double mac_energy_pj = 0;     ///< MACs x energy per MAC
    double vector_energy_pj = 0;  ///< vector_ops x energy per op
    double sram_energy_pj = 0;    ///< buffers, or the sram_bytes fallback
    /// MACs over what the whole chiplet could have done in array_cycles (0 with no MACs).
    double utilization = 0;

    double compute_energy_pj() const { return mac_energy_pj + vector_energy_pj; }
    double buffer_energy_pj(BufferKind b) const { return buffers[static_cast<int>(b)].energy_pj(); }
};

/// Cost of a tile of `shape` (empty shape: no MACs) plus `vector_ops` element-wise operations.
ComputeCost compute_cost(const ChipletConfig& chip, const TileShape& shape, std::int64_t vector_ops);

/// Cost of a compute op's work: its shape when it has one (sram_bytes is then ignored: the
/// buffer model counts the accesses), else the MAC-count fallback with sram_bytes.
ComputeCost compute_cost(const ChipletConfig& chip, const ComputeWork& work);

/// Picoseconds of `cycles` at the chiplet clock, rounded to the nearest picosecond (the
/// simulator's tick; the analytical model uses the same rounding).
std::int64_t cycles_to_ps(const ChipletConfig& chip, std::int64_t cycles);

/// Static energy of one chiplet over `ns` nanoseconds: leakage_mw x ns (1 mW x 1 ns = 1 pJ).
inline double leakage_energy_pj(const ChipletConfig& chip, double ns) { return chip.leakage_mw * ns; }

}  // namespace mcmsim
