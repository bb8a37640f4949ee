#include "traces/plan/plan_index.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mcmsim {

void KeyIndex::prepare(std::size_t count) {
    flat_.assign(count, 0);
    grow_limit_ = count;
    map_.clear();
}

void KeyIndex::prepare_growing(std::size_t limit) {
    flat_.clear();  // keeps its storage: growing again within it only zeroes
    grow_limit_ = limit;
    map_.clear();
}

void KeyIndex::too_many() { throw std::length_error("plan index: more than 2^32 - 2 ops"); }

bool KeyIndex::insert_slow(std::int64_t key, std::size_t value) {
    if (key >= 0 && static_cast<std::uint64_t>(key) < grow_limit_) {
        // Doubling, so that keys coming 0, 1, 2, ... cost amortised constant time.
        const auto k = static_cast<std::size_t>(key);
        flat_.resize(std::min(grow_limit_, std::max(k + 1, 2 * flat_.size())), 0);
        return insert(key, value);
    }
    encode(value);  // the same limit as the flat table
    return map_.emplace(key, value).second;
}

std::size_t KeyIndex::find_sparse(std::int64_t key) const {
    auto it = map_.find(key);
    return it == map_.end() ? kNone : it->second;
}

PlanIndex::PlanIndex(const Plan& plan) {
    // One pass over the ops (their transfer counts need no look at the transfers), then one
    // over the recv transfers: a plan's transfers are most of its memory.
    const std::size_t n = plan.op_count();
    ops.reserve(n);
    layer_of.reserve(n);
    std::size_t received = 0;
    for (std::size_t l = 0; l < plan.layers.size(); ++l)
        for (const PlanOp& op : plan.layers[l].ops) {
            ops.push_back(&op);
            layer_of.push_back(static_cast<int>(l));
            if (op.kind == OpKind::Send) transfers += op.transfer_count();
            if (op.kind == OpKind::Recv) received += op.transfer_count();
        }
    index_of_id_.prepare(n);
    recv_of_flow_.prepare(received);
    for (std::size_t i = 0; i < n; ++i) {
        const PlanOp& op = *ops[i];
        index_of_id_.insert(op.id, i);
        if (op.kind != OpKind::Recv) continue;
        if (op.transfers.empty()) recv_of_flow_.insert(op.flow, i);
        else
            for (const Transfer& t : op.transfers) recv_of_flow_.insert(t.flow, i);
    }
}

std::size_t PlanIndex::index(std::int64_t id) const {
    std::size_t i = index_of_id_.find(id);
    if (i == KeyIndex::kNone) throw std::out_of_range("plan index: no op " + std::to_string(id));
    return i;
}

}  // namespace mcmsim
