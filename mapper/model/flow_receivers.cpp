#include "mapper/model/flow_receivers.h"

#include <algorithm>

namespace mcmsim {

void FlowReceivers::start(std::size_t dense_limit) {
    dense_limit_ = std::min<std::size_t>(dense_limit, kSparseBase);
    // As large as the last plan needed (within the bound): a reused table rarely grows again.
    table_.assign(std::min(table_.size(), dense_limit_), kNone);
    sparse_recv_.clear();
    sparse_slots_.clear();
    sparse_ids_.clear();
    sparse_ops_.clear();
}

void FlowReceivers::receive_past_table(std::int64_t flow, std::uint32_t op) {
    if (static_cast<std::uint64_t>(flow) < dense_limit_) {
        // Doubling, so that ids coming 0, 1, 2, ... cost amortised constant time.
        const auto id = static_cast<std::size_t>(flow);
        table_.resize(std::min(dense_limit_, std::max(id + 1, 2 * table_.size())), kNone);
        table_[id] = op;
    } else sparse_recv_.emplace(flow, op);  // a second recv leaves the first
}

std::uint32_t FlowReceivers::sparse_slot(std::int64_t flow) {
    auto [it, fresh] = sparse_slots_.try_emplace(flow, kSparseBase + static_cast<std::uint32_t>(sparse_ids_.size()));
    if (fresh) sparse_ids_.push_back(flow);
    return it->second;
}

void FlowReceivers::finish() {
    for (std::int64_t flow : sparse_ids_) {
        auto recv = sparse_recv_.find(flow);
        sparse_ops_.push_back(recv == sparse_recv_.end() ? kNone : recv->second);
    }
}

std::uint32_t FlowReceivers::recv_of_sparse(std::uint32_t slot) const {
    // A dense id past the table: no recv op ever grew the table to it.
    if (slot < kSparseBase) return kNone;
    return sparse_ops_[slot - kSparseBase];
}

std::int64_t FlowReceivers::flow_of(std::uint32_t slot) const {
    return slot < kSparseBase ? static_cast<std::int64_t>(slot) : sparse_ids_[slot - kSparseBase];
}

}  // namespace mcmsim
