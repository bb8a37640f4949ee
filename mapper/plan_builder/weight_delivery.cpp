#include "mapper/plan_builder/weight_delivery.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace mcmsim {

std::int64_t weight_slice_bytes(const Layer& L, const WorkBox& b) {
    return L.weight_bytes() > 0 && !b.empty() ? b.k.size() * b.c.size() * L.r * L.s * L.bytes_per_element : 0;
}

WeightDelivery::WeightDelivery(const ArchConfig& arch, const Mapping& m, const PlanSteps& steps, const ChipletMemories& memories,
                               OpSink& sink, TransferBatch& batch, const IdVector<IdVector<std::int64_t>>& compute)
    : arch_(arch), m_(m), steps_(steps), memories_(memories), sink_(sink), batch_(batch), compute_(compute),
      rows_(arch.package.rows), cols_(arch.package.cols), n_(arch.chiplet_count()) {
    if (steps.pipelined()) plan_residency(m, steps);
}

/// Per segment: whether every chiplet's slices of all the segment's layers fit its weight
/// buffers together (judged on the first micro-batch's boxes: a later one splits the same
/// weights, an N split of a smaller last micro-batch fewer).
void WeightDelivery::plan_residency(const Mapping& m, const PlanSteps& steps) {
    const std::int64_t capacity = arch_.chiplet.pes * arch_.chiplet.weight_buffer.bytes;
    std::map<int, IdVector<std::int64_t>> held;                   // segment -> bytes per chiplet
    for (int s = 0; s < steps.size() && steps[s].mb == 0; ++s) {  // every layer once
        const LayerMapping& lm = m.layers[steps[s].layer];
        IdVector<std::int64_t>& bytes = held[lm.segment];
        bytes.resize(n_, 0);
        const Layer& L = *steps[s].L;
        const IdVector<WorkBox> boxes = boxes_on_package(L, lm, rows_, cols_);
        for (int c = 0; c < n_; ++c) bytes[c] += weight_slice_bytes(L, boxes[c]);
    }
    for (const auto& [segment, bytes] : held)
        resident_[segment] = std::all_of(bytes.begin(), bytes.end(), [&](std::int64_t b) { return b <= capacity; });
    weight_read_.assign(m.layers.size(), IdVector<std::int64_t>(n_, -1));
    weight_uses_.assign(n_, {});
    last_resident_read_.assign(n_, -1);
}

PlanOp& WeightDelivery::read_op(PlanLayer& layer, int c, std::int64_t bytes, std::vector<std::int64_t> deps) {
    const int m = memories_.home(c);
    PlanOp& wr = sink_.add_op(layer, c, OpKind::DramRead, std::move(deps));
    wr.bytes = bytes, wr.memory = m, wr.address = sink_.dram_address(m, bytes);
    return wr;
}

std::vector<std::int64_t> WeightDelivery::two_steps_back(int step, int c) const {
    std::vector<std::int64_t> deps;
    if (step >= 2 && compute_[step - 2][c] >= 0) deps.push_back(compute_[step - 2][c]);
    return deps;
}

void WeightDelivery::multicast(PlanLayer& layer, const Layer& L, const LayerMapping& lm, int step, const IdVector<WorkBox>& boxes,
                               ChipletDeps& deps, PlanLayerMapping& info) {
    multicast_.assign(n_, false);
    if (!lm.weight_multicast || steps_.pipelined() || L.weight_bytes() <= 0) return;
    std::map<std::array<std::int64_t, 4>, std::vector<int>> groups;  // ordered: a deterministic plan
    for (int c = 0; c < n_; ++c) {
        const WorkBox& b = boxes[c];
        if (!b.empty()) groups[{b.k.lo, b.k.hi, b.c.lo, b.c.hi}].push_back(c);
    }
    for (const auto& [slice, members] : groups) {
        if (members.size() < 2) continue;
        int leader = members.front(), best = std::numeric_limits<int>::max();
        for (int c : members) {
            const int h = memories_.hops(c, memories_.home(c));
            if (h < best) best = h, leader = c;
        }
        const std::int64_t bytes = weight_slice_bytes(L, boxes[leader]);
        const std::int64_t read = read_op(layer, leader, bytes, two_steps_back(step, leader)).id;
        deps[leader].push_back(read);
        dests_.clear();
        for (int c : members)
            if (c != leader) dests_.push_back(c);
        batch_.multicast(leader, dests_, bytes, {read});
        for (int c : members) multicast_[c] = true;
        ++info.weight_multicasts;
        info.weight_dram_bytes_saved += bytes * static_cast<std::int64_t>(dests_.size());
    }
    batch_.flush_into(layer, lm.route, sink_, deps);
}

void WeightDelivery::read(PlanLayer& layer, int step, int c, std::int64_t wbytes, std::int64_t refetch,
                          std::vector<std::int64_t>& d) {
    if (steps_.pipelined()) {
        pipelined(layer, step, c, wbytes, refetch, d);
        return;
    }
    // Multicast weights came with the group reader's read instead.
    const std::int64_t bytes = (multicast_[c] ? 0 : wbytes) + refetch;
    if (bytes > 0) d.push_back(read_op(layer, c, bytes, two_steps_back(step, c)).id);
}

void WeightDelivery::pipelined(PlanLayer& layer, int step, int c, std::int64_t wbytes, std::int64_t refetch,
                               std::vector<std::int64_t>& d) {
    const std::size_t l = steps_[step].layer;
    std::int64_t streamed = refetch;  // re-tiling reads follow the micro-batch
    if (resident_.at(m_.layers[l].segment)) {
        std::int64_t& read = weight_read_[l][c];
        if (read < 0 && wbytes > 0) {
            // In the order the layers use them: the first layer's weights do not queue at
            // the memory behind the whole segment's.
            std::int64_t& previous = last_resident_read_[c];
            read = previous =
                read_op(layer, c, wbytes, previous >= 0 ? std::vector<std::int64_t>{previous} : std::vector<std::int64_t>{}).id;
        }
        if (read >= 0) d.push_back(read);
    } else {
        streamed += wbytes;
    }
    if (streamed <= 0) return;
    const std::vector<std::int64_t>& uses = weight_uses_[c];
    std::vector<std::int64_t> wdeps;
    if (uses.size() >= 2) wdeps.push_back(uses[uses.size() - 2]);
    d.push_back(read_op(layer, c, streamed, std::move(wdeps)).id);
    streamed_read_ = true;
}

void WeightDelivery::used_by(int c, std::int64_t id) {
    if (streamed_read_) weight_uses_[c].push_back(id);
    streamed_read_ = false;
}

}  // namespace mcmsim
