#include "hw/compute/pe_array_model.h"

#include "hw/common/integer_math.h"

#include <algorithm>
#include <cmath>

namespace mcmsim {

namespace {

/// Demand of `bytes_per_step` on buffer `b`, as a slowdown factor (1 = keeps up).
double demand_ratio(const SramBuffer& b, std::int64_t bytes_per_step) {
    if (b.width_bits <= 0) return 1.0;  // port sized to the array's needs
    const double supply = static_cast<double>(b.banks * b.width_bits / 8);
    return std::max(1.0, static_cast<double>(bytes_per_step) / supply);
}

}  // namespace

std::int64_t tile_pixels(const TileShape& s) { return s.n * s.p * s.q; }
std::int64_t tile_reduction(const TileShape& s) { return s.c * s.r * s.s; }
std::int64_t tile_input_elements(const TileShape& s) {
    const std::int64_t h = (s.p - 1) * s.stride + s.r, w = (s.q - 1) * s.stride + s.s;
    return s.n * s.c * h * w;
}

std::int64_t fill_drain_cycles(const ChipletConfig& chip) {
    if (chip.array_kind != ArrayKind::Systolic) return chip.pipeline_cycles;
    const std::int64_t skew = chip.rows() + chip.cols() - 2;
    // Weight and input stationary shift their stationary operand in one row per cycle before
    // the streamed operand's skewed wavefront crosses the array; output stationary has nothing
    // to shift in, and its finished outputs leave while the next pass's operands enter.
    return chip.dataflow == Dataflow::OutputStationary ? skew : chip.rows() + skew;
}

std::int64_t max_steps_per_pass(const ChipletConfig& chip) {
    if (chip.dataflow == Dataflow::OutputStationary) return 0;
    // Each step produces one partial sum per column.
    const std::int64_t per_step = chip.cols() * chip.accumulator_bytes();
    return std::max<std::int64_t>(1, chip.accumulation_buffer.bytes / per_step);
}

double stream_stall(const ChipletConfig& chip) {
    const std::int64_t e = chip.element_bytes(), a = chip.accumulator_bytes();
    const std::int64_t rows = chip.rows(), cols = chip.cols();
    // Per step: one operand per row from the buffer feeding the rows; per column either one
    // operand (OS weights) or a partial-sum read and write (WS, IS accumulation).
    switch (chip.dataflow) {
        case Dataflow::WeightStationary:
            return std::max(demand_ratio(chip.input_buffer, rows * e), demand_ratio(chip.accumulation_buffer, 2 * cols * a));
        case Dataflow::OutputStationary:
            return std::max(demand_ratio(chip.input_buffer, rows * e), demand_ratio(chip.weight_buffer, cols * e));
        case Dataflow::InputStationary:
            return std::max(demand_ratio(chip.weight_buffer, rows * e), demand_ratio(chip.accumulation_buffer, 2 * cols * a));
    }
    return 1.0;
}

std::int64_t stationary_load_cycles(const ChipletConfig& chip) {
    const SramBuffer* from = nullptr;
    if (chip.dataflow == Dataflow::WeightStationary) from = &chip.weight_buffer;
    if (chip.dataflow == Dataflow::InputStationary) from = &chip.input_buffer;
    if (!from || from->width_bits <= 0) return 0;
    const std::int64_t bytes = chip.rows() * chip.cols() * chip.element_bytes();
    return ceil_div(bytes, from->banks * from->width_bits / 8);
}

ArrayMapping map_to_array(const ChipletConfig& chip, const TileShape& s) {
    ArrayMapping m;
    const std::int64_t red = tile_reduction(s), pix = tile_pixels(s);
    switch (chip.dataflow) {
        case Dataflow::WeightStationary:
            m.rows_dim = red, m.cols_dim = s.k, m.stream_dim = pix;
            break;
        case Dataflow::OutputStationary:
            m.rows_dim = pix, m.cols_dim = s.k, m.stream_dim = red;
            break;
        case Dataflow::InputStationary:
            m.rows_dim = red, m.cols_dim = pix, m.stream_dim = s.k;
            break;
    }
    m.row_folds = ceil_div(m.rows_dim, chip.rows());
    m.col_folds = ceil_div(m.cols_dim, chip.cols());
    const std::int64_t folds = m.row_folds * m.col_folds;
    const std::int64_t max_steps = max_steps_per_pass(chip);
    const std::int64_t for_accumulators = max_steps > 0 ? ceil_div(m.stream_dim, max_steps) : 1;
    const std::int64_t for_idle_pes = std::min(m.stream_dim, chip.pes / folds);
    m.chunks = std::max(for_accumulators, for_idle_pes);
    m.steps = ceil_div(m.stream_dim, m.chunks);
    m.passes = folds * m.chunks;
    m.rounds = ceil_div(m.passes, chip.pes);
    m.fill_drain = fill_drain_cycles(chip);
    m.stall = stream_stall(chip);
    m.stationary_load = stationary_load_cycles(chip);
    const std::int64_t streaming = static_cast<std::int64_t>(std::ceil(static_cast<double>(m.steps) * m.stall - 1e-9));
    m.pass_cycles = std::max(m.fill_drain + streaming, m.stationary_load);
    m.cycles = m.rounds * m.pass_cycles;
    return m;
}

}  // namespace mcmsim
