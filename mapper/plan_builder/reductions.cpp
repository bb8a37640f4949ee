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
        std::vector<int> members(group.begin(), group.end());
        std::vector<std::int64_t> own;
        for (int member : group) own.push_back(compute[member]);
        for (int j = 0; j < group.size(); ++j) {
            int owner = group[j];
            Range k{b.k.lo + slices[j].lo, b.k.lo + slices[j].hi};
            if (k.empty()) continue;
            batch_.reduce(owner, members, plane * k.size() * partial_sum_bytes_, own,
                          1.0 / static_cast<double>(partial_sum_bytes_),
                          "reduce k[" + std::to_string(k.lo) + ":" + std::to_string(k.hi) + ")");
            info.onchip_bytes += plane * k.size() * partial_sum_bytes_;  // the owner's own partial sums
            WorkBox piece = b;
            piece.k = k;
            sums.push_back(Slice{owner, piece});
        }
    }
    ChipletDeps& recv = recv_;
    recv.resize(n_);
    for (auto& r : recv) r.clear();
    batch_.flush_into(layer, policy, sink_, recv);
    for (std::size_t i = 0; i < sums.size(); ++i) {
        const Slice& s = sums[i];
        const std::int64_t sum = batch_.reduced()[i];
        order.computed(s.owner, sum);
        owned[s.owner].push_back(OwnedPiece{s.piece, sum});
    }
}

}  // namespace mcmsim
