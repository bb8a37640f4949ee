#pragma once
// Compute-chiplet configuration: the typed form of a configs/chiplets/*.json preset.
//
// The chiplet is `pes` processing elements, each an array of array_rows x array_cols MACs
// (macs_per_pe = rows x cols) with its own weight, input and accumulation buffers; the PEs
// share a global buffer. The timing, energy and tiling that follow from these fields are
// computed by hw/compute/compute_cost.h.
#include "hw/config/json_input.h"

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// How the MACs of one PE are wired: a skewed systolic grid (data hops PE to PE, so a pass
/// pays to fill and drain the grid) or vector MACs fed by broadcast with an adder tree (a
/// short fixed pipeline).
enum class ArrayKind { Vector, Systolic };
/// Which operand stays in the array during a pass; the other two stream through it.
enum class Dataflow { WeightStationary, OutputStationary, InputStationary };

template <>
struct ChoiceNames<ArrayKind> {
    static constexpr std::pair<ArrayKind, const char*> all[] = {{ArrayKind::Vector, "vector"}, {ArrayKind::Systolic, "systolic"}};
};
template <>
struct ChoiceNames<Dataflow> {
    static constexpr std::pair<Dataflow, const char*> all[] = {{Dataflow::WeightStationary, "weight_stationary"},
                                                               {Dataflow::OutputStationary, "output_stationary"},
                                                               {Dataflow::InputStationary, "input_stationary"}};
};

/// One on-chip SRAM buffer.
struct SramBuffer {
    std::int64_t bytes = 0;       ///< capacity (per PE for the PE buffers)
    std::int64_t banks = 1;       ///< independent banks, each bytes / banks
    std::int64_t width_bits = 0;  ///< port width per bank; 0 = as wide as the array needs
    double access_energy_pj = 0;  ///< per access of one port; 0 = from sram_energy_table
};

/// A point of the SRAM energy table: energy of one 64-bit access to an array of `bytes`.
struct SramEnergyPoint {
    std::int64_t bytes = 0;
    double pj_per_access = 0;
};

struct ChipletConfig {
    std::string preset;  ///< preset it came from, "" if inline
    double clock_ghz = 1.0;
    std::int64_t pes = 1;          ///< processing elements
    std::int64_t macs_per_pe = 1;  ///< MACs per PE per cycle (= array_rows x array_cols)
    double mac_energy_pj = 0.1;    ///< energy of one MAC at the chiplet's precision and node
    /// Fallback SRAM energy per byte, for compute ops that carry no shape (only a MAC count
    /// and sram_bytes): the PE-array model does not cover them.
    double sram_energy_pj_per_byte = 1.0;
    std::int64_t global_buffer_bytes = 65536;
    double ni_bandwidth_gbps = 256;  ///< network-interface injection/ejection bandwidth (GB/s)

    // --- PE array ---
    ArrayKind array_kind = ArrayKind::Vector;
    /// MACs per PE along the array's rows and columns; 0 x 0 = one vector of macs_per_pe lanes.
    std::int64_t array_rows = 0, array_cols = 0;
    std::int64_t pipeline_cycles = 2;  ///< vector arrays: cycles from first operand to result
    Dataflow dataflow = Dataflow::WeightStationary;
    std::int64_t precision_bits = 8;     ///< operand precision (weights and activations)
    std::int64_t accumulator_bits = 24;  ///< partial-sum precision in the accumulation buffer
    double technology_nm = 16;

    // --- buffers ---
    SramBuffer weight_buffer{32768, 1, 0, 0};       ///< per PE
    SramBuffer input_buffer{8192, 1, 0, 0};         ///< per PE
    SramBuffer accumulation_buffer{3072, 1, 0, 0};  ///< per PE
    /// Global buffer ports (its capacity is global_buffer_bytes).
    std::int64_t global_buffer_banks = 1, global_buffer_width_bits = 0;
    double global_buffer_access_energy_pj = 0;
    /// Energy per 64-bit access by array size at this chiplet's node; empty = the CACTI 7
    /// table (docs/references.md#cacti7) scaled to technology_nm.
    std::vector<SramEnergyPoint> sram_energy_table;

    // --- everything else ---
    double leakage_mw = 0;                ///< static power of the chiplet while the run lasts
    std::int64_t vector_lanes = 16;       ///< element-wise operations per cycle
    double vector_op_energy_pj = 0.0143;  ///< per element-wise operation

    std::int64_t macs_per_cycle() const { return pes * macs_per_pe; }
    double peak_macs_per_ns() const { return static_cast<double>(macs_per_cycle()) * clock_ghz; }
    std::int64_t rows() const { return array_rows > 0 ? array_rows : macs_per_pe; }
    std::int64_t cols() const { return array_cols > 0 ? array_cols : 1; }
    std::int64_t element_bytes() const { return (precision_bits + 7) / 8; }
    std::int64_t accumulator_bytes() const { return (accumulator_bits + 7) / 8; }
    /// The global buffer as an SramBuffer (capacity global_buffer_bytes).
    SramBuffer global_buffer() const {
        return SramBuffer{global_buffer_bytes, global_buffer_banks, global_buffer_width_bits, global_buffer_access_energy_pj};
    }
};

/// Reads a chiplet preset or override object into `c` (absent fields keep their value).
/// An object that sets precision_bits or technology_nm without mac_energy_pj (or
/// vector_op_energy_pj) gets those energies re-derived from the Horowitz figures.
void read_chiplet_fields(JsonObject& o, ChipletConfig& c);
/// Every field; buffer energies left at 0 (derived) are written as derived, so that the dump
/// shows the numbers the model uses and reloads to the same behaviour.
nlohmann::json chiplet_to_json(const ChipletConfig& c);

}  // namespace mcmsim
