#pragma once
// DRAM-level re-tiling of a tile that does not fit the chiplet's buffers.
//
// Weights live in the PE weight buffers (capacity Wcap = pes x weight buffer), input
// activations in the global buffer (Icap = global_buffer_bytes). W = K·C·R·S and
// I = N·C·Hin·Win elements (Hin = (P-1)·stride + R, Win likewise) times the element size.
// If W <= Wcap and I <= Icap, everything is read once: W + I bytes. Otherwise the cheaper of
//   weights resident: K in chunks of kb = floor(Wcap / (C·R·S·e)) output channels
//     (nW = ceil(K / kb); ceil(W / Wcap) when not even one filter fits); the inputs are read
//     once per chunk unless they fit: W + I · (I <= Icap ? 1 : nW)
//   inputs resident: output rows in chunks of pb rows, the largest whose input window
//     N·C·((pb-1)·stride + R)·Win·e fits Icap (nI = ceil(P / pb)); every chunk reads its window
//     (halo rows again) and the weights unless they fit: nI·window(pb) + W · (W <= Wcap ? 1 : nI)
//     (not possible when one output row's window does not fit).
// dram_refetch_bytes = chosen traffic - (W + I): what re-tiling adds to one read of each.
// Smaller buffers never reduce the traffic: every count above grows as a capacity shrinks.
// Pure C++.
#include "hw/compute/compute_work.h"
#include "hw/config/chiplet_config.h"

#include <cstdint>

namespace mcmsim {

enum class TileSchedule { FitsOnChip, WeightsResident, InputsResident };
const char* to_string(TileSchedule s);

struct DramTiling {
    TileSchedule schedule = TileSchedule::FitsOnChip;
    std::int64_t weight_bytes = 0, input_bytes = 0;  ///< W and I: one read of each
    std::int64_t weight_reads = 1;                   ///< times the weights come from DRAM
    std::int64_t input_read_bytes = 0;               ///< input bytes read from DRAM (with refetch)
    std::int64_t dram_read_bytes = 0;                ///< weights x reads + input_read_bytes
    std::int64_t refetch_bytes() const { return dram_read_bytes - weight_bytes - input_bytes; }
};

DramTiling tile_for_dram(const ChipletConfig& chip, const TileShape& shape);

}  // namespace mcmsim
