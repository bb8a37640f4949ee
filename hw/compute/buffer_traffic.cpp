#include "hw/compute/buffer_traffic.h"

#include "hw/common/integer_math.h"
#include "hw/compute/sram_energy.h"

namespace mcmsim {

namespace {

/// Array-side reads and how many times the inputs are streamed again, by dataflow.
struct ArraySide {
    std::int64_t weight_reads = 0, input_reads = 0;  ///< elements
    std::int64_t partial_sums = 1;                   ///< pieces per output
    std::int64_t input_restreams = 1;
};

ArraySide array_side(const ChipletConfig& chip, const TileShape& s, const ArrayMapping& m) {
    const std::int64_t red = tile_reduction(s), pix = tile_pixels(s);
    ArraySide a;
    switch (chip.dataflow) {
        case Dataflow::WeightStationary:
            a.weight_reads = red * s.k * m.chunks;
            a.input_reads = red * pix * m.col_folds;
            a.partial_sums = m.row_folds;
            a.input_restreams = m.col_folds;
            break;
        case Dataflow::OutputStationary:
            a.input_reads = pix * red * m.col_folds;
            a.weight_reads = s.k * red * m.row_folds;
            a.partial_sums = m.chunks;
            a.input_restreams = m.col_folds;
            break;
        case Dataflow::InputStationary:
            a.input_reads = red * pix * m.chunks;
            a.weight_reads = red * s.k * m.col_folds;
            a.partial_sums = m.row_folds;
            a.input_restreams = m.chunks;
            break;
    }
    return a;
}

}  // namespace

const char* to_string(BufferKind b) {
    switch (b) {
        case BufferKind::Weight:
            return "weight";
        case BufferKind::Input:
            return "input";
        case BufferKind::Accumulation:
            return "accumulation";
        case BufferKind::Global:
            return "global";
    }
    return "?";
}

SramBuffer buffer_config(const ChipletConfig& chip, BufferKind b) {
    switch (b) {
        case BufferKind::Weight:
            return chip.weight_buffer;
        case BufferKind::Input:
            return chip.input_buffer;
        case BufferKind::Accumulation:
            return chip.accumulation_buffer;
        case BufferKind::Global:
            return chip.global_buffer();
    }
    return {};
}

BufferTrafficSet buffer_traffic(const ChipletConfig& chip, const TileShape& s, const ArrayMapping& m, const DramTiling& dram) {
    const std::int64_t e = chip.element_bytes(), acc = chip.accumulator_bytes();
    const std::int64_t outputs = s.k * tile_pixels(s);
    const ArraySide a = array_side(chip, s, m);
    const bool inputs_fit_pes = dram.input_bytes <= chip.input_buffer.bytes * chip.pes;
    const std::int64_t input_fill = dram.input_bytes * (inputs_fit_pes ? 1 : a.input_restreams);

    BufferTrafficSet t;
    auto& w = t[static_cast<int>(BufferKind::Weight)];
    w.read_bytes = a.weight_reads * e;
    w.write_bytes = dram.weight_bytes * dram.weight_reads;
    auto& in = t[static_cast<int>(BufferKind::Input)];
    in.read_bytes = a.input_reads * e;
    in.write_bytes = input_fill;
    auto& ac = t[static_cast<int>(BufferKind::Accumulation)];
    ac.read_bytes = ac.write_bytes = outputs * a.partial_sums * acc;
    auto& g = t[static_cast<int>(BufferKind::Global)];
    g.read_bytes = input_fill + outputs * e;
    g.write_bytes = dram.input_read_bytes + outputs * e;

    for (int b = 0; b < kBufferKinds; ++b) {
        const SramBuffer cfg = buffer_config(chip, static_cast<BufferKind>(b));
        const std::int64_t port = sram_access_bytes(cfg);
        t[b].reads = ceil_div(t[b].read_bytes, port);
        t[b].writes = ceil_div(t[b].write_bytes, port);
        t[b].access_pj = sram_access_energy_pj(chip, cfg);
    }
    return t;
}

}  // namespace mcmsim
