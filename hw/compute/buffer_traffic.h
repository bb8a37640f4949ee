#pragma once
// Bytes read and written in each on-chip buffer by one tile, and the accesses they take.
//
// e = element bytes, a = accumulator bytes, RED = C·R·S, PIX = N·P·Q, OUT = K·PIX; folds and
// chunks from the array mapping (pe_array_model.h). Array side (what the MACs consume):
//   weight stationary  weights  e·RED·K·chunks     (re-loaded for every streamed chunk)
//                      inputs   e·RED·PIX·col_folds (streamed again for every column fold)
//   output stationary  inputs   e·PIX·RED·col_folds,  weights e·K·RED·row_folds
//   input stationary   inputs   e·RED·PIX·chunks,     weights e·RED·K·col_folds
//   accumulation       reads = writes = a·OUT·pieces, pieces = the partial sums each output
//                      gets (row_folds for WS and IS, chunks for OS): read-modify-write plus
//                      the final read out
// Fills: weight buffers take the DRAM weight bytes (re-reads included); input buffers take
// the input footprint from the global buffer once if it fits all PE input buffers, else once
// per re-stream (col_folds for WS and OS, chunks for IS). The global buffer is written with
// the DRAM input bytes and the outputs (e·OUT) and read by the input fills and the outputs
// leaving. Multicast to several PEs counts as one read. Accesses = ceil(bytes / port bytes).
// Pure C++.
#include "hw/compute/pe_array_model.h"
#include "hw/compute/tiling.h"

#include <array>
#include <cstdint>

namespace mcmsim {

enum class BufferKind : int { Weight = 0, Input, Accumulation, Global };
constexpr int kBufferKinds = 4;
const char* to_string(BufferKind b);
/// The buffer's configuration (the global buffer's capacity is global_buffer_bytes).
SramBuffer buffer_config(const ChipletConfig& chip, BufferKind b);

struct BufferTraffic {
    std::int64_t read_bytes = 0, write_bytes = 0;
    std::int64_t reads = 0, writes = 0;  ///< accesses of the buffer's port
    double access_pj = 0;                ///< energy of one access
    double energy_pj() const { return static_cast<double>(reads + writes) * access_pj; }
};

using BufferTrafficSet = std::array<BufferTraffic, kBufferKinds>;

BufferTrafficSet buffer_traffic(const ChipletConfig& chip, const TileShape& shape, const ArrayMapping& m, const DramTiling& dram);

}  // namespace mcmsim
