// The transfer batch's reductions: partial sums summed on their way to the owner along the
// layer's collective's trees, run backwards (a reduce-scatter is an all-gather reversed in
// time, as TACOS synthesises it). A broadcast tree from the owner, every hop reversed and
// its stage mirrored, sends each chiplet's partial sums to its parent once its children's
// have arrived and been added to them; every member's partial sums are added exactly once,
// at its parent, so a reduction of m members adds (m - 1) x its elements in all, as the direct
// one does at the owner alone.
#include "mapper/plan_builder/transfer_batch.h"

#include <algorithm>
#include <cmath>

namespace mcmsim {

void TransferBatch::reduce(int owner, const std::vector<int>& members, std::int64_t bytes, const std::vector<std::int64_t>& own,
                           double adds_per_byte, const std::string& tile) {
    Reduction r{owner, members, bytes, {}, adds_per_byte, tile};
    if (own.empty()) r.own.assign(members.size(), {0, 0});  // the partial sums are there already
    for (std::int64_t id : own) {
        std::size_t n = 0;
        const std::size_t at = add_deps(id, n);
        r.own.emplace_back(at, n);
    }
    if (collective_ == Collective::Synth) {
        deferred_reductions_.push_back(std::move(r));
        return;
    }
    if (collective_ == Collective::Themis) {
        themis_reductions_.push_back(std::move(r));
        return;
    }
    std::vector<int> others;
    for (int m : members)
        if (m != owner) others.push_back(m);
    const int ri = static_cast<int>(reductions_.size());
    reductions_.push_back(std::move(r));
    const std::vector<CollectiveHop> hops = collectives_.hops(collective_, rows_, cols_, group_, owner, others);
    int last = 0;
    for (const CollectiveHop& h : hops) last = std::max(last, h.depth);
    add_reduce_hops(ri, hops, bytes, last);
}

std::pair<std::size_t, std::size_t> TransferBatch::own_deps(int r, int chiplet) const {
    const Reduction& red = reductions_[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < red.members.size(); ++i)
        if (red.members[i] == chiplet) return red.own[i];
    return {0, 0};
}

void TransferBatch::add_reduce_hops(int r, const std::vector<CollectiveHop>& hops, std::int64_t bytes, int last_depth) {
    const int tree = trees_++;
    for (const CollectiveHop& h : hops) {
        Pending p{h.to, h.from, bytes};
        p.depth = last_depth - h.depth;
        p.relays = true;  // its recv is what the receiver adds (or, on the owner, sums last)
        p.consumed = false;
        p.reduction = r;
        p.tree = tree;
        std::tie(p.deps_at, p.deps_n) = own_deps(r, h.to);
        pending_.push_back(p);
    }
}

void TransferBatch::prepare_reduce_hops(PlanLayer& layer, OpSink& sink, int depth) {
    FlushScratch& sc = scratch_;
    for (std::size_t k = sc.stage_first[depth]; k < sc.stage_first[depth + 1]; ++k) {
        Pending& p = pending_[sc.by_stage[k]];
        if (p.tree < 0) continue;
        const std::vector<std::size_t>& inputs = sc.tree_inputs[static_cast<std::size_t>(p.tree) * n_ + p.from];
        if (inputs.empty()) continue;  // a leaf sends its own partial sums
        const Reduction& r = reductions_[static_cast<std::size_t>(p.reduction)];
        const bool member = std::find(r.members.begin(), r.members.end(), p.from) != r.members.end();
        std::vector<std::int64_t> deps(deps_.begin() + static_cast<std::ptrdiff_t>(p.deps_at),
                                       deps_.begin() + static_cast<std::ptrdiff_t>(p.deps_at + p.deps_n));
        for (std::size_t q : inputs) deps.push_back(sc.relay_recv[q]);
        const std::int64_t sums = static_cast<std::int64_t>(inputs.size()) + (member ? 1 : 0);
        if (sums > 1) {
            // Its children's partial sums added into its own (or into the first child's).
            PlanOp& add = sink.add_op(layer, p.from, OpKind::Compute, std::move(deps));
            add.vector_ops = std::llround(static_cast<double>((sums - 1) * p.bytes) * r.adds_per_byte);
            add.sram_bytes = sums * p.bytes;
            add.tile = r.tile + " relay";
            p.deps_at = add_deps(add.id, p.deps_n);
        } else {
            p.deps_at = add_deps(deps, p.deps_n);
        }
    }
}

void TransferBatch::finish_reductions(PlanLayer& layer, OpSink& sink) {
    FlushScratch& sc = scratch_;
    std::vector<std::vector<std::size_t>> into(reductions_.size());  // [reduction] hops into its owner
    for (std::size_t i = 0; i < pending_.size(); ++i) {
        const Pending& p = pending_[i];
        if (p.reduction >= 0 && p.to == reductions_[static_cast<std::size_t>(p.reduction)].owner)
            into[static_cast<std::size_t>(p.reduction)].push_back(i);
    }
    for (std::size_t ri = 0; ri < reductions_.size(); ++ri) {
        const Reduction& r = reductions_[ri];
        const auto [at, n] = own_deps(static_cast<int>(ri), r.owner);
        std::vector<std::int64_t> deps(deps_.begin() + static_cast<std::ptrdiff_t>(at),
                                       deps_.begin() + static_cast<std::ptrdiff_t>(at + n));
        std::int64_t incoming = 0;
        for (std::size_t q : into[ri]) {
            deps.push_back(sc.relay_recv[q]);
            incoming += pending_[q].bytes;
        }
        PlanOp& sum = sink.add_op(layer, r.owner, OpKind::Compute, std::move(deps));
        sum.vector_ops = std::llround(static_cast<double>(incoming) * r.adds_per_byte);
        sum.sram_bytes = incoming + r.bytes;
        sum.tile = r.tile;
        reduced_.push_back(sum.id);
    }
    reductions_.clear();
    trees_ = 0;
}

}  // namespace mcmsim
