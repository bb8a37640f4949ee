#include "hw/compute/tiling.h"

#include "hw/common/integer_math.h"
#include "hw/compute/pe_array_model.h"

#include <algorithm>

namespace mcmsim {

namespace {

DramTiling weights_resident(const DramTiling& base, const TileShape& s, std::int64_t filter_bytes, std::int64_t wcap,
                            std::int64_t icap) {
    DramTiling t = base;
    t.schedule = TileSchedule::WeightsResident;
    const std::int64_t kb = wcap / std::max<std::int64_t>(1, filter_bytes);
    const std::int64_t chunks = kb > 0 ? ceil_div(s.k, kb) : ceil_div(t.weight_bytes, wcap);
    t.weight_reads = 1;
    t.input_read_bytes = t.input_bytes * (t.input_bytes <= icap ? 1 : chunks);
    t.dram_read_bytes = t.weight_bytes + t.input_read_bytes;
    return t;
}

/// Returns false when one output row's input window does not fit the global buffer.
bool inputs_resident(const DramTiling& base, const TileShape& s, std::int64_t e, std::int64_t wcap, std::int64_t icap,
                     DramTiling& t) {
    const std::int64_t win = (s.q - 1) * s.stride + s.s;
    const std::int64_t row_bytes = std::max<std::int64_t>(1, s.n * s.c * win * e);  // one input row across the window width
    // window(pb) = ((pb-1)·stride + R) · row_bytes <= icap
    const std::int64_t rows_fit = icap / row_bytes;
    if (rows_fit < s.r) return false;
    const std::int64_t pb = std::min(s.p, (rows_fit - s.r) / s.stride + 1);
    const std::int64_t chunks = ceil_div(s.p, pb);
    t = base;
    t.schedule = TileSchedule::InputsResident;
    // A stride larger than the filter skips input rows between windows: never count fewer
    // bytes than one read of the footprint.
    t.input_read_bytes = std::max(t.input_bytes, chunks * ((pb - 1) * s.stride + s.r) * row_bytes);
    t.weight_reads = t.weight_bytes <= wcap ? 1 : chunks;
    t.dram_read_bytes = t.weight_bytes * t.weight_reads + t.input_read_bytes;
    return true;
}

}  // namespace

const char* to_string(TileSchedule s) {
    switch (s) {
        case TileSchedule::FitsOnChip:
            return "fits_on_chip";
        case TileSchedule::WeightsResident:
            return "weights_resident";
        case TileSchedule::InputsResident:
            return "inputs_resident";
    }
    return "?";
}

DramTiling tile_for_dram(const ChipletConfig& chip, const TileShape& s) {
    const std::int64_t e = chip.element_bytes();
    DramTiling base;
    base.weight_bytes = s.k * tile_reduction(s) * e;
    base.input_bytes = tile_input_elements(s) * e;
    base.input_read_bytes = base.input_bytes;
    base.dram_read_bytes = base.weight_bytes + base.input_bytes;
    const std::int64_t wcap = chip.pes * chip.weight_buffer.bytes, icap = chip.global_buffer_bytes;
    if (base.weight_bytes <= wcap && base.input_bytes <= icap) return base;

    DramTiling best = weights_resident(base, s, tile_reduction(s) * e, wcap, icap);
    DramTiling alt;
    if (inputs_resident(base, s, e, wcap, icap, alt) && alt.dram_read_bytes < best.dram_read_bytes) best = alt;
    return best;
}

}  // namespace mcmsim
