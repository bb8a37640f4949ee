#pragma once
// Cycle-approximate timing of one convolution / GEMM tile on a chiplet's PE array.
//
// The tile's loops are N,K,C,P,Q,R,S. The reduction RED = C·R·S (im2col: the filter taps are
// unrolled with the channels), the output pixels PIX = N·P·Q and the output channels K are
// mapped by the dataflow:
//   weight stationary  rows <- RED, cols <- K,   streamed <- PIX
//   output stationary  rows <- PIX, cols <- K,   streamed <- RED
//   input stationary   rows <- RED, cols <- PIX, streamed <- K
// A pass holds one row fold x one column fold of the stationary operand and streams a chunk
// of the streamed dimension through it:
//   row_folds = ceil(rows_dim / R), col_folds = ceil(cols_dim / C)   (R x C MACs per PE)
// Partial folds use only part of the array but cost a whole pass: that is the utilisation
// lost to shapes that do not divide the array.
//   chunks: the streamed dimension is cut when the accumulation buffer cannot hold the partial
//     sums of a whole pass (WS, IS: steps <= acc_bytes / (C · accumulator bytes)), and cut
//     further to give idle PEs work when there are fewer folds than PEs:
//     chunks = max(ceil(streamed / max_steps), min(streamed, floor(pes / (row_folds·col_folds))))
//   steps = ceil(streamed / chunks)
//   pass  = max(fill_drain + ceil(steps · stall), stationary_load)
//     fill_drain, systolic: the streamed operand enters skewed, row i and column j one cycle
//       later each, so the last PE starts R - 1 + C - 1 cycles after the first. WS and IS
//       first shift the stationary operand in, one row per cycle (R): 2R + C - 2, SCALE-Sim's
//       fold time without its T (Samajdar et al. ISPASS'20). OS has no stationary operand and
//       drains its outputs while the next pass fills: R + C - 2. Vector: pipeline_cycles.
//     stall = max(1, bytes a PE buffer must deliver per step / bytes its banks deliver per cycle)
//     stationary_load = ceil(R·C·e / bytes per cycle of the stationary operand's buffer): the
//       next pass's weights (WS) or inputs (IS) load while this pass runs (double-buffered),
//       so a pass lasts at least as long as that load (OS: 0)
//   passes = row_folds · col_folds · chunks, spread over the PEs: rounds = ceil(passes / pes)
//   cycles = rounds · pass
// More PEs never make a tile slower: rounds cannot grow and a pass does not depend on pes.
// Pure C++.
#include "hw/compute/compute_work.h"
#include "hw/config/chiplet_config.h"

#include <cstdint>

namespace mcmsim {

struct ArrayMapping {
    std::int64_t rows_dim = 0, cols_dim = 0, stream_dim = 0;  ///< loop extents by role
    std::int64_t row_folds = 0, col_folds = 0;
    std::int64_t chunks = 0;           ///< pieces of the streamed dimension
    std::int64_t steps = 0;            ///< streamed steps per pass
    std::int64_t passes = 0;           ///< row_folds · col_folds · chunks
    std::int64_t rounds = 0;           ///< ceil(passes / pes)
    std::int64_t fill_drain = 0;       ///< cycles per pass on top of the streamed steps
    double stall = 1;                  ///< steady-state slowdown from buffer bandwidth (>= 1)
    std::int64_t stationary_load = 0;  ///< cycles to load one pass's stationary operand
    std::int64_t pass_cycles = 0;
    std::int64_t cycles = 0;
};

/// Output pixels, reduction length and input footprint of a tile.
std::int64_t tile_pixels(const TileShape& s);     ///< N·P·Q
std::int64_t tile_reduction(const TileShape& s);  ///< C·R·S
/// Input elements the tile reads: N·C·((P-1)·stride + R)·((Q-1)·stride + S).
std::int64_t tile_input_elements(const TileShape& s);

/// Fill/drain cycles of one pass: systolic 2R + C - 2 (WS, IS) or R + C - 2 (OS), vector
/// pipeline_cycles.
std::int64_t fill_drain_cycles(const ChipletConfig& chip);

/// Longest chunk of the streamed dimension whose partial sums fit the accumulation buffer
/// (WS and IS); output stationary keeps partial sums in the PEs: no limit (returns 0).
std::int64_t max_steps_per_pass(const ChipletConfig& chip);

/// Bandwidth slowdown of the streamed steps: the worst ratio of a PE buffer's demand per
/// step to what its banks deliver per cycle, at least 1.
double stream_stall(const ChipletConfig& chip);

/// Cycles to read one pass's stationary tile (R·C elements) from its buffer; 0 for output
/// stationary and for ports as wide as the array needs.
std::int64_t stationary_load_cycles(const ChipletConfig& chip);

/// The mapping and cycle count of a non-empty shape.
ArrayMapping map_to_array(const ChipletConfig& chip, const TileShape& shape);

}  // namespace mcmsim
