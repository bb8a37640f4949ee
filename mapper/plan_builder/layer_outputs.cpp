#include "mapper/plan_builder/layer_outputs.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

namespace {

std::int64_t piece_bytes(const WorkBox& b, const Layer& L) {
    return b.n.size() * b.k.size() * b.p.size() * b.q.size() * L.bytes_per_element;
}

}  // namespace

void spill_outputs(OutputSpill& spill, OpSink& sink, PlanLayer& layer, const Layer& L, int step, const OwnedPieces& owned,
                   PlanLayerMapping& info) {
    std::vector<std::int64_t> bytes, ready;
    for (int c = 0; c < owned.size(); ++c) {
        bytes.clear(), ready.clear();
        for (const OwnedPiece& piece : owned[c]) {
            bytes.push_back(piece_bytes(piece.box, L));
            ready.push_back(piece.ready);
        }
        if (bytes.empty() || !spill.hold_or_write(sink, layer, step, c, bytes, ready)) continue;
        for (std::int64_t b : bytes) info.spilled_bytes += b;
        ++info.spilled_producers;
    }
}

void write_network_outputs(const OutputSpill& spill, OpSink& sink, const ChipletMemories& memories, PlanLayer& layer,
                           const Layer& L, int step, const OwnedPieces& owned) {
    for (int c = 0; c < owned.size(); ++c) {
        if (spill.spilled(step, c)) continue;  // the spill wrote the slice already
        for (const OwnedPiece& piece : owned[c]) {
            const std::int64_t bytes = piece_bytes(piece.box, L);
            const int m = memories.home(c);
            PlanOp& out = sink.add_op(layer, c, OpKind::DramWrite, {piece.ready});
            out.bytes = bytes, out.memory = m, out.address = sink.dram_address(m, bytes);
        }
    }
}

}  // namespace mcmsim
