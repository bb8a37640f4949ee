#include "mapper/plan_builder/reductions.h"

#include <string>
#include <utility>

namespace mcmsim {

Reductions::Reductions(OpSink& sink, TransferBatch& batch, int chiplets, std::int64_t partial_sum_bytes)
    : sink_(sink), batch_(batch), n_(chiplets), partial_sum_bytes_(partial_sum_bytes) {}

void Reductions::reduce(PlanLayer& layer, const std::vector<WorkBox>& boxes, const std::vector<std::int64_t>& compute,
                        RoutePolicy policy, std::vector<std::vector<OwnedPiece>>& owned, PlanLayerMapping& info,
                        MicroBatchOrder& order) {
    owned.assign(static_cast<std::size_t>(n_), {});
    std::vector<bool> done(static_cast<std::size_t>(n_), false);
    std::vector<Slice> sums;  // made after the transfers, which they wait for
    for (int c = 0; c < n_; ++c) {
        const WorkBox& b = boxes[static_cast<std::size_t>(c)];
        if (b.empty() || done[static_cast<std::size_t>(c)]) continue;
        std::vector<int>& group = group_;
        group.clear();
        for (int o = c; o < n_; ++o)
            if (!boxes[static_cast<std::size_t>(o)].empty() && boxes[static_cast<std::size_t>(o)].same_output(b)) {
                group.push_back(o);
                done[static_cast<std::size_t>(o)] = true;
            }
        if (group.size() == 1) {
            owned[static_cast<std::size_t>(c)].push_back(OwnedPiece{b, compute[static_cast<std::size_t>(c)]});
            continue;
        }
        auto slices = split_range(b.k.size(), static_cast<int>(group.size()), {});
        const std::int64_t plane = b.n.size() * b.p.size() * b.q.size();
        for (std::size_t j = 0; j < group.size(); ++j) {
            int owner = group[j];
            Range k{b.k.lo + slices[j].lo, b.k.lo + slices[j].hi};
            if (k.empty()) continue;
            for (int member : group)
                if (member != owner)
                    batch_.transfer(member, owner, plane * k.size() * partial_sum_bytes_, {compute[static_cast<std::size_t>(member)]});
            info.onchip_bytes += plane * k.size() * partial_sum_bytes_;  // the owner's own partial sums
            WorkBox piece = b;
            piece.k = k;
            sums.push_back(Slice{owner, piece, static_cast<std::int64_t>(group.size()), plane});
        }
    }
    std::vector<std::vector<std::int64_t>>& recv = recv_;
    recv.resize(static_cast<std::size_t>(n_));
    for (auto& r : recv) r.clear();
    batch_.flush_into(layer, policy, sink_, recv);
    for (const Slice& s : sums) {
        std::vector<std::int64_t> deps = recv[static_cast<std::size_t>(s.owner)];
        deps.push_back(compute[static_cast<std::size_t>(s.owner)]);
        const std::int64_t k = s.piece.k.size();
        PlanOp& sum = sink_.add_op(layer, s.owner, OpKind::Compute, std::move(deps));
        sum.vector_ops = (s.members - 1) * s.plane * k;
        sum.sram_bytes = s.members * s.plane * k * partial_sum_bytes_;
        sum.tile = "reduce k[" + std::to_string(s.piece.k.lo) + ":" + std::to_string(s.piece.k.hi) + ")";
        order.computed(s.owner, sum.id);
        owned[static_cast<std::size_t>(s.owner)].push_back(OwnedPiece{s.piece, sum.id});
    }
}

}  // namespace mcmsim
