#include "mapper/plan_builder/reductions.h"

#include <string>
#include <utility>

namespace mcmsim {

Reductions::Reductions(OpSink& sink, TransferBatch& batch, int chiplets, std::int64_t partial_sum_bytes)
    : sink_(sink), batch_(batch), n_(chiplets), partial_sum_bytes_(partial_sum_bytes) {}

void Reductions::reduce(PlanLayer& layer, const IdVector<WorkBox>& boxes, const IdVector<std::int64_t>& compute,
                        RoutePolicy policy, OwnedPieces& owned, PlanLayerMapping& info, MicroBatchOrder& order) {
    owned.assign(n_, {});
    IdVector<bool> done(n_, false);
    std::vector<Slice> sums;  // made after the transfers, which they wait for
    for (int c = 0; c < n_; ++c) {
        const WorkBox& b = boxes[c];
        if (b.empty() || done[c]) continue;
        IdVector<int>& group = group_;  // [member]
        group.clear();
        for (int o = c; o < n_; ++o)
            if (!boxes[o].empty() && boxes[o].same_output(b)) {
                group.push_back(o);
                done[o] = true;
            }
        if (group.size() == 1) {
            owned[c].push_back(OwnedPiece{b, compute[c]});
            continue;
        }
        const IdVector<Range> slices = split_range(b.k.size(), group.size(), {});  // [member]
        const std::int64_t plane = b.n.size() * b.p.size() * b.q.size();
        for (int j = 0; j < group.size(); ++j) {
            int owner = group[j];
            Range k{b.k.lo + slices[j].lo, b.k.lo + slices[j].hi};
            if (k.empty()) continue;
            for (int member : group)
                if (member != owner) batch_.transfer(member, owner, plane * k.size() * partial_sum_bytes_, {compute[member]});
            info.onchip_bytes += plane * k.size() * partial_sum_bytes_;  // the owner's own partial sums
            WorkBox piece = b;
            piece.k = k;
            sums.push_back(Slice{owner, piece, group.size(), plane});
        }
    }
    ChipletDeps& recv = recv_;
    recv.resize(n_);
    for (auto& r : recv) r.clear();
    batch_.flush_into(layer, policy, sink_, recv);
    for (const Slice& s : sums) {
        std::vector<std::int64_t> deps = recv[s.owner];
        deps.push_back(compute[s.owner]);
        const std::int64_t k = s.piece.k.size();
        PlanOp& sum = sink_.add_op(layer, s.owner, OpKind::Compute, std::move(deps));
        sum.vector_ops = (s.members - 1) * s.plane * k;
        sum.sram_bytes = s.members * s.plane * k * partial_sum_bytes_;
        sum.tile = "reduce k[" + std::to_string(s.piece.k.lo) + ":" + std::to_string(s.piece.k.hi) + ")";
        order.computed(s.owner, sum.id);
        owned[s.owner].push_back(OwnedPiece{s.piece, sum.id});
    }
}

}  // namespace mcmsim
